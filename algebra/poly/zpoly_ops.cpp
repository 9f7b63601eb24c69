#include "algebra/poly/zpoly_ops.hpp"

#include "algebra/support/error.hpp"
#include "algebra/support/guards.hpp"
#include "algebra/integers/integers.hpp"

#include <flint/fmpq_poly.h>
#include <flint/fmpz_poly_factor.h>

#include <algorithm>
#include <cmath>

namespace cas {

ZPolyFactorisation factor(const ZPoly& f) {
  if (f.is_zero()) throw DomainError("factor: the zero polynomial has no factorisation");
  fmpz_poly_factor_t fac;
  fmpz_poly_factor_init(fac);
  fmpz_poly_factor(fac, f.get());
  ZPolyFactorisation out;
  fmpz_set(out.content.get(), &fac->c);
  for (slong i = 0; i < fac->num; i++) {
    ZPoly p;
    fmpz_poly_set(p.get(), fac->p + i);
    out.factors.emplace_back(std::move(p), fac->exp[i]);
  }
  fmpz_poly_factor_clear(fac);
  // Lowest degree first, then by coefficients from the top (PARI's order); FLINT's order is an
  // accident of the algorithm.
  std::sort(out.factors.begin(), out.factors.end(), [](const auto& a, const auto& b) {
    const ZPoly &f = a.first, &g = b.first;
    if (f.length() != g.length()) return f.length() < g.length();
    for (slong i = f.length(); i-- > 0;)
      if (int c = fmpz_cmp(f.coeff(i), g.coeff(i))) return c < 0;
    return false;
  });
  return out;
}

std::vector<Fmpz> integer_roots(const ZPoly& f) {
  if (f.is_zero()) throw DomainError("roots: every integer is a root of the zero polynomial");
  std::vector<Fmpz> roots;
  for (const auto& [p, e] : factor(f).factors) {
    // A linear factor a*x + b (a > 0, primitive) gives an integer root exactly when a = 1.
    if (p.degree() != 1 || !fmpz_is_one(p.coeff(1))) continue;
    Fmpz r;
    fmpz_neg(r.get(), p.coeff(0));
    roots.push_back(std::move(r));
  }
  std::sort(roots.begin(), roots.end(), [](const Fmpz& a, const Fmpz& b) { return fmpz_cmp(a.get(), b.get()) < 0; });
  return roots;
}

bool is_irreducible(const ZPoly& f) {
  if (f.degree() < 1) return false;
  ZPolyFactorisation fac = factor(f);
  return fmpz_is_pm1(fac.content.get()) && fac.factors.size() == 1 && fac.factors[0].second == 1;
}

ZPoly interpolate(const std::vector<Fmpz>& xs, const std::vector<Fmpz>& ys) {
  if (xs.size() != ys.size())
    throw DomainError("interpolate: " + std::to_string(xs.size()) + " points but " + std::to_string(ys.size()) +
                      " values");
  const size_t n = xs.size();
  std::vector<Fmpz> sorted(xs);
  std::sort(sorted.begin(), sorted.end(), [](const Fmpz& a, const Fmpz& b) { return fmpz_cmp(a.get(), b.get()) < 0; });
  for (size_t i = 1; i < n; i++)
    if (fmpz_equal(sorted[i - 1].get(), sorted[i].get()))
      throw DomainError("interpolate: the point " + sorted[i].to_string() + " occurs twice");
  // FLINT's fmpz_poly_interpolate_fmpz_vec aborts on a non-integral interpolant: go through Q[x].
  std::vector<fmpz> x(n), y(n);
  for (size_t i = 0; i < n; i++) {
    x[i] = *xs[i].get();  // shallow views; FLINT only reads them
    y[i] = *ys[i].get();
  }
  fmpq_poly_t q;
  fmpq_poly_init(q);
  fmpq_poly_interpolate_fmpz_vec(q, x.data(), y.data(), static_cast<slong>(n));
  const bool integral = fmpz_is_one(fmpq_poly_denref(q));
  ZPoly r;
  if (integral) fmpq_poly_get_numerator(r.get(), q);
  fmpq_poly_clear(q);
  if (!integral)
    throw DomainError("interpolate: the polynomial through these points has non-integer coefficients "
                      "(interpolate over Z/pZ instead: give the values mod p)");
  return r;
}

namespace {

ZPoly remainder(const ZPoly& a, const ZPoly& m) {
  ZPoly q, r;
  fmpz_poly_divrem(q.get(), r.get(), a.get(), m.get());
  return r;
}

double coefficient_bits(const ZPoly& a) { return std::abs(static_cast<double>(fmpz_poly_max_bits(a.get()))); }

// Reduction by a monic m does not bound the coefficients in general (x^k mod
// x^2 - 3 grows like 3^(k/2)), but for many m it does (x^k mod x^2 + x + 1
// cycles), so the size cannot be predicted from the inputs. Watch it instead:
// while the coefficients keep growing by half or more per squaring, the
// `remaining` squarings will multiply them by at least 1.5^remaining.
void guard_growth(double bits_before, double bits_now, slong length, flint_bitcnt_t remaining) {
  double projected = bits_now;
  if (bits_now > 1.5 * bits_before + 16) projected *= std::pow(1.5, static_cast<double>(remaining));
  guard_allocation(projected / 8 * static_cast<double>(length), "powmod in Z[x]");
}

}  // namespace

ZPoly powmod(const ZPoly& f, const fmpz_t e, const ZPoly& m) {
  if (fmpz_sgn(e) < 0) throw DomainError("powmod: the exponent must be non-negative");
  if (m.is_zero()) throw DomainError("powmod: division by the zero polynomial");
  if (!fmpz_is_pm1(m.coeff(m.length() - 1)))
    throw DomainError("powmod: in Z[x] the modulus must have leading coefficient 1 or -1, not " +
                      fmpz_to_string(m.coeff(m.length() - 1)) + " (work mod p instead)");
  ZPoly result;
  if (m.length() == 1) return result;  // everything is 0 modulo a unit constant
  ZPoly base = remainder(f, m);
  fmpz_poly_set_ui(result.get(), 1);
  for (flint_bitcnt_t i = fmpz_bits(e); i-- > 0;) {
    ZPoly square;
    const double bits_before = coefficient_bits(result);
    fmpz_poly_sqr(square.get(), result.get());
    result = remainder(square, m);
    guard_growth(bits_before, coefficient_bits(result), result.length(), i);
    if (fmpz_tstbit(e, i)) {
      ZPoly product;
      fmpz_poly_mul(product.get(), result.get(), base.get());
      result = remainder(product, m);
    }
  }
  return result;
}

ZPoly crt_coefficients(const std::vector<ZPoly>& residues, const std::vector<Fmpz>& moduli) {
  if (residues.size() != moduli.size())
    throw DomainError("crt: " + std::to_string(residues.size()) + " residues but " + std::to_string(moduli.size()) +
                      " moduli");
  slong length = 0;
  for (const auto& r : residues) length = std::max(length, r.length());
  ZPoly out;
  std::vector<Fmpz> column(residues.size());
  Fmpz lcm;
  // Even with no coefficients, check the moduli and residues once (the zero polynomial is a residue too).
  for (slong j = 0; j < std::max<slong>(length, 1); j++) {
    for (size_t i = 0; i < residues.size(); i++)
      fmpz_poly_get_coeff_fmpz(column[i].get(), residues[i].get(), j);
    Fmpz c = crt_integers(column, moduli, lcm);
    fmpz_poly_set_coeff_fmpz(out.get(), j, c.get());
  }
  return out;
}

}  // namespace cas
