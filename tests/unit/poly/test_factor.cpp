// Factorisation over a word-size Z/pZ by the squarefree decomposition, distinct-degree and
// equal-degree factorisation on cas's engines (algebra/poly/factor.cpp) against FLINT's
// nmod_poly_factor, on products built to reach every stage: squares and cubes, p-th powers for
// small p, many linear factors, two irreducibles of one degree (equal-degree splitting), an
// irreducible polynomial, random ones; p = 2, 3, small, 30- and 62-bit and 64-bit primes. Short
// inputs run the stages with FLINT's limits forced down; lengths around the crossover go through
// factor() itself, whose crossover the :explain note shows.
#include "algebra/dispatch/engine.hpp"
#include "algebra/poly/factor.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/poly/multiply.hpp"
#include "algebra/support/flint_util.hpp"
#include "flint_support.hpp"
#include "interpreter/explain.hpp"
#include "interpreter_support.hpp"

#include <catch2/catch.hpp>
#include <flint/nmod_poly.h>
#include <flint/ulong_extras.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

using cas::Fmpz;
using cas::ModPoly;
using cas::test::FreshRandom;
using cas::test::trials;
using Factors = std::vector<std::pair<ModPoly, slong>>;

// The builtin's order: lowest degree first, then by coefficients from the top.
bool lower(const std::pair<ModPoly, slong>& a, const std::pair<ModPoly, slong>& b) {
  const ModPoly &f = a.first, &g = b.first;
  if (f.length() != g.length()) return f.length() < g.length();
  for (slong i = f.length(); i-- > 0;) {
    const ulong x = f.nmod()->coeffs[i], y = g.nmod()->coeffs[i];
    if (x != y) return x < y;
  }
  return a.second < b.second;
}

bool same_factors(Factors a, Factors b) {
  if (a.size() != b.size()) return false;
  std::sort(a.begin(), a.end(), lower);
  std::sort(b.begin(), b.end(), lower);
  for (size_t i = 0; i < a.size(); i++)
    if (!cas::equal(a[i].first, b[i].first) || a[i].second != b[i].second) return false;
  return true;
}

std::string degrees(const Factors& factors) {
  std::string s;
  for (const auto& [q, e] : factors) s += " " + std::to_string(q.degree()) + "^" + std::to_string(e);
  return s;
}

ModPoly monic_random(flint_rand_t state, const cas::ModulusPtr& m, slong degree) {
  ModPoly f = cas::test::random_modpoly(state, m, degree + 1);
  return cas::make_monic(f);
}

ModPoly irreducible(flint_rand_t state, const cas::ModulusPtr& m, slong degree) {
  for (;;) {
    ModPoly f = monic_random(state, m, degree);
    if (cas::is_irreducible(f)) return f;
  }
}

ModPoly times(const ModPoly& a, const ModPoly& b) { return cas::multiply(a, b); }

// f(x)^e by repeated products.
ModPoly to_the(const ModPoly& f, ulong e) {
  ModPoly r = f;
  for (ulong i = 1; i < e; i++) r = times(r, f);
  return r;
}

// A polynomial of up to about `size` terms whose factorisation reaches the stage `kind` picks,
// times a random nonzero constant.
ModPoly with_structure(flint_rand_t state, const cas::ModulusPtr& m, int kind, slong size) {
  const ulong p = m->word();
  const slong third = std::max<slong>(1, size / 3);
  ModPoly f = cas::modpoly_constant(Fmpz(slong{1}).get(), m);
  switch (kind) {
    case 0:  // squares and cubes of random factors
      f = times(to_the(monic_random(state, m, 1 + n_randint(state, third / 2 + 1)), 2),
                to_the(monic_random(state, m, 1 + n_randint(state, third / 3 + 1)), 3));
      f = times(f, monic_random(state, m, 1 + n_randint(state, third)));
      break;
    case 1:  // many linear factors, some repeated
      for (slong i = 0; i < size / 2; i++) {
        ModPoly linear = cas::modpoly_x(m);
        const Fmpz c(n_randint(state, p));
        linear.set_coeff(0, c.get());
        f = times(f, n_randint(state, 5) == 0 ? times(linear, linear) : linear);
      }
      break;
    case 2: {  // two (or three) irreducibles of one degree: equal-degree splitting
      const slong d = 3 + static_cast<slong>(n_randint(state, std::max<slong>(1, std::min<slong>(third, 12))));
      const ModPoly a = irreducible(state, m, d);
      ModPoly b = irreducible(state, m, d);
      while (cas::equal(a, b)) b = irreducible(state, m, d);
      f = times(a, b);
      if (n_randint(state, 2) && p > 2) f = times(f, a);  // and a square among them
      break;
    }
    case 3:  // a p-th power (p small) times a cofactor: f' vanishes on part of f
      if (p <= 7) f = to_the(monic_random(state, m, 1 + n_randint(state, std::max<slong>(1, size / (2 * p)))), p);
      f = times(f, monic_random(state, m, 1 + n_randint(state, third)));
      break;
    case 4:  // an irreducible polynomial
      f = irreducible(state, m, 1 + n_randint(state, std::min<slong>(size, 40)));
      break;
    default:  // random
      f = monic_random(state, m, 1 + n_randint(state, size));
  }
  Fmpz c;
  do fmpz_randm(c.get(), state, m->value());
  while (fmpz_is_zero(c.get()));
  return cas::scalar_mul(f, c.get());
}

