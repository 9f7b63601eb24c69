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
// operations over Z/pZ have a crossover for each of these sizes of p.
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
};
constexpr size_t gpu_operation_count = 11;
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
// Without a calibration, the limit is m * cores <= a constant per class. With a long operand of
// 2^18 coefficients (twentieth session), FLINT was the faster up to a shorter operand of m
// coefficients, where m * cores stayed near that constant on both the 2-core development machine
// and the H100's 16-core host: one transform modulo p < 2^17 / 2^32 / 2^62: 512 / 128 / 32; CRT
// primes: 512 for every size of p (with 2^20 coefficients in cas on the host, modulo 1000000007,
// FLINT took 0.36x the primes' time at m = 8 and 1.8x at m = 64; the development machine's FLINT
// won up to m = 1024, so 512 gives away some there). Through a transform, m = 2 had cost 2.2-11
// times FLINT's time in cas on the host (modulo 2^64 - 59: 44.6 against 4.2 ms). Z[x] (64-bit
// coefficients, times in cas, fresh results) and p above 64 bits: 31, the most that fits both
// machines: with 2 cores FLINT won up to m = 16 (2^20 x 16: 121 against 218 ms), with 16 it lost
// already at m = 2 (104-128 against 38-47 ms; that host's FLINT makes its integers slowly).
// One transform modulo 2^62 <= p < 2^64, where cas's transforms take 2.1-2.6 times their time
// below 2^62 (products of 2^18 coefficients: 18.3 against 8.7 ms on the development machine, 11.3
// against 4.3 on the host): 256. The calibrations of both machines (twenty-first session) confirmed the other five
// as the least summed excess over both tables, and chose 256 here (32 had cost up to 1.5x).
// The machines differ by up to 2x from these rules just above them, which `cas --calibrate`
// measures away.
size_t short_operand_default(ShortOperandClass c);  // the longest shorter operand kept with FLINT

// A crossover that keeps an operation on the CPU in `auto` mode.
constexpr size_t never_on_gpu = SIZE_MAX;

