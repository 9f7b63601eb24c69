#include "algebra/poly/modpoly_ops.hpp"

#include "algebra/support/error.hpp"
#include "algebra/support/parallel.hpp"
#include "algebra/poly/zpoly_cores.hpp"

#include <flint/fmpz_mod_poly_factor.h>
#include <flint/nmod_poly_factor.h>

#include <algorithm>

namespace cas {

namespace {

bool same(const ModPoly& a, const ModPoly& b) { return same_modulus(a.modulus(), b.modulus()); }

// "division by the zero polynomial", said once: the operators pass what = "division".
std::string zero_divisor_message(const std::string& what) {
  const std::string message = "division by the zero polynomial";
  return what == "division" ? message : what + ": " + message;
}

}  // namespace

void require_same(const ModPoly& a, const ModPoly& b) {
  if (!same(a, b))
    throw DomainError("cannot combine polynomials mod " + a.modulus()->to_string() + " and mod " +
                      b.modulus()->to_string());
}

void require_invertible_lead(const ModPoly& b, const char* what) {
  if (b.is_zero()) throw DomainError(zero_divisor_message(what));
  Fmpz lc, g;
  lead(lc.get(), b);
  if (b.modulus()->is_prime()) return;  // a non-zero leading coefficient is a unit
  fmpz_gcd(g.get(), lc.get(), b.modulus()->value());
  if (!fmpz_is_one(g.get()))
    throw DomainError(std::string(what) + ": the leading coefficient " + lc.to_string() + " mod " +
                      b.modulus()->to_string() + " is not invertible");
}

namespace {

// Word-size p only: above 64 bits each residue is an integer made on a worker and freed on the
// main thread, and 2^20 of them take 39 ms against FLINT's 33 ms on one thread (mod 2^127 - 1:
// docs/measurements.md, "Integers on the cores: vectors of integers and Z[x] polynomials").
void reduce_on_cores(ModPoly& r, const fmpz* coeffs, size_t n) {
  const nmod_t mod = r.modulus()->nmod();
  ulong* out = r.nmod()->coeffs;
  parallel_ranges(n, integer_grain, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; i++) out[i] = fmpz_get_nmod(coeffs + i, mod);
  });
  r.nmod()->length = static_cast<slong>(n);
  _nmod_poly_normalise(r.nmod());
}

}  // namespace

ModPoly modpoly_from_fmpz_poly(const fmpz_poly_struct* f, const ModulusPtr& m) {
  ModPoly r(m);
  const size_t n = static_cast<size_t>(f->length);
  if (r.word() && n >= integers_on_cores_from) {
    r.fit_length(f->length);
    reduce_on_cores(r, f->coeffs, n);
  } else if (r.word()) {
    fmpz_poly_get_nmod_poly(r.nmod(), f);
  } else {
    fmpz_mod_poly_set_fmpz_poly(r.big(), f, r.ctx());
  }
  return r;
}

ZPoly lifted(const ModPoly& f, bool centred) {
  const size_t n = static_cast<size_t>(f.length());
  ZPoly r;
  fmpz_poly_fit_length(r.get(), f.length());
  fmpz* out = r.get()->coeffs;
  if (f.word()) {
    const ulong p = f.modulus()->word(), *words = f.nmod()->coeffs;
    parallel_ranges(n, integer_grain, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; i++) lift_word(out + i, words[i], p, centred);
    });
  } else {
    const fmpz *residues = f.big()->coeffs, *p = f.modulus()->value();
    parallel_ranges(n, integer_grain, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; i++) {
        if (centred) fmpz_smod(out + i, residues + i, p);
        else fmpz_set(out + i, residues + i);
      }
    });
  }
  _fmpz_poly_set_length(r.get(), f.length());
  if (n >= integers_on_cores_from) r.mark_made_on_cores();
  return r;
}

ModPoly modpoly_constant(const fmpz_t c, const ModulusPtr& m) {
  ModPoly r(m);
  r.set_coeff(0, c);
  return r;
}

ModPoly modpoly_x(const ModulusPtr& m) {
  ModPoly r(m);
  Fmpz one(1);
  r.set_coeff(1, one.get());
  return r;
}

bool equal(const ModPoly& a, const ModPoly& b) {
  if (!same(a, b)) return false;
  return a.word() ? nmod_poly_equal(a.nmod(), b.nmod()) : fmpz_mod_poly_equal(a.big(), b.big(), a.ctx());
}

ModPoly add(const ModPoly& a, const ModPoly& b) {
  require_same(a, b);
  ModPoly r(a.modulus());
  if (a.word())
    nmod_poly_add(r.nmod(), a.nmod(), b.nmod());
  else
    fmpz_mod_poly_add(r.big(), a.big(), b.big(), a.ctx());
  return r;
}

