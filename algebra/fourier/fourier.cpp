#include "algebra/fourier/fourier.hpp"

#include "algebra/fourier/big_prime_words.hpp"
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/support/error.hpp"
#include "algebra/values/format.hpp"
#include "algebra/values/big_prime_vectors.hpp"
#include "algebra/values/integer_vectors.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/multimodular/multimodular.hpp"
#include "algebra/poly/multiply.hpp"
#include "algebra/fourier/ntt_cpu.hpp"
#include "algebra/fourier/ntt_product_cpu.hpp"
#include "algebra/support/parallel.hpp"
#include "algebra/support/progress.hpp"
#include "algebra/values/vector_words.hpp"

#include <flint/fmpz_factor.h>
#include <flint/nmod_vec.h>
#include <flint/ulong_extras.h>

#include "gpu/big_prime.hpp"
#include "gpu/big_prime_gf.hpp"
#include "gpu/crt.hpp"
#include "gpu/ntt.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>

namespace cas {

namespace {

bool is_power_of_two(size_t n) { return n && !(n & (n - 1)); }

std::string ordinal(ulong n) {
  const char* suffix = "th";
  if (n % 100 < 11 || n % 100 > 13) {
    if (n % 10 == 1) suffix = "st";
    if (n % 10 == 2) suffix = "nd";
    if (n % 10 == 3) suffix = "rd";
  }
  return std::to_string(n) + suffix;
}

// The DomainError for anything but a vector.
void entries_or_packed(const Value& v, const char* what) {
  if (!v.is(Kind::Vec)) throw DomainError(std::string(what) + ": expected a vector, not " + type_description(v));
}

const std::vector<Value>& entries(const Value& v, const char* what) {
  entries_or_packed(v, what);
  return v.as_vec();
}

// The residue of one entry in the Z/pZ of m: an integer, or an element of that Z/pZ.
void residue(fmpz_t out, const Value& e, const ModulusPtr& m, const char* what) {
  if (e.is(Kind::Int)) {
    fmpz_mod(out, e.as_int(), m->value());
  } else if (e.is(Kind::Mod) && same_modulus(e.modulus(), m)) {
    fmpz_set(out, e.as_int());
  } else {
    throw_not_a_residue(e, *m, what);
  }
}

// Residues of the entries of a vector over the Z/pZ of m.
std::vector<Fmpz> residues(const Value& v, const ModulusPtr& m, const char* what) {
  const std::vector<Value>& items = entries(v, what);
  std::vector<Fmpz> out(items.size());
  for (size_t i = 0; i < items.size(); i++) residue(out[i].get(), items[i], m, what);
  return out;
}

// The same as machine words, for a word-size m: no fmpz in between, since large transforms
// spend most of their time here rather than in the arithmetic. For entries that are not all
// elements of the Z/pZ of m (vector_words reads those): integers, or the message for anything else.
Words word_residues(const Value& v, const ModulusPtr& m, const char* what) {
  const std::vector<Value>& items = entries(v, what);
  Words out(items.size());
  Fmpz r;
  for (size_t i = 0; i < items.size(); i++) {
    const Value& e = items[i];
    if (e.is(Kind::Mod) && e.modulus_raw() == m.get()) {
      out[i] = fmpz_get_word(e.as_int());
    } else {
      residue(r.get(), e, m, what);
      out[i] = fmpz_get_ui(r.get());
    }
  }
  return out;
}

Value to_vector(const std::vector<Fmpz>& items, const ModulusPtr& m) {
  std::vector<Value> out;
  out.reserve(items.size());
  for (const Fmpz& r : items) out.push_back(Value::mod(r.get(), m));
  return Value::vec(std::move(out));
}

// Butterflies a range of the big-prime CPU transform hands to one core: each a product of
// fmpz_mod_mul (about 0.3 us modulo P3), so a range is about a millisecond.
constexpr size_t big_butterfly_grain = size_t{1} << 12;

// powers[k] = w^k for k < count, each range of the cores from its own first power.
std::vector<Fmpz> powers_of(const fmpz* w, size_t count, const fmpz_mod_ctx_struct* ctx) {
  std::vector<Fmpz> powers(std::max<size_t>(count, 1));
  parallel_ranges(count, big_butterfly_grain, [&](size_t begin, size_t end) {
    fmpz_mod_pow_ui(powers[begin].get(), w, begin, ctx);
    for (size_t k = begin + 1; k < end; k++) fmpz_mod_mul(powers[k].get(), powers[k - 1].get(), w, ctx);
  });
  return powers;
}

// Radix-2 decimation in time in fmpz_mod arithmetic, natural order in and out; the butterflies of
// each stage and the powers of w in ranges on the cores (fft of 2^16 modulo P3 on 2 cores: 98 ms
// against 242 on one: docs/measurements.md, "Transforms and products modulo a big prime on the GPU").
void ntt_big(std::vector<Fmpz>& a, const fmpz* w, const fmpz_mod_ctx_struct* ctx) {
  const size_t n = a.size();
  bit_reverse_range(a.data(), n, 0, n);
  const std::vector<Fmpz> powers = powers_of(w, n / 2, ctx);
  for (size_t len = 2; len <= n; len <<= 1) {
    const size_t half = len / 2, stride = n / len;
    parallel_ranges(n / 2, big_butterfly_grain, [&](size_t begin, size_t end) {
      Fmpz u, v;
      for (size_t t = begin; t < end; t++) {
        const size_t j = t % half, i = (t - j) * 2 + j;
        fmpz_set(u.get(), a[i].get());
        fmpz_mod_mul(v.get(), a[i + half].get(), powers[j * stride].get(), ctx);
        fmpz_mod_add(a[i].get(), u.get(), v.get(), ctx);
        fmpz_mod_sub(a[i + half].get(), u.get(), v.get(), ctx);
      }
    });
  }
}

// The numbers :explain shows for a transform of length n at w.
OperationDetail transform_detail(size_t n, const fmpz* w, const Modulus& m) {
  OperationDetail d;
  d.length1 = n;
  d.modulus = m.word_size() ? m.word() : 0;
  d.modulus_bits = static_cast<unsigned>(fmpz_bits(m.value()));
  d.root = m.word_size() && w ? fmpz_get_ui(w) : 0;
  return d;
}

// Whether the GPU engine takes a transform of length n over the word-size Z/mZ: from the
// dispatcher's crossover, for the odd primes the engine transforms over.
bool transform_goes_to_gpu(size_t n, const Modulus& m) {
  return n >= 2 && m.word() >= 3 && use_gpu(for_modulus(GpuOperation::Transform, m.word()), n) && m.is_prime();
}

// The notice when the GPU could not compute a transform of length n.
void gpu_transform_failure_notice(const std::exception& e, size_t n) {
  if (dynamic_cast<const gpu::OutOfMemory*>(&e))
    post_notice("the GPU ran out of memory for a transform of length " + std::to_string(n) + "; the CPU computed it");
  else
    post_notice(std::string("the GPU failed (") + e.what() + "); the CPU computed the transform");
}

// The transform of the n words at `in` into `out` (which may be `in`) on the GPU engine, at the
// forward root w; the inverse runs at w^-1 and includes 1/n, fused into the engine's last pass.
// False, after a notice, when the GPU failed and the CPU must compute it (`in` is then as it was,
// unless out == in).
bool transform_on_gpu(const ulong* in, ulong* out, size_t n, ulong w, bool inverse, const Modulus& m) {
  static_assert(std::is_same_v<ulong, std::uint64_t>, "FLINT's words are the engine's words");
  const ProgressScope progress("gpu ntt", static_cast<double>(n));
  try {
    if (inverse)
      gpu::inverse_into(in, out, n, n, m.word(), w);
    else
      gpu::forward_into(in, out, n, n, m.word(), w);
  } catch (const gpu::Error& e) {
    gpu_transform_failure_notice(e, n);
    return false;
  }
  const Fmpz root(inverse ? n_invmod(w, m.word()) : w);  // :explain names the root the transform runs at
  OperationDetail detail = transform_detail(n, root.get(), m);
  note_primes_per_device(detail, gpu::last_split().primes_per_device);
  engine_note("gpu ntt", static_cast<double>(n), detail);
  return true;
}

void transform_words_on_cpu(Words& words, ulong w, const Modulus& m) {
  const ProgressScope progress("cpu ntt", static_cast<double>(words.size()));
  const Fmpz root(w);
  engine_note("cpu ntt", static_cast<double>(words.size()), transform_detail(words.size(), root.get(), m));
  ntt_words_cpu(words.data(), words.size(), w, m.nmod());
}

// The forward transform at w in place, on the GPU from its crossover.
void transform_words(Words& words, ulong w, const Modulus& m) {
  if (transform_goes_to_gpu(words.size(), m) && transform_on_gpu(words.data(), words.data(), words.size(), w, false, m))
    return;
  transform_words_on_cpu(words, w, m);
}

void transform(std::vector<Fmpz>& a, const fmpz* w, const Modulus& m) {
  if (!m.word_size()) {
    engine_note("cpu ntt", static_cast<double>(a.size()), transform_detail(a.size(), w, m));
    ntt_big(a, w, m.ctx());
    return;
  }
  Words words(a.size());
  for (size_t i = 0; i < a.size(); i++) words[i] = fmpz_get_ui(a[i].get());
  transform_words(words, fmpz_get_ui(w), m);
  for (size_t i = 0; i < a.size(); i++) fmpz_set_ui(a[i].get(), words[i]);
}

ModulusPtr root_modulus(const Value& w, const char* what) {
  if (!w.is(Kind::Mod))
    throw DomainError(std::string(what) + ": the root of unity must be an element of Z/pZ (like 2 mod 17), not " +
                      describe(w));
  return w.modulus();
}

void require_power_of_two(size_t n, const char* what) {
  if (!is_power_of_two(n))
    throw DomainError(std::string(what) + ": the length " + std::to_string(n) +
                      " is not a power of two (use dft for other lengths)");
}

[[noreturn]] void throw_length_not_invertible(size_t n, const Modulus& m, const char* what) {
  throw DomainError(std::string(what) + ": the length " + std::to_string(n) + " is not invertible mod " +
                    m.to_string());
}

void scale_by_inverse_length(std::vector<Fmpz>& a, const ModulusPtr& m, const char* what) {
  Fmpz n_inv(static_cast<ulong>(a.size()));
  if (!fmpz_invmod(n_inv.get(), n_inv.get(), m->value())) throw_length_not_invertible(a.size(), *m, what);
  for (auto& x : a) fmpz_mod_mul(x.get(), x.get(), n_inv.get(), m->ctx());
}

void scale_words_by_inverse_length(Words& a, const Modulus& m, const char* what) {
  ulong n_inv;
  if (n_gcdinv(&n_inv, a.size() % m.word(), m.word()) != 1) throw_length_not_invertible(a.size(), m, what);
  _nmod_vec_scalar_mul_nmod(a.data(), a.data(), static_cast<slong>(a.size()), n_inv, m.nmod());
}

}  // namespace

void require_primitive_root(const Value& w, ulong n, const char* what) {
  const ModulusPtr m = root_modulus(w, what);
  // w^0 = 1 and 0 has no prime factors, so n = 0 would pass the checks below.
  if (n == 0) throw DomainError(std::string(what) + ": n must be at least 1 (there is no primitive 0th root of unity)");
  auto power_is_one = [&](ulong e) {
    Fmpz power, exponent(e);
    fmpz_powm(power.get(), w.as_int(), exponent.get(), m->value());
    return fmpz_is_one(power.get()) != 0;
  };
  auto fail = [&](const std::string& why) {
    throw DomainError(std::string(what) + ": " + describe(w) + " is not a primitive " + ordinal(n) +
                      " root of unity (" + why + ")");
  };
  if (!power_is_one(n)) fail("its " + ordinal(n) + " power is not 1");
  // Primitive: no proper divisor n/q (q a prime factor of n) already gives 1.
  fmpz_factor_t f;
  fmpz_factor_init(f);
  fmpz_factor_si(f, static_cast<slong>(n));
  std::vector<ulong> primes;
  for (slong i = 0; i < f->num; i++) primes.push_back(fmpz_get_ui(f->p + i));
  fmpz_factor_clear(f);
  for (ulong q : primes)
    if (power_is_one(n / q)) fail("already its " + ordinal(n / q) + " power is 1");
}

void require_radix2_root(const Value& w, ulong n, const char* what) {
  require_primitive_root(w, n, what);
  if (n < 2) return;
  const ModulusPtr m = root_modulus(w, what);
  Fmpz half_power, exponent(n / 2), minus_one;
  fmpz_powm(half_power.get(), w.as_int(), exponent.get(), m->value());
  fmpz_sub_ui(minus_one.get(), m->value(), 1);
  if (fmpz_equal(half_power.get(), minus_one.get())) return;
  throw DomainError(std::string(what) + ": " + describe(w) + " is a primitive " + ordinal(n) +
                    " root of unity, but its " + ordinal(n / 2) + " power is " +
                    describe(Value::mod(half_power.get(), m)) +
                    ", not -1: the radix-2 butterflies need w^(n/2) = -1, which every primitive root modulo a "
                    "prime has (not modulo " + m->to_string() + "); dft(v, w) computes this transform by its definition");
}

ModulusPtr modulus_of_root(const Value& w, const char* what) { return root_modulus(w, what); }

std::vector<Fmpz> residues_at_root(const Value& v, const Value& w, const char* what) {
  return residues(v, root_modulus(w, what), what);
}

std::vector<Fmpz> radix2_input(const Value& v, const Value& w, const char* what) {
  std::vector<Fmpz> a = residues_at_root(v, w, what);
  require_power_of_two(a.size(), what);
  require_radix2_root(w, a.size(), what);
  return a;
}

Value residue_vector(const std::vector<Fmpz>& residues, const ModulusPtr& m) { return to_vector(residues, m); }

namespace {

// The words a transform of v reads: vector_words' (a packed vector's own where they are, since
// copying 2^22 of them costs more than the GPU's transform: 22-26 ms against 0.05-0.14 ms;
// docs/measurements.md, "Vectors over Z/pZ as words against entries held as Values"), or the
// entries converted one by one when some are integers (with the message for anything else).
using InputWords = VectorWords;

InputWords input_words(const Value& v, const ModulusPtr& m, const char* what) {
  if (std::optional<VectorWords> words = vector_words(v, m.get())) return std::move(*words);
  return {m, nullptr, word_residues(v, m, what)};
}

// fft (inverse = false) or ifft of v at w over a word-size Z/pZ, after the checks every transform makes.
Value transform_word_vector(const Value& v, const Value& w, bool inverse, const ModulusPtr& m, const char* what) {
  InputWords input = input_words(v, m, what);
  const size_t n = input.words().size();
  require_power_of_two(n, what);
  require_radix2_root(w, n, what);
  const ulong p = m->word(), root = fmpz_get_ui(w.as_int());
  if (inverse) engine_explain(what, static_cast<double>(n), transform_detail(n, w.as_int(), *m));
  if (transform_goes_to_gpu(n, *m)) {
    // Into a fresh array that nothing writes before the engine's download (Words: no zeros),
    // also for converted entries: converting them costs far more, and the input stays intact
    // for the CPU should the GPU fail.
    Words out(n);
    if (transform_on_gpu(input.words().data(), out.data(), n, root, inverse, *m))
      return Value::residue_words(m, std::move(out));
  }
  Words a = input.take();
  transform_words_on_cpu(a, inverse ? n_invmod(root, p) : root, *m);
  if (inverse) scale_words_by_inverse_length(a, *m, what);
  return Value::residue_words(m, std::move(a));
}

// ---- p above 64 bits on the GPU's big-prime kernels (gpu/big_prime.hpp)

// The words of p when the GPU takes a transform or convolution of length n over Z/mZ: from the
// crossover transform.big_prime, n a power of two from 2 to the kernels' longest, p a prime of
// big_prime_limbs words; 0 otherwise (the CPU computes it).
size_t big_prime_gpu_limbs(size_t n, const Modulus& m) {
  if (n < 2 || !is_power_of_two(n) || n > (size_t{1} << gpu::big_prime_most_log_length) ||
      !use_gpu(GpuOperation::TransformBigPrime, n))
    return 0;
  const size_t limbs = big_prime_limbs(m);
  return limbs && m.is_prime() ? limbs : 0;
}

// The transform at w (its inverse at w^-1 with 1/n when `inverse`) of the n residues in `in`
// (limb-major, p of `limbs` words) on the GPU into `out`; false, after a notice, when the GPU
// failed.
bool transform_limbs_on_gpu(const Words& in, Words& out, size_t n, const fmpz* w, bool inverse, const Modulus& m,
                            size_t limbs) {
  const ulong r = shift_radix(n, m, limbs);
  const char* what = r ? "gpu generalized-fermat ntt" : "gpu big-prime ntt";
  const ProgressScope progress(what, static_cast<double>(n));
  const Words p = element_limbs(m.value(), limbs), root = element_limbs(w, limbs);
  try {
    if (r)
      gpu::big_prime_transform_gf(in.data(), out.data(), n, r, limbs, root.data(), inverse);
    else
      gpu::big_prime_transform(in.data(), out.data(), n, p.data(), limbs, root.data(), inverse);
  } catch (const gpu::Error& e) {
    gpu_transform_failure_notice(e, n);
    return false;
  }
  engine_note(what, static_cast<double>(n), transform_detail(n, w, m));
  return true;
}

// fft or ifft of the residues a at w over a multi-word p on the CPU: the radix-2 transform in
// fmpz_mod arithmetic (ntt_big), after the checks.
Value transform_residues_on_cpu(std::vector<Fmpz> a, const Value& w, bool inverse, const ModulusPtr& m,
                                const char* what) {
  if (!inverse) {
    transform(a, w.as_int(), *m);
    return to_vector(a, m);
  }
  Fmpz w_inv;
  fmpz_invmod(w_inv.get(), w.as_int(), m->value());
  transform(a, w_inv.get(), *m);
  scale_by_inverse_length(a, m, what);
  return to_vector(a, m);
}

// fft (inverse = false) or ifft of v at w over a multi-word p: on the GPU from transform.big_prime
// (a packed vector's words read where they are, other entries converted on the cores; the result
// packed, limb-major), else on the CPU.
Value transform_big_vector(const Value& v, const Value& w, bool inverse, const ModulusPtr& m, const char* what) {
  entries_or_packed(v, what);
  const size_t n = v.vec_size();
  if (const size_t limbs = big_prime_gpu_limbs(n, *m)) {
    const VectorLimbs input = vector_limbs(v, *m, limbs, what);
    require_radix2_root(w, n, what);
    if (inverse) engine_explain(what, static_cast<double>(n), transform_detail(n, w.as_int(), *m));
    Words out(limbs * n);
    if (transform_limbs_on_gpu(input.words(), out, n, w.as_int(), inverse, *m, limbs))
      return Value::residue_limbs(m, limbs, std::move(out));
    return transform_residues_on_cpu(residues(v, m, what), w, inverse, m, what);
  }
  std::vector<Fmpz> a = residues(v, m, what);
  require_power_of_two(a.size(), what);
  require_radix2_root(w, a.size(), what);
  if (inverse) engine_explain(what, static_cast<double>(n), transform_detail(n, w.as_int(), *m));
  return transform_residues_on_cpu(std::move(a), w, inverse, m, what);
}

// fft (inverse = false) or ifft of v at w, after the checks every transform makes.
Value transform_vector(const Value& v, const Value& w, bool inverse, const char* what) {
  const ModulusPtr m = root_modulus(w, what);
  if (m->word_size()) return transform_word_vector(v, w, inverse, m, what);
  return transform_big_vector(v, w, inverse, m, what);
}

}  // namespace

Value fft(const Value& v, const Value& w) { return transform_vector(v, w, false, "fft"); }

Value ifft(const Value& v, const Value& w) { return transform_vector(v, w, true, "ifft"); }

namespace {

Value convolve_by_fft(std::vector<Fmpz> a, std::vector<Fmpz> b, const ModulusPtr& m, bool negacyclic) {
  const size_t n = a.size();
  Fmpz psi, w, psi_power;
  find_root_of_unity(psi, *m, negacyclic ? 2 * n : n);
  if (negacyclic) {
    // weight by psi^i so that x^n + 1 becomes the cyclic case (psi^n = -1)
    fmpz_one(psi_power.get());
    for (size_t i = 0; i < n; i++) {
      fmpz_mod_mul(a[i].get(), a[i].get(), psi_power.get(), m->ctx());
      fmpz_mod_mul(b[i].get(), b[i].get(), psi_power.get(), m->ctx());
      fmpz_mod_mul(psi_power.get(), psi_power.get(), psi.get(), m->ctx());
    }
    fmpz_mod_mul(w.get(), psi.get(), psi.get(), m->ctx());
  } else {
    fmpz_set(w.get(), psi.get());
  }
  engine_explain(negacyclic ? "negacyclic convolution by fft" : "cyclic convolution by fft", static_cast<double>(n),
                 transform_detail(n, psi.get(), *m));
  transform(a, w.get(), *m);
  transform(b, w.get(), *m);
  for (size_t i = 0; i < n; i++) fmpz_mod_mul(a[i].get(), a[i].get(), b[i].get(), m->ctx());
  Fmpz w_inv;
  fmpz_invmod(w_inv.get(), w.get(), m->value());
  transform(a, w_inv.get(), *m);
  scale_by_inverse_length(a, m, "convolve");
  if (negacyclic) {
    Fmpz psi_inv;
    fmpz_invmod(psi_inv.get(), psi.get(), m->value());
    fmpz_one(psi_power.get());
    for (size_t i = 0; i < n; i++) {
      fmpz_mod_mul(a[i].get(), a[i].get(), psi_power.get(), m->ctx());
      fmpz_mod_mul(psi_power.get(), psi_power.get(), psi_inv.get(), m->ctx());
    }
  }
  return to_vector(a, m);
}

// Any modulus and length: one polynomial product, folded modulo x^n -+ 1.
Value convolve_by_product(const std::vector<Fmpz>& a, const std::vector<Fmpz>& b, const ModulusPtr& m,
                          bool negacyclic) {
  const size_t n = a.size();
  engine_explain(negacyclic ? "negacyclic convolution by product" : "cyclic convolution by product",
                 static_cast<double>(n), transform_detail(n, nullptr, *m));
  ModPoly pa(m), pb(m);
  for (size_t i = 0; i < n; i++) {
    pa.set_coeff(static_cast<slong>(i), a[i].get());
    pb.set_coeff(static_cast<slong>(i), b[i].get());
  }
  ModPoly product = multiply(pa, pb);
  std::vector<Fmpz> c(n);
  Fmpz coeff;
  for (slong k = 0; k < product.length(); k++) {
    product.coeff(coeff.get(), k);
    Fmpz& slot = c[static_cast<size_t>(k) % n];
    if (negacyclic && static_cast<size_t>(k) >= n)
      fmpz_mod_sub(slot.get(), slot.get(), coeff.get(), m->ctx());
    else
      fmpz_mod_add(slot.get(), slot.get(), coeff.get(), m->ctx());
  }
  return to_vector(c, m);
}

// convolve_by_fft for a word-size p, in machine words from the entries to the result. On the CPU
// one pipeline (ntt_product_cpu.hpp: convolve_words_mod_prime) with the transforms' tables cached,
// the weights, 1/n and the pointwise products fused, the inverse run on the forward tables.
Value convolve_by_fft(Words a, Words b, const ModulusPtr& m, bool negacyclic) {
  const size_t n = a.size();
  const nmod_t& mod = m->nmod();
  Fmpz psi;
  find_root_of_unity(psi, *m, negacyclic ? 2 * n : n);
  const ulong psi_word = fmpz_get_ui(psi.get()), w = negacyclic ? nmod_mul(psi_word, psi_word, mod) : psi_word;
  engine_explain(negacyclic ? "negacyclic convolution by fft" : "cyclic convolution by fft", static_cast<double>(n),
                 transform_detail(n, psi.get(), *m));
  if (!transform_goes_to_gpu(n, *m)) {
    Words c(n);
    convolve_words_mod_prime(a.data(), n, b.data(), n, n, negacyclic, m->word(), c.data());
    const Fmpz root(w);
    engine_note("cpu ntt convolution", static_cast<double>(n), transform_detail(n, root.get(), *m));
    return Value::residue_words(m, std::move(c));
  }
  if (negacyclic) {
    weight_by_powers(a.data(), n, psi_word, mod);
    weight_by_powers(b.data(), n, psi_word, mod);
  }
  transform_words(a, w, *m);
  transform_words(b, w, *m);
  for (size_t i = 0; i < n; i++) a[i] = nmod_mul(a[i], b[i], mod);
  transform_words(a, n_invmod(w, m->word()), *m);  // a root of unity mod a prime (find_root_of_unity)
  scale_words_by_inverse_length(a, *m, "convolve");
  if (negacyclic) weight_by_powers(a.data(), n, n_invmod(psi_word, m->word()), mod);
  return Value::residue_words(m, std::move(a));
}

// convolve_by_product for a word-size p: the coefficient arrays are read and written as blocks.
// on_cpu: the product without asking the GPU (after it failed).
Value convolve_by_product(const Words& a, const Words& b, const ModulusPtr& m, bool negacyclic, bool on_cpu = false) {
  const size_t n = a.size();
  engine_explain(negacyclic ? "negacyclic convolution by product" : "cyclic convolution by product",
                 static_cast<double>(n), transform_detail(n, nullptr, *m));
  const ModPoly fa = modpoly_from_words(m, a.data(), n), fb = modpoly_from_words(m, b.data(), n);
  const ModPoly product = on_cpu ? multiply_on_cpu(fa, fb) : multiply(fa, fb);
  // Folded mod x^n -+ 1 in one sweep over ranges on all cores: c_i = p_i -+ p_(i+n) below the
  // length of the high part, p_i up to the product's length, 0 beyond (k % n per coefficient would
  // cost a division each).
  const ulong* p = product.nmod()->coeffs;
  const size_t length = static_cast<size_t>(product.nmod()->length);
  const size_t high = length > n ? length - n : 0, low = std::min(length, n);
  const nmod_t mod = m->nmod();
  Words c(n);
  ulong* out = c.data();
  parallel_ranges(n, size_t{1} << 16, [&](size_t begin, size_t end) {
    const size_t folded_end = std::clamp(high, begin, end), copied_end = std::clamp(low, folded_end, end);
    const slong folded = static_cast<slong>(folded_end - begin);
    if (negacyclic) _nmod_vec_sub(out + begin, p + begin, p + begin + n, folded, mod);
    else _nmod_vec_add(out + begin, p + begin, p + begin + n, folded, mod);
    std::copy(p + folded_end, p + copied_end, out + folded_end);
    std::fill(out + copied_end, out + end, 0);
  });
  return Value::residue_words(m, std::move(c));
}

// The same for the words of packed vectors, read where they are.
Value convolve_by_product(const InputWords& a, const InputWords& b, const ModulusPtr& m, bool negacyclic,
                          bool on_cpu = false) {
  return convolve_by_product(a.words(), b.words(), m, negacyclic, on_cpu);
}
Value convolve_by_fft(InputWords a, InputWords b, const ModulusPtr& m, bool negacyclic) {
  return convolve_by_fft(a.take(), b.take(), m, negacyclic);
}

// The notice when the GPU could not compute a convolution of length n.
void gpu_convolution_failure_notice(const std::exception& e, size_t n) {
  if (dynamic_cast<const gpu::OutOfMemory*>(&e))
    post_notice("the GPU ran out of memory for a convolution of length " + std::to_string(n) + "; the CPU computed it");
  else
    post_notice(std::string("the GPU failed (") + e.what() + "); the CPU computed the convolution");
}

// Over a multi-word prime p with the roots of unity for it, a convolution of power-of-two length on
// the GPU's big-prime kernels from transform.big_prime: both vectors' entries straight into
// limb-major words, one gpu::big_prime_convolve (the weights by psi, of order 2n, for the
// negacyclic one), the result straight into entries, on the cores. nullopt where it does not go
// there (the CPU's route then checks the vectors and says what is wrong), or after a notice when the
// GPU failed.
std::optional<Value> convolve_big_prime_on_gpu(const Value& a, const Value& b, const ModulusPtr& m, bool negacyclic,
                                               const char* what) {
  if (!a.is(Kind::Vec) || !b.is(Kind::Vec) || a.vec_size() != b.vec_size()) return std::nullopt;
  const size_t n = a.vec_size(), limbs = big_prime_gpu_limbs(n, *m);
  Fmpz psi;
  if (!limbs || !find_root_of_unity(psi, *m, negacyclic ? 2 * n : n)) return std::nullopt;
  const VectorLimbs x = vector_limbs(a, *m, limbs, what), y = vector_limbs(b, *m, limbs, what);
  Fmpz w;
  if (negacyclic)
    fmpz_mod_mul(w.get(), psi.get(), psi.get(), m->ctx());
  else
    fmpz_set(w.get(), psi.get());
  const Words p = element_limbs(m->value(), limbs), root = element_limbs(w.get(), limbs),
              weight = element_limbs(psi.get(), limbs);
  Words c(limbs * n);
  {
    const ProgressScope progress(negacyclic ? "gpu big-prime negacyclic convolution" : "gpu big-prime cyclic convolution",
                                 static_cast<double>(n));
    try {
      gpu::big_prime_convolve(x.words().data(), n, y.words().data(), n, n, p.data(), limbs, root.data(),
                              negacyclic ? weight.data() : nullptr, c.data(), n,
                              convolution_shift_radix(n, *m, limbs));
    } catch (const gpu::Error& e) {
      gpu_convolution_failure_notice(e, n);
      return std::nullopt;
    }
  }
  engine_explain(negacyclic ? "negacyclic convolution by fft" : "cyclic convolution by fft", static_cast<double>(n),
                 transform_detail(n, psi.get(), *m));
  engine_note("gpu big-prime convolution", static_cast<double>(n), transform_detail(n, w.get(), *m));
  return Value::residue_limbs(m, limbs, std::move(c));
}

// Over a word-size Z/pZ where the GPU takes the product (convolve_residues): multiply_mod's product
// folded modulo x^n -+ 1 on the device, n words brought back, not 2n - 1 (gpu::convolve_mod; a
// cyclic one of power-of-two length n wraps in transforms of length n); nullopt after a notice
// when the GPU failed.
std::optional<Value> convolve_words_on_gpu(const InputWords& a, const InputWords& b, const ModulusPtr& m,
                                           bool negacyclic) {
  const size_t n = a.size();
  const ProgressScope progress(negacyclic ? "gpu negacyclic convolution" : "gpu cyclic convolution",
                               static_cast<double>(n));
  Words c(n);
  try {
    gpu::convolve_mod(a.words().data(), n, b.words().data(), n, n, negacyclic, m->word(), c.data());
  } catch (const gpu::Error& e) {
    gpu_convolution_failure_notice(e, n);
    return std::nullopt;
  }
  OperationDetail d = transform_detail(n, nullptr, *m);
  engine_explain(negacyclic ? "negacyclic convolution by product" : "cyclic convolution by product",
                 static_cast<double>(n), d);
  d.length2 = n;
  if (gpu::convolves_by_cyclic_product(n, n, n, negacyclic)) {  // the transforms' own wrap: length n, not 2n
    engine_note("gpu cyclic product", static_cast<double>(n), d);
    return Value::residue_words(m, std::move(c));
  }
  const bool one_prime = gpu::plan_product(n, n, m->word()).single_prime;
  engine_note(one_prime ? "gpu ntt product" : "gpu crt product", static_cast<double>(2 * n - 1), d);
  return Value::residue_words(m, std::move(c));
}

// A convolution of power-of-two length n over a word-size Z/pZ that lacks the roots of unity for
// it, through the CPU's transforms of length n modulo CRT primes (ntt_product_cpu.hpp) rather
// than a product of length 2n - 1 folded, from cpu_crt_convolution_from_words (dispatch.hpp).
Value convolve_through_cpu_primes(const InputWords& a, const InputWords& b, const ModulusPtr& m, bool negacyclic) {
  const size_t n = a.size();
  OperationDetail d = transform_detail(n, nullptr, *m);
  d.primes = static_cast<unsigned>(cpu_convolution_primes(n, n, n, negacyclic, m->word()).size());
  d.bound_bits = cpu_convolution_bound_bits(n, n, m->word());
  const ProgressScope progress(negacyclic ? "cpu crt negacyclic convolution" : "cpu crt cyclic convolution",
                               static_cast<double>(n));
  progress_primes(d.primes);
  Words c(n);
  convolve_words_cpu_ntt(a.words().data(), n, b.words().data(), n, n, negacyclic, m->nmod(), c.data());
  engine_note(negacyclic ? "cpu crt negacyclic convolution" : "cpu crt cyclic convolution", static_cast<double>(n), d);
  return Value::residue_words(m, std::move(c));
}

// The route of a convolution of residues x and y (a vector of fmpz, or InputWords for a word-size p).
template <class Residues>
Value convolve_residues(Residues x, Residues y, const ModulusPtr& m, bool negacyclic, const char* what) {
  if (x.size() != y.size())
    throw DomainError(std::string(what) + ": the vectors must have one length, not " + std::to_string(x.size()) +
                      " and " + std::to_string(y.size()));
  if (x.empty()) return Value::vec({});
  Fmpz root;
  const ulong order = negacyclic ? 2 * x.size() : x.size();
  // A large convolution is one product on the GPU (one round trip) rather than three transforms.
  const bool product_on_gpu =
      m->word_size() && use_gpu(for_modulus(GpuOperation::ProductNttPrime, m->word()), 2 * x.size() - 1);
  if constexpr (std::is_same_v<Residues, InputWords>)
    if (product_on_gpu) {
      if (std::optional<Value> c = convolve_words_on_gpu(x, y, m, negacyclic)) return std::move(*c);
      return convolve_by_product(x, y, m, negacyclic, true);  // the GPU failed
    }
  if (!product_on_gpu && is_power_of_two(x.size()) && find_root_of_unity(root, *m, order))
    return convolve_by_fft(std::move(x), std::move(y), m, negacyclic);
  if constexpr (std::is_same_v<Residues, InputWords>)
    if (!product_on_gpu && is_power_of_two(x.size()) && x.size() >= cpu_crt_convolution_from_words(negacyclic))
      return convolve_through_cpu_primes(x, y, m, negacyclic);
  return convolve_by_product(x, y, m, negacyclic);
}

void require_integers(const std::vector<Value>& items, const char* what) {
  for (const Value& e : items)
    if (!e.is(Kind::Int))
      throw DomainError(std::string(what) + ": the entries must be integers, or elements of one Z/pZ, not " +
                        describe(e));
}

// The Z/pZ of v's first entry that is an element of one; null when there is none (or v is not a vector).
ModulusPtr first_entry_modulus(const Value& v) {
  if (!v.is(Kind::Vec)) return nullptr;
  if (const PackedResidues* packed = v.packed_residues()) return packed->modulus;
  if (const PackedLimbs* packed = v.packed_limbs()) return packed->modulus;
  for (const Value& e : v.as_vec())
    if (e.is(Kind::Mod)) return e.modulus();
  return nullptr;
}

// The :timer note of a convolution of length n through the plan's primes.
void note_convolution(const char* what, size_t n, const MultimodularPlan& plan) {
  OperationDetail detail;
  detail.length1 = n;
  detail.primes = static_cast<unsigned>(plan.primes.size());
  detail.bound_bits = plan.bound_bits;
  note_primes_per_device(detail, plan.primes_per_device);
  engine_note(what, static_cast<double>(n), detail);
}

// The cyclic (negacyclic) convolution of length n of a and b over Z through the primes' transforms
// of length n on the CPU, when it is theirs (dispatch.hpp: cpu_crt_convolution_from_z): n a power
// of two, neither operand short enough for FLINT, few enough primes.
std::optional<ZPoly> convolve_on_cpu_primes(const ZPoly& a, const ZPoly& b, size_t n, bool negacyclic) {
  if (!is_power_of_two(n) || n < cpu_crt_convolution_from_z(1) || a.is_zero() || b.is_zero() ||
      short_operand_stays_with_flint(ShortOperandClass::Z, static_cast<size_t>(std::min(a.length(), b.length()))))
    return std::nullopt;
  const MultimodularPlan plan = plan_convolution(a, b, n, negacyclic);
  if (plan.primes.size() > cpu_crt_most_primes_z(2 * n - 1) || n < cpu_crt_convolution_from_z(plan.primes.size()))
    return std::nullopt;
  const ProgressScope progress(negacyclic ? "cpu crt negacyclic convolution" : "cpu crt cyclic convolution",
                               static_cast<double>(n));
  ZPoly c = convolve_with_primes(a, b, n, negacyclic, plan.primes);
  note_convolution(negacyclic ? "cpu crt negacyclic convolution" : "cpu crt cyclic convolution", n, plan);
  return c;
}

// Over Z on the GPU (any n): the product's residues folded modulo x^n -+ 1 on the device, n
// entries rebuilt and brought back, not 2n - 1 (multimodular.hpp: convolve_through_product);
// nullopt after a notice when the GPU failed.
std::optional<ZPoly> convolve_on_gpu(const ZPoly& a, const ZPoly& b, size_t n, bool negacyclic) {
  const ProgressScope progress(negacyclic ? "gpu crt negacyclic convolution" : "gpu crt cyclic convolution",
                               static_cast<double>(n));
  MultimodularPlan plan;
  try {
    ZPoly c = convolve_through_product(a, b, n, negacyclic, ProductEngine::Gpu, &plan);
    note_convolution(negacyclic ? "gpu crt negacyclic convolution" : "gpu crt cyclic convolution", n, plan);
    return c;
  } catch (const gpu::Error& e) {
    gpu_convolution_failure_notice(e, n);
  }
  return std::nullopt;
}

// Over Z: on the GPU where it would take the product, else through the primes on the CPU (above),
// or one product in Z[x] on the CPU folded modulo x^n -+ 1 on the cores. c_i takes the coefficient
// i by a swap (no copy of its limbs), then adds or subtracts coefficient i + n of a product; its
// integers are freed on the cores too.
Value convolve_integers(const Value& a, const Value& b, bool negacyclic, const char* what) {
  const std::vector<Value>&x = entries(a, what), &y = entries(b, what);
  require_integers(x, what);
  require_integers(y, what);
  const size_t n = x.size();
  if (y.size() != n)
    throw DomainError(std::string(what) + ": the vectors must have one length, not " + std::to_string(n) + " and " +
                      std::to_string(y.size()));
  const IntegerPolynomialView fa(x), fb(y);
  std::optional<ZPoly> convolution;
  if (z_product_goes_to_gpu(fa.poly(), fb.poly())) convolution = convolve_on_gpu(fa.poly(), fb.poly(), n, negacyclic);
  if (!convolution) convolution = convolve_on_cpu_primes(fa.poly(), fb.poly(), n, negacyclic);
  if (!convolution) {
    OperationDetail detail;
    detail.length1 = n;
    engine_explain(negacyclic ? "negacyclic convolution by product" : "cyclic convolution by product",
                   static_cast<double>(n), detail);
    convolution = multiply_on_cpu(fa.poly(), fb.poly());
  }
  fmpz* p = convolution->get()->coeffs;
  const size_t length = static_cast<size_t>(convolution->length());  // below 2n
  std::vector<Value> c;
  reserve_values(c, n);
  c.resize(n, Value::integer(slong{0}));
  parallel_ranges(n, integer_grain, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < std::min(end, length); i++) {
      fmpz* slot = c[i].int_mut();
      fmpz_swap(slot, p + i);
      if (i + n >= length) continue;
      if (negacyclic)
        fmpz_sub(slot, slot, p + i + n);
      else
        fmpz_add(slot, slot, p + i + n);
    }
  });
  return Value::vec_made_on_cores(std::move(c));
}

}  // namespace

