#include "algebra/poly/zpoly_cores.hpp"

#include "algebra/support/parallel.hpp"
#include "algebra/poly/zpoly_division.hpp"

#include <flint/fmpz_vec.h>

#include <algorithm>

namespace cas {

namespace {

constexpr size_t cores_from = integers_on_cores_from, grain = integer_grain;

// The polynomial of n coefficients that fill(out, begin, end) writes, range by range, normalised.
template <class Fill>
ZPoly made_by_ranges(size_t n, Fill&& fill) {
  ZPoly r;
  fmpz_poly_fit_length(r.get(), static_cast<slong>(n));
  fmpz* out = r.get()->coeffs;
  parallel_ranges(n, grain, [&](size_t begin, size_t end) { fill(out, begin, end); });
  _fmpz_poly_set_length(r.get(), static_cast<slong>(n));
  _fmpz_poly_normalise(r.get());  // a sum's top coefficients may cancel
  r.mark_made_on_cores();
  return r;
}

// A function of one polynomial whose result has n coefficients: FLINT's serial one for a short a,
// fill on the cores otherwise.
template <class Fill>
ZPoly of_one(const ZPoly& a, void (*serial)(fmpz_poly_struct*, const fmpz_poly_struct*), size_t n, Fill&& fill) {
  if (static_cast<size_t>(a.length()) < cores_from) {
    ZPoly r;
    serial(r.get(), a.get());
    return r;
  }
  return made_by_ranges(n, fill);
}

ZPoly combined(const ZPoly& a, const ZPoly& b, bool subtract) {
  const size_t la = static_cast<size_t>(a.length()), lb = static_cast<size_t>(b.length());
  const size_t n = std::max(la, lb), common = std::min(la, lb);
  if (n < cores_from) {
    ZPoly r;
    (subtract ? fmpz_poly_sub : fmpz_poly_add)(r.get(), a.get(), b.get());
    return r;
  }
  const fmpz *x = a.get()->coeffs, *y = b.get()->coeffs;
  return made_by_ranges(n, [&](fmpz* out, size_t begin, size_t end) {
    const size_t mid = std::clamp(common, begin, end);  // [begin, mid) has both, [mid, end) one
    const slong both = static_cast<slong>(mid - begin), one = static_cast<slong>(end - mid);
    (subtract ? _fmpz_vec_sub : _fmpz_vec_add)(out + begin, x + begin, y + begin, both);
    if (la > lb) _fmpz_vec_set(out + mid, x + mid, one);
    else if (subtract) _fmpz_vec_neg(out + mid, y + mid, one);
    else _fmpz_vec_set(out + mid, y + mid, one);
  });
}

// Every coefficient of a (all < n) through divide(out, coefficient, c) into a polynomial.
ZPoly by_constant(const ZPoly& a, const fmpz_t c, void (*divide)(fmpz_t, const fmpz_t, const fmpz_t)) {
  const fmpz* x = a.get()->coeffs;
  return made_by_ranges(static_cast<size_t>(a.length()), [&](fmpz* out, size_t begin, size_t end) {
    for (size_t i = begin; i < end; i++) divide(out + i, x + i, c);
  });
}

bool is_constant(const ZPoly& b) { return b.length() == 1; }

}  // namespace

std::pair<ZPoly, ZPoly> zpoly_divrem(const ZPoly& a, const ZPoly& b) {
  if (is_constant(b)) return {by_constant(a, b.coeff(0), fmpz_fdiv_q), by_constant(a, b.coeff(0), fmpz_fdiv_r)};
  if (fmpz_is_pm1(b.coeff(b.length() - 1)) && division_through_primes_pays(a, b))
    if (auto qr = divrem_through_primes(a, b)) return std::move(*qr);
  ZPoly q, r;
  fmpz_poly_divrem(q.get(), r.get(), a.get(), b.get());
  return {std::move(q), std::move(r)};
}

ZPoly zpoly_quotient(const ZPoly& a, const ZPoly& b) {
  return is_constant(b) ? by_constant(a, b.coeff(0), fmpz_fdiv_q) : zpoly_divrem(a, b).first;
}

ZPoly zpoly_remainder(const ZPoly& a, const ZPoly& b) {
  return is_constant(b) ? by_constant(a, b.coeff(0), fmpz_fdiv_r) : zpoly_divrem(a, b).second;
}

std::optional<ZPoly> zpoly_exact_quotient(const ZPoly& a, const ZPoly& b) {
  if (is_constant(b)) return exact_quotient_by_constant(a, b.coeff(0));
  if (a.length() < b.length()) return a.is_zero() ? std::optional<ZPoly>(ZPoly()) : std::nullopt;
  if (division_through_primes_pays(a, b)) {
    ExactQuotient q = exact_quotient_through_primes(a, b);
    if (q.exactness == Exactness::Exact) return std::move(q.quotient);
    if (q.exactness == Exactness::NotExact) return std::nullopt;
  }
  ZPoly q;
  if (!fmpz_poly_divides(q.get(), a.get(), b.get())) return std::nullopt;
  return q;
}

std::optional<ZPoly> exact_quotient_by_constant(const ZPoly& a, const fmpz_t c) {
  const fmpz* x = a.get()->coeffs;
  if (!all_on_cores(static_cast<size_t>(a.length()), grain, [&](size_t i) { return fmpz_divisible(x + i, c); }))
    return std::nullopt;
  return by_constant(a, c, fmpz_divexact);
}

ZPoly add_on_cores(const ZPoly& a, const ZPoly& b) { return combined(a, b, false); }

ZPoly sub_on_cores(const ZPoly& a, const ZPoly& b) { return combined(a, b, true); }

ZPoly neg_on_cores(const ZPoly& a) {
  return of_one(a, fmpz_poly_neg, static_cast<size_t>(a.length()), [&a](fmpz* out, size_t begin, size_t end) {
    _fmpz_vec_neg(out + begin, a.get()->coeffs + begin, static_cast<slong>(end - begin));
  });
}

ZPoly derivative_on_cores(const ZPoly& a) {
  const size_t n = static_cast<size_t>(a.length());
  return of_one(a, fmpz_poly_derivative, n > 0 ? n - 1 : 0, [&a](fmpz* out, size_t begin, size_t end) {
    for (size_t i = begin; i < end; i++) fmpz_mul_ui(out + i, a.get()->coeffs + i + 1, i + 1);
  });
}

}  // namespace cas
