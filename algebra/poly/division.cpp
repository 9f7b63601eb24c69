#include "algebra/poly/division.hpp"

#include "algebra/support/ceil_log2.hpp"
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/support/error.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/poly/multiply.hpp"
#include "algebra/fourier/ntt_product_cpu.hpp"
#include "algebra/support/parallel.hpp"

#include "gpu/ntt.hpp"

#include <flint/nmod_poly.h>
#include <flint/nmod_vec.h>
#include <flint/ulong_extras.h>

#include <algorithm>
#include <optional>
#include <vector>

namespace cas {

namespace {

OperationDetail modular_detail(const Modulus& m, size_t length1, size_t length2) {
  OperationDetail d;
  d.length1 = length1;
  d.length2 = length2;
  d.modulus = m.word_size() ? m.word() : 0;  // 0: a multi-word p, named by its bits
  d.modulus_bits = static_cast<unsigned>(fmpz_bits(m.value()));
  return d;
}

// ---- the crossovers ------------------------------------------------------------------------
// Word-size moduli: Newton's iteration from quotients of 2^7 and divisors of 2^8 terms, where it
// wins at every modulus measured (3 to 2^64 - 59), 1.04-1.6x FLINT's divrem along those edges;
// below them FLINT's schoolbook division wins (0.2-0.9x for long quotients by short divisors).
// Moduli below 2^17 without the roots of unity for transforms of the divisor's length (FLINT
// packs several residues into a word) stay with FLINT for divisors from 2^13 terms (0.55-0.9x)
// up to dividends of 2^18 terms, whose cyclic products of 2^17 words and more take the transforms
// (1.2-1.4x modulo 3).
// cas-bench-division --grid 1: docs/measurements.md, "Newton's division in Z/pZ[x] against FLINT,
// word-size p".
constexpr size_t newton_quotient_from = 128, newton_divisor_from = 256;
constexpr size_t small_modulus_bound = size_t{1} << 17, small_modulus_transforms_from = size_t{1} << 17;
// Multi-word moduli, FLINT's products below 2^14 terms and the cores' or the GPU's multi-modular
// ones above: Newton's iteration from quotients of 2^11 terms, where it wins 1.09x on 16 cores and
// 1.69x with the GPU (2^11 + 1 by 2^11 terms modulo 2^127 + 29) and is even on 2 cores
// (0.95-1.09x); shorter quotients lose (0.8-0.93x). cas-bench-division --big-bits 127,300:
// docs/measurements.md, "Division and powmod modulo a multi-word p".
constexpr size_t big_newton_quotient_from = 2048, big_newton_divisor_from = 1024;
// powmod: FLINT's fmpz_mod_poly_powmod_fmpz_binexp_preinv reduces through the inverse too, on its
// own products, and Newton's reductions on FLINT's products lose to it at every length (0.48-0.89x
// at 2^3..2^13 terms). So they run where cas's products leave FLINT's (big_newton_powmod_pays):
// from squares of 16383 terms on the cores (1.51x at m of 2^14 terms), and with the GPU's products
// from m of 1536 terms (1.46x; 0.81x at 1024). docs/measurements.md, "Division and powmod modulo a
// multi-word p".
constexpr size_t big_newton_powmod_from = 1536;

// ---- the cyclic products Newton's steps are made of on the CPU -----------------------------------
// The CPU's transforms of length n (modulo p itself or CRT primes), or FLINT's product folded for
// short ones. (Where the GPU takes the division's largest product it takes the whole division.)
class CyclicProducts {
 public:
  explicit CyclicProducts(const ModulusPtr& m) : m_(m), mod_(m->nmod()) {}
  const nmod_t& mod() const { return mod_; }

  // out[0, n) = a b mod (x^n - 1): n a power of two, na, nb <= n.
  void operator()(const ulong* a, size_t na, const ulong* b, size_t nb, size_t n, ulong* out) {
    if (na == 0 || nb == 0) {
      std::fill(out, out + n, 0);
      return;
    }
    if (transforms_pay(na, nb, n))
      on_cpu_transforms(a, na, b, nb, n, out);
    else
      by_flint_product(a, na, b, nb, n, out);
  }

 private:
  // The CPU's transforms from the product crossover, unless the shorter operand is short enough
  // for FLINT's product (dispatch.hpp; a remainder's product when the quotient is short): a cyclic
  // product takes transforms of half a product's length, so this keeps them where they surely pay.
  bool transforms_pay(size_t na, size_t nb, size_t n) const {
    const bool one = one_transform_modulo(*m_, n);
    if (!one && mod_.n < small_modulus_bound && n < small_modulus_transforms_from) return false;  // see above
    return use_cpu_ntt(one, mod_.n, na + nb - 1) &&
           !short_operand_stays_with_flint(short_operand_class(one, mod_.n), std::min(na, nb));
  }