Value convolve(const Value& a, const Value& b, bool negacyclic) {
  const char* what = negacyclic ? "negaconvolve" : "convolve";
  // Both over one word-size Z/pZ, the usual case: their words straight away. Finding the ring
  // first (common_modulus) is a single-threaded pass over the Values (128 MiB at 2^22 entries).
  if (std::optional<std::pair<VectorWords, VectorWords>> words = vector_words_pair(a, b)) {
    const ModulusPtr m = words->first.modulus;
    return convolve_residues(std::move(words->first), std::move(words->second), m, negacyclic, what);
  }
  // The Z/pZ of the first entry that is an element of one, in either vector; integers are taken into it.
  ModulusPtr m = first_entry_modulus(a);
  if (!m) m = first_entry_modulus(b);
  if (!m) return convolve_integers(a, b, negacyclic, what);
  if (m->word_size()) {
    InputWords x = input_words(a, m, what);  // a's entries are checked before b's
    return convolve_residues(std::move(x), input_words(b, m, what), m, negacyclic, what);
  }
  if (std::optional<Value> c = convolve_big_prime_on_gpu(a, b, m, negacyclic, what)) return std::move(*c);
  std::vector<Fmpz> x = residues(a, m, what);
  return convolve_residues(std::move(x), residues(b, m, what), m, negacyclic, what);
}

}  // namespace cas
