#pragma once
// Which engine runs a large operation: the CPU (FLINT, or cas's own transforms) or the CUDA engine.
// `auto` uses the GPU from a crossover length measured by `cas --calibrate`
// (saved in $XDG_CONFIG_HOME/cas/crossover.conf or ~/.config/cas/crossover.conf),
// per operation and kind of prime; `on` uses it for every size it supports;
// `off` never. Without a usable GPU every mode runs on the CPU (FLINT, and cas's own transforms).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cas {

enum class GpuMode { Auto, On, Off };

// The operations with a crossover of their own. FLINT's products modulo p < 2^32 are 2-3 times as
// fast as modulo 64-bit primes, and modulo p < 2^17 (the teaching primes 17, 257, 7681, 12289,
// 65537) twice as fast again: its products pack more coefficients a word. So the three
// operations over Z/pZ have a crossover for each of these sizes of p. A prime p of 2 to 16 words
// has the GPU's big-prime kernels (gpu/big_prime.hpp) for its transforms and products.
enum class GpuOperation {
  ProductNttPrime,    // product in Z/pZ[x], p prime with enough 2-adic roots: one NTT prime (p >= 2^32)
  ProductCrt,         // product in Z/pZ[x] for any other word-size p: several primes and CRT (p >= 2^32)
  Transform,          // fft/ifft of one vector (p >= 2^32)
  ProductZ,           // product in Z[x] (and Z/pZ[x] for p above 64 bits): primes, CRT (multimodular.hpp)
  ProductInteger,     // product of two integers as polynomials in 2^b; length: bits of the smaller factor
  ProductNttPrime32,  // the first three for 2^17 <= p < 2^32
  ProductCrt32,
  Transform32,
  ProductNttPrime17,  // the first three for p < 2^17
  ProductCrt17,
  Transform17,
  TransformBigPrime,  // fft, ifft, convolve, negaconvolve modulo a prime p of 2 to 16 words; length: n
  ProductBigPrime,    // product in Z/pZ[x] modulo such a p by the big-prime convolution, instead of
                      // ProductZ's primes or the CPU; length: the product's
};
constexpr size_t gpu_operation_count = 13;
// The operation's own crossover for the size of p: one of the last six when p < 2^32.
GpuOperation for_modulus(GpuOperation op, std::uint64_t p);
const char* gpu_operation_key(GpuOperation op);  // "product.ntt_prime", ...

// Unbalanced products on the CPU: FLINT's time grows with both lengths (about their product, for a
// short operand), the transforms' with the product's length alone, spread over every core. So a
// product whose shorter operand is short enough stays with FLINT whatever its length, with a
// limit per class of products:
enum class ShortOperandClass {
  NttPrime64,  // one transform modulo p, 2^62 <= p < 2^64 (slower arithmetic in the transforms)
  NttPrime62,  // one transform modulo p, 2^32 <= p < 2^62
  NttPrime32,  // one transform modulo p, 2^17 <= p < 2^32
  NttPrime17,  // one transform modulo p < 2^17
  Crt,         // two or three CRT primes, any word-size p
  Z,           // Z[x], and Z/pZ[x] for p above 64 bits
};
constexpr size_t short_operand_class_count = 6;
ShortOperandClass short_operand_class(bool one_transform, std::uint64_t p);
const char* short_operand_key(ShortOperandClass c);  // "cpu.short_operand.ntt_prime.64bit", ...
// Without a calibration, the limit is m * cores <= a constant per class (short_operand_default):
//   one transform modulo p < 2^17 / 2^32 / 2^62 / 2^64:  512 / 128 / 32 / 256
//   CRT primes, any word-size p:                         512
//   Z[x] (64-bit coefficients) and p above 64 bits:      31
// Each is the limit that makes the summed excess (chosen time / faster time - 1) least over the
// calibrations of a 2-core and a 16-core machine (long operand of 2^18 coefficients); a machine
// may lose up to 2x just above it, which `cas --calibrate` measures away. Through a transform
// m = 2 costs 2.2-11 times FLINT's time (modulo 2^64 - 59 on 16 cores: 44.6 against 4.2 ms):
// docs/measurements.md, "CPU products with a short operand: FLINT against the transforms".
size_t short_operand_default(ShortOperandClass c);  // the longest shorter operand kept with FLINT