  void on_cpu_transforms(const ulong* a, size_t na, const ulong* b, size_t nb, size_t n, ulong* out) {
    convolve_words_cpu_ntt(a, na, b, nb, n, false, mod_, out);
    OperationDetail d = modular_detail(*m_, n, 0);
    if (one_transform_modulo(*m_, n)) {
      engine_note("cpu ntt convolution", static_cast<double>(n), d);
      return;
    }
    d.primes = static_cast<unsigned>(cpu_convolution_primes(na, nb, n, false, mod_.n).size());
    d.bound_bits = cpu_convolution_bound_bits(na, nb, mod_.n);
    engine_note("cpu crt cyclic convolution", static_cast<double>(n), d);
  }

  void by_flint_product(const ulong* a, size_t na, const ulong* b, size_t nb, size_t n, ulong* out) const {
    if (na < nb) {
      std::swap(a, b);
      std::swap(na, nb);
    }
    Words product(na + nb - 1);
    _nmod_poly_mul(product.data(), a, static_cast<slong>(na), b, static_cast<slong>(nb), mod_);
    const Words wrapped = folded(product.data(), product.size(), n, mod_);
    std::fill(std::copy(wrapped.begin(), wrapped.end(), out), out + n, 0);
    engine_note("flint nmod_poly_mul", static_cast<double>(na + nb), modular_detail(*m_, na, nb));
  }

