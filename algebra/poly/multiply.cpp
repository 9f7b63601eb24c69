#include "algebra/poly/multiply.hpp"

#include "algebra/support/ceil_log2.hpp"
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/dispatch/resident.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/multimodular/multimodular.hpp"
#include "algebra/fourier/big_prime_words.hpp"
#include "algebra/fourier/ntt_product_cpu.hpp"
#include "algebra/support/parallel.hpp"
#include "algebra/support/progress.hpp"

#include "gpu/big_prime.hpp"
#include "gpu/crt.hpp"
#include "gpu/ntt.hpp"

#include <flint/fmpz_vec.h>
#include <flint/nmod_vec.h>
#include <flint/ulong_extras.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

namespace cas {

namespace {

// FLINT's products and powers are recorded as the running operation from this many result
// coefficients: shorter ones return within a fraction of a millisecond, and the algorithms make
// many of them.
constexpr double flint_progress_from = 1024;

// The numbers :explain shows for a product (or power) of operands of these lengths.
OperationDetail product_detail(const ModPoly& a, slong length1, slong length2) {
  OperationDetail d;
  d.length1 = static_cast<size_t>(length1);
  d.length2 = static_cast<size_t>(length2);
  d.modulus = a.word() ? a.modulus()->word() : 0;
  d.modulus_bits = static_cast<unsigned>(fmpz_bits(a.modulus()->value()));
  return d;
}

OperationDetail product_detail(slong length1, slong length2) {
  OperationDetail d;
  d.length1 = static_cast<size_t>(length1);
  d.length2 = static_cast<size_t>(length2);
  return d;
}

// Asked for every product: the modulus's primality is computed once (Modulus::is_prime), where
// gpu::plan_product would test it, and search the CRT primes, at each call.
GpuOperation product_operation(const ModPoly& a, size_t length) {
  const bool one_prime = one_transform_modulo(*a.modulus(), length);
  return for_modulus(one_prime ? GpuOperation::ProductNttPrime : GpuOperation::ProductCrt, a.modulus()->word());
}

template <class Poly>
size_t shorter_length(const Poly& a, const Poly& b) {
  return static_cast<size_t>(std::min(a.length(), b.length()));
}

// ---- products by a constant ------------------------------------------------------------
// A product by a constant c (an operand of length 1) is c times every coefficient of the other,
// in ranges on the cores. Sent by its length to a transform or the GPU, it would take far longer
// (2^20 coefficients mod 998244353 on 16 cores: 0.17-0.22 ms, against 4.0-4.5 ms through a
// transform; docs/measurements.md, "Products by a constant and by a short operand").
constexpr size_t scaling_grain = size_t{1} << 14;

bool is_constant_product(slong length_a, slong length_b) {
  return length_a > 0 && length_b > 0 && std::min(length_a, length_b) == 1;
}

ZPoly scale_on_cores(const ZPoly& f, const fmpz* c) {
  const slong n = f.length();
  ZPoly r;
  fmpz_poly_fit_length(r.get(), n);
  parallel_ranges(static_cast<size_t>(n), scaling_grain, [&](size_t begin, size_t end) {
    _fmpz_vec_scalar_mul_fmpz(r.get()->coeffs + begin, f.get()->coeffs + begin, static_cast<slong>(end - begin), c);
  });
  _fmpz_poly_set_length(r.get(), n);  // c != 0: over Z no coefficient vanishes
  r.mark_made_on_cores();
  engine_note("cpu scalar product", static_cast<double>(n), product_detail(n, 1));
  return r;
}

ModPoly scale_on_cores(const ModPoly& f, const ModPoly& constant) {
  const slong n = f.length();
  engine_note("cpu scalar product", static_cast<double>(n), product_detail(f, n, 1));
  if (!f.word()) {  // FLINT's, on one core: its products cost more than the ranges would gain
    ModPoly r(f.modulus());
    fmpz_mod_poly_scalar_mul_fmpz(r.big(), f.big(), constant.big()->coeffs, f.modulus()->ctx());
    return r;
  }
  const ulong c = constant.nmod()->coeffs[0];
  const nmod_t mod = f.modulus()->nmod();
  return written_modpoly(f.modulus(), static_cast<size_t>(n), [&](ulong* out) {
    parallel_ranges(static_cast<size_t>(n), scaling_grain, [&](size_t begin, size_t end) {
      _nmod_vec_scalar_mul_nmod(out + begin, f.nmod()->coeffs + begin, static_cast<slong>(end - begin), c, mod);
    });
  });
}

// An operand of a product on the GPU: the device array its value holds, or its host array
// uploaded.
std::shared_ptr<const gpu::DeviceWords> operand_on_gpu(const ModPoly& f) {
  if (auto held = f.device_words()) return held;
  static_assert(sizeof(ulong) == sizeof(std::uint64_t), "FLINT's words are the engine's words");
  return std::make_shared<const gpu::DeviceWords>(reinterpret_cast<const std::uint64_t*>(f.nmod()->coeffs),
                                                  static_cast<size_t>(f.length()));
}

// Whether a result of the GPU over the Z/pZ of m may stay there: its length must be known without
// reading it, which a prime p gives (the leading coefficient, a product of nonzero ones, is nonzero).
bool result_may_stay(ResultPlace place, const Modulus& m) { return place == ResultPlace::KeptOnGpu && m.is_prime(); }

// compute() -> the result's device array on the GPU; an allocation that fails is tried once more
// after the values kept on the GPU have moved to the host. The result: kept on the GPU as the
// value's coefficients (`keep`), or brought to a host array. Throws what compute throws.
template <class Compute>
ModPoly device_result(const ModulusPtr& m, size_t length, bool keep, Compute compute) {
  gpu::DeviceWords out;
  try {
    out = compute();
  } catch (const gpu::OutOfMemory&) {
    if (resident_use().values == 0) throw;
    move_resident_to_host();
    out = compute();
  }
  if (keep) {
    gpu::synchronize();  // the value is complete when the statement's clock stops
    return ModPoly::on_gpu(m, keep_on_gpu(std::move(out), length));
  }
  return written_modpoly(m, length, [&](ulong* host) {
    out.download(reinterpret_cast<std::uint64_t*>(host), length);
  });
}

// The product on the GPU with an operand it holds, or with the result kept there.
ModPoly multiply_on_device(const ModPoly& a, const ModPoly& b, bool keep) {
  const size_t length = static_cast<size_t>(a.length() + b.length() - 1);
  const std::shared_ptr<const gpu::DeviceWords> da = operand_on_gpu(a);
  const bool same = &a == &b || (a.device_words() && a.device_words() == b.device_words());
  const std::shared_ptr<const gpu::DeviceWords> db = same ? da : operand_on_gpu(b);
  return device_result(a.modulus(), length, keep, [&] { return gpu::multiply_mod(*da, *db, a.modulus()->word()); });
}

// The product on the GPU: from and into FLINT's coefficient arrays, or (operands held on the GPU,
// or a result to keep there) through device arrays; nullopt (after a notice) when the GPU could
// not do it, so the CPU takes over.
std::optional<ModPoly> multiply_on_gpu(const ModPoly& a, const ModPoly& b, GpuOperation op, ResultPlace place) {
  const size_t length = static_cast<size_t>(a.length() + b.length() - 1);
  const bool one_prime = op == GpuOperation::ProductNttPrime || op == GpuOperation::ProductNttPrime32 ||
                         op == GpuOperation::ProductNttPrime17;
  const ProgressScope progress(one_prime ? "gpu ntt product" : "gpu crt product", static_cast<double>(length));
  OperationDetail detail = product_detail(a, a.length(), b.length());
  detail.operands_on_gpu = (a.device_words() ? 1u : 0u) + (b.device_words() ? 1u : 0u);
  detail.result_kept_on_gpu = result_may_stay(place, *a.modulus());
  std::optional<ModPoly> r;
  try {
    if (detail.operands_on_gpu || detail.result_kept_on_gpu)
      r = multiply_on_device(a, b, detail.result_kept_on_gpu);
    else
      r = written_modpoly(a.modulus(), length, [&](ulong* out) {
        gpu::multiply_mod(a.nmod()->coeffs, static_cast<size_t>(a.length()), b.nmod()->coeffs,
                          static_cast<size_t>(b.length()), a.modulus()->word(), out);
        note_primes_per_device(detail, gpu::last_split().primes_per_device);
      });
  } catch (const gpu::Error& e) {
    gpu_failure_notice(e, length, "the product");
    return std::nullopt;
  }
  engine_note(one_prime ? "gpu ntt product" : "gpu crt product", static_cast<double>(length), detail);
  return r;
}

// What :timer and :explain say about a multi-modular product.
OperationDetail multimodular_detail(const MultimodularPlan& plan, slong length1, slong length2) {
  OperationDetail d = product_detail(length1, length2);
  d.primes = static_cast<unsigned>(plan.primes.size());
  d.bound_bits = plan.bound_bits;
  note_primes_per_device(d, plan.primes_per_device);
  return d;
}


// The Z[x] product through primes and the CRT on the GPU; nullopt (after a notice) when the GPU
// could not do it.
std::optional<ZPoly> multiply_z_on_gpu(const ZPoly& a, const ZPoly& b, MultimodularPlan& plan) {
  const ProgressScope progress("gpu crt product", static_cast<double>(a.length() + b.length() - 1));
  try {
    return multiply_multimodular(a, b, ProductEngine::Gpu, &plan);
  } catch (const gpu::Error& e) {
    gpu_failure_notice(e, static_cast<size_t>(a.length() + b.length() - 1), "the product");
    return std::nullopt;
  }
}

// Z/pZ[x] for p above 64 bits: the product in Z[x] on the GPU, reduced mod p.
std::optional<ModPoly> multiply_big_modulus_on_gpu(const ModPoly& a, const ModPoly& b) {
  const ProgressScope progress("gpu crt product", static_cast<double>(a.length() + b.length() - 1));
  MultimodularPlan plan;
  try {
    ModPoly r = multiply_multimodular(a, b, ProductEngine::Gpu, &plan);
    OperationDetail d = multimodular_detail(plan, a.length(), b.length());
    d.modulus_bits = static_cast<unsigned>(fmpz_bits(a.modulus()->value()));
    engine_note("gpu crt", static_cast<double>(a.length() + b.length() - 1), d);
    return r;
  } catch (const gpu::Error& e) {
    gpu_failure_notice(e, static_cast<size_t>(a.length() + b.length() - 1), "the product");
    return std::nullopt;
  }
}

// Whether a product in Z/pZ[x] for p above 64 bits goes through the primes on the CPU (as a Z[x]
// product): from their crossover, while few primes do; the coefficients lifted to 0..p-1 need at
// most 2 bits(p) + ceil(log2(min(len a, len b))) bits. From 2^14 coefficients they win 1.4x (80-bit
// p, 3 primes) to 1.6x (521 bits, 18 primes) against fmpz_mod_poly_mul on two cores:
// docs/measurements.md, "Products modulo a multi-word p through primes on the CPU".
bool big_modulus_cpu_primes_take(const Modulus& m, size_t length, size_t shorter) {
  if (m.word_size() || length < cpu_crt_crossover_z || short_operand_stays_with_flint(ShortOperandClass::Z, shorter))
    return false;
  const ulong bound_bits = 2 * fmpz_bits(m.value()) + ceil_log2(shorter);
  return multimodular_primes(bound_bits, ceil_log2(length)).size() <= cpu_crt_most_primes_z(length);
}

// That product, or nullopt where FLINT's takes it.
std::optional<ModPoly> multiply_big_modulus_on_cpu(const ModPoly& a, const ModPoly& b) {
  const size_t length = static_cast<size_t>(a.length() + b.length() - 1);
  if (a.is_zero() || b.is_zero() || !big_modulus_cpu_primes_take(*a.modulus(), length, shorter_length(a, b)))
    return std::nullopt;
  const ProgressScope progress("cpu crt product", static_cast<double>(length));
  MultimodularPlan plan;
  ModPoly r = multiply_multimodular(a, b, ProductEngine::Cpu, &plan);
  OperationDetail d = multimodular_detail(plan, a.length(), b.length());
  d.modulus_bits = static_cast<unsigned>(fmpz_bits(a.modulus()->value()));
  engine_note("cpu crt", static_cast<double>(length), d);
  return r;
}

// The Z[x] product on the CPU through the primes from their crossover while few primes do
// (dispatch.hpp); nullopt below.
std::optional<ZPoly> multiply_z_on_cpu_primes(const ZPoly& a, const ZPoly& b) {
  const size_t length = static_cast<size_t>(a.length() + b.length() - 1);
  if (a.is_zero() || b.is_zero() || length < cpu_crt_crossover_z ||
      short_operand_stays_with_flint(ShortOperandClass::Z, shorter_length(a, b)))
    return std::nullopt;  // (planning scans)
  MultimodularPlan plan = plan_multimodular(a, b);
  if (plan.primes.size() > cpu_crt_most_primes_z(length)) return std::nullopt;
  const ProgressScope progress("cpu crt product", static_cast<double>(length));
  ZPoly r = multiply_with_primes(a, b, plan.primes, ProductEngine::Cpu);
  engine_note("cpu crt", static_cast<double>(length), multimodular_detail(plan, a.length(), b.length()));
  return r;
}

// The most primes from which the GPU rebuilds few coefficients well: the warps take at most 384
// (gpu/garner_warps.cu); above, one thread takes each coefficient's k^2 / 2 dependent steps.
constexpr size_t most_primes_for_few_coefficients = 384;

// Whether the GPU's reconstruction pays for a result of `length` coefficients of at most
// `result_bits` bits, in auto mode: with more primes than the warps take, only from twice as many
// coefficients as primes. Beyond the warps the GPU's Garner costs k^2 / 2 dependent steps a
// coefficient (16 terms of 16000 bits, about 520 primes: 24 ms against FLINT's 2.3):
// docs/measurements.md, "Dispatcher weights for Z[x] products, powers and large moduli".
bool gpu_reconstruction_pays(size_t length, ulong result_bits) {
  if (gpu_mode() != GpuMode::Auto) return true;
  const size_t primes = static_cast<size_t>(result_bits / (multimodular_prime_bits - 1) + 1);
  return primes <= most_primes_for_few_coefficients || length >= 2 * primes;
}

// Whether a product in Z/pZ[x] for p above 64 bits of `length` terms goes to the GPU: as the Z[x]
// product of coefficients below p that it is, its length weighed by their size (z_product_weight):
// by the length alone 256 terms modulo 2^521 - 1 would stay with FLINT at 0.88 ms against the GPU's
// 0.35 (docs/measurements.md, "Dispatcher weights for Z[x] products, powers and large moduli").
bool big_modulus_goes_to_gpu(const Modulus& m, size_t length) {
  const unsigned long bits = fmpz_bits(m.value());
  return use_gpu(GpuOperation::ProductZ, z_product_weight(length, bits, bits)) &&
         gpu_reconstruction_pays(length, 2 * bits + ceil_log2(length));
}

bool wants_big_modulus_gpu(const ModPoly& a, const ModPoly& b) {
  return !a.word() && !a.is_zero() && !b.is_zero() &&
         big_modulus_goes_to_gpu(*a.modulus(), static_cast<size_t>(a.length() + b.length() - 1));
}

// ---- products modulo a multi-word prime by the GPU's big-prime convolution (gpu/big_prime.hpp)

// The words of p when a product of `length` terms modulo the multi-word p of m goes to the GPU's
// big-prime convolution: from the crossover product.big_prime, p a prime of big_prime_limbs words
// with a root of unity of the power-of-two order n >= length (2^k | p - 1), n up to the kernels'
// longest; 0 otherwise.
size_t big_prime_product_limbs(const Modulus& m, size_t length) {
  if (m.word_size() || length < 2 || !use_gpu(GpuOperation::ProductBigPrime, length)) return 0;
  const unsigned log2_n = ceil_log2(length);
  const size_t limbs = big_prime_limbs(m);
  if (!limbs || log2_n > static_cast<unsigned>(gpu::big_prime_most_log_length)) return 0;
  Fmpz p_minus_1;
  fmpz_sub_ui(p_minus_1.get(), m.value(), 1);
  return fmpz_val2(p_minus_1.get()) >= log2_n && m.is_prime() ? limbs : 0;
}

size_t big_prime_product_limbs(const ModPoly& a, const ModPoly& b) {
  if (a.word() || a.is_zero() || b.is_zero()) return 0;
  return big_prime_product_limbs(*a.modulus(), static_cast<size_t>(a.length() + b.length() - 1));
}

// a b as the cyclic convolution of length n (the power of two >= na + nb - 1, so nothing wraps)
// on the GPU, p of `limbs` words: the coefficients straight into limb-major words and back, on the
// cores. nullopt (after a notice) when the GPU could not do it.
std::optional<ModPoly> multiply_big_prime_on_gpu(const ModPoly& a, const ModPoly& b, size_t limbs) {
  const Modulus& m = *a.modulus();
  const size_t length_a = static_cast<size_t>(a.length()), length_b = static_cast<size_t>(b.length());
  const size_t length = length_a + length_b - 1, n = size_t{1} << ceil_log2(length);
  const ProgressScope progress("gpu big-prime product", static_cast<double>(length));
  Fmpz w;
  find_root_of_unity(w, m, n);  // big_prime_product_limbs: p is prime and n | p - 1
  const Words x = coefficient_limbs(a, limbs), y = coefficient_limbs(b, limbs);
  const Words p = element_limbs(m.value(), limbs), root = element_limbs(w.get(), limbs);
  Words c(limbs * length);
  try {
    gpu::big_prime_convolve(x.data(), length_a, y.data(), length_b, n, p.data(), limbs, root.data(), nullptr,
                            c.data(), length, convolution_shift_radix(n, m, limbs));
  } catch (const gpu::Error& e) {
    gpu_failure_notice(e, length, "the product");
    return std::nullopt;
  }
  engine_note("gpu big-prime product", static_cast<double>(length), product_detail(a, a.length(), b.length()));
  return modpoly_from_limbs(a.modulus(), c.data(), length, limbs);
}
}  // namespace

bool big_modulus_product_leaves_flint(const Modulus& m, size_t length, size_t shorter) {
  return !m.word_size() && (big_prime_product_limbs(m, length) || big_modulus_goes_to_gpu(m, length) ||
                            big_modulus_cpu_primes_take(m, length, shorter));
}

namespace {

bool wants_gpu(const ModPoly& a, const ModPoly& b, GpuOperation& op) {
  if (!a.word() || a.is_zero() || b.is_zero()) return false;
  const size_t length = static_cast<size_t>(a.length() + b.length() - 1);
  op = product_operation(a, length);
  return use_gpu(op, length);
}

// Whether the power of two >= length divides p - 1 (p > 2).
bool transform_length_divides(ulong p, size_t length) {
  const unsigned log2_length = ceil_log2(length);
  return p > 2 && log2_length < 64 && (p - 1) % (ulong{1} << log2_length) == 0;
}
}  // namespace

bool one_transform_modulo(const Modulus& m, size_t length) {
  return m.word_size() && transform_length_divides(m.word(), length) && m.is_prime();
}

bool one_transform_modulo(ulong p, size_t length) { return transform_length_divides(p, length) && n_is_prime(p); }

namespace {

bool wants_cpu_ntt(const ModPoly& a, const ModPoly& b) {
  if (!a.word() || a.is_zero() || b.is_zero()) return false;
  const size_t length = static_cast<size_t>(a.length() + b.length() - 1);
  const bool one_transform = one_transform_modulo(*a.modulus(), length);
  const ulong p = a.modulus()->word();
  return use_cpu_ntt(one_transform, p, length) &&
         !short_operand_stays_with_flint(short_operand_class(one_transform, p), shorter_length(a, b));
}

// The product through the CPU's transforms, modulo p or through CRT primes.
ModPoly multiply_on_cpu_ntt(const ModPoly& a, const ModPoly& b) {
  const size_t length = static_cast<size_t>(a.length() + b.length() - 1);
  const ulong p = a.modulus()->word();
  const std::vector<ulong> primes =
      cpu_product_primes(static_cast<size_t>(a.length()), static_cast<size_t>(b.length()), p);
  const bool one_transform = primes.size() == 1 && primes[0] == p;
  const ProgressScope progress(one_transform ? "cpu ntt product" : "cpu crt product", static_cast<double>(length));
  if (!one_transform) progress_primes(primes.size());
  ModPoly r = written_modpoly(a.modulus(), length, [&](ulong* out) {
    multiply_words_cpu_ntt(a.nmod()->coeffs, static_cast<size_t>(a.length()), b.nmod()->coeffs,
                           static_cast<size_t>(b.length()), a.modulus()->nmod(), out);
  });
  OperationDetail d = product_detail(a, a.length(), b.length());
  if (!one_transform) d.primes = static_cast<unsigned>(primes.size());
  engine_note(one_transform ? "cpu ntt product" : "cpu crt product", static_cast<double>(length), d);
  return r;
}

}  // namespace

void gpu_failure_notice(const std::exception& e, size_t length, const char* what) {
  if (dynamic_cast<const gpu::OutOfMemory*>(&e))
    post_notice("the GPU ran out of memory for " + std::string(what) + " of " + std::to_string(length) +
                (std::string(what) == "an integer product" ? " bits" : " coefficients") + "; the CPU computed it");
  else
    post_notice(std::string("the GPU failed (") + e.what() + "); the CPU computed " + what);
}

ModPoly multiply(const ModPoly& a, const ModPoly& b, ResultPlace place) {
  if (same_modulus(a.modulus(), b.modulus()) && !is_constant_product(a.length(), b.length())) {
    GpuOperation op;
    if (wants_gpu(a, b, op))
      if (auto r = multiply_on_gpu(a, b, op, place)) return std::move(*r);
    if (const size_t limbs = big_prime_product_limbs(a, b))
      if (auto r = multiply_big_prime_on_gpu(a, b, limbs)) return std::move(*r);
    if (wants_big_modulus_gpu(a, b))
      if (auto r = multiply_big_modulus_on_gpu(a, b)) return std::move(*r);
  }
  return multiply_on_cpu(a, b);
}

namespace {
bool goes_to_gpu(const ModPoly& a, const ModPoly& b) {
  if (!same_modulus(a.modulus(), b.modulus()) || is_constant_product(a.length(), b.length())) return false;
  GpuOperation op;
  return wants_gpu(a, b, op) || big_prime_product_limbs(a, b) || wants_big_modulus_gpu(a, b);
}
}  // namespace

std::vector<ModPoly> multiply_each(const std::vector<Operands>& products) {
  const auto on_gpu = [](const ModPoly& a, const ModPoly& b) { return multiply(a, b); };
  const auto on_cores = [](const ModPoly& a, const ModPoly& b) { return multiply_on_cpu(a, b); };
  return each_pair(products, goes_to_gpu, on_gpu, on_cores);
}

ModPoly multiply_on_cpu(const ModPoly& a, const ModPoly& b) {
  if (same_modulus(a.modulus(), b.modulus()) && is_constant_product(a.length(), b.length()))
    return a.length() == 1 ? scale_on_cores(b, a) : scale_on_cores(a, b);
  if (same_modulus(a.modulus(), b.modulus()) && wants_cpu_ntt(a, b)) return multiply_on_cpu_ntt(a, b);
  if (same_modulus(a.modulus(), b.modulus()))
    if (auto r = multiply_big_modulus_on_cpu(a, b)) return std::move(*r);
  double n = static_cast<double>(a.length() + b.length());
  const char* what = a.word() ? "flint nmod_poly_mul" : "flint fmpz_mod_poly_mul";
  engine_note(what, n, product_detail(a, a.length(), b.length()));
  const ProgressScope progress(what, n, n >= flint_progress_from);
  return mul_flint(a, b);
}

namespace {
ulong largest_coefficient_bits(const ZPoly& f) {
  const slong bits = _fmpz_vec_max_bits(f.get()->coeffs, f.length());
  return static_cast<ulong>(bits < 0 ? -bits : bits);
}
}  // namespace

bool z_product_goes_to_gpu(const ZPoly& a, const ZPoly& b) {
  if (a.is_zero() || b.is_zero()) return false;
  const size_t length = static_cast<size_t>(a.length() + b.length() - 1);
  // No Z[x] product goes to the GPU (it is off, there is none, or the calibration says never): no scan.
  if (!use_gpu(GpuOperation::ProductZ, SIZE_MAX)) return false;
  // From 2^14 coefficients gpu_reconstruction_pays could refuse only coefficients of some 250000
  // bits: no scan (2^20 coefficients take it milliseconds).
  if (length >= (size_t{1} << 14) && use_gpu(GpuOperation::ProductZ, length)) return true;
  const unsigned long bits_a = largest_coefficient_bits(a), bits_b = largest_coefficient_bits(b);
  return use_gpu(GpuOperation::ProductZ, z_product_weight(length, bits_a, bits_b)) &&
         gpu_reconstruction_pays(length, bits_a + bits_b + ceil_log2(length));
}

ZPoly multiply(const ZPoly& a, const ZPoly& b) {
  if (!is_constant_product(a.length(), b.length()) && !a.is_zero() && !b.is_zero()) {
    const size_t length = static_cast<size_t>(a.length() + b.length() - 1);
    MultimodularPlan plan;
    if (z_product_goes_to_gpu(a, b))
      if (auto r = multiply_z_on_gpu(a, b, plan)) {
        engine_note("gpu crt", static_cast<double>(length), multimodular_detail(plan, a.length(), b.length()));
        return std::move(*r);
      }
  }
  return multiply_on_cpu(a, b);
}

ZPoly multiply_on_cpu(const ZPoly& a, const ZPoly& b) {
  if (is_constant_product(a.length(), b.length()))
    return a.length() == 1 ? scale_on_cores(b, a.coeff(0)) : scale_on_cores(a, b.coeff(0));
  if (auto r = multiply_z_on_cpu_primes(a, b)) return std::move(*r);
  double n = static_cast<double>(a.length() + b.length());
  engine_note("flint fmpz_poly_mul", n, product_detail(a.length(), b.length()));
  const ProgressScope progress("flint fmpz_poly_mul", n, n >= flint_progress_from);
  ZPoly r;
  fmpz_poly_mul(r.get(), a.get(), b.get());
  return r;
}

void multiply(fmpz_t out, const fmpz_t a, const fmpz_t b) {
  // Small factors (no mpz behind them) never leave GMP: this is the scalar path of every `*`.
  if (COEFF_IS_MPZ(*a) && COEFF_IS_MPZ(*b)) {
    const ulong smaller_bits = std::min(fmpz_bits(a), fmpz_bits(b));
    if (use_gpu(GpuOperation::ProductInteger, smaller_bits)) {
      MultimodularPlan plan;
      const ulong limb_bits = integer_limb_bits(fmpz_bits(a), fmpz_bits(b));
      const slong limbs_a = static_cast<slong>((fmpz_bits(a) + limb_bits - 1) / limb_bits);
      const slong limbs_b = static_cast<slong>((fmpz_bits(b) + limb_bits - 1) / limb_bits);
      const ProgressScope progress("gpu crt integer product", static_cast<double>(limbs_a + limbs_b - 1));
      try {
        multiply_integers_multimodular(out, a, b, ProductEngine::Gpu, &plan);
        engine_note("gpu crt integer", static_cast<double>(limbs_a + limbs_b - 1),
                    multimodular_detail(plan, limbs_a, limbs_b));
        return;
      } catch (const gpu::Error& e) {
        gpu_failure_notice(e, smaller_bits, "an integer product");
      }
    }
  }
  fmpz_mul(out, a, b);
}

bool power_fits_one_transform(const ModPoly& a, ulong e) {
  return gpu::power_in_one_transform(static_cast<size_t>(a.length()), e, a.modulus()->word());
}

// a^e on the GPU in one transform (power_fits_one_transform): from and into FLINT's arrays, or
// through device arrays (an operand the GPU holds, or a result to keep there); nullopt (after a
// notice) when the GPU could not do it.
std::optional<ModPoly> power_in_one_transform_on_gpu(const ModPoly& a, ulong e, size_t result_length,
                                                     ResultPlace place) {
  const ProgressScope progress("gpu ntt power", static_cast<double>(result_length));
  OperationDetail detail = product_detail(a, a.length(), static_cast<slong>(e));
  detail.operands_on_gpu = a.device_words() ? 1 : 0;
  detail.result_kept_on_gpu = result_may_stay(place, *a.modulus());
  std::optional<ModPoly> r;
  try {
    if (detail.operands_on_gpu || detail.result_kept_on_gpu) {
      const std::shared_ptr<const gpu::DeviceWords> da = operand_on_gpu(a);
      r = device_result(a.modulus(), result_length, detail.result_kept_on_gpu,
                        [&] { return gpu::power_mod(*da, e, a.modulus()->word()); });
    } else {
      r = written_modpoly(a.modulus(), result_length, [&](ulong* out) {
        gpu::power_mod(a.nmod()->coeffs, static_cast<size_t>(a.length()), e, a.modulus()->word(), out);
      });
    }
  } catch (const gpu::Error& error) {
    gpu_failure_notice(error, result_length, "the power");
    return std::nullopt;
  }
  engine_note("gpu ntt power", static_cast<double>(result_length), detail);
  return r;
}

// a^e by square and multiply through multiply(), so that each product takes the engine its size
// calls for; e >= 1.
ModPoly power_by_squaring(const ModPoly& a, ulong e, ResultPlace place = ResultPlace::Host) {
  std::optional<ModPoly> result;  // unset until the lowest set bit: no product by 1
  ModPoly base = a;
  for (ulong bits = e;; bits >>= 1) {
    if (bits & 1) result = result ? multiply(*result, base, place) : base;
    if (bits <= 1) break;
    base = multiply(base, base, place);
  }
  return std::move(*result);
}

// a^e through the CPU's transforms in one transform modulo p.
ModPoly power_on_cpu_ntt(const ModPoly& a, ulong e, size_t result_length) {
  const ProgressScope progress("cpu ntt power", static_cast<double>(result_length));
  ModPoly r = written_modpoly(a.modulus(), result_length, [&](ulong* out) {
    power_words_cpu_ntt(a.nmod()->coeffs, static_cast<size_t>(a.length()), e, a.modulus()->nmod(), out);
  });
  engine_note("cpu ntt power", static_cast<double>(result_length), product_detail(a, a.length(), static_cast<slong>(e)));
  return r;
}

ModPoly power(const ModPoly& a, ulong e, ResultPlace place) {
  // Large powers on the GPU: in one transform when p has the roots of unity, else by square and
  // multiply so that the GPU takes the big squarings. The same on the CPU's transforms above
  // their crossover; FLINT's own powering below.
  const double result_length = static_cast<double>(a.degree()) * static_cast<double>(e) + 1;
  const bool large = a.word() && a.length() > 1 && e > 1;
  if (large && use_gpu(product_operation(a, static_cast<size_t>(result_length)), static_cast<size_t>(result_length))) {
    if (!power_fits_one_transform(a, e)) return power_by_squaring(a, e, place);
    if (auto r = power_in_one_transform_on_gpu(a, e, static_cast<size_t>(result_length), place))
      return std::move(*r);
  }
  // Above 64 bits: square and multiply, so that the large squarings take the primes (CPU or GPU)
  // or the GPU's big-prime convolution.
  if (!a.word() && a.length() > 1 && e > 1 &&
      (result_length >= static_cast<double>(cpu_crt_crossover_z) ||
       (result_length <= 0x1p40 && big_prime_product_limbs(*a.modulus(), static_cast<size_t>(result_length)))))
    return power_by_squaring(a, e);
  if (large && result_length <= 0x1p40) {
    const ulong p = a.modulus()->word();
    const size_t length = static_cast<size_t>(result_length);
    const bool one_transform = cpu_power_in_one_transform(static_cast<size_t>(a.length()), e, p);
    if (use_cpu_ntt(one_transform, p, length))
      return one_transform ? power_on_cpu_ntt(a, e, length) : power_by_squaring(a, e);
  }
  const char* what = a.word() ? "flint nmod_poly_pow" : "flint fmpz_mod_poly_pow";
  engine_note(what, result_length, product_detail(a, a.length(), static_cast<slong>(e)));
  const ProgressScope progress(what, result_length, result_length >= flint_progress_from);
  return pow_flint(a, e);
}

// Z[x] powers on the CPU through the primes, each prime's power in one transform
// (power_multimodular), from a result of cpu_crt_power_crossover_z coefficients while few primes
// do; nullopt otherwise.
std::optional<ZPoly> power_z_on_cpu_primes(const ZPoly& a, ulong e) {
  if (a.is_zero() || a.length() < 2 || e < 2 || e > (ulong{1} << 40) / static_cast<ulong>(a.length() - 1))
    return std::nullopt;
  const size_t length = static_cast<size_t>(e) * static_cast<size_t>(a.length() - 1) + 1;
  if (length < cpu_crt_power_crossover_z) return std::nullopt;
  // The primes are at least this many (multimodular_primes): find them only when few will do.
  const ulong bound_bits = power_bound_bits(a, e);
  if (bound_bits / (multimodular_prime_bits - 1) >= cpu_crt_most_primes_power_z(length)) return std::nullopt;
  const MultimodularPlan plan = plan_multimodular_power(a, e, bound_bits);
  const ProgressScope progress("cpu crt power", static_cast<double>(length));
  ZPoly r = power_with_primes(a, e, plan.primes, ProductEngine::Cpu);
  engine_note("cpu crt power", static_cast<double>(length), multimodular_detail(plan, a.length(), static_cast<slong>(e)));
  return r;
}

namespace {
// The least weight a power's length takes: FLINT's powering slows with e faster than its
// coefficients grow. With 64-bit coefficients FLINT breaks even with the GPU near 260 result
// coefficients for cubes and 100 for 5th powers, where the coefficients' size alone weighs them
// 1.3x and 1.8x; so 1.5 (e - 1)^1.4, which the size overtakes from about 300 bits, and no more
// than at e = 5, the largest measured ((x + 1)^20 stays with FLINT). docs/measurements.md,
// "Dispatcher weights for Z[x] products, powers and large moduli".
double least_power_weight(ulong e) {
  const double steps = static_cast<double>(std::min<ulong>(e - 1, 4));
  return 1.5 * std::pow(steps, 1.4);
}

// Whether a^e (a result of `length` coefficients) goes to the GPU: its length weighed as a
// product's whose coefficients are as large as the power's, e bits(a) (z_product_weight with half
// of that on each side), and at least by least_power_weight. By the length alone powers would stay
// with FLINT at up to 17 times the GPU's time (256 terms of 4000 bits cubed: 33.7 against 1.96 ms;
// docs/measurements.md, "Dispatcher weights for Z[x] products, powers and large moduli").
bool z_power_goes_to_gpu(const ZPoly& a, ulong e, size_t length) {
  if (!use_gpu(GpuOperation::ProductZ, SIZE_MAX)) return false;
  const unsigned long half = static_cast<unsigned long>(e) * largest_coefficient_bits(a) / 2;
  const double least = static_cast<double>(length) * least_power_weight(e);
  const size_t weight = std::max(z_product_weight(length, half, half),
                                 least >= static_cast<double>(SIZE_MAX) ? SIZE_MAX : static_cast<size_t>(least));
  return use_gpu(GpuOperation::ProductZ, weight) &&
         gpu_reconstruction_pays(length, 2 * half + ceil_log2(length) * static_cast<ulong>(e));
}
}  // namespace

ZPoly power(const ZPoly& a, ulong e) {
  // Above the Z[x] crossover: every prime's power in one transform on the GPU.
  if (!a.is_zero() && a.length() > 1 && e > 1 && e <= (ulong{1} << 40) / static_cast<ulong>(a.length() - 1)) {
    const size_t length = static_cast<size_t>(e) * static_cast<size_t>(a.length() - 1) + 1;
    if (z_power_goes_to_gpu(a, e, length)) {
      const ProgressScope progress("gpu crt power", static_cast<double>(length));
      MultimodularPlan plan;
      try {
        ZPoly r = power_multimodular(a, e, ProductEngine::Gpu, &plan);
        engine_note("gpu crt power", static_cast<double>(length),
                    multimodular_detail(plan, a.length(), static_cast<slong>(e)));
        return r;
      } catch (const gpu::Error& error) {
        gpu_failure_notice(error, length, "the power");
      }
    }
  }
  if (auto r = power_z_on_cpu_primes(a, e)) return std::move(*r);
  double n = static_cast<double>(a.length()) * static_cast<double>(e);
  engine_note("flint fmpz_poly_pow", n, product_detail(a.length(), static_cast<slong>(e)));
  const ProgressScope progress("flint fmpz_poly_pow", n, n >= flint_progress_from);
  ZPoly r;
  fmpz_poly_pow(r.get(), a.get(), e);
  return r;
}

}  // namespace cas