// Algorithms on cas's products that replace a FLINT routine from a length of their own, so that
// their large products run on the CPU's transforms or the GPU; FLINT's routine below it. The length
// each counts:
enum class AlgorithmCrossover {
  MultipointTree,    // points: evaluation at many points and interpolation over Z/pZ by the subproduct tree
  HalfGcd,           // terms of the shorter operand: gcd and xgcd over Z/pZ by the half-gcd
  HalfGcdResultant,  // terms of the shorter operand: resultant and discriminant over Z/pZ by the half-gcd
  Roots,             // terms: roots over Z/pZ by splitting
  ZResultantPrimes,  // terms of the longer operand: resultant and discriminant in Z[x] through primes
  Factor,            // terms: factor over Z/pZ by its stages on cas's engines, word-size p >= 2^10
  FactorSmallP,      // the same for p < 2^10, where FLINT's products pack several residues a word
};
constexpr size_t algorithm_crossover_count = 7;
const char* algorithm_crossover_key(AlgorithmCrossover a);  // "algorithm.half_gcd", ...
// Without a calibration, each from the length that the measurement cited beside it placed:
constexpr size_t algorithm_crossover_default(AlgorithmCrossover a) {
  switch (a) {
    // Evaluation at many points and interpolation over Z/pZ (poly/multipoint.hpp) go through the
    // subproduct tree on cas's products from this many points, FLINT's own below (at 2^9 points 1.2
    // times as fast on two cores, at 2^8 even: docs/measurements.md, "Evaluation at many points and
    // interpolation against FLINT").
    case AlgorithmCrossover::MultipointTree: return 512;
    // gcd and xgcd over Z/pZ (poly/euclid.hpp) run the half-gcd on cas's products when both operands
    // have this many terms, resultant and discriminant (whose steps are recorded, so FLINT's hgcd
    // cannot serve the recursion's lowest levels) from HalfGcdResultant's; FLINT's own below. From
    // there the half-gcd is at least as fast on two cores, 2.3-3.4 times at 2^16 terms
    // (docs/measurements.md, "gcd, xgcd and resultant: the half-gcd on cas's products against FLINT").
    case AlgorithmCrossover::HalfGcd: return 512;
    case AlgorithmCrossover::HalfGcdResultant: return 2048;
    // roots over Z/pZ (poly/roots.hpp) go through x^p mod f, the gcd and equal-degree splitting on
    // cas's engines from this many terms, FLINT's roots below (within 10% of FLINT from 64 to 256
    // terms, 1.5 times as fast at 2^9 on two cores: docs/measurements.md, "Roots over Z/pZ against
    // FLINT", "The algorithms' crossovers by cas --calibrate").
    case AlgorithmCrossover::Roots: return 512;
    // Resultants and discriminants in Z[x] (multimodular/zresultant.hpp) go through word-size primes
    // from this many terms (the longer operand), FLINT's fmpz_poly_resultant below: on two cores the
    // primes are 1.2-2.1 times as fast at 32 terms for coefficients of 1 to 2000 bits, and 0.6-1.6
    // times at 16 (docs/measurements.md, "Resultants in Z[x] through word-size primes").
    case AlgorithmCrossover::ZResultantPrimes: return 32;
    // factor over a word-size Z/pZ (poly/factor.hpp) by squarefree, distinct-degree and
    // equal-degree stages on cas's engines from this many terms, FLINT's nmod_poly_factor below: at
    // 256 terms the stages are 1.14-2.3 times as fast on two cores for p from 2^10 to 64 bits
    // (0.59-1.41x at 128); below 2^10 from 640 terms (1.09-1.31x for p = 2 to 257, 0.93-1.33x at
    // 512): docs/measurements.md, "Factorisation over Z/pZ against FLINT".
    case AlgorithmCrossover::Factor: return 256;
    case AlgorithmCrossover::FactorSmallP: return 640;
  }
  return SIZE_MAX;
}
// The least crossover a file may set: a constant or a single point leaves the algorithms nothing to
// reduce, so FLINT keeps those whatever the file says.
constexpr size_t least_algorithm_crossover = 2;