  ModulusPtr m_;
  nmod_t mod_;
};

}  // namespace

Words folded(const ulong* x, size_t length, size_t n, const nmod_t& mod) {
  Words out(x, x + std::min(length, n));
  for (size_t start = n; start < length; start += n)
    _nmod_vec_add(out.data(), out.data(), x + start, static_cast<slong>(std::min(n, length - start)), mod);
  return out;
}

void cyclic_product(const ModulusPtr& m, const ulong* a, size_t na, const ulong* b, size_t nb, size_t n, ulong* out) {
  CyclicProducts products(m);
  products(a, na, b, nb, n, out);
}

namespace {

// ---- Newton's iteration ----------------------------------------------------------------------
// Below this precision FLINT's own inverse series (its products are short there too).
constexpr size_t newton_base_precision = 256;

// out[i] = x[length - 1 - i] for i < count <= length: the first terms of rev(x).
Words reversed_top(const ulong* x, size_t length, size_t count) {
  Words out(count);
  std::reverse_copy(x + (length - count), x + length, out.begin());
  return out;
}

// g[0, k) = h^-1 mod x^k  ->  g[0, K) = h^-1 mod x^K, k < K <= 2k: g - x^k (g e mod x^(K-k)) with
// h g = 1 + x^k e (division.hpp says why the two cyclic products are exact where they are read).
// h g is taken modulo x^L - 1 for the power of two L >= K - 1 (h folded to L terms): what wraps
// lands below k, and when K = L + 1 the wanted term L lands on term 0, where h g has 1, and is
// read back as that term minus 1 (the halving from a quotient of 2^j + 1 terms meets K = 2^i + 1
// at every step: transforms of half the length).
void newton_step(const ulong* h, size_t nh, ulong* g, size_t k, size_t K, CyclicProducts& product) {
  const size_t L = power_of_two_at_least(K - 1), m = K - k;
  const nmod_t& mod = product.mod();
  const Words h_folded = folded(h, std::min(nh, K), L, mod);
  Words e(std::max(L, K));
  product(h_folded.data(), h_folded.size(), g, k, L, e.data());
  if (K == L + 1) e[L] = nmod_sub(e[0], 1, mod);
  const size_t n_low = power_of_two_at_least(2 * m - 1);
  Words correction(n_low);
  product(g, m, e.data() + k, m, n_low, correction.data());
  _nmod_vec_neg(g + k, correction.data(), static_cast<slong>(m), product.mod());
}

// The precision Newton's steps start from: `precision` halved (rounded up) down to the base.
size_t base_precision(size_t precision) {
  while (precision > newton_base_precision) precision = (precision + 1) / 2;
  return precision;
}

// out[0, k) = h^-1 mod x^k by FLINT, h[0, nh).
void flint_inverse(const ulong* h, size_t nh, size_t k, const nmod_t& mod, ulong* out) {
  _nmod_poly_inv_series_newton(out, h, static_cast<slong>(std::min(nh, k)), static_cast<slong>(k), mod);
}

Words inverse_series(const ulong* h, size_t nh, size_t precision, CyclicProducts& product) {
  std::vector<size_t> precisions;  // from `precision` down to above the base
  size_t k = base_precision(precision);
  for (size_t K = precision; K > k; K = (K + 1) / 2) precisions.push_back(K);
  Words g(precision);
  flint_inverse(h, nh, k, product.mod(), g.data());
  for (auto K = precisions.rbegin(); K != precisions.rend(); ++K) {
    newton_step(h, nh, g.data(), k, *K, product);
    k = *K;
  }
  return g;
}

// Where the quotient's product splits (low_terms_of_product): P when nq = P + s with P a power of
// two >= quotient_split_from and 2 s - 1 <= P / 2, else 0. The 2n by n division has s = 1.
constexpr size_t quotient_split_from = size_t{1} << 12;
size_t quotient_split(size_t nq) {
  const size_t P = power_of_two_at_least(nq) / 2;
  return P >= quotient_split_from && nq > P && 2 * (nq - P) - 1 <= P / 2 ? P : 0;
}

// The low nq terms of t i for t[0, nq) and i[0, nq) (more words may follow in the result). Split
// at P (quotient_split): t0 i0 (the first P terms of each) is exact modulo x^2P - 1, and terms P..nq
// add the low s terms of t1 i0 + t0 i1: transforms of 2P words and two short products instead of
// transforms of 4P words (past the length one prime allows, 2^23 modulo 998244353, those take two
// CRT primes).
Words low_terms_of_product(const ulong* t, const ulong* i, size_t nq, CyclicProducts& product) {
  const size_t P = quotient_split(nq);
  if (P == 0) {
    Words out(power_of_two_at_least(2 * nq - 1));
    product(t, nq, i, nq, out.size(), out.data());
    return out;
  }
  const size_t s = nq - P, n = power_of_two_at_least(2 * s - 1);
  Words out(2 * P), cross(n), other(n);
  product(t, P, i, P, 2 * P, out.data());
  product(t + P, s, i, s, n, cross.data());
  product(t, s, i + P, s, n, other.data());
  const nmod_t& mod = product.mod();
  _nmod_vec_add(out.data() + P, out.data() + P, cross.data(), static_cast<slong>(s), mod);
  _nmod_vec_add(out.data() + P, out.data() + P, other.data(), static_cast<slong>(s), mod);
  return out;
}

// q[0, na - nb + 1) = a div b from inverse = rev(b)^-1 mod x^(na - nb + 1) (or more terms):
// rev(q) = rev(a) inverse modulo that power of x.
void quotient_with_inverse(const ulong* a, size_t na, size_t nb, const ulong* inverse, CyclicProducts& product,
                           ulong* q) {
  const size_t nq = na - nb + 1;
  const Words top = reversed_top(a, na, nq);
  const Words reversed_quotient = low_terms_of_product(top.data(), inverse, nq, product);
  std::reverse_copy(reversed_quotient.begin(), reversed_quotient.begin() + static_cast<std::ptrdiff_t>(nq), q);
}

// r[0, nb - 1) = a - q b, which has fewer than nb terms: computed modulo x^n - 1 for n >= nb - 1.
void remainder_from_quotient(const ulong* a, size_t na, const ulong* b, size_t nb, const ulong* q, size_t nq,
                             CyclicProducts& product, ulong* r) {
  if (nb == 1) return;
  const size_t n = power_of_two_at_least(nb - 1);
  const nmod_t& mod = product.mod();
  const Words a_folded = folded(a, na, n, mod), q_folded = folded(q, nq, n, mod), b_folded = folded(b, nb, n, mod);
  Words qb(n);
  product(q_folded.data(), q_folded.size(), b_folded.data(), b_folded.size(), n, qb.data());
  _nmod_vec_sub(r, a_folded.data(), qb.data(), static_cast<slong>(nb - 1), mod);
}

struct NewtonDivision {
  ModPoly quotient, remainder;
};

// The first terms of rev(m)^-1 (FLINT's) from which the GPU grows the inverse to `precision`.
Words gpu_base_inverse(const ulong* m, size_t nm, size_t precision, const nmod_t& mod) {
  const size_t k = base_precision(precision);
  const Words h = reversed_top(m, nm, std::min(nm, k));
  Words base(k);
  flint_inverse(h.data(), h.size(), k, mod, base.data());
  return base;
}

// Whether the GPU takes a division or powmod whose largest product has operands of these lengths:
// then it takes every product of it, without a round trip each (gpu::divide_mod, power_modulo).
// The products' crossover is asked at `compared_length` of that product.
bool newton_goes_to_gpu(size_t length1, size_t length2, ulong p, size_t compared_length) {
  if (!gpu_usable() || gpu_mode() == GpuMode::Off) return false;
  const bool single = one_transform_modulo(p, length1 + length2 - 1);
  return use_gpu(for_modulus(single ? GpuOperation::ProductNttPrime : GpuOperation::ProductCrt, p), compared_length);
}

// A division's largest product is rev(f) i (nq by nq terms), or for a short quotient the
// remainder's q b (min(nq, nb - 1) by nb - 1). It goes to the GPU from twice the products'
// crossover: its 2 log2(nq) products there each pay their launches, where the cores take cyclic
// products of half a product's length. At the products' crossover the device division loses to
// 16 cores by 23-62%, from twice it wins (1.07-1.4x there). powmod, whose steps are all of one
// size, keeps the products' crossover, where the device already wins 1.5-2x. cas-bench-division:
// docs/measurements.md, "Division and powmod on the device".
bool division_goes_to_gpu(size_t nq, size_t nb, ulong p) {
  if (nb < 2) return false;
  const size_t longer = std::max(nq, nb - 1);
  return newton_goes_to_gpu(nq, longer, p, (nq + longer) / 2);
}

// f = q g + r with every product on the GPU; nullopt after a notice when the GPU failed.
std::optional<NewtonDivision> divide_on_gpu(const ModPoly& f, const ModPoly& g, bool want_remainder) {
  const size_t na = static_cast<size_t>(f.length()), nb = static_cast<size_t>(g.length()), nq = na - nb + 1;
  const ModulusPtr& m = f.modulus();
  const Words base = gpu_base_inverse(g.nmod()->coeffs, nb, nq, m->nmod());
  NewtonDivision d{ModPoly(m), ModPoly(m)};
  OperationDetail detail = modular_detail(*m, na, nb);
  const std::shared_ptr<const gpu::DeviceWords> held = f.device_words();  // read there, not uploaded
  detail.operands_on_gpu = held ? 1 : 0;
  auto divide = [&](ulong* q, ulong* r) {
    if (held)
      gpu::divide_mod(*held, g.nmod()->coeffs, nb, m->word(), base.data(), base.size(), q, r);
    else
      gpu::divide_mod(f.nmod()->coeffs, na, g.nmod()->coeffs, nb, m->word(), base.data(), base.size(), q, r);
  };
  try {  // q and r come straight into FLINT's arrays
    d.quotient = written_modpoly(m, nq, [&](ulong* q) {
      if (want_remainder) d.remainder = written_modpoly(m, nb - 1, [&](ulong* r) { divide(q, r); });
      else divide(q, nullptr);
    });
  } catch (const gpu::Error& e) {
    gpu_failure_notice(e, na, "the division");
    return std::nullopt;
  }
  engine_note("gpu newton division", static_cast<double>(2 * nq - 1), detail);
  return d;
}

// f = q g + r by Newton's iteration; with want_remainder false r stays 0. Word-size modulus,
// len f >= len g >= 1, g's leading coefficient invertible.
NewtonDivision divide_by_newton(const ModPoly& f, const ModPoly& g, bool want_remainder) {
  const size_t na = static_cast<size_t>(f.length()), nb = static_cast<size_t>(g.length()), nq = na - nb + 1;
  engine_explain("division by newton iteration", static_cast<double>(na), modular_detail(*f.modulus(), na, nb));
  if (division_goes_to_gpu(nq, nb, f.modulus()->word()))
    if (std::optional<NewtonDivision> d = divide_on_gpu(f, g, want_remainder)) return std::move(*d);
  const ulong *a = f.nmod()->coeffs, *b = g.nmod()->coeffs;
  CyclicProducts product(f.modulus());
  const Words h = reversed_top(b, nb, std::min(nb, nq));
  const Words inverse = inverse_series(h.data(), h.size(), nq, product);
  NewtonDivision d{written_modpoly(f.modulus(), nq,
                           [&](ulong* q) { quotient_with_inverse(a, na, nb, inverse.data(), product, q); }),
                   ModPoly(f.modulus())};
  if (want_remainder)
    d.remainder = written_modpoly(f.modulus(), nb - 1, [&](ulong* r) {
      remainder_from_quotient(a, na, b, nb, d.quotient.nmod()->coeffs, nq, product, r);
    });
  return d;
}

// ---- powers modulo m ----------------------------------------------------------------------
// x^e mod m for a reduced x, squaring and multiplying left to right; each product (at most
// 2 len m - 3 terms) reduced with one inverse of rev(m) to len m - 2 terms, computed once.
class PowersModulo {
 public:
  PowersModulo(const ModPoly& m, CyclicProducts& product)
      : m_(m.nmod()->coeffs), nm_(static_cast<size_t>(m.length())), product_(product) {
    if (nm_ >= 3) {
      const Words h = reversed_top(m_, nm_, nm_ - 2);
      inverse_ = inverse_series(h.data(), h.size(), nm_ - 2, product_);
    }
  }

