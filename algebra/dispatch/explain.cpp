#include "algebra/dispatch/explain.hpp"

#include "algebra/dispatch/dispatch.hpp"
#include "algebra/multimodular/multimodular.hpp"
#include "algebra/fourier/ntt_product_cpu.hpp"

#include "gpu/ntt.hpp"

#include <flint/flint.h>
#include <flint/ulong_extras.h>

#include <algorithm>
#include <cstring>

namespace cas {

namespace {

std::string number(size_t n) { return std::to_string(n); }

// "Z/17Z", "Z/pZ with a 300-bit p", or "Z".
std::string ring(const OperationDetail& d) {
  if (d.modulus) return "Z/" + std::to_string(d.modulus) + "Z";
  if (d.modulus_bits) return "Z/pZ with a " + number(d.modulus_bits) + "-bit p";
  return "Z";
}

unsigned log2_floor(size_t n) {
  unsigned k = 0;
  while (n > 1) {
    n >>= 1;
    k++;
  }
  return k;
}

// The lecture's count for an FFT of length n (n a power of two): log2 n stages of n/2
// butterflies, n/2 log2 n multiplications by powers of w, n log2 n additions or subtractions.
std::string fft_counts(size_t n) {
  const size_t stages = log2_floor(n);
  return "bit-reversal permutation, then " + number(stages) + (stages == 1 ? " stage" : " stages") + " of " +
         number(n / 2) + " butterflies: " + number(n / 2 * stages) + " multiplications by powers of w and " +
         number(n * stages) + " additions or subtractions";
}

std::string at_root(const OperationDetail& d) { return d.root ? " at w = " + std::to_string(d.root) : ""; }

std::string product(const char* what, const EngineNote& n) {
  const OperationDetail& d = n.detail;
  return std::string(what) + " in " + ring(d) + "[x] of lengths " + number(d.length1) + " and " + number(d.length2);
}

std::string power(const EngineNote& n) {
  const OperationDetail& d = n.detail;
  return "power in " + ring(d) + "[x]: a polynomial of length " + number(d.length1) + " to the power " +
         number(d.length2);
}

std::string gpu_primes(const OperationDetail& d, bool cyclic = false) {
  if (!d.modulus || !d.length1 || !d.length2) return "";
  const gpu::ProductPlan plan = cyclic ? gpu::plan_cyclic_product(d.length1, d.length2, d.length1, d.modulus)
                                       : gpu::plan_product(d.length1, d.length2, d.modulus);
  std::string text = "transform length " + number(plan.transform_length) + ", primes";
  for (auto q : plan.primes) text += " " + std::to_string(q);
  return text;
}

std::string inverse_fft(const OperationDetail& d) {
  std::string text = "inverse FFT of length " + number(d.length1) + " over " + ring(d) +
                     ": the FFT at w^-1, then every entry times n^-1";
  if (d.modulus && d.root && d.length1 % d.modulus != 0)
    text += " (w = " + std::to_string(d.root) + ", w^-1 = " + std::to_string(n_invmod(d.root, d.modulus)) +
            ", n^-1 = " + std::to_string(n_invmod(d.length1 % d.modulus, d.modulus)) + ")";
  return text;
}

std::string convolution_by_fft(const EngineNote& n, bool negacyclic) {
  const OperationDetail& d = n.detail;
  std::string text = negacyclic ? "negacyclic convolution (modulo x^n + 1) " : "cyclic convolution (modulo x^n - 1) ";
  text += "of length " + number(d.length1) + " over " + ring(d) + " through the DFT: ";
  if (negacyclic) {
    text += "entries weighted by psi^i, psi";
    if (d.root) text += " = " + std::to_string(d.root);
    text += " of order 2n, so that psi^n = -1; then ";
  }
  text += "two forward FFTs, " + number(d.length1) + " pointwise products, one inverse FFT";
  if (negacyclic) text += "; then the weights psi^-k";
  return text;
}

std::string convolution_by_product(const EngineNote& n, bool negacyclic) {
  const OperationDetail& d = n.detail;
  const bool over_z = !d.modulus && !d.modulus_bits;
  return std::string(negacyclic ? "negacyclic" : "cyclic") + " convolution of length " + number(d.length1) +
         " over " + ring(d) + " by one polynomial product folded modulo " + (negacyclic ? "x^n + 1" : "x^n - 1") +
         (over_z ? " (a product in Z[x]: FLINT's, or past the crossover the GPU's through several primes)"
                 : " (no FFT: the length is no power of two, Z/pZ lacks the root of unity, or the GPU takes the "
                   "product and folds it on the device)");
}

std::string chinese_remainder(const EngineNote& n) {
  return "Chinese remaindering over " + number(n.detail.length1) +
         " moduli, one modulus at a time (x + m*k with k from an inverse modulo the next modulus: the "
         "mixed-radix form); the combined modulus has " +
         number(n.detail.modulus_bits) + " bits";
}

// ceil(log2 length): the exponent of the transform length for a result of `length` coefficients.
unsigned log2_transform_length(size_t length) {
  unsigned k = 0;
  while ((size_t{1} << k) < length) k++;
  return k;
}

// The primes of a multi-modular product (or power, multimodular.hpp) whose result has `length`
// coefficients, recomputed from the note: the same bound and length give the same primes.
std::string multimodular_primes_text(const OperationDetail& d, size_t length) {
  const unsigned log2_length = log2_transform_length(length);
  const std::vector<ulong> primes = multimodular_primes(d.bound_bits, log2_length);
  std::string text = number(primes.size()) + (primes.size() == 1 ? " prime of " : " primes of ") +
                     number(multimodular_prime_bits) + " bits with 2^" +
                     number(log2_length) + " | p - 1 (";
  for (size_t i = 0; i < primes.size(); i++) {
    if (i == 4 && primes.size() > 6) {
      text += ", ..., " + std::to_string(primes.back());
      break;
    }
    text += (i ? ", " : "") + std::to_string(primes[i]);
  }
  return text + ")";
}

// The CPU's plan for a product: its transform length and primes (ntt_product_cpu.hpp).
std::string cpu_primes(const OperationDetail& d) {
  if (!d.modulus || !d.length1 || !d.length2) return "";
  std::string text = "transform length " + number(size_t{1} << log2_transform_length(d.length1 + d.length2 - 1)) +
                     ", primes";
  for (auto q : cpu_product_primes(d.length1, d.length2, d.modulus)) text += " " + std::to_string(q);
  return text;
}

std::string multimodular_product(const EngineNote& n, const char* engine) {
  const OperationDetail& d = n.detail;
  const bool integer = std::strstr(n.what, "integer") != nullptr;
  std::string text = integer ? "integer product as polynomials in 2^b of " + number(d.length1) + " and " +
                                   number(d.length2) + " limbs"
                             : product("product", n);
  text += " through " + multimodular_primes_text(d, d.length1 + d.length2 - 1) + " on the " + engine +
          ": the bound |c_k| <= min(len a, len b) |a|_inf |b|_inf < 2^" + number(d.bound_bits) +
          ", and the primes' product M >= 2^" + number(d.bound_bits + 1) +
          " (one bit for the sign); both operands reduced mod each prime, one NTT product per prime, every "
          "coefficient recombined by the CRT in symmetric representation (-M/2, M/2) (" +
          (std::strcmp(engine, "GPU") == 0 ? "Garner's mixed-radix form, on the GPU"
                                           : crt_method_name(fastest_crt_method(d.primes))) +
          ")";
  if (d.modulus_bits) text += ", the operands lifted to Z[x] with coefficients 0..p-1 and the product reduced mod p";
  if (integer) text += ", then evaluated at 2^b (the carries)";
  return text;
}

// Over Z (d.modulus 0), or over a word-size Z/pZ that lacks the roots of unity for the length.
std::string convolution_through_primes(const EngineNote& n, bool negacyclic) {
  const OperationDetail& d = n.detail;
  const bool over_z = !d.modulus;
  std::string text = negacyclic ? "negacyclic convolution (modulo x^n + 1) " : "cyclic convolution (modulo x^n - 1) ";
  text += "of length " + number(d.length1) + " over " + ring(d) + " through " +
          multimodular_primes_text(d, negacyclic ? 2 * d.length1 : d.length1) + " on the CPU's cores: ";
  if (over_z) {
    text += "the bound |c_k| <= min(len a, len b) |a|_inf |b|_inf < 2^" + number(d.bound_bits);
  } else {
    text += std::string("Z/pZ lacks a root of unity of order ") + (negacyclic ? "2n" : "n") +
            "; over Z the entries have |c_k| < min(len a, len b) (p - 1)^2 <= 2^" + number(d.bound_bits);
    if (negacyclic) text += ", shifted by min(len a, len b) p^2 (0 mod p) into [0, 2^" + number(d.bound_bits + 1) + ")";
  }
  text += ", both vectors reduced mod each prime, ";
  if (negacyclic) text += "weighted by psi^i (psi of order 2n, so psi^n = -1), ";
  text += "per prime two NTTs of length " + number(d.length1) + ", pointwise products, one inverse NTT";
  if (negacyclic) text += " and the weights psi^-k";
  text += " (a product would take transforms of length " + number(2 * d.length1) + "), ";
  if (over_z)
    return text + "every entry recombined by the CRT in symmetric representation (" +
           crt_method_name(fastest_crt_method(d.primes)) + ")";
  return text + "every entry recombined by Garner's CRT straight into its residue mod p";
}

// On the GPU: the product modulo each prime, folded on the device before Garner.
std::string convolution_on_gpu(const EngineNote& n, bool negacyclic) {
  const OperationDetail& d = n.detail;
  const size_t product_length = 2 * d.length1 - 1;
  return std::string(negacyclic ? "negacyclic convolution (modulo x^n + 1) " : "cyclic convolution (modulo x^n - 1) ") +
         "of length " + number(d.length1) + " over Z through " + multimodular_primes_text(d, product_length) +
         " on the GPU: the bound |c_k| <= min(len a, len b) |a|_inf |b|_inf < 2^" + number(d.bound_bits) +
         ", both vectors reduced mod each prime, one NTT product per prime, folded modulo " +
         (negacyclic ? "x^n + 1" : "x^n - 1") + " on the GPU, and only the " + number(d.length1) +
         " entries recombined by the CRT in symmetric representation (Garner's mixed-radix form, on the GPU) and "
         "brought back";
}

// The words of a multi-word p of d.modulus_bits bits, as the big-prime kernels hold its elements.
std::string big_prime_words(const OperationDetail& d) { return number((d.modulus_bits + 63) / 64) + "-word"; }

// The arithmetic of the GPU's big-prime kernels (gpu/big_prime.hpp).
std::string big_prime_arithmetic(const OperationDetail& d) {
  return "every element " + big_prime_words(d) + " (limb-major, a warp reading one word of 32 elements at once), " +
         "every product a Montgomery product (CIOS) with twiddles held as w^i R (modulo a generalized Fermat " +
         "prime r^k + 1, the transforms by shifts of base-r digits inside radix-2k DFTs)";
}

// The length of f^e (f of length d.length1, e = d.length2), and the transform length for it.
size_t power_length(const OperationDetail& d) { return d.length2 * (d.length1 - 1) + 1; }
size_t power_transform_length(const OperationDetail& d) { return size_t{1} << log2_transform_length(power_length(d)); }

// engine: "on the GPU" or "by cas's NTT on the CPU".
std::string ntt_power(const EngineNote& n, const char* engine) {
  const OperationDetail& d = n.detail;
  return power(n) + " " + engine + " in one transform modulo p: the NTT of length " + number(power_transform_length(d)) +
         " of the zero-padded polynomial, every value raised to the power " + number(d.length2) +
         ", one inverse NTT (repeated squaring would transform each growing intermediate power)";
}

// engine: "the GPU" or "the CPU's cores".
std::string multimodular_power(const EngineNote& n, const char* engine) {
  const OperationDetail& d = n.detail;
  return power(n) + " through " + multimodular_primes_text(d, power_length(d)) + " on " + engine +
         ": the bound |c_k| <= n^(e-1) |f|_inf^e < 2^" + number(d.bound_bits) +
         " (a coefficient of f^e sums at most n^(e-1) products of e coefficients), f reduced mod each prime, one NTT "
         "of length " + number(power_transform_length(d)) + " per prime, every value raised to the power " +
         number(d.length2) + ", one inverse NTT, Garner's CRT in symmetric representation";
}

bool is(const EngineNote& n, const char* key) { return n.what && std::strcmp(n.what, key) == 0; }

// algebra/poly/division.hpp: f (length d.length1) by g (length d.length2), Newton's iteration whose
// steps and remainder `steps_and_remainder` describes: up to its two products a step.
std::string newton_division_text(const OperationDetail& d, const std::string& steps_and_remainder) {
  const size_t quotient = d.length1 - d.length2 + 1;
  return "division with remainder in " + ring(d) + "[x] of lengths " + number(d.length1) + " by " + number(d.length2) +
         " by Newton's iteration: h = rev(g) inverted modulo x^" + number(quotient) +
         " by i <- i + i (1 - h i), doubling the precision from FLINT's inverse of the first terms, each step two " +
         steps_and_remainder;
}

// Word-size moduli: cyclic products.
std::string newton_division(const EngineNote& n) {
  const OperationDetail& d = n.detail;
  const size_t quotient = d.length1 - d.length2 + 1;
  return newton_division_text(
      d, "cyclic products of the next power of two (the terms that wrap around fall where h i = 1 is known); then "
         "rev(q) = rev(f) i mod x^" + number(quotient) + " and r = f - q g, computed modulo x^L - 1 for a power of "
         "two L >= " + number(d.length2 > 1 ? d.length2 - 1 : 1) +
         " (r has fewer terms); the products run on cas's engines (below)");
}

// Multi-word moduli: whole products, cut.
std::string big_newton_division(const EngineNote& n) {
  const OperationDetail& d = n.detail;
  const size_t quotient = d.length1 - d.length2 + 1;
  return newton_division_text(
      d, "products cut to the terms it needs; then rev(q) = rev(f) i mod x^" + number(quotient) +
         " and r = f - q g from the low " + number(d.length2 > 1 ? d.length2 - 1 : 0) +
         " terms of q and g; the products run on cas's engines (below), where FLINT's fmpz_mod_poly_divrem "
         "would divide and conquer on its own");
}

}  // namespace

std::string flint_nmod_poly_mul_algorithm(size_t length1, size_t length2, unsigned bits) {
  if (length1 < length2) std::swap(length1, length2);
  if (length2 == 0) return "nothing to multiply (a zero operand)";
#if __FLINT_RELEASE < 30000
  // The cutoffs of FLINT 2.x's _nmod_poly_mul (nmod_poly/mul.c).
  const size_t cutoff = std::min(length1, 2 * length2);
  const size_t b = bits;
  if (length2 <= 5 || 3 * cutoff < 2 * std::max<size_t>(b, 10))
    return "the schoolbook (classical) product, as the operands are short";
  if (cutoff * b < 800)
    return "Kronecker substitution (KS): the coefficients packed into one large integer, one GMP product, unpacked";
  if (cutoff * (b + 1) * (b + 1) < 100000)
    return "Kronecker substitution at two points, +-2^b (KS2: half-size GMP products)";
  return "Kronecker substitution at four points, +-2^b and +-2^-b (KS4: quarter-size GMP products)";
#else
  (void)bits;
  return "FLINT " FLINT_VERSION " chooses by length: schoolbook, Kronecker substitution or its small-prime FFT";
#endif
}

// Which operands the GPU already held (algebra/dispatch/resident.hpp) and whether the result stays there.
std::string residency(const OperationDetail& d) {
  std::string text;
  if (d.operands_on_gpu == 2) text = "; both operands were on the GPU already (nothing uploaded)";
  if (d.operands_on_gpu == 1) text = "; one operand was on the GPU already (only the other uploaded)";
  if (d.result_kept_on_gpu) text += "; the result stays on the GPU until something on the host reads it";
  return text;
}

// A multi-modular operation the GPU engine shared among several devices (gpu/crt.hpp): the primes
// each took. Products, convolutions and powers exchange residues so that each device also rebuilds
// a range of the result; a resultant's residues come back for the CRT on the host.
std::string shared_among_gpus(const EngineNote& n) {
  const OperationDetail& d = n.detail;
  if (d.devices < 2) return "";
  if (is(n, "gpu ntt"))  // one transform: gpu/ntt_split.cu
    return "; shared among " + number(d.devices) +
           " GPUs by the four-step decomposition (the transforms of the columns and of the rows of a matrix, "
           "an all-to-all between them)";
  if (is(n, "gpu ntt product"))  // one prime: gpu/polymul_split.cu
    return "; shared between 2 GPUs: one takes the product modulo x^m - 1, the other modulo x^m + 1 (transforms "
           "of length m, half the product's)";
  std::string text = "; shared among " + number(d.devices) + " GPUs: primes ";
  const size_t listed = std::min<size_t>(d.devices, OperationDetail::most_devices_noted);
  for (size_t i = 0; i < listed; i++) text += (i ? " + " : "") + number(d.primes_per_device[i]);
  if (listed < d.devices) text += " + ...";
  return text + (is(n, "gpu crt resultant") ? ", each computing the resultants modulo its own"
                                            : ", each reconstructing its range of the coefficients");
}

std::string explain_note(const EngineNote& n) {
  const OperationDetail& d = n.detail;
  std::string text;
  if (is(n, "flint nmod_poly_mul")) {
    text = product("product", n) + ": FLINT nmod_poly_mul, here " +
           flint_nmod_poly_mul_algorithm(d.length1, d.length2, d.modulus_bits);
  } else if (is(n, "flint fmpz_mod_poly_mul")) {
    text = product("product", n) + ": FLINT fmpz_mod_poly_mul (the product in Z[x], then every coefficient mod p)";
  } else if (is(n, "flint fmpz_poly_mul")) {
    text = product("product", n) +
           ": FLINT fmpz_poly_mul (schoolbook, Karatsuba, Kronecker substitution or Schoenhage-Strassen, "
           "chosen by lengths and coefficient sizes)";
  } else if (is(n, "flint nmod_poly_pow") || is(n, "flint fmpz_mod_poly_pow")) {
    text = power(n) + std::string(": FLINT ") + (is(n, "flint nmod_poly_pow") ? "nmod_poly_pow" : "fmpz_mod_poly_pow") +
           " (binary powering: repeated squaring)";
  } else if (is(n, "flint fmpz_poly_pow")) {
    text = power(n) + ": FLINT fmpz_poly_pow (the binomial theorem for a binomial; otherwise multinomial "
                      "expansion or repeated squaring, by size)";
  } else if (is(n, "cpu scalar product")) {
    text = product("product", n) + " by a constant: each coefficient times it, in ranges on the CPU's cores (" +
           "no transform: a product by a constant costs one pass over the coefficients)";
  } else if (is(n, "gpu ntt product")) {
    text = product("product", n) + " on the GPU: NTTs of both operands modulo one NTT prime, pointwise product, " +
           "inverse NTT (" + gpu_primes(d) + ")";
  } else if (is(n, "gpu cyclic product")) {
    text = "cyclic convolution of length " + number(d.length1) + " over " + ring(d) +
           " on the GPU: the product modulo x^n - 1 wraps inside NTTs of length n (no product of length 2n - 1 " +
           "to fold), modulo p or several word-size primes recombined by the CRT (" + gpu_primes(d, true) + ")";
  } else if (is(n, "gpu crt product")) {
    text = product("product", n) + " on the GPU: NTT products modulo several word-size primes, recombined by the CRT, " +
           "reduced mod p (" + gpu_primes(d) + ")";
  } else if (is(n, "cpu ntt product")) {
    text = product("product", n) + " by cas's NTT on the CPU: both operands transformed modulo p (decimation in " +
           "frequency, no bit reversal), pointwise product, inverse transform (" + cpu_primes(d) +
           "); FLINT " FLINT_VERSION "'s nmod_poly_mul is slower from " + number(cpu_ntt_crossover(true, d.modulus)) +
           " coefficients at this size of p";
  } else if (is(n, "cpu crt product")) {
    text = product("product", n) + " by cas's NTT on the CPU: the exact product over Z modulo " + number(d.primes) +
           " NTT primes (its coefficients are below min(len a, len b) (p-1)^2), recombined by Garner's CRT into " +
           "residues mod p (" + cpu_primes(d) + "); FLINT " FLINT_VERSION "'s nmod_poly_mul is slower from " +
           number(cpu_ntt_crossover(false, d.modulus)) + " coefficients at this size of p";
  } else if (is(n, "cpu ntt power")) {
    text = ntt_power(n, "by cas's NTT on the CPU");
  } else if (is(n, "gpu ntt power")) {
    text = ntt_power(n, "on the GPU");
  } else if (is(n, "gpu crt power") || is(n, "cpu crt power")) {
    text = multimodular_power(n, is(n, "gpu crt power") ? "the GPU" : "the CPU's cores");
  } else if (is(n, "gpu crt") || is(n, "gpu crt integer")) {
    text = multimodular_product(n, "GPU");
  } else if (is(n, "cpu crt")) {
    const std::string engine = "CPU (per prime cas's NTT from " +
                               number(cpu_ntt_crossover(true, std::uint64_t{1} << multimodular_prime_bits)) +
                               " coefficients, FLINT's nmod_poly_mul below)";
    text = multimodular_product(n, engine.c_str());
  } else if (is(n, "cpu ntt convolution")) {
    text = "its transforms of length " + number(d.length1) + " over " + ring(d) + at_root(d) +
           " by cas's NTT on the CPU: both vectors by decimation in frequency (no bit reversal), the pointwise "
           "products scaled by 1/n, the inverse by decimation in time on the same tables (w, not w^-1: the result "
           "is read in reverse), 1/n and any negacyclic weights inside those passes; three transforms of " +
           number(log2_floor(d.length1)) + " stages of " + number(d.length1 / 2) + " butterflies";
  } else if (is(n, "cpu ntt")) {
    text = "radix-2 FFT of length " + number(d.length1) + " over " + ring(d) + at_root(d) +
           ": iterative Cooley-Tukey, " + fft_counts(d.length1);
  } else if (is(n, "gpu ntt")) {
    text = "radix-2 NTT of length " + number(d.length1) + " over " + ring(d) + at_root(d) + " on the GPU";
  } else if (is(n, "gpu big-prime ntt")) {
    text = "NTT of length " + number(d.length1) + " over " + ring(d) + " on the GPU's big-prime kernels, modulo p " +
           "itself (no word-size primes): " + big_prime_arithmetic(d) + "; the entries cross the bus as words";
  } else if (is(n, "gpu generalized-fermat ntt")) {
    text = "NTT of length " + number(d.length1) + " over " + ring(d) + " on the GPU, p = r^k + 1 a generalized " +
           "Fermat prime: r is a 2k-th root of unity, so the radix-2k DFTs of the six-step FFT multiply only by " +
           "powers of r, shifts of base-r digits, and full products are left to the twiddles between levels " +
           "(one a level for every element); the entries cross the bus as binary words, converted to digits " +
           "in the first level and back in the last";
  } else if (is(n, "gpu big-prime convolution")) {
    text = "its transforms of length " + number(d.length1) + " over " + ring(d) +
           " on the GPU's big-prime kernels in one call: both vectors transformed, the pointwise products, the " +
           "inverse with 1/n (and any negacyclic weights); " + big_prime_arithmetic(d);
  } else if (is(n, "gpu big-prime product")) {
    text = product("product", n) + " on the GPU's big-prime kernels: the cyclic convolution of length " +
           number(size_t{1} << log2_transform_length(d.length1 + d.length2 - 1)) +
           " (the power of two that holds the product, so nothing wraps) by NTTs modulo p itself (p prime with " +
           "those roots of unity), no word-size primes and no CRT; " + big_prime_arithmetic(d);
  } else if (is(n, "traced fft") || is(n, "traced stockham fft")) {
    text = "radix-2 FFT of length " + number(d.length1) + " over " + ring(d) + at_root(d) +
           (is(n, "traced fft") ? ", Cooley-Tukey order (bit reversal first, then in place)"
                                : ", Stockham order (no bit reversal: each stage reads strided, writes in order)") +
           ", traced: " + number(log2_floor(d.length1)) + " stages of " + number(d.length1 / 2) + " butterflies";
  } else if (is(n, "traced six-step")) {
    text = "six-step DFT of length " + number(d.length1) + " over " + ring(d) + at_root(d) + " as a " +
           number(d.length2) + " x " + number(d.length1 / std::max<size_t>(d.length2, 1)) +
           " matrix: DFTs of the columns, twiddle factors, DFTs of the rows, transposition";
  } else if (is(n, "evaluation table")) {
    text = "f evaluated at w^0, ..., w^" + number(d.length1 - 1) + " over " + ring(d) + at_root(d) +
           ", one Horner evaluation each: the DFT by its definition, O(n^2)";
  } else if (is(n, "ifft")) {
    text = inverse_fft(d);
  } else if (is(n, "cyclic convolution by fft") || is(n, "negacyclic convolution by fft")) {
    text = convolution_by_fft(n, is(n, "negacyclic convolution by fft"));
  } else if (is(n, "cyclic convolution by product") || is(n, "negacyclic convolution by product")) {
    text = convolution_by_product(n, is(n, "negacyclic convolution by product"));
  } else if (is(n, "cpu crt cyclic convolution") || is(n, "cpu crt negacyclic convolution")) {
    text = convolution_through_primes(n, is(n, "cpu crt negacyclic convolution"));
  } else if (is(n, "gpu crt cyclic convolution") || is(n, "gpu crt negacyclic convolution")) {
    text = convolution_on_gpu(n, is(n, "gpu crt negacyclic convolution"));
  } else if (is(n, "division by newton iteration")) {
    text = newton_division(n);
  } else if (is(n, "newton division, multi-word modulus")) {
    text = big_newton_division(n);
  } else if (is(n, "z[x] division through primes")) {
    text = "division in Z[x] of lengths " + number(d.length1) + " by " + number(d.length2) +
           " through primes: the quotient's residues modulo 62-bit NTT primes, each from a division in Z/pZ[x] "
           "(below), as many primes as an estimate of its size needs, doubled while one prime more disagrees with "
           "the rebuilt quotient or the proof fails; the CRT in symmetric representation, then one product in Z[x] "
           "proves it: f - q g has degree below deg g (or is 0 for f / g)";
  } else if (is(n, "gpu newton division")) {
    text = "the same on the GPU, product after product there (NTTs modulo p, or CRT primes and Garner): the "
           "inverse grown from FLINT's first terms, the quotient and the remainder; only f, g, those first terms, "
           "q and r cross the bus";
  } else if (is(n, "gpu newton powmod")) {
    text = "the same on the GPU: m, f and FLINT's first terms of the inverse go up once, the inverse is grown, "
           "every square and product and its reduction runs there (NTTs modulo p, or CRT primes and Garner), and "
           "only the result comes back";
  } else if (is(n, "flint nmod_poly_divrem") || is(n, "flint fmpz_mod_poly_divrem")) {
    const char* function = is(n, "flint nmod_poly_divrem") ? "nmod_poly_divrem" : "fmpz_mod_poly_divrem";
    text = "division with remainder in " + ring(d) + "[x] of lengths " + number(d.length1) + " by " +
           number(d.length2) + ": FLINT " + function +
           " (schoolbook division for short operands, else its own Newton iteration on its products)";
  } else if (is(n, "powmod by newton reduction")) {
    text = "power f^e mod m in " + ring(d) + "[x], m of length " + number(d.length1) + ", e of " + number(d.length2) +
           " bits: square and multiply, each product reduced mod m through the inverse of rev(m) to " +
           number(d.length1 > 2 ? d.length1 - 2 : 0) +
           " terms, computed once by Newton's iteration: rev(q) = rev(product) inv, r = product - q m, all of it " +
           (d.modulus ? "cyclic products" : "products (whole, then cut to the terms needed)") + " on cas's engines";
  } else if (is(n, "flint nmod_poly_powmod") || is(n, "flint fmpz_mod_poly_powmod")) {
    const char* function = is(n, "flint nmod_poly_powmod")
                               ? "nmod_poly_powmod (square and multiply with the inverse of rev(m) computed once)"
                               : "fmpz_mod_poly_powmod (square and multiply with the inverse of rev(m) computed once)";
    text = "power f^e mod m in " + ring(d) + "[x], m of length " + number(d.length1) + ", e of " + number(d.length2) +
           " bits: FLINT " + function;
  } else if (is(n, "crt")) {
    text = chinese_remainder(n);
  } else if (is(n, "half-gcd gcd") || is(n, "half-gcd xgcd") || is(n, "half-gcd resultant")) {
    const char* what = is(n, "half-gcd gcd") ? "gcd" : is(n, "half-gcd xgcd") ? "xgcd (with the cofactors)" : "resultant";
    text = std::string(what) + " in " + ring(d) + "[x] of lengths " + number(d.length1) + " and " + number(d.length2) +
           " by the half-gcd: each reduction takes the Euclidean steps of the top halves recursively (half the " +
           "degree at a time), applies their matrix to the whole pair and goes on from there, O(M(n) log n); " +
           (is(n, "half-gcd resultant") ? "the resultant from every step's quotient degree and leading coefficient; "
                                        : "") +
           "FLINT finishes the last short pair; the products and divisions run on cas's engines (below)";
  } else if (is(n, "gpu crt resultant") || is(n, "cpu crt resultant")) {
    text = "resultant in Z[x] of lengths " + number(d.length1) + " and " + number(d.length2) + " through " +
           number(d.primes) + " word-size primes: Hadamard's bound |res| <= |a|_2^deg b |b|_2^deg a < 2^" +
           number(d.bound_bits) + " says how many, primes dividing a leading coefficient are left out; " +
           (is(n, "gpu crt resultant")
                ? std::string("on the GPU both operands reduced modulo every prime, then one Euclidean resultant a "
                              "prime, a thread block each, thousands at once")
                : std::string("on the CPU's cores one prime a task, FLINT " FLINT_VERSION "'s nmod_poly_resultant each")) +
           "; the residues recombined by the CRT in symmetric representation";
  } else if (is(n, "roots by splitting")) {
    text = "roots of a polynomial of length " + number(d.length1) + " over " + ring(d) + ": g = gcd(x^p - x, f), " +
           "the product of its distinct linear factors (x^p mod f by powmod), then g split by gcd((x + a)^((p-1)/2) - 1, " +
           "g) for random a until the factors are short enough for FLINT's roots; every powmod and gcd on cas's " +
           "engines (below)";
  } else if (is(n, "factor by ddf and edf")) {
    text = "factorisation of a polynomial of length " + number(d.length1) + " over " + ring(d) + ": the squarefree " +
           "parts from gcd(f, f') and exact divisions (a p-th root where f' = 0); for each part the distinct-degree " +
           "factorisation, baby steps x^(p^i) and giant steps x^(p^(lj)) mod f by modular compositions (Brent and " +
           "Kung: one matrix product and Horner's rule), gcd(f, prod (x^(p^(lj)) - x^(p^i))) taking the factors of " +
           "each range of degrees; then the product of each degree's factors split by gcd(N(a)^((p-1)/2) - 1, g) " +
           "for random a (N the norm, by compositions with x^(p^k)); every product, gcd and division on cas's " +
           "engines (below)";
  } else if (is(n, "subproduct tree evaluation")) {
    text = "evaluation at " + number(d.length1) + " points over " + ring(d) + " by the subproduct tree: the products " +
           "of the points' factors (x - x_i), 32 to a leaf, pairwise up to prod (x - x_i); f reduced modulo the " +
           "root, then each remainder modulo the node's two children down to the leaves, where it is evaluated " +
           "point by point: O(M(n) log n), every product and remainder on cas's engines (below)";
  } else if (is(n, "subproduct tree interpolation")) {
    text = "interpolation at " + number(d.length1) + " points over " + ring(d) + " by the subproduct tree: the " +
           "tree of the products of (x - x_i), the weights M'(x_i) of M = prod (x - x_i) by evaluation down the " +
           "same tree, then sum y_i / M'(x_i) M / (x - x_i) built from the leaves up, N = N_left M_right + " +
           "N_right M_left at each node: O(M(n) log n), every product on cas's engines (below)";
  } else {
    return "";
  }
  text += shared_among_gpus(n) + residency(d);
  if (n.count > 1) text += " (" + number(n.count) + " times)";
  return text;
}

std::string explain_engine(const std::vector<EngineNote>& notes) {
  bool on_gpu = false, on_cpu = false, cpu_transform = false;
  for (const EngineNote& n : notes) {
    if (!n.what || std::strcmp(n.what, "cas function") == 0) continue;
    (std::strncmp(n.what, "gpu ", 4) == 0 ? on_gpu : on_cpu) = true;
    cpu_transform = cpu_transform || is(n, "cpu ntt") || is(n, "cpu ntt product") || is(n, "cpu crt product") ||
                    is(n, "cpu ntt power") || is(n, "cpu crt") || is(n, "cpu crt power") ||
                    is(n, "cpu crt cyclic convolution") || is(n, "cpu crt negacyclic convolution") ||
                    is(n, "cpu ntt convolution");
  }
  std::string text = "engine: ";
  if (on_gpu) text += on_cpu ? "the GPU (CUDA) for the gpu operations, the CPU for the rest" : "the GPU (CUDA)";
  else if (cpu_transform) text += "the CPU (cas's own transforms on FLINT " FLINT_VERSION "'s nmod arithmetic)";
  else if (on_cpu) text += "the CPU (FLINT " FLINT_VERSION ")";
  else text += "the interpreter, with GMP and FLINT for single integers and elements of Z/pZ";
  if (!gpu_usable()) return text + "; no usable GPU here";
  if (gpu_mode() == GpuMode::Off) return text + "; the GPU is off (:gpu auto)";
  if (gpu_mode() == GpuMode::On) return text + "; :gpu on sends every product and transform to the GPU";
  const Crossovers& c = crossovers();
  auto from = [&](GpuOperation op) { return number(c.length[static_cast<size_t>(op)]); };
  auto both = [&](GpuOperation product, GpuOperation transform) { return from(product) + " and " + from(transform); };
  const bool big_products = c.length[static_cast<size_t>(GpuOperation::ProductBigPrime)] != never_on_gpu;
  return text + "; the GPU takes products from " + from(GpuOperation::ProductNttPrime) +
         " coefficients and transforms from length " + from(GpuOperation::Transform) + " (p < 2^32: " +
         both(GpuOperation::ProductNttPrime32, GpuOperation::Transform32) +
         "; p < 2^17: " + both(GpuOperation::ProductNttPrime17, GpuOperation::Transform17) +
         "; a prime p of 2 to 16 words: transforms from " + from(GpuOperation::TransformBigPrime) +
         (big_products ? ", products by its kernels from " + from(GpuOperation::ProductBigPrime) : "") + ")";
}

}  // namespace cas