// A crossover that keeps an operation on the CPU in `auto` mode.
constexpr size_t never_on_gpu = SIZE_MAX;

struct Crossovers {
  // Smallest length (coefficients of the product, transform length, or bits of the smaller
  // integer factor) sent to the GPU, per GpuOperation. The defaults are `cas --calibrate`'s choices
  // on the H100 host (uniform operands of the full length), against the CPU side as it is: AVX-512
  // transforms on the pool of workers, FLINT below the CPU's own crossovers. They depend on the
  // GPU, on the host's cores and on the size of p (FLINT's products pack small residues):
  //   p >= 2^32:         NTT prime 1023, CRT 2047, transform 1024
  //   2^17 <= p < 2^32:  NTT prime 4095, CRT 2047, transform 8192
  //   p < 2^17:          NTT prime 4095, CRT 4095, transform 8192 (measured at 65537 and 45119)
  //   Z[x] (64-bit coefficients) 1023; integers 2^17 bits.
  //   p of 2 to 16 words, prime: transforms and convolutions 1024, products by its convolution
  //   1023 (the least lengths measured: at 2^10 fft modulo P3 takes 0.16 ms on the GPU and 2.6 on
  //   the CPU; products of 2^10 terms 0.54 ms against 0.71 through product.z's primes and 1.9 with
  //   FLINT, modulo P4 1.87, 1.96 and 5.8: "Transforms and products modulo a big prime on the GPU").
  // Near a crossover the two engines are within 1.3x of each other (products modulo 998244353
  // of length 4095: CPU 0.137 ms, GPU 0.122). Each default with the figure that placed it:
  // docs/measurements.md, "GPU crossovers of the dispatcher".
  size_t length[gpu_operation_count] = {1023, 2047, 1024, 1023, size_t{1} << 17, 4095, 2047, 8192, 4095, 4095, 8192,
                                        1024, 1023};
  // The longest shorter operand whose CPU product stays with FLINT, per ShortOperandClass:
  // measured by `cas --calibrate` (with or without a GPU), by default the class's limit divided by
  // the cores (short_operand_default).
  size_t flint_short_operand[short_operand_class_count] = {
      short_operand_default(ShortOperandClass::NttPrime64), short_operand_default(ShortOperandClass::NttPrime62),
      short_operand_default(ShortOperandClass::NttPrime32), short_operand_default(ShortOperandClass::NttPrime17),
      short_operand_default(ShortOperandClass::Crt),        short_operand_default(ShortOperandClass::Z)};
  // The exponent e of z_product_weight: a Z[x] product's length counts ((bits_a + bits_b) / 128)^e
  // times against product.z. `cas --calibrate` fits it to Z[x] products with 1000- and 4000-bit
  // coefficients (calibrate.hpp: fitted_z_weight_exponent; 0.72 on the H100 host); by default 2/3,
  // which chooses within 10% of the better engine at 28 points from 32 to 2048 terms and 64 to 4000
  // bits: docs/measurements.md, "Dispatcher weights for Z[x] products, powers and large moduli".
  double z_weight_exponent = 2.0 / 3.0;
  // The smallest length from which each AlgorithmCrossover's algorithm replaces FLINT's routine:
  // measured by `cas --calibrate` (with or without a GPU), by default algorithm_crossover_default.
  size_t algorithm_from[algorithm_crossover_count] = {
      algorithm_crossover_default(AlgorithmCrossover::MultipointTree),
      algorithm_crossover_default(AlgorithmCrossover::HalfGcd),
      algorithm_crossover_default(AlgorithmCrossover::HalfGcdResultant),
      algorithm_crossover_default(AlgorithmCrossover::Roots),
      algorithm_crossover_default(AlgorithmCrossover::ZResultantPrimes),
      algorithm_crossover_default(AlgorithmCrossover::Factor),
      algorithm_crossover_default(AlgorithmCrossover::FactorSmallP)};
  std::string origin = "defaults";  // or the config file it was read from
};
// Its key in the config file, and the exponents a file may set.
constexpr const char* z_weight_exponent_key = "product.z.weight_exponent";
constexpr double least_z_weight_exponent = 0.0, largest_z_weight_exponent = 2.0;