ModPoly sub(const ModPoly& a, const ModPoly& b) {
  require_same(a, b);
  ModPoly r(a.modulus());
  if (a.word())
    nmod_poly_sub(r.nmod(), a.nmod(), b.nmod());
  else
    fmpz_mod_poly_sub(r.big(), a.big(), b.big(), a.ctx());
  return r;
}

ModPoly neg(const ModPoly& a) {
  ModPoly r(a.modulus());
  if (a.word())
    nmod_poly_neg(r.nmod(), a.nmod());
  else
    fmpz_mod_poly_neg(r.big(), a.big(), a.ctx());
  return r;
}

ModPoly scalar_mul(const ModPoly& a, const fmpz_t c) {
  ModPoly r(a.modulus());
  if (a.word()) {
    nmod_poly_scalar_mul_nmod(r.nmod(), a.nmod(), fmpz_fdiv_ui(c, a.modulus()->word()));
  } else {
    Fmpz reduced;
    fmpz_mod(reduced.get(), c, a.modulus()->value());
    fmpz_mod_poly_scalar_mul_fmpz(r.big(), a.big(), reduced.get(), a.ctx());
  }
  return r;
}

ModPoly mul_flint(const ModPoly& a, const ModPoly& b) {
  require_same(a, b);
  ModPoly r(a.modulus());
  if (a.word())
    nmod_poly_mul(r.nmod(), a.nmod(), b.nmod());
  else
    fmpz_mod_poly_mul(r.big(), a.big(), b.big(), a.ctx());
  return r;
}

ModPoly pow_flint(const ModPoly& a, ulong e) {
  ModPoly r(a.modulus());
  if (a.word())
    nmod_poly_pow(r.nmod(), a.nmod(), e);
  else
    fmpz_mod_poly_pow(r.big(), a.big(), e, a.ctx());
  return r;
}

std::pair<ModPoly, ModPoly> divrem_flint(const ModPoly& a, const ModPoly& b) {
  require_same(a, b);
  require_invertible_lead(b, "division");
  ModPoly q(a.modulus()), r(a.modulus());
  if (a.word())
    nmod_poly_divrem(q.nmod(), r.nmod(), a.nmod(), b.nmod());
  else
    fmpz_mod_poly_divrem(q.big(), r.big(), a.big(), b.big(), a.ctx());
  return {std::move(q), std::move(r)};
}

ModPoly remainder_flint(const ModPoly& a, const ModPoly& b) {
  require_same(a, b);
  require_invertible_lead(b, "division");
  ModPoly r(a.modulus());
  if (a.word())
    nmod_poly_rem(r.nmod(), a.nmod(), b.nmod());
  else
    fmpz_mod_poly_rem(r.big(), a.big(), b.big(), a.ctx());
  return r;
}

void lead(fmpz_t out, const ModPoly& a) {
  if (a.is_zero())
    fmpz_zero(out);
  else
    a.coeff(out, a.length() - 1);
}

void evaluate(fmpz_t out, const ModPoly& a, const fmpz_t point) {
  if (a.word()) {
    fmpz_set_ui(out, nmod_poly_evaluate_nmod(a.nmod(), fmpz_fdiv_ui(point, a.modulus()->word())));
  } else {
    Fmpz reduced;
    fmpz_mod(reduced.get(), point, a.modulus()->value());
    fmpz_mod_poly_evaluate_fmpz(out, a.big(), reduced.get(), a.ctx());
  }
}

ModPoly derivative(const ModPoly& a) {
  ModPoly r(a.modulus());
  if (a.word())
    nmod_poly_derivative(r.nmod(), a.nmod());
  else
    fmpz_mod_poly_derivative(r.big(), a.big(), a.ctx());
  return r;
}

ModPoly make_monic(const ModPoly& a) {
  if (a.is_zero()) return a;
  require_invertible_lead(a, "making monic");
  ModPoly r(a.modulus());
  if (a.word())
    nmod_poly_make_monic(r.nmod(), a.nmod());
  else
    fmpz_mod_poly_make_monic(r.big(), a.big(), a.ctx());
  return r;
}

ModPoly gcd_flint(const ModPoly& a, const ModPoly& b) {
  ModPoly g(a.modulus());
  if (a.word())
    nmod_poly_gcd(g.nmod(), a.nmod(), b.nmod());
  else
    fmpz_mod_poly_gcd(g.big(), a.big(), b.big(), a.ctx());
  return make_monic(g);
}