constexpr int structure_kinds = 6;

// The factorisation of f by `factor` equals FLINT's, leading coefficient included.
void check_against_flint(const Factors& ours, const Fmpz& our_unit, const ModPoly& f) {
  Fmpz unit;
  const Factors theirs = cas::factor_flint(f, unit.get());
  INFO("p = " << f.modulus()->to_string() << ", length " << f.length() << ", FLINT's degrees" << degrees(theirs)
              << ", ours" << degrees(ours));
  CHECK(fmpz_equal(our_unit.get(), unit.get()));
  CHECK(same_factors(ours, theirs));
}

bool noted_stages() {
  for (const cas::EngineNote& n : cas::engine_notes())
    if (n.what && std::strcmp(n.what, "factor by ddf and edf") == 0) return true;
  return false;
}

}  // namespace

TEST_CASE("factor by stages equals FLINT's factor on short products of every kind", "[factor]") {
  FreshRandom random;
  INFO("seed " << random.seed);
  const cas::FactorLimits everything_by_stages{3, 3};
  for (int modulus_kind = 0; modulus_kind < cas::test::test_modulus_kinds - 1; modulus_kind++)  // word-size p
    for (int kind = 0; kind < structure_kinds; kind++)
      for (int t = 0; t < trials(6); t++) {
        const cas::ModulusPtr m = cas::test::test_modulus(random.state(), modulus_kind);
        const ModPoly f =
            with_structure(random.state(), m, kind, 4 + static_cast<slong>(n_randint(random.state(), 60)));
        INFO("structure " << kind);
        Fmpz unit;
        const Factors ours = cas::factor_by_stages(f, unit.get(), everything_by_stages);
        check_against_flint(ours, unit, f);
        Fmpz default_unit;
        check_against_flint(cas::factor_by_stages(f, default_unit.get()), default_unit, f);
      }
}

TEST_CASE("factor from its crossover on equals FLINT's factor", "[factor]") {
  FreshRandom random;
  INFO("seed " << random.seed);
  struct Case {
    ulong p;
    int kind;
    slong size;
  };
  const ulong p62 = 4611685941117976577ull, p40 = n_nextprime(ulong{1} << 40, 1);
  const slong from = static_cast<slong>(cas::factor_from_modulo(p62));
  const slong small_p_from = static_cast<slong>(cas::factor_from_modulo(3));
  const Case cases[] = {{p62, 5, 2 * from},
                        {p62, 0, from},
                        {p62, 1, from},
                        {p62, 2, 40},  // padded below to the crossover
                        {p40, 5, from + 40},
                        {998244353, 3, from},
                        {3, 3, small_p_from},
                        {2, 0, small_p_from},
                        {7, 5, small_p_from}};
  for (const Case& c : cases) {
    const cas::ModulusPtr m = cas::make_modulus(c.p);
    ModPoly f = with_structure(random.state(), m, c.kind, c.size);
    const size_t from = cas::factor_from_modulo(c.p);
    if (static_cast<size_t>(f.length()) < from)  // a random cofactor brings it to the crossover
      f = times(f, monic_random(random.state(), m, static_cast<slong>(from) - f.length() + 1));
    INFO("structure " << c.kind);
    cas::engine_reset();
    Fmpz unit;
    const Factors ours = cas::factor(f, unit.get());
    CHECK(noted_stages());
    check_against_flint(ours, unit, f);
  }
}

TEST_CASE("factor splits two irreducibles of degree 130 by norms from compositions", "[factor]") {
  FreshRandom random;
  INFO("seed " << random.seed);
  for (ulong p : {ulong{4611685941117976577ull}, ulong{3}}) {
    const cas::ModulusPtr m = cas::make_modulus(p);
    const ModPoly a = irreducible(random.state(), m, 130);
    ModPoly b = irreducible(random.state(), m, 130);
    while (cas::equal(a, b)) b = irreducible(random.state(), m, 130);
    const ModPoly f = times(times(a, b), p == 3 ? to_the(monic_random(random.state(), m, 200), 3) : a);
    Fmpz unit;
    check_against_flint(cas::factor_by_stages(f, unit.get()), unit, f);
  }
}

