// gcd, xgcd, resultant and discriminant over Z/pZ by the half-gcd (algebra/poly/euclid.cpp) against
// FLINT's, in FLINT's t-*.c style: the recursion forced down to short operands (small limits) on
// many random pairs, and the public functions past their crossovers (each honoured where it is set);
// inputs biased to the edges: a common factor of every degree up to the operands' own, equal
// operands, a constant or zero operand, equal degrees, repeated roots, p = 2 and 3, 64-bit and
// multi-word primes.
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/poly/euclid.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/poly/multiply.hpp"
#include "algebra/support/flint_util.hpp"
#include "flint_support.hpp"
#include "interpreter_support.hpp"

#include <catch2/catch.hpp>
#include <flint/ulong_extras.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

using cas::Fmpz;
using cas::HalfGcdLimits;
using cas::ModPoly;
using cas::test::FreshRandom;
using cas::test::trials;

// A pair with a random common factor (length up to `longest`), or without one, or an edge case.
std::pair<ModPoly, ModPoly> random_pair(flint_rand_t state, const cas::ModulusPtr& m, slong longest) {
  const slong la = 1 + static_cast<slong>(n_randint(state, static_cast<ulong>(longest)));
  const slong lb = 1 + static_cast<slong>(n_randint(state, static_cast<ulong>(longest)));
  switch (n_randint(state, 8)) {
    case 0: {  // equal operands
      ModPoly a = cas::test::random_modpoly(state, m, la);
      return {a, a};
    }
    case 1: return {cas::test::random_modpoly(state, m, la), cas::test::random_modpoly(state, m, static_cast<slong>(n_randint(state, 2)))};  // zero or constant
    case 2: return {cas::test::random_modpoly(state, m, la), cas::test::random_modpoly(state, m, la)};                 // equal degrees
    case 3: {  // a squared factor: repeated roots in both
      const ModPoly c = cas::test::random_modpoly(state, m, 1 + la / 4);
      return {cas::multiply(cas::multiply(c, c), cas::test::random_modpoly(state, m, 1 + la / 3)),
              cas::multiply(c, cas::test::random_modpoly(state, m, 1 + lb / 2))};
    }
    default: {  // a common factor of any length up to the operands'
      const slong lc = 1 + static_cast<slong>(n_randint(state, static_cast<ulong>(std::min(la, lb))));
      const ModPoly c = cas::test::random_modpoly(state, m, lc);
      return {cas::multiply(c, cas::test::random_modpoly(state, m, la - lc + 1)), cas::multiply(c, cas::test::random_modpoly(state, m, lb - lc + 1))};
    }
  }
}

void check_pair(const ModPoly& a, const ModPoly& b, HalfGcdLimits limits) {
  INFO("p = " << a.modulus()->to_string() << ", lengths " << a.length() << " and " << b.length() << ", limits "
              << limits.down_to << "/" << limits.basecase << "/" << limits.flint_below);
  const cas::ModulusPtr& m = a.modulus();
  CHECK(cas::equal(cas::gcd_half(a, b, limits), cas::gcd_flint(a, b)));
  ModPoly g(m), s(m), t(m), g0(m), s0(m), t0(m);
  cas::xgcd_half(g, s, t, a, b, limits);
  cas::xgcd_flint(g0, s0, t0, a, b);
  CHECK(cas::equal(g, g0));
  CHECK(cas::equal(s, s0));
  CHECK(cas::equal(t, t0));
  Fmpz r, r0;
  cas::resultant_half(r.get(), a, b, limits);
  cas::resultant_flint(r0.get(), a, b);
  CHECK(fmpz_equal(r.get(), r0.get()));
}

}  // namespace

TEST_CASE("the half-gcd's gcd, xgcd and resultant equal FLINT's on short operands", "[euclid]") {
  FreshRandom random;
  INFO("seed " << random.seed);
  // FLINT's hgcd in the recursion's lowest levels (flint_below) or none.
  const HalfGcdLimits limits[] = {{2, 2, 0}, {4, 3, 0}, {10, 6, 12}, {30, 16, 40}};
  for (int kind = 0; kind < cas::test::test_modulus_kinds; kind++)
    for (int t = 0; t < trials(60); t++) {
      const cas::ModulusPtr m = cas::test::test_modulus(random.state(), kind);
      auto [a, b] = random_pair(random.state(), m, 90);
      for (const HalfGcdLimits& l : limits) check_pair(a, b, l);
    }
}