  Words power(const Words& base, const fmpz_t e) {
    const bool linear = base.size() == 2;
    Words r = base;
    for (slong bit = static_cast<slong>(fmpz_bits(e)) - 2; bit >= 0; bit--) {
      r = reduced_product(r, r);
      if (fmpz_tstbit(e, static_cast<ulong>(bit)))
        r = linear ? reduced_times_linear(r, base[0], base[1]) : reduced_product(r, base);
    }
    return r;
  }

 private:
  // (b1 x + b0) r mod m for a reduced r, in O(len m): x r as below, times b1, plus b0 r. A base
  // x + a (the roots' splitting) then costs a squaring a bit, not a squaring and a product.
  Words reduced_times_linear(const Words& r, ulong b0, ulong b1) {
    Words out = reduced_times_x(r);
    const nmod_t& mod = product_.mod();
    if (b1 != 1) _nmod_vec_scalar_mul_nmod(out.data(), out.data(), static_cast<slong>(out.size()), b1, mod);
    if (out.size() < r.size()) out.resize(r.size(), 0);
    _nmod_vec_scalar_addmul_nmod(out.data(), r.data(), static_cast<slong>(r.size()), b0, mod);
    trim(out);
    return out;
  }

  // x r mod m for a reduced r: a shift, then one multiple of m off when it reaches len m terms.
  Words reduced_times_x(const Words& r) {
    if (r.empty()) return {};
    Words shifted(r.size() + 1);
    shifted[0] = 0;
    std::copy(r.begin(), r.end(), shifted.begin() + 1);
    if (shifted.size() < nm_) return shifted;
    const nmod_t& mod = product_.mod();
    const ulong factor = nmod_mul(shifted.back(), n_invmod(m_[nm_ - 1], mod.n), mod);
    _nmod_vec_scalar_addmul_nmod(shifted.data(), m_, static_cast<slong>(nm_), nmod_neg(factor, mod), mod);
    shifted.pop_back();
    trim(shifted);
    return shifted;
  }