struct Crossovers {
  // Smallest length (coefficients of the product, transform length, or bits of the smaller
  // integer factor) sent to the GPU. The defaults are what `cas --calibrate` measured on an H100
  // in three runs of 2026-11-24 (fourteenth session of gpu/README.md), with uniform operands of
  // the full length: products over an NTT prime 1023 (p < 2^32: 2047 twice, 1023 once), CRT
  // products 2047 (p < 2^32: 2047 twice, 8191 once), transforms 1024 (p < 2^32: 2048), Z[x]
  // 2047, integers 2^17 bits (2^18 in two runs; earlier calibrations 2^17). For p < 2^17, three
  // runs of 2026-11-24 (fifteenth session) at 65537 and 45119: products over an NTT prime 2047
  // twice and 4095 once, CRT products 4095 twice and 8191 once, transforms 2048 twice; the
  // defaults take 4095 for both products, where the other choice would lose up to 1.7x (FLINT's
  // time at 2047 varied from 0.057 to 0.103 ms between runs, the GPU's 0.088-0.092 ms). Near a
  // crossover the two engines are within 1.3x of each other. Sixteenth session, against the CPU's
  // own products and its faster transforms for p < 2^30 (two calibrations): the product crossovers
  // stayed; transforms for p < 2^32 moved to 4096 (CPU 0.034 / 0.048 ms at 2048 words against the
  // GPU's 0.038 / 0.045: with 2048 the worse run chose 1.12x the faster engine, with 4096 1.07x).
  // Seventeenth session, against the CPU's AVX-512 butterflies (one calibration): products over an
  // NTT prime p < 2^32 moved to 4095 (CPU 0.080 ms at 2047 against the GPU's 0.100; 0.137 against
  // 0.122 at 4095), and transforms for p < 2^17 to 4096 (0.040 against 0.050 ms at 2048); with the
  // old values those two chose 1.25x the faster engine. The other nine measured as they were.
  // Eighteenth session, against the CPU's pool of workers and packed tables (four calibrations):
  // transforms of 4096 words for p < 2^32 took the CPU 0.86-1.09 times the GPU's time (three runs
  // of four faster), for p < 2^17 0.86-1.00; both now 8192, where the worst run chooses 1.09x the
  // faster engine instead of 1.16x. The other nine stayed.
  // Twenty-seventh session: Z[x] products of 64-bit coefficients, every prime in one launch, took
  // the GPU 0.20 ms at length 1023 against FLINT's 0.25-0.40 (0.16 against 0.11-0.16 at 511): 1023.
  size_t length[gpu_operation_count] = {1023, 2047, 1024, 1023, size_t{1} << 17, 4095, 2047, 8192, 4095, 4095, 8192};
  // The longest shorter operand whose CPU product stays with FLINT, per ShortOperandClass:
  // measured by `cas --calibrate` (with or without a GPU), by default the class's limit divided by
  // the cores (short_operand_default).
  size_t flint_short_operand[short_operand_class_count] = {
      short_operand_default(ShortOperandClass::NttPrime64), short_operand_default(ShortOperandClass::NttPrime62),
      short_operand_default(ShortOperandClass::NttPrime32), short_operand_default(ShortOperandClass::NttPrime17),
      short_operand_default(ShortOperandClass::Crt),        short_operand_default(ShortOperandClass::Z)};
  // The exponent e of z_product_weight: a Z[x] product's length counts ((bits_a + bits_b) / 128)^e
  // times against product.z. `cas --calibrate` fits it to Z[x] products with 1000- and 4000-bit
  // coefficients (calibrate.hpp: fitted_z_weight_exponent); by default 2/3 (twenty-seventh session).
  double z_weight_exponent = 2.0 / 3.0;
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
const Crossovers& crossovers();
void set_crossovers(const Crossovers& c);

// Whether `op` of this length goes to the GPU under the current mode and crossovers.
bool use_gpu(GpuOperation op, size_t length);

// The length a Z[x] product of `length` coefficients counts as against product.z's crossover,
// which `cas --calibrate` measures with 64-bit coefficients: length * ((bits_a + bits_b) / 128)^e
// for larger ones (bits_a, bits_b: the operands' largest coefficients), never less than length;
// e is the crossovers' z_weight_exponent (2/3 unless calibrated) or the one given.
// FLINT's time grows with the coefficients' size faster than the GPU's, whose primes run in one
// launch and whose reconstruction takes a warp a coefficient. On the H100 (twenty-seventh
// session, in cas) FLINT and the GPU broke even near 700 coefficients of 64 bits, 180 of 300,
// 110 of 1000 and 64 of 4000 bits: as bits^-0.6 to bits^-0.9, where a square root (the first
// rule) sent 255 coefficients of 1000 bits to FLINT at 1.18x the GPU's time.
size_t z_product_weight(size_t length, unsigned long bits_a, unsigned long bits_b);
size_t z_product_weight(size_t length, unsigned long bits_a, unsigned long bits_b, double exponent);

// Whether a CPU product of this class whose shorter operand has this length stays with FLINT,
// under the current crossovers.
bool short_operand_stays_with_flint(ShortOperandClass c, size_t shorter_length);

// On the CPU, products in Z/pZ[x] (p a word) go to cas's own NTT (ntt_product_cpu.hpp) instead of
// FLINT's nmod_poly_mul from a product length that depends on the size of p and on whether one
// transform modulo p does (p prime, 2^k | p - 1 for the transform length 2^k) or two or three CRT
// primes are needed, and on whether the transforms' butterflies run on AVX-512 vectors here
// (ntt_cpu_lanes.hpp). Measured on the 2-core development machine and the H100 machine's host
// (README.md, sixteenth and seventeenth sessions): below these lengths both engines run on one
// core, so the crossovers are the machine's single-core ratio and are not calibrated per machine.
size_t cpu_ntt_crossover(bool one_transform, std::uint64_t p);
bool use_cpu_ntt(bool one_transform, std::uint64_t p, size_t length);
// Products in Z[x] on the CPU go through the primes of multimodular.hpp and those transforms
// instead of FLINT's fmpz_poly_mul from this product length, while the primes are at most
// cpu_crt_most_primes_z(length): Garner's work per coefficient is quadratic in their number,
// FLINT's Kronecker substitution's about linear in the bits, so longer results pay for more primes.
// Development machine, sixteenth session: from 2^14 - 1 coefficients the primes won at every
// coefficient size measured, 1.3x (16 and 64 bits) to 2.3x (256 bits); with 33 primes (1000-bit
// coefficients) 1.7x. Below 2^14 they lost for small (16 bits: 0.9x at 2^12) or large coefficients
// (1000 bits: 0.5x at 2^13). Twenty-second session, FLINT's time / the primes', by result length:
// products with 52 primes 1.9x at 2^14, 2.2-2.8x from 2^16; 78 primes 0.93x at 2^14, 1.8-2.0x from
// 2^16; 104 primes 0.53x at 2^14, 1.2-1.6x from 2^16; 156 primes 0.62x at 2^15, 1.1x at 2^17.
// Fifth powers (2^10 to 2^14 coefficients, results of 5 times that): 42 primes 1.2x at 5 2^10,
// 2.5-2.8x from 5 2^12; 66 primes 0.65x at 5 2^10, 1.9-2.2x from 5 2^12; 98 primes 0.8-0.9x at
// 5 2^11 and 5 2^12, 1.5x at 5 2^14; 130 primes 0.55x, 0.55x, 1.4x. On the H100 machine's 16 cores
// (one run each) the primes, which use every core where FLINT uses one, won more: products with 78
// primes 1.56x at 2^14, 104 and 156 primes 0.83x and 0.57x there, 156 and 208 primes 3.5x at 2^16,
// 310 primes 0.86x at 2^15; fifth powers (one transform per prime against FLINT's squarings) with
// 66 primes 1.4x at 5 2^10 and 3.0x at 5 2^11, 98 primes 2.8-3.4x at 5 2^11 and 5 2^12, 130
// primes 2.0x at 5 2^12 and 7.4x at 5 2^13, 195 primes 3.2x at 5 2^13.
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
// FLINT's Kronecker substitution's about linear. Development machine, twenty-second session, the
// first n where the primes won (2^9..2^13, coefficients of 8 to 1000 bits): 2^10 with 1 prime (8 bits;
// 1.2x) to 17 primes (500 bits; 0.98x, 1.2x at 2^11), 2^11 with 24 (700 bits; 1.2x), 2^13 with 33
// (1000 bits; 1.4x, 0.7x at 2^12); up to 3-4x in between (128 bits: 2^10-2^12).
size_t cpu_crt_convolution_from_z(size_t primes);
// Where the GPU would take the product, it takes the convolution instead (folded on the device:
// multimodular.hpp, convolve_through_product): on the H100 machine, against these transforms on
// its 16 cores, 2^12..2^20 entries (twenty-second session, two rounds): 0.93-1.8x with 1 or 2
// primes (20 and 40-bit entries), 1.03-2.2x with 4 (100 bits), 1.46-2.1x with 6 (160 bits); at
// 2^22 0.92-1.5x.
// Over a word-size Z/pZ without the roots of unity of order n (2n for negaconvolve), the same
// from this power-of-two n (ntt_product_cpu.hpp: convolve_words_cpu_ntt), instead of a product
// folded. Development machine, twenty-second session, p = 10^9 + 7, 2^61 - 1, 2^64 - 59: cyclic
// 0.95-1.27x at 2^9, 1.4-1.9x at 2^10, 2.0-2.5x at 2^20; negacyclic (whose weights cost three
// more products an entry and prime; measured while they still took passes of their own)
// 0.77-1.01x at 2^9, 0.96-1.37x at 2^10, 1.24-1.43x at 2^11, 1.5-1.7x at 2^20.
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