TEST_CASE("one half-gcd reduction stops at the remainder pair that straddles half the degree", "[euclid]") {
  FreshRandom random;
  INFO("seed " << random.seed);
  for (int kind = 0; kind < cas::test::test_modulus_kinds; kind++)
    for (int t = 0; t < trials(40); t++) {
      const cas::ModulusPtr m = cas::test::test_modulus(random.state(), kind);
      auto [a, b] = random_pair(random.state(), m, 200);
      if (a.length() < b.length()) std::swap(a, b);
      if (a.length() == b.length()) b = cas::remainder_flint(b, a);
      if (a.length() < 2) continue;
      const slong half = a.length() / 2;  // ceil(deg a / 2)
      // The oracle: FLINT's divisions from (a, b) until the second of the pair has degree < half.
      ModPoly c = a, d = b;
      while (d.length() - 1 >= half) {
        ModPoly r = cas::remainder_flint(c, d);
        c = std::move(d);
        d = std::move(r);
      }
      for (const HalfGcdLimits& l : {HalfGcdLimits{2, 2, 0}, HalfGcdLimits{2, 9, 0}, HalfGcdLimits{2, 64, 0},
                                     HalfGcdLimits{2, 2, 24}}) {
        INFO("p = " << m->to_string() << ", lengths " << a.length() << " and " << b.length() << ", basecase "
                    << l.basecase << ", FLINT below " << l.flint_below);
        const auto [hc, hd] = cas::half_gcd_pair(a, b, l);
        CHECK(cas::equal(hc, c));
        CHECK(cas::equal(hd, d));
      }
    }
}

TEST_CASE("gcd, xgcd, resultant and discriminant past their crossovers equal FLINT's", "[euclid]") {
  FreshRandom random;
  INFO("seed " << random.seed);
  const slong n = static_cast<slong>(cas::algorithm_crossover(cas::AlgorithmCrossover::HalfGcd));
  for (int kind = 3; kind < cas::test::test_modulus_kinds; kind++)
    for (int t = 0; t < trials(2); t++) {
      const cas::ModulusPtr m = cas::test::test_modulus(random.state(), kind);
      const ModPoly c = cas::test::random_modpoly(random.state(), m, 1 + static_cast<slong>(n_randint(random.state(), 300)));
      const ModPoly a = cas::multiply(c, cas::test::random_modpoly(random.state(), m, n + 200));
      const ModPoly b = cas::multiply(c, cas::test::random_modpoly(random.state(), m, n + 50));
      INFO("p = " << m->to_string());
      CHECK(cas::equal(cas::gcd(a, b), cas::gcd_flint(a, b)));
      ModPoly g(m), s(m), u(m), g0(m), s0(m), u0(m);
      cas::xgcd(g, s, u, a, b);
      cas::xgcd_flint(g0, s0, u0, a, b);
      CHECK((cas::equal(g, g0) && cas::equal(s, s0) && cas::equal(u, u0)));
      const slong nr = static_cast<slong>(cas::algorithm_crossover(cas::AlgorithmCrossover::HalfGcdResultant));
      const ModPoly f = cas::test::random_modpoly(random.state(), m, nr + 100), h = cas::test::random_modpoly(random.state(), m, nr + 99);
      Fmpz r, r0;
      cas::resultant(r.get(), f, h);
      cas::resultant_flint(r0.get(), f, h);
      CHECK(fmpz_equal(r.get(), r0.get()));
      cas::discriminant(r.get(), f);
      cas::discriminant_flint(r0.get(), f);
      CHECK(fmpz_equal(r.get(), r0.get()));
    }
}