  // x y mod m; x and y reduced (fewer than len m terms), without trailing zeros.
  Words reduced_product(const Words& x, const Words& y) {
    if (x.empty() || y.empty()) return {};
    const size_t length = x.size() + y.size() - 1;
    Words p(power_of_two_at_least(length));
    product_(x.data(), x.size(), y.data(), y.size(), p.size(), p.data());
    p.resize(length);
    trim(p);
    if (p.size() < nm_) return p;
    Words q(p.size() - nm_ + 1), r(nm_ - 1);
    quotient_with_inverse(p.data(), p.size(), nm_, inverse_.data(), product_, q.data());
    remainder_from_quotient(p.data(), p.size(), m_, nm_, q.data(), q.size(), product_, r.data());
    trim(r);
    return r;
  }

  static void trim(Words& x) {
    while (!x.empty() && x.back() == 0) x.pop_back();
  }

  const ulong* m_;
  size_t nm_;
  CyclicProducts& product_;
  Words inverse_;
};

// base^e mod m with every product on the GPU (gpu::power_modulo); base reduced and nonzero,
// len m >= 3, e >= 1. nullopt after a notice when the GPU failed.
std::optional<ModPoly> powmod_on_gpu(const ModPoly& base, const fmpz_t e, const ModPoly& m) {
  const size_t nm = static_cast<size_t>(m.length());
  const ModulusPtr& modulus = m.modulus();
  const Words inverse_base = gpu_base_inverse(m.nmod()->coeffs, nm, nm - 2, modulus->nmod());
  std::vector<ulong> exponent(std::max<size_t>(1, fmpz_size(e)));
  fmpz_get_ui_array(exponent.data(), static_cast<slong>(exponent.size()), e);
  try {
    ModPoly r = written_modpoly(modulus, nm - 1, [&](ulong* out) {
      gpu::power_modulo(base.nmod()->coeffs, static_cast<size_t>(base.length()), exponent.data(), exponent.size(),
                        m.nmod()->coeffs, nm, modulus->word(), inverse_base.data(), inverse_base.size(), out);
    });
    engine_note("gpu newton powmod", static_cast<double>(2 * nm - 3), modular_detail(*modulus, nm, fmpz_bits(e)));
    return r;
  } catch (const gpu::Error& error) {
    gpu_failure_notice(error, nm, "the powmod");
    return std::nullopt;
  }
}

// ---- multi-word moduli ----------------------------------------------------------------------
// FLINT 2.9's fmpz_mod_poly_divrem divides and conquers on FLINT's products. Newton's iteration on
// cas's products (multiply.hpp: the GPU's or the cores' multi-modular ones) needs about four
// products of the quotient's length. The products are whole and then cut: no transforms of a
// chosen length to wrap in, as the word-size iteration has.

// The first n coefficients of f.
ModPoly truncated(ModPoly f, size_t n) {
  fmpz_mod_poly_truncate(f.big(), static_cast<slong>(n), f.ctx());
  return f;
}

// Coefficients [k, k + n) of f.
ModPoly slice(const ModPoly& f, size_t k, size_t n) {
  ModPoly r(f.modulus());
  fmpz_mod_poly_shift_right(r.big(), f.big(), static_cast<slong>(k), f.ctx());
  return truncated(std::move(r), n);
}

// x^(n-1) f(1/x) for the first n coefficients of f.
ModPoly reversed(const ModPoly& f, size_t n) {
  ModPoly r(f.modulus());
  fmpz_mod_poly_reverse(r.big(), f.big(), static_cast<slong>(n), f.ctx());
  return r;
}

// h^-1 mod x^precision (h[0] invertible): FLINT's first terms, then the steps k -> K of
// inverse_series, i - x^k (i e mod x^(K-k)) with h i = 1 + x^k e mod x^K.
ModPoly big_inverse_series(const ModPoly& h, size_t precision) {
  std::vector<size_t> precisions;
  size_t k = base_precision(precision);
  for (size_t K = precision; K > k; K = (K + 1) / 2) precisions.push_back(K);
  ModPoly i(h.modulus());
  fmpz_mod_poly_inv_series_newton(i.big(), truncated(h, k).big(), static_cast<slong>(k), h.ctx());
  for (auto K = precisions.rbegin(); K != precisions.rend(); ++K) {
    const size_t m = *K - k;
    const ModPoly e = slice(multiply(truncated(h, *K), i), k, m);
    ModPoly correction = truncated(multiply(truncated(i, m), e), m);
    fmpz_mod_poly_shift_left(correction.big(), correction.big(), static_cast<slong>(k), h.ctx());
    fmpz_mod_poly_sub(i.big(), i.big(), correction.big(), h.ctx());
    k = *K;
  }
  return i;
}

// f div g (nq = len f - len g + 1 terms) from inverse = rev(g)^-1 mod x^nq (or more terms):
// rev(q) = rev(f) inverse mod x^nq.
ModPoly big_quotient(const ModPoly& f, const ModPoly& inverse, size_t nq) {
  const size_t na = static_cast<size_t>(f.length());
  return reversed(truncated(multiply(truncated(reversed(f, na), nq), truncated(inverse, nq)), nq), nq);
}

// f - q g = f mod g for its quotient q: the low len g - 1 terms, for which those of q and g suffice.
ModPoly big_remainder(const ModPoly& f, const ModPoly& g, const ModPoly& q) {
  const size_t low = static_cast<size_t>(g.length()) - 1;
  if (low == 0) return ModPoly(f.modulus());
  return sub(truncated(f, low), truncated(multiply(truncated(q, low), truncated(g, low)), low));
}

// f = q g + r by Newton's iteration for a multi-word modulus; with want_remainder false r stays 0.
// len f >= len g >= 1, g's leading coefficient invertible.
NewtonDivision divide_big_by_newton(const ModPoly& f, const ModPoly& g, bool want_remainder) {
  const size_t na = static_cast<size_t>(f.length()), nb = static_cast<size_t>(g.length()), nq = na - nb + 1;
  engine_explain("newton division, multi-word modulus", static_cast<double>(na),
                 modular_detail(*f.modulus(), na, nb));
  NewtonDivision d{big_quotient(f, big_inverse_series(reversed(g, nb), nq), nq), ModPoly(f.modulus())};
  if (want_remainder) d.remainder = big_remainder(f, g, d.quotient);
  return d;
}

// x^e mod m for multi-word moduli, as PowersModulo: every square and product (at most 2 len m - 3
// terms) reduced with one inverse of rev(m) to len m - 2 terms, on whole products.
class BigPowersModulo {
 public:
  explicit BigPowersModulo(const ModPoly& m)
      : m_(m), nm_(static_cast<size_t>(m.length())),
        inverse_(nm_ >= 3 ? big_inverse_series(reversed(m, nm_), nm_ - 2) : ModPoly(m.modulus())) {}