GpuMode gpu_mode();
void set_gpu_mode(GpuMode mode);
const char* gpu_mode_name(GpuMode mode);
bool parse_gpu_mode(const std::string& text, GpuMode& out);

bool gpu_usable();  // built with CUDA and a device answers (asked once)
// What a user who asks for `mode` should be told: for "on" where no GPU answers, that everything
// will run on the CPU; empty otherwise ("auto" without a GPU is the usual state, not news).
std::string gpu_mode_caveat(GpuMode mode);
// The GPUs in use (0 without a usable one): the first of those CUDA shows (CUDA_VISIBLE_DEVICES
// chooses and orders them), at most as many as the limit, which CAS_GPU_DEVICES sets at startup
// and set_gpus_used(n) later (n >= 1; 0 lifts it; returns the previous limit). Large multi-modular
// operations are shared among them (gpu/crt.hpp); everything else runs on the first.
int gpus_in_use();
int set_gpus_used(int n);
const Crossovers& crossovers();
void set_crossovers(const Crossovers& c);

// Whether `op` of this length goes to the GPU under the current mode and crossovers.
bool use_gpu(GpuOperation op, size_t length);

// The length from which `a`'s algorithm replaces FLINT's routine, under the current crossovers.
size_t algorithm_crossover(AlgorithmCrossover a);

// The length a Z[x] product of `length` coefficients counts as against product.z's crossover, which
// `cas --calibrate` measures with 64-bit coefficients: length * ((bits_a + bits_b) / 128)^e for
// larger ones (bits_a, bits_b: the operands' largest coefficients), never less than length; e is
// the crossovers' z_weight_exponent (2/3 unless calibrated) or the one given. FLINT's time grows
// with the coefficients' size faster than the GPU's, whose primes run in one launch and whose
// reconstruction takes a warp a coefficient: on the H100 host the two break even near 700
// coefficients of 64 bits, 180 of 300, 110 of 1000 and 64 of 4000 bits, as bits^-0.6 to bits^-0.9
// (docs/measurements.md, "Dispatcher weights for Z[x] products, powers and large moduli").
size_t z_product_weight(size_t length, unsigned long bits_a, unsigned long bits_b);
size_t z_product_weight(size_t length, unsigned long bits_a, unsigned long bits_b, double exponent);

// Whether a CPU product of this class whose shorter operand has this length stays with FLINT,
// under the current crossovers.
bool short_operand_stays_with_flint(ShortOperandClass c, size_t shorter_length);

