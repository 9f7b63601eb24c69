// gcd, lcm, xgcd, powmod, invmod, isprime, nextprime, factor, crt, binomial.
// gcd, lcm, xgcd, powmod, factor and crt also take polynomials: one
// registration per name, dispatching on the arguments' types.
#include "algebra/poly/division.hpp"
#include "algebra/poly/euclid.hpp"
#include "algebra/poly/factor.hpp"
#include "algebra/support/guards.hpp"
#include "algebra/integers/integers.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/poly/zpoly_ops.hpp"
#include "poly_args.hpp"

#include <algorithm>
#include <cmath>

namespace cas {

namespace {

Value integer_value(Fmpz&& z) { return Value::integer(std::move(z)); }

Value pair(Value a, Value b) { return Value::vec({std::move(a), std::move(b)}); }

bool both_integers(const CallContext& c) { return c.args[0].is(Kind::Int) && c.args[1].is(Kind::Int); }

bool any_poly(const CallContext& c) {
  for (const Value& v : c.args)
    if (is_poly(v)) return true;
  return false;
}

// gcd, lcm and xgcd of integers are those of Z; as soon as one argument is a polynomial or an
// element of Z/pZ, the arguments are polynomials (gcd(2 mod 7, 3 mod 7) is 1, as in Z/7Z[x]).
bool any_poly_or_residue(const CallContext& c) {
  for (const Value& v : c.args)
    if (is_poly(v) || v.is(Kind::Mod)) return true;
  return false;
}

[[noreturn]] void needs_integers_or_polys(const CallContext& c, const char* fn) {
  throw DomainError(std::string(fn) + ": needs two integers or two polynomials, not " + describe(c.args[0]) +
                    " and " + describe(c.args[1]));
}

// ---- gcd, lcm, xgcd ------------------------------------------------------

Value builtin_gcd(CallContext& c) {
  if (both_integers(c)) {
    Fmpz g;
    fmpz_gcd(g.get(), c.args[0].as_int(), c.args[1].as_int());
    return integer_value(std::move(g));
  }
  if (!any_poly_or_residue(c)) needs_integers_or_polys(c, "gcd");
  if (ModulusPtr m = poly_ring(c, {0, 1}, "gcd")) return Value::modpoly(gcd(modpoly_arg(c, 0, m), modpoly_arg(c, 1, m)));
  ZPoly g;
  fmpz_poly_gcd(g.get(), zpoly_arg(c, 0).get(), zpoly_arg(c, 1).get());
  return Value::zpoly(std::move(g));
}

Value builtin_lcm(CallContext& c) {
  if (both_integers(c)) {
    Fmpz l;
    fmpz_lcm(l.get(), c.args[0].as_int(), c.args[1].as_int());
    return integer_value(std::move(l));
  }
  if (!any_poly_or_residue(c)) needs_integers_or_polys(c, "lcm");
  if (ModulusPtr m = poly_ring(c, {0, 1}, "lcm")) {
    m->require_field("lcm");
    ModPoly a = modpoly_arg(c, 0, m), b = modpoly_arg(c, 1, m);
    if (a.is_zero() || b.is_zero()) return Value::modpoly(ModPoly(m));
    return Value::modpoly(make_monic(exact_div(mul_flint(a, b), gcd(a, b))));
  }
  ZPoly l;
  fmpz_poly_lcm(l.get(), zpoly_arg(c, 0).get(), zpoly_arg(c, 1).get());
  return Value::zpoly(std::move(l));
}

// gcd and lcm of the entries of one vector (PARI's gcd(v)) or of two or more arguments, folded
// pairwise by the two-argument function; of no entries the neutral element (gcd 0, lcm 1), of one
// entry a with the neutral element (gcd(a, 0), the normalised a).
Value folded(CallContext& c, BuiltinFunction pairwise, const char* fn, slong neutral) {
  if (c.args.size() == 1 && !c.args[0].is(Kind::Vec))
    throw DomainError(std::string(fn) + ": needs a vector, or two or more integers or polynomials, not " +
                      describe(c.args[0]) + " alone");
  const std::vector<Value> items = c.args.size() == 1 ? c.args[0].as_vec() : c.args;
  std::vector<Value> two = {items.empty() ? Value::integer(neutral) : items[0], Value::integer(neutral)};
  CallContext pair_context{c.interp, two, c.nodes, c.where};
  if (items.size() <= 1) return pairwise(pair_context);
  for (size_t i = 1; i < items.size(); i++) {
    two[1] = items[i];
    two[0] = pairwise(pair_context);
  }
  return two[0];
}

Value builtin_gcd_of_any(CallContext& c) {
  return c.args.size() == 2 ? builtin_gcd(c) : folded(c, builtin_gcd, "gcd", 0);
}

Value builtin_lcm_of_any(CallContext& c) {
  return c.args.size() == 2 ? builtin_lcm(c) : folded(c, builtin_lcm, "lcm", 1);
}

// The smallest cofactors, GMP's (|s| <= |b|/2g and |t| <= |a|/2g, with GMP's rules when one
// argument divides the other), which PARI's gcdext gives too. FLINT 2.9's fmpz_xgcd only reduces s
// mod b/g: xgcd(12, 18) gave [6, 17, -11] instead of [6, -1, 1].
Value integer_xgcd(const fmpz* a, const fmpz* b) {
  mpz_t g, s, t, x, y;
  mpz_inits(g, s, t, x, y, nullptr);
  fmpz_get_mpz(x, a);
  fmpz_get_mpz(y, b);
  mpz_gcdext(g, s, t, x, y);
  Fmpz gcd, u, v;
  fmpz_set_mpz(gcd.get(), g);
  fmpz_set_mpz(u.get(), s);
  fmpz_set_mpz(v.get(), t);
  mpz_clears(g, s, t, x, y, nullptr);
  return Value::vec({integer_value(std::move(gcd)), integer_value(std::move(u)), integer_value(std::move(v))});
}

Value builtin_xgcd(CallContext& c) {
  if (both_integers(c)) return integer_xgcd(c.args[0].as_int(), c.args[1].as_int());
  if (!any_poly_or_residue(c)) needs_integers_or_polys(c, "xgcd");
  ModulusPtr m = poly_ring(c, {0, 1}, "xgcd");
  if (!m)
    throw DomainError("xgcd: polynomials need a field (Z[x] has no Bezout identity in general): reduce mod p, "
                      "e.g. xgcd(f mod 7, g mod 7)");
  ModPoly g(m), s(m), t(m);
  xgcd(g, s, t, modpoly_arg(c, 0, m), modpoly_arg(c, 1, m));
  return Value::vec({Value::modpoly(std::move(g)), Value::modpoly(std::move(s)), Value::modpoly(std::move(t))});
}

// ---- modular powers and inverses -----------------------------------------

Value integer_powmod(CallContext& c) {
  const fmpz* a = int_arg(c, 0, "powmod");
  const fmpz* e = int_arg(c, 1, "powmod");
  const fmpz* m = int_arg(c, 2, "powmod");
  if (fmpz_sgn(m) <= 0) throw DomainError("powmod: the modulus must be positive, not " + fmpz_to_string(m));
  Fmpz base, r;
  fmpz_mod(base.get(), a, m);
  if (fmpz_is_one(m)) return integer_value(std::move(r));
  Fmpz exponent(e);
  if (fmpz_sgn(e) < 0) {
    // A negative exponent is a power of the inverse.
    if (!fmpz_invmod(base.get(), base.get(), m))
      throw DomainError("powmod: " + base.to_string() + " mod " + fmpz_to_string(m) +
                        " is not invertible, so it has no negative powers");
    fmpz_neg(exponent.get(), exponent.get());
  }
  fmpz_powm(r.get(), base.get(), exponent.get(), m);
  return integer_value(std::move(r));
}

Value builtin_powmod(CallContext& c) {
  if (!any_poly(c)) return integer_powmod(c);
  const fmpz* e = int_arg(c, 1, "powmod");
  if (ModulusPtr m = poly_ring(c, {0, 2}, "powmod")) {
    ModPoly modulus = modpoly_arg(c, 2, m);
    require_invertible_lead(modulus, "powmod");
    return Value::modpoly(powmod(modpoly_arg(c, 0, m), e, modulus));
  }
  return Value::zpoly(powmod(zpoly_arg(c, 0), e, zpoly_arg(c, 2)));
}

Value builtin_invmod(CallContext& c) {
  const fmpz* a = int_arg(c, 0, "invmod");
  const fmpz* m = int_arg(c, 1, "invmod");
  if (fmpz_cmp_ui(m, 2) < 0) throw DomainError("invmod: the modulus must be at least 2, not " + fmpz_to_string(m));
  Fmpz residue, inverse;
  fmpz_mod(residue.get(), a, m);
  if (!fmpz_invmod(inverse.get(), residue.get(), m))
    throw DomainError("invmod: " + residue.to_string() + " mod " + fmpz_to_string(m) + " is not invertible");
  return integer_value(std::move(inverse));
}

// ---- primes ------------------------------------------------------------------

bool is_prime(const fmpz* n) {
  if (fmpz_cmp_ui(n, 2) < 0) return false;
  int proved = fmpz_is_prime(n);
  // FLINT answers -1 when it can neither prove nor disprove; BPSW has no known counterexample.
  return proved < 0 ? fmpz_is_probabprime(n) : proved == 1;
}

Value builtin_isprime(CallContext& c) { return Value::boolean(is_prime(int_arg(c, 0, "isprime"))); }

Value builtin_nextprime(CallContext& c) {
  const fmpz* n = int_arg(c, 0, "nextprime");
  Fmpz p(2);
  if (fmpz_cmp_ui(n, 2) < 0) return integer_value(std::move(p));
  // Proved primes up to 512 bits (fast); beyond, BPSW probable primes, as PARI does.
  fmpz_nextprime(p.get(), n, fmpz_bits(n) <= 512);
  return integer_value(std::move(p));
}

// ---- factor ------------------------------------------------------------------

Value factor_integer_value(const fmpz* n) {
  if (fmpz_is_zero(n)) throw DomainError("factor: 0 has no factorisation");
  std::vector<Value> out;
  if (fmpz_sgn(n) < 0) out.push_back(pair(Value::integer(slong{-1}), Value::integer(slong{1})));
  if (!fmpz_is_pm1(n)) {
    auto primes = factor_integer(n);
    // FLINT lists the primes in the order it found them; PARI and readers want them ascending.
    std::sort(primes.begin(), primes.end(), [](const auto& a, const auto& b) { return fmpz_cmp(a.first.get(), b.first.get()) < 0; });
    for (auto& [p, e] : primes) out.push_back(pair(integer_value(std::move(p)), Value::integer(static_cast<slong>(e))));
  }
  return Value::vec(std::move(out));
}

Value factor_zpoly_value(const ZPoly& f) {
  ZPolyFactorisation fac = factor(f);
  std::vector<Value> out;
  // The content is a factor too (so the product gives f back); PARI, working over Q, drops it.
  if (!fmpz_is_one(fac.content.get()))
    out.push_back(pair(integer_value(std::move(fac.content)), Value::integer(slong{1})));
  for (auto& [p, e] : fac.factors) out.push_back(pair(Value::zpoly(std::move(p)), Value::integer(e)));
  return Value::vec(std::move(out));
}

// Lowest degree first, then by coefficients (in 0..p-1) from the top, as PARI lists them.
bool lower_factor(const ModPoly& f, const ModPoly& g) {
  if (f.length() != g.length()) return f.length() < g.length();
  Fmpz a, b;
  for (slong i = f.length(); i-- > 0;) {
    f.coeff(a.get(), i);
    g.coeff(b.get(), i);
    if (int c = fmpz_cmp(a.get(), b.get())) return c < 0;
  }
  return false;
}

Value factor_modpoly_value(const ModPoly& f) {
  Fmpz unit;
  auto factors = factor(f, unit.get());
  std::vector<Value> out;
  if (!fmpz_is_one(unit.get())) out.push_back(pair(Value::mod(unit.get(), f.modulus()), Value::integer(slong{1})));
  std::sort(factors.begin(), factors.end(), [](const auto& a, const auto& b) { return lower_factor(a.first, b.first); });
  for (auto& [p, e] : factors) out.push_back(pair(Value::modpoly(std::move(p)), Value::integer(e)));
  return Value::vec(std::move(out));
}

Value builtin_factor(CallContext& c) {
  const Value& v = c.args[0];
  switch (v.kind()) {
    case Kind::Int: return factor_integer_value(v.as_int());
    case Kind::ZPoly: return factor_zpoly_value(v.as_zpoly());
    case Kind::ModPoly: return factor_modpoly_value(v.as_modpoly());
    case Kind::Mod: return factor_modpoly_value(to_modpoly(v, v.modulus()));  // a constant polynomial
    default: throw DomainError("factor: argument 1 must be an integer or a polynomial, not " + describe(v));
  }
}

// ---- crt -------------------------------------------------------------------

// The modulus a residue carries (a Mod or a ModPoly) must agree with the one given for it.
void check_residue_modulus(const Value& r, const Fmpz& modulus, size_t i) {
  ModulusPtr m = r.modulus();
  if (m && !fmpz_equal(m->value(), modulus.get()))
    throw DomainError("crt: residue " + std::to_string(i + 1) + " is " + describe(r) + ", but its modulus is given as " +
                      modulus.to_string());
}

std::vector<Fmpz> crt_moduli(const CallContext& c, const std::vector<Value>& residues) {
  std::vector<Fmpz> moduli;
  if (c.args.size() == 1) {
    // crt([a mod p, b mod q, ...]): every residue names its own modulus.
    for (size_t i = 0; i < residues.size(); i++) {
      ModulusPtr m = residues[i].modulus();
      if (!m)
        throw DomainError("crt: residue " + std::to_string(i + 1) + " is " + describe(residues[i]) +
                          ", with no modulus: give the moduli as a second argument");
      moduli.emplace_back(m->value());
    }
    return moduli;
  }
  for (const Value& m : vec_arg(c, 1, "crt")) {
    if (!m.is(Kind::Int)) throw DomainError("crt: the moduli must be integers, not " + describe(m));
    moduli.emplace_back(m.as_int());
  }
  return moduli;
}

Value builtin_crt(CallContext& c) {
  const std::vector<Value>& residues = vec_arg(c, 0, "crt");
  std::vector<Fmpz> moduli = crt_moduli(c, residues);
  if (residues.size() != moduli.size())
    throw DomainError("crt: " + std::to_string(residues.size()) + " residues but " + std::to_string(moduli.size()) +
                      " moduli");
  bool polys = false;
  for (size_t i = 0; i < residues.size(); i++) {
    const Value& r = residues[i];
    if (!is_ring_element(r)) throw DomainError("crt: residue " + std::to_string(i + 1) + " is " + describe(r));
    check_residue_modulus(r, moduli[i], i);
    polys = polys || is_poly(r);
  }
  if (!polys) {
    std::vector<Fmpz> values;
    for (const Value& r : residues) values.emplace_back(r.as_int());
    Fmpz lcm;
    return integer_value(crt_integers(values, moduli, lcm));
  }
  std::vector<ZPoly> polys_in_z;
  for (const Value& r : residues) {
    if (r.is(Kind::ModPoly)) {
      ZPoly lifted;
      const ModPoly& f = r.as_modpoly();
      Fmpz coefficient;
      for (slong j = 0; j < f.length(); j++) {
        f.coeff(coefficient.get(), j);
        fmpz_poly_set_coeff_fmpz(lifted.get(), j, coefficient.get());
      }
      polys_in_z.push_back(std::move(lifted));
    } else {
      ZPoly p;
      if (r.is(Kind::ZPoly)) p = r.as_zpoly();
      else fmpz_poly_set_fmpz(p.get(), r.as_int());  // Int, or a Mod's residue
      polys_in_z.push_back(std::move(p));
    }
  }
  return Value::zpoly(crt_coefficients(polys_in_z, moduli));
}

// ---- binomial ----------------------------------------------------------------

// binomial(n, k) for n >= 0 and k >= 0, by the smaller of k and n - k.
Fmpz binomial_nonnegative(const Fmpz& n, const Fmpz& k) {
  Fmpz r, n_minus_k;
  if (fmpz_cmp(n.get(), k.get()) < 0) return r;
  fmpz_sub(n_minus_k.get(), n.get(), k.get());
  const fmpz* smaller = fmpz_cmp(k.get(), n_minus_k.get()) <= 0 ? k.get() : n_minus_k.get();
  // The result has about min(k, n-k) * bits(n) bits.
  guard_allocation(fmpz_get_d(smaller) * static_cast<double>(fmpz_bits(n.get()) + 1) / 8, "this binomial");
  const ulong kk = fmpz_get_ui(smaller);
  // GMP's binomial (behind fmpz_bin_uiui) is fast when k is a sizeable part of n, but slow when n is
  // much larger than k (binomial(2^63, 3*10^5): 35 s against 0.2 s for the rising factorial below).
  if (fmpz_abs_fits_ui(n.get()) && kk > fmpz_get_ui(n.get()) / 16) {
    fmpz_bin_uiui(r.get(), fmpz_get_ui(n.get()), kk);
    return r;
  }
  // n(n-1)...(n-kk+1) / kk!: the falling factorial as a rising one from n-kk+1.
  Fmpz start, factorial;
  fmpz_sub_ui(start.get(), n.get(), kk);
  fmpz_add_ui(start.get(), start.get(), 1);
  fmpz_rfac_ui(r.get(), start.get(), kk);
  fmpz_fac_ui(factorial.get(), kk);
  fmpz_divexact(r.get(), r.get(), factorial.get());
  return r;
}

Value builtin_abs(CallContext& c) {
  const Value& a = c.args[0];
  if (a.is(Kind::Real)) return Value::real(std::fabs(a.as_real()));
  Fmpz r(int_arg(c, 0, "abs"));
  fmpz_abs(r.get(), r.get());
  return integer_value(std::move(r));
}

Value builtin_factorial(CallContext& c) {
  const fmpz* n = int_arg(c, 0, "factorial");
  if (fmpz_sgn(n) < 0) throw DomainError("factorial: n must be at least 0, not " + fmpz_to_string(n));
  // n! has about n log2(n) bits.
  const double count = fmpz_get_d(n);
  guard_allocation(count * std::log2(count + 2) / 8, "this factorial");
  Fmpz r;
  fmpz_fac_ui(r.get(), fmpz_get_ui(n));
  return integer_value(std::move(r));
}

Value builtin_binomial(CallContext& c) {
  Fmpz n(int_arg(c, 0, "binomial")), k(int_arg(c, 1, "binomial"));
  if (fmpz_sgn(k.get()) < 0) return Value::integer(slong{0});
  if (fmpz_sgn(n.get()) >= 0) return integer_value(binomial_nonnegative(n, k));
  // binomial(n, k) = (-1)^k binomial(k - n - 1, k) for negative n, as in PARI.
  Fmpz m;
  fmpz_sub(m.get(), k.get(), n.get());
  fmpz_sub_ui(m.get(), m.get(), 1);
  Fmpz r = binomial_nonnegative(m, k);
  if (fmpz_is_odd(k.get())) fmpz_neg(r.get(), r.get());
  return integer_value(std::move(r));
}

}  // namespace

void register_integer_builtins(Registry& r) {
  r.reg("gcd", 1, -1, builtin_gcd_of_any,
        "gcd(a, b): the greatest common divisor. Integers: non-negative, gcd(0, 0) = 0. Polynomials over Z/pZ "
        "(p prime): monic; in Z[x]: with positive leading coefficient. Elements of Z/pZ are constant polynomials: "
        "gcd(2 mod 7, 3 mod 7) = 1 mod 7, as in Z/7Z[x]. gcd(a, b, c, ...) and gcd(v) of a vector's entries: "
        "gcd(gcd(a, b), c)..., gcd([]) = 0. Over Z/pZ from the crossover algorithm.half_gcd (512 terms unless "
        "`cas --calibrate` measured it; gpuinfo() shows it) by the half-gcd on cas's products, O(M(n) log n) "
        "(:explain shows it).");
  r.reg("lcm", 1, -1, builtin_lcm_of_any,
        "lcm(a, b): the least common multiple of two integers (non-negative) or two polynomials (monic over "
        "Z/pZ, positive leading coefficient in Z[x]). lcm(a, b, c, ...) and lcm(v) of a vector's entries, "
        "lcm([]) = 1.");
  r.reg("xgcd", 2, builtin_xgcd,
        "xgcd(a, b): [g, s, t] with g = gcd(a, b) = s*a + t*b. For integers, or polynomials over Z/pZ with p "
        "prime (g monic, deg s < deg b - deg g, deg t < deg a - deg g; from the crossover algorithm.half_gcd, 512 "
        "terms unless calibrated, by the half-gcd on cas's products); in Z[x] it is an error: reduce mod p first.");
  r.reg("powmod", 3, builtin_powmod,
        "powmod(a, e, m): a^e mod m. Integers: the result in 0..m-1, by square and multiply (e < 0 uses the "
        "inverse of a). Polynomials: f^e mod m over Z/pZ, or in Z[x] when m has leading coefficient +-1. Over "
        "Z/pZ from m of 128 terms (p of 17 to 32 bits; 256 to 384 for 33 to 64 bits and below 2^17; larger p: "
        "where the GPU or the cores' primes take the squares), "
        "each square or product reduced through one inverse of rev(m) (Newton's iteration) on cas's transforms "
        "or the GPU; below, FLINT's powmod (with that inverse too).");
  r.reg("invmod", 2, builtin_invmod,
        "invmod(a, m): the inverse of a modulo m as an integer in 0..m-1; an error when gcd(a, m) != 1.");
  r.reg("isprime", 1, builtin_isprime,
        "isprime(n): true when n is prime (proved; numbers below 2 are not prime).");
  r.reg("nextprime", 1, builtin_nextprime,
        "nextprime(n): the smallest prime greater than n (proved up to 512 bits, BPSW probable prime beyond).");
  r.reg("factor", 1, builtin_factor,
        "factor(a): a vector of [factor, exponent]. Integers: primes ascending, [-1, 1] first for negative a "
        "(factor(1) = [], factor(0) is an error). Z/pZ elements count as constant polynomials. Z[x]: the content first when it is not 1, then primitive "
        "irreducible factors. Z/pZ[x] (p prime): the leading coefficient first when it is not 1, then monic "
        "irreducible factors. Factors are listed by ascending degree. Over a word-size Z/pZ from the crossover "
        "algorithm.factor (256 terms unless calibrated; algorithm.factor.small_p, 640, for p < 1024) on cas's products: squarefree parts by gcd(f, f'), distinct degrees by baby and giant steps of "
        "x^(p^i) (modular compositions), equal degrees by random splitting (:explain shows it).");
  r.reg("crt", 1, 2, builtin_crt,
        "crt(residues, moduli): the integer x in 0..M-1, M = lcm(moduli), with x = residues[i] mod moduli[i] "
        "(moduli need not be coprime, but the residues must then agree). Residues may be polynomials in Z[x] "
        "or Z/m_iZ[x]: then coefficient by coefficient, giving Z[x] with coefficients in 0..M-1. crt(v) with "
        "v a vector of Z/m_iZ values takes the moduli from them. crt([2, 0, 8], [3, 7, 11]) = 140.");
  r.reg("abs", 1, builtin_abs, "abs(a): the absolute value of an integer (or of a real, such as a time).");
  r.reg("factorial", 1, builtin_factorial, "factorial(n): n! = 1 * 2 * ... * n for an integer n >= 0; 0! = 1.");
  r.reg("binomial", 2, builtin_binomial,
        "binomial(n, k): the binomial coefficient n choose k; 0 for k < 0 or 0 <= n < k; for negative n, "
        "(-1)^k * binomial(k - n - 1, k).");
}

}  // namespace cas