// Each crossover set to a length of its own: one term below it FLINT's routine, from it the
// half-gcd (its engine_explain note), the result FLINT's either way; at the least crossover a file
// may set (2), operands of 2 terms by the half-gcd and constants by FLINT.
TEST_CASE("gcd and xgcd take the half-gcd from their crossover, resultant and discriminant from theirs",
          "[euclid][dispatch]") {
  FreshRandom random;
  INFO("seed " << random.seed);
  using cas::AlgorithmCrossover;
  using cas::test::noted;
  const cas::ModulusPtr m = cas::make_modulus(ulong{4611685941117976577ull});
  for (const slong from : {slong{300}, slong{2}}) {
    cas::test::AlgorithmCrossoverGuard at(AlgorithmCrossover::HalfGcd, static_cast<size_t>(from));
    for (const slong n : {from - 1, from}) {
      // a of n terms and b of n + 5, with a common factor of n / 2 terms (none for constants).
      const ModPoly c = cas::test::random_modpoly(random.state(), m, std::max<slong>(n / 2, 1));
      const ModPoly a = cas::multiply(c, cas::test::random_modpoly(random.state(), m, n - c.length() + 1));
      const ModPoly b = cas::multiply(c, cas::test::random_modpoly(random.state(), m, n + 5 - c.length() + 1));
      REQUIRE(a.length() == n);
      INFO("crossover " << from << ", operands of " << a.length() << " and " << b.length() << " terms");
      cas::engine_reset();
      CHECK(cas::equal(cas::gcd(a, b), cas::gcd_flint(a, b)));
      CHECK(noted("half-gcd gcd") == (n >= from));
      ModPoly g(m), s(m), t(m), g0(m), s0(m), t0(m);
      cas::engine_reset();
      cas::xgcd(g, s, t, a, b);
      CHECK(noted("half-gcd xgcd") == (n >= from));
      cas::xgcd_flint(g0, s0, t0, a, b);
      CHECK((cas::equal(g, g0) && cas::equal(s, s0) && cas::equal(t, t0)));
    }
  }
  // The resultant counts the shorter operand, the discriminant f' (one term less than f).
  for (const slong from : {slong{400}, slong{2}}) {
    cas::test::AlgorithmCrossoverGuard at(AlgorithmCrossover::HalfGcdResultant, static_cast<size_t>(from));
    for (const slong n : {from - 1, from}) {
      const ModPoly f = cas::test::random_modpoly(random.state(), m, n);
      const ModPoly h = cas::test::random_modpoly(random.state(), m, n + 5);
      INFO("crossover " << from << ", operands of " << n << " and " << n + 5 << " terms");
      Fmpz r, r0;
      cas::engine_reset();
      cas::resultant(r.get(), h, f);
      CHECK(noted("half-gcd resultant") == (n >= from));
      cas::resultant_flint(r0.get(), h, f);
      CHECK(fmpz_equal(r.get(), r0.get()));
      const ModPoly longer = cas::test::random_modpoly(random.state(), m, n + 1);
      cas::engine_reset();
      cas::discriminant(r.get(), longer);
      CHECK(noted("half-gcd resultant") == (n >= from));
      cas::discriminant_flint(r0.get(), longer);
      CHECK(fmpz_equal(r.get(), r0.get()));
    }
  }
}

TEST_CASE("gcd and resultant of long operands through the interpreter; composite moduli refused", "[euclid][builtins]") {
  cas::test::Session s;
  s.eval("p = 4611685941117976577; seed(4); c = randpoly(300, p); f = c * randpoly(2100, p); g = c * randpoly(1900, p)");
  CHECK(s.show("gcd(f, g) == c / lc(c)") == "true");
  CHECK(s.show("v = xgcd(f, g); v[0] == v[1] * f + v[2] * g and v[0] == gcd(f, g)") == "true");
  CHECK(s.show("resultant(f, g)") == "0 mod 4611685941117976577");
  CHECK(s.show("h = randpoly(2200, p); resultant(f, h) == resultant(h, f) * (-1)^(deg(f) * deg(h))") == "true");
  s.eval("q = 1000000; a = (x + 2) * randpoly(600, q); b = (x + 2) * randpoly(600, q)");
  CHECK(s.error("gcd(a, b)")->message().find("gcd needs a field") == 0);
  CHECK(s.error("resultant(a, b)")->message().find("resultant needs a field") == 0);
}