  ModPoly power(const ModPoly& base, const fmpz_t e) const {
    ModPoly r = base;
    for (slong bit = static_cast<slong>(fmpz_bits(e)) - 2; bit >= 0; bit--) {
      r = reduced(multiply(r, r));
      if (fmpz_tstbit(e, static_cast<ulong>(bit))) r = reduced(multiply(r, base));
    }
    return r;
  }

 private:
  ModPoly reduced(const ModPoly& p) const {
    if (p.length() < m_.length()) return p;
    return big_remainder(p, m_, big_quotient(p, inverse_, static_cast<size_t>(p.length()) - nm_ + 1));
  }

  const ModPoly& m_;
  size_t nm_;
  ModPoly inverse_;
};

bool goes_through_big_newton(const ModPoly& f, const ModPoly& g) {
  return !f.word() && f.length() >= g.length() &&
         big_newton_division_pays(static_cast<size_t>(f.length() - g.length() + 1), static_cast<size_t>(g.length()));
}

NewtonDivision divide_through_newton(const ModPoly& f, const ModPoly& g, bool want_remainder) {
  return f.word() ? divide_by_newton(f, g, want_remainder) : divide_big_by_newton(f, g, want_remainder);
}

bool goes_through_newton(const ModPoly& f, const ModPoly& g) {
  if (!f.word()) return goes_through_big_newton(f, g);
  return f.length() >= g.length() &&
         newton_division_pays(static_cast<size_t>(f.length() - g.length() + 1), static_cast<size_t>(g.length()),
                              f.modulus()->word());
}

void note_flint_division(const ModPoly& f, const ModPoly& g) {
  engine_note(f.word() ? "flint nmod_poly_divrem" : "flint fmpz_mod_poly_divrem",
              static_cast<double>(f.length()), modular_detail(*f.modulus(), static_cast<size_t>(f.length()),
                                                              static_cast<size_t>(g.length())));
}

void require_divisor(const ModPoly& f, const ModPoly& g) {
  require_same(f, g);
  require_invertible_lead(g, "division");
}

}  // namespace

bool newton_division_pays(size_t quotient_length, size_t divisor_length, ulong n) {
  if (quotient_length < newton_quotient_from || divisor_length < newton_divisor_from) return false;
  const size_t dividend_length = quotient_length + divisor_length - 1;
  if (n < small_modulus_bound && !one_transform_modulo(n, divisor_length))
    return divisor_length < (size_t{1} << 13) || dividend_length >= (size_t{1} << 18);
  return true;
}

bool big_newton_division_pays(size_t quotient_length, size_t divisor_length) {
  return quotient_length >= big_newton_quotient_from && divisor_length >= big_newton_divisor_from;
}

bool big_newton_powmod_pays(size_t modulus_length, const Modulus& m) {
  return modulus_length >= big_newton_powmod_from &&
         big_modulus_product_leaves_flint(m, 2 * modulus_length - 3, modulus_length - 1);
}

// powmod modulo a word p >= 2^17: the length of m from which Newton's reductions beat FLINT's
// powmod with its inverse precomputed, by the bits of p. FLINT's products of p's residues slow
// down by steps at lengths that grow with p's size, and Newton's reductions win from the step on:
// from 128 terms up to 32 bits (1.06-1.14x), 256 up to 48 bits, 320 up to 56, 384 above. For 63-64
// bits 384 is a compromise between machines: 0.9x there on 2 cores (1.31x from 448), 1.28x on 16.
// cas-bench-division --lengths: docs/measurements.md, "powmod modulo a word-size p: Newton's
// reductions against FLINT by the size of p".
namespace {
size_t newton_powmod_from(ulong n) {
  const unsigned bits = FLINT_BIT_COUNT(n);
  if (bits <= 32) return 128;
  if (bits <= 48) return 256;
  if (bits <= 56) return 320;
  return 384;
}
}  // namespace

bool newton_powmod_pays(size_t modulus_length, ulong n) {
  if (modulus_length < 2) return false;
  if (n < small_modulus_bound) return newton_division_pays(modulus_length - 1, modulus_length, n);
  return modulus_length >= newton_powmod_from(n);
}

Words inverse_series(const ulong* h, size_t nh, size_t precision, const ModulusPtr& m) {
  CyclicProducts product(m);
  return inverse_series(h, nh, precision, product);
}

std::pair<ModPoly, ModPoly> divrem_newton(const ModPoly& f, const ModPoly& g) {
  require_divisor(f, g);
  if (f.length() < g.length()) return {ModPoly(f.modulus()), f};
  NewtonDivision d = divide_through_newton(f, g, true);
  return {std::move(d.quotient), std::move(d.remainder)};
}

std::pair<ModPoly, ModPoly> divrem(const ModPoly& f, const ModPoly& g) {
  require_divisor(f, g);
  if (goes_through_newton(f, g)) {
    NewtonDivision d = divide_through_newton(f, g, true);
    return {std::move(d.quotient), std::move(d.remainder)};
  }
  note_flint_division(f, g);
  return divrem_flint(f, g);
}

ModPoly quotient(const ModPoly& f, const ModPoly& g) {
  require_divisor(f, g);
  if (goes_through_newton(f, g)) return std::move(divide_through_newton(f, g, false).quotient);
  note_flint_division(f, g);
  return std::move(divrem_flint(f, g).first);
}

ModPoly remainder(const ModPoly& f, const ModPoly& g) {
  require_divisor(f, g);
  if (goes_through_newton(f, g)) return std::move(divide_through_newton(f, g, true).remainder);
  note_flint_division(f, g);
  return remainder_flint(f, g);
}

namespace {
// Whether remainder(f, g) may run on the GPU: the whole Newton division there (word-size p), or
// the products of a multi-word one through multiply().
bool division_may_use_gpu(const ModPoly& f, const ModPoly& g) {
  if (!gpu_usable() || gpu_mode() == GpuMode::Off || f.length() < g.length() || !goes_through_newton(f, g))
    return false;
  if (!f.word()) return true;
  return division_goes_to_gpu(static_cast<size_t>(f.length() - g.length() + 1), static_cast<size_t>(g.length()),
                              f.modulus()->word());
}
}  // namespace

std::vector<ModPoly> remainder_each(const std::vector<Operands>& divisions) {
  const auto divide = [](const ModPoly& f, const ModPoly& g) { return remainder(f, g); };
  return each_pair(divisions, division_may_use_gpu, divide, divide);
}

ModPoly exact_div(const ModPoly& f, const ModPoly& g) {
  auto [q, r] = divrem(f, g);
  if (!r.is_zero()) throw DomainError("the division is not exact: the divisor does not divide the dividend");
  return std::move(q);
}

ModPoly powmod_newton(const ModPoly& f, const fmpz_t e, const ModPoly& m) {
  require_divisor(f, m);
  if (fmpz_sgn(e) < 0) throw DomainError("powmod: the exponent must be non-negative");
  if (m.length() == 1) return ModPoly(f.modulus());  // everything is 0 modulo a unit constant
  const ModPoly base = remainder(f, m);
  if (fmpz_is_zero(e)) return modpoly_constant(Fmpz(1).get(), f.modulus());
  engine_explain("powmod by newton reduction", static_cast<double>(m.length()),
                 modular_detail(*m.modulus(), static_cast<size_t>(m.length()), fmpz_bits(e)));
  if (!m.word()) return BigPowersModulo(m).power(base, e);
  const size_t nm = static_cast<size_t>(m.length());
  if (nm >= 3 && !base.is_zero() && newton_goes_to_gpu(nm - 1, nm - 1, m.modulus()->word(), 2 * nm - 3))
    if (std::optional<ModPoly> r = powmod_on_gpu(base, e, m)) return std::move(*r);
  CyclicProducts product(f.modulus());
  PowersModulo powers(m, product);
  const Words r = powers.power(Words(base.nmod()->coeffs, base.nmod()->coeffs + base.length()), e);
  return modpoly_from_words(f.modulus(), r.data(), r.size());
}

ModPoly powmod(const ModPoly& f, const fmpz_t e, const ModPoly& m) {
  require_same(f, m);
  if (fmpz_sgn(e) > 0 && (m.word() ? newton_powmod_pays(static_cast<size_t>(m.length()), m.modulus()->word())
                                    : big_newton_powmod_pays(static_cast<size_t>(m.length()), *m.modulus())))
    return powmod_newton(f, e, m);
  if (m.length() > 1)
    engine_note(m.word() ? "flint nmod_poly_powmod" : "flint fmpz_mod_poly_powmod", static_cast<double>(m.length()),
                modular_detail(*m.modulus(), static_cast<size_t>(m.length()), fmpz_bits(e)));
  return powmod_flint(f, e, m);
}

}  // namespace cas