// On the CPU, products in Z/pZ[x] (p a word) go to cas's own NTT (ntt_product_cpu.hpp) instead of
// FLINT's nmod_poly_mul from a product length that depends on the size of p, on whether one
// transform modulo p does (p prime, 2^k | p - 1 for the transform length 2^k) or two or three CRT
// primes are needed, and on whether the transforms' butterflies run on AVX-512 vectors here
// (ntt_cpu_lanes.hpp); cpu_ntt_crossover has the table. Below these lengths both engines run on
// one core, so the crossovers are a single-core ratio and are not calibrated per machine
// (cas-bench-cpu: docs/measurements.md, "CPU transform products against FLINT by class of prime").
size_t cpu_ntt_crossover(bool one_transform, std::uint64_t p);
bool use_cpu_ntt(bool one_transform, std::uint64_t p, size_t length);
// Products in Z[x] on the CPU go through the primes of multimodular.hpp and those transforms
// instead of FLINT's fmpz_poly_mul from this product length, while the primes are at most
// cpu_crt_most_primes_z(length): Garner's work per coefficient is quadratic in their number,
// FLINT's Kronecker substitution's about linear in the bits, so longer results pay for more primes,
// and more cores (which the primes use and FLINT does not) for more still. From 2^14 - 1
// coefficients the primes win at every coefficient size of cas-bench-cpu on two cores, 1.3x (16
// and 64 bits) to 2.3x (256 bits); below, they lose for small or large coefficients (16 bits: 0.9x
// at 2^12). Powers, one transform per prime against FLINT's repeated squarings, pay from shorter
// results (f^3 of 2^10 coefficients of 64 bits: 0.54 against FLINT's 1.17 ms). The limits by
// primes, length and cores: docs/measurements.md, "Z[x] products and powers through primes on the
// CPU".
constexpr size_t cpu_crt_crossover_z = 16383;
constexpr size_t cpu_crt_power_crossover_z = 2047;
// Products: 40 primes, 64 from a result of 2^14 - 1 coefficients, 128 from 2^16 - 1; on 8 cores
// or more 96 and 256.
size_t cpu_crt_most_primes_z(size_t length);
// Powers: the products' limits; on 8 cores or more 64 primes, 128 from a result of 2^13 - 1
// coefficients, 256 from 2^15 - 1.
size_t cpu_crt_most_primes_power_z(size_t length);
// convolve and negaconvolve over Z of a power-of-two length n take the primes' transforms of
// length n on the CPU (multimodular.hpp: convolve_with_primes) instead of one product folded
// modulo x^n -+ 1 (of length 2n - 1: FLINT's, or through the primes from cpu_crt_crossover_z) from
// this n, which grows with the number of primes: Garner's work per entry is quadratic in it,
// FLINT's Kronecker substitution's about linear. 1024 up to 16 primes, 2048 up to 24, 8192 beyond
// (33 primes, 1000-bit entries: 1.4 times as fast as the folded product at 2^13, 0.7 times at
// 2^12): docs/measurements.md, "Convolutions on the CPU through transforms of length n".
size_t cpu_crt_convolution_from_z(size_t primes);
// Where the GPU would take the product, it takes the convolution instead (folded on the device:
// multimodular.hpp, convolve_through_product), whatever the number of primes: against these
// transforms on 16 cores it is 0.93-1.8 times as fast with 1 or 2 primes, 1.46-2.1 times with 6
// (docs/measurements.md, "Convolutions on the GPU, folded on the device").
// Over a word-size Z/pZ without the roots of unity of order n (2n for negaconvolve), the same
// from this power-of-two n (ntt_product_cpu.hpp: convolve_words_cpu_ntt), instead of a product
// folded. The negacyclic weights cost three more products an entry and prime, which moves its n
// up (cyclic 1.4-1.9 times as fast as the folded product at 2^10, negacyclic 1.24-1.43 times at
// 2^11): docs/measurements.md, "Convolutions on the CPU through transforms of length n".
constexpr size_t cpu_crt_convolution_from_words(bool negacyclic) { return negacyclic ? 2048 : 1024; }

std::string crossover_config_path();
// Reads the config file when present (silently keeps the defaults otherwise).
void load_crossovers();
void save_crossovers(const Crossovers& c);  // throws DomainError when it cannot write

// One line per fact, for gpuinfo() and `cas --calibrate`.
std::vector<std::string> gpu_report();

// Notices for the user (e.g. the GPU ran out of memory and FLINT took over); the REPL prints
// and clears them after each statement.
void post_notice(std::string text);
std::vector<std::string> take_notices();

}  // namespace cas