void xgcd_flint(ModPoly& g, ModPoly& s, ModPoly& t, const ModPoly& a, const ModPoly& b) {
  // FLINT's xgcd wants len(a) >= len(b) and nonzero inputs: order and treat zeros here.
  if (a.length() < b.length()) {
    xgcd_flint(g, t, s, b, a);
    return;
  }
  const ModulusPtr& m = a.modulus();
  g = ModPoly(m), s = ModPoly(m), t = ModPoly(m);
  if (b.is_zero()) {
    if (a.is_zero()) return;
    Fmpz lc, inv;
    lead(lc.get(), a);
    fmpz_invmod(inv.get(), lc.get(), m->value());
    g = make_monic(a);
    s = modpoly_constant(inv.get(), m);
    return;
  }
  if (a.word())
    nmod_poly_xgcd(g.nmod(), s.nmod(), t.nmod(), a.nmod(), b.nmod());
  else
    fmpz_mod_poly_xgcd(g.big(), s.big(), t.big(), a.big(), b.big(), a.ctx());
}

void resultant_flint(fmpz_t out, const ModPoly& a, const ModPoly& b) {
  if (a.word())
    fmpz_set_ui(out, nmod_poly_resultant(a.nmod(), b.nmod()));
  else
    fmpz_mod_poly_resultant(out, a.big(), b.big(), a.ctx());
}

void discriminant_flint(fmpz_t out, const ModPoly& f) {
  if (f.word())
    fmpz_set_ui(out, nmod_poly_discriminant(f.nmod()));
  else
    fmpz_mod_poly_discriminant(out, f.big(), f.ctx());
}

bool is_monomial(const ModPoly& a, Fmpz& c) {
  // Coefficients only the GPU holds would have to come over to be read; the general routes are
  // right for a monomial too.
  if (a.is_zero() || !a.coefficients_on_host()) return false;
  Fmpz coefficient;
  for (slong i = 0; i + 1 < a.length(); i++) {
    a.coeff(coefficient.get(), i);
    if (!fmpz_is_zero(coefficient.get())) return false;
  }
  a.coeff(c.get(), a.length() - 1);
  return true;
}

namespace {

// f(c x^k) = sum f_i c^i x^(i k), k >= 1: one pass. FLINT 2.9 composes over Z/pZ by the general
// method whatever g is (Z[x] has the shortcut): f(x^2) for 40000 coefficients takes it 12 s, the
// pass 1 ms (docs/measurements.md, "compose(f, c x^k) over Z/pZ: FLINT 2.9 against one pass").
ModPoly compose_with_monomial(const ModPoly& f, const fmpz_t c, slong k) {
  ModPoly r(f.modulus());
  r.fit_length(f.degree() * k + 1);
  Fmpz power(ulong{1}), term;
  for (slong i = 0; i < f.length(); i++) {
    f.coeff(term.get(), i);
    fmpz_mod_mul(term.get(), term.get(), power.get(), f.ctx());
    r.set_coeff(i * k, term.get());
    fmpz_mod_mul(power.get(), power.get(), c, f.ctx());
  }
  return r;
}

}  // namespace

ModPoly compose(const ModPoly& f, const ModPoly& g) {
  require_same(f, g);
  Fmpz c;
  if (!f.is_zero() && g.degree() >= 1 && is_monomial(g, c)) return compose_with_monomial(f, c.get(), g.degree());
  ModPoly r(f.modulus());
  if (f.word())
    nmod_poly_compose(r.nmod(), f.nmod(), g.nmod());
  else
    fmpz_mod_poly_compose(r.big(), f.big(), g.big(), f.ctx());
  return r;
}

namespace {

// r = base^e mod m (base reduced, len m >= 2) by FLINT's powering with the inverse of rev(m)
// computed once (its plain powmod divides afresh at every step: 2-3 times slower at 2^8..2^12
// coefficients, docs/measurements.md, "powmod modulo a word-size p: Newton's reductions against
// FLINT by the size of p"); x^e by its own sliding window of shifts.
void powmod_nmod_preinv(ModPoly& r, const ModPoly& base, const fmpz_t e, const ModPoly& m) {
  nmod_poly_t inverse;
  nmod_poly_init_mod(inverse, m.modulus()->nmod());
  nmod_poly_reverse(inverse, m.nmod(), m.length());
  nmod_poly_inv_series(inverse, inverse, m.length());
  fmpz* exponent = const_cast<fmpz*>(e);
  const bool is_x = base.length() == 2 && base.nmod()->coeffs[0] == 0 && base.nmod()->coeffs[1] == 1;
  if (is_x && m.length() > 2 && fmpz_sgn(e) > 0)
    nmod_poly_powmod_x_fmpz_preinv(r.nmod(), exponent, m.nmod(), inverse);
  else
    nmod_poly_powmod_fmpz_binexp_preinv(r.nmod(), base.nmod(), exponent, m.nmod(), inverse);
  nmod_poly_clear(inverse);
}

// The same for a multi-word modulus: fmpz_mod_poly_powmod_fmpz_binexp divides afresh at every step
// (1.7-3.3 times slower at 2^6..2^13 terms: docs/measurements.md, "Division and powmod modulo a
// multi-word p").
void powmod_big_preinv(ModPoly& r, const ModPoly& base, const fmpz_t e, const ModPoly& m) {
  const fmpz_mod_ctx_struct* ctx = m.ctx();
  fmpz_mod_poly_t inverse;
  fmpz_mod_poly_init(inverse, ctx);
  fmpz_mod_poly_reverse(inverse, m.big(), m.length(), ctx);
  fmpz_mod_poly_inv_series_newton(inverse, inverse, m.length(), ctx);
  const bool is_x = base.length() == 2 && fmpz_is_zero(base.big()->coeffs) && fmpz_is_one(base.big()->coeffs + 1);
  if (is_x && m.length() > 2 && fmpz_sgn(e) > 0)
    fmpz_mod_poly_powmod_x_fmpz_preinv(r.big(), e, m.big(), inverse, ctx);
  else
    fmpz_mod_poly_powmod_fmpz_binexp_preinv(r.big(), base.big(), e, m.big(), inverse, ctx);
  fmpz_mod_poly_clear(inverse, ctx);
}

}  // namespace