namespace {

// FLINT's routine one term below factor_from_modulo(p), the stages from it, for three primes.
void check_factor_crossover() {
  for (ulong p : {ulong{4611685941117976577ull}, ulong{65537}, ulong{3}}) {
    const cas::ModulusPtr m = cas::make_modulus(p);
    const slong from = static_cast<slong>(cas::factor_from_modulo(p));
    // (x + 1)^(from - 2) (x + 2): quick on either path.
    ModPoly base = cas::modpoly_x(m);
    base.set_coeff(0, Fmpz(slong{1}).get());
    ModPoly other = cas::modpoly_x(m);
    other.set_coeff(0, Fmpz(slong{2}).get());
    for (slong length : {from - 1, from}) {
      const ModPoly f = times(cas::power(base, static_cast<ulong>(length - 2)), other);
      REQUIRE(f.length() == length);
      cas::engine_reset();
      Fmpz unit;
      const Factors factors = cas::factor(f, unit.get());
      INFO("p = " << p << ", length " << length);
      CHECK(noted_stages() == (length >= from));
      check_against_flint(factors, unit, f);
    }
  }
}

}  // namespace

TEST_CASE("factor keeps FLINT's routine below its crossover and for multi-word p", "[factor]") {
  check_factor_crossover();
  {  // other crossovers, as a calibration may set them
    const cas::test::AlgorithmCrossoverGuard large_p(cas::AlgorithmCrossover::Factor, 300);
    const cas::test::AlgorithmCrossoverGuard small_p(cas::AlgorithmCrossover::FactorSmallP, 100);
    CHECK(cas::factor_from_modulo(65537) == 300);
    CHECK(cas::factor_from_modulo(3) == 100);
    check_factor_crossover();
  }
  Fmpz big;
  fmpz_set_ui(big.get(), 1);
  fmpz_mul_2exp(big.get(), big.get(), 70);
  fmpz_nextprime(big.get(), big.get(), 1);
  const cas::ModulusPtr m = cas::make_modulus(big.get());
  ModPoly base = cas::modpoly_x(m);
  base.set_coeff(0, Fmpz(slong{1}).get());
  const ulong exponent = cas::factor_from_modulo(4611685941117976577ull);
  const ModPoly f = cas::power(base, exponent);
  cas::engine_reset();
  Fmpz unit;
  const Factors factors = cas::factor(f, unit.get());
  CHECK_FALSE(noted_stages());
  REQUIRE(factors.size() == 1);
  CHECK(cas::equal(factors[0].first, base));
  CHECK(factors[0].second == static_cast<slong>(exponent));
}

TEST_CASE("factor: constants, the zero polynomial and composite moduli", "[factor]") {
  const cas::ModulusPtr m = cas::make_modulus(ulong{7});
  Fmpz unit;
  CHECK(cas::factor(cas::modpoly_constant(Fmpz(slong{3}).get(), m), unit.get()).empty());
  CHECK(fmpz_equal_ui(unit.get(), 3));
  CHECK(cas::test::domain_error([&] { cas::factor(ModPoly(m), unit.get()); }) ==
        "factor: the zero polynomial has no factorisation");
  const cas::ModulusPtr six = cas::make_modulus(ulong{6});
  ModPoly long_one(six);
  long_one.set_coeff(static_cast<slong>(cas::factor_from_modulo(7)), Fmpz(slong{1}).get());
  long_one.set_coeff(0, Fmpz(slong{1}).get());
  CHECK(cas::test::domain_error([&] { cas::factor(long_one, unit.get()); }) ==
        "factor needs a field, but 6 is not prime (2 mod 6 is not invertible)");
}

TEST_CASE("factor through the interpreter past its crossover: ascending, monic, irreducible, f again",
          "[factor][builtins]") {
  cas::test::Session s;
  s.eval("P = 4611685941117976577; seed(3); f = 5 * randpoly(150, P)^2 * randpoly(90, P) * (x - 1)^3");
  cas::engine_reset();
  s.eval("F = factor(f)");
  std::string explained;
  for (const std::string& line : cas::explain_statement("F = factor(f)")) explained += line + "\n";
  CHECK_THAT(explained, Catch::Contains("factorisation of a polynomial of length 391 over Z/4611685941117976577Z"));
  CHECK(s.show("deg(F[0][0]) == 0 and F[0][1] == 1") == "true");  // the leading coefficient
  CHECK(s.show("g = F[0][0]; for k in 1..len(F)-1 { g = g * F[k][0]^F[k][1] }; g == f") == "true");
  CHECK(s.show("ok = true; for k in 1..len(F)-1 { ok = ok and isirreducible(F[k][0]) and lc(F[k][0]) == 1 }; ok") ==
        "true");
  CHECK(s.show("ok = true; for k in 2..len(F)-1 { ok = ok and deg(F[k-1][0]) <= deg(F[k][0]) }; ok") == "true");
}