ModPoly powmod_flint(const ModPoly& f, const fmpz_t e, const ModPoly& m) {
  require_same(f, m);
  if (fmpz_sgn(e) < 0) throw DomainError("powmod: the exponent must be non-negative");
  auto [q, base] = divrem_flint(f, m);
  ModPoly r(f.modulus());
  if (m.length() == 1) return r;  // everything is 0 modulo a unit constant
  if (f.word())
    powmod_nmod_preinv(r, base, e, m);
  else
    powmod_big_preinv(r, base, e, m);
  return r;
}

std::vector<std::pair<ModPoly, slong>> factor_flint(const ModPoly& f, fmpz_t unit_out) {
  f.modulus()->require_field("factor");
  if (f.is_zero()) throw DomainError("factor: the zero polynomial has no factorisation");
  std::vector<std::pair<ModPoly, slong>> out;
  const ModulusPtr& m = f.modulus();
  lead(unit_out, f);
  if (f.word()) {
    nmod_poly_factor_t fac;
    nmod_poly_factor_init(fac);
    nmod_poly_factor(fac, f.nmod());
    for (slong i = 0; i < fac->num; i++) {
      ModPoly p(m);
      nmod_poly_set(p.nmod(), fac->p + i);
      out.emplace_back(std::move(p), fac->exp[i]);
    }
    nmod_poly_factor_clear(fac);
  } else {
    fmpz_mod_poly_factor_t fac;
    fmpz_mod_poly_factor_init(fac, f.ctx());
    fmpz_mod_poly_factor(fac, f.big(), f.ctx());
    for (slong i = 0; i < fac->num; i++) {
      ModPoly p(m);
      fmpz_mod_poly_set(p.big(), fac->poly + i, f.ctx());
      out.emplace_back(std::move(p), fac->exp[i]);
    }
    fmpz_mod_poly_factor_clear(fac, f.ctx());
  }
  return out;
}

std::vector<Fmpz> roots_flint(const ModPoly& f) {
  std::vector<Fmpz> out;
  Fmpz root;
  if (f.word()) {
    nmod_poly_factor_t fac;
    nmod_poly_factor_init(fac);
    nmod_poly_roots(fac, f.nmod(), 0);
    for (slong i = 0; i < fac->num; i++) {
      // each factor is x - r, monic
      fmpz_set_ui(root.get(), nmod_neg(nmod_poly_get_coeff_ui(fac->p + i, 0), f.modulus()->nmod()));
      out.push_back(root);
    }
    nmod_poly_factor_clear(fac);
  } else {
    fmpz_mod_poly_factor_t fac;
    fmpz_mod_poly_factor_init(fac, f.ctx());
    fmpz_mod_poly_roots(fac, f.big(), 0, f.ctx());
    for (slong i = 0; i < fac->num; i++) {
      fmpz_mod_poly_get_coeff_fmpz(root.get(), fac->poly + i, 0, f.ctx());
      fmpz_mod_neg(root.get(), root.get(), f.ctx());
      out.push_back(root);
    }
    fmpz_mod_poly_factor_clear(fac, f.ctx());
  }
  std::sort(out.begin(), out.end(), [](const Fmpz& a, const Fmpz& b) { return fmpz_cmp(a.get(), b.get()) < 0; });
  return out;
}

bool is_irreducible(const ModPoly& f) {
  f.modulus()->require_field("isirreducible");
  if (f.length() <= 1) return false;
  return f.word() ? nmod_poly_is_irreducible(f.nmod()) : fmpz_mod_poly_is_irreducible(f.big(), f.ctx());
}

}  // namespace cas
