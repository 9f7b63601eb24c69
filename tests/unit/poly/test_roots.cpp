// Roots over Z/pZ through x^p mod f, the gcd and equal-degree splitting (algebra/poly/roots.cpp)
// against FLINT's nmod_poly_roots and fmpz_mod_poly_roots, on polynomials built from known roots
// (repeated ones among them) times a factor with no roots or random ones: p = 2, 3, small and
// 64-bit primes, multi-word ones; the splitting forced down to short factors.
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/poly/multiply.hpp"
#include "algebra/poly/roots.hpp"
#include "algebra/support/flint_util.hpp"
#include "flint_support.hpp"
#include "interpreter_support.hpp"

#include <catch2/catch.hpp>
#include <flint/ulong_extras.h>

#include <algorithm>
#include <vector>

namespace {

using cas::Fmpz;
using cas::ModPoly;
using cas::test::FreshRandom;
using cas::test::trials;

// prod (x - r_i)^(1 or 2) for `count` random r_i, times a random polynomial of `extra` terms
// (usually without many roots), times a random nonzero constant.
ModPoly with_roots(flint_rand_t state, const cas::ModulusPtr& m, slong count, slong extra) {
  ModPoly f = cas::modpoly_constant(Fmpz(slong{1}).get(), m);
  Fmpz c;
  for (slong i = 0; i < count; i++) {
    fmpz_randm(c.get(), state, m->value());
    fmpz_neg(c.get(), c.get());
    ModPoly factor = cas::modpoly_x(m);
    fmpz_mod(c.get(), c.get(), m->value());
    factor.set_coeff(0, c.get());
    f = cas::multiply(f, factor);
    if (n_randint(state, 4) == 0) f = cas::multiply(f, factor);
  }
  ModPoly tail(m);
  for (slong i = 0; i < extra; i++) {
    fmpz_randm(c.get(), state, m->value());
    tail.set_coeff(i, c.get());
  }
  fmpz_one(c.get());
  tail.set_coeff(extra, c.get());
  do fmpz_randm(c.get(), state, m->value());
  while (fmpz_is_zero(c.get()));
  return cas::scalar_mul(cas::multiply(f, tail), c.get());
}

}  // namespace

TEST_CASE("roots by splitting equal FLINT's roots", "[roots]") {
  FreshRandom random;
  INFO("seed " << random.seed);
  for (int kind = 0; kind < cas::test::test_modulus_kinds; kind++)
    for (int t = 0; t < trials(8); t++) {
      const cas::ModulusPtr m = cas::test::test_modulus(random.state(), kind);
      const slong count = static_cast<slong>(n_randint(random.state(), 120));
      const ModPoly f = with_roots(random.state(), m, count, static_cast<slong>(n_randint(random.state(), 60)));
      INFO("p = " << m->to_string() << ", length " << f.length());
      const std::vector<Fmpz> expected = cas::roots_flint(f);
      for (slong flint_below : {3, 8, 40}) CHECK(cas::test::equal(cas::roots_by_splitting(f, flint_below), expected));
    }
}

// The crossover set to a length of its own: one term below it FLINT's roots, from it the splitting
// (its engine_explain note), the roots FLINT's either way; at the least crossover a file may set
// (2), a linear polynomial by the splitting and a constant by FLINT.
TEST_CASE("roots take the splitting from their crossover", "[roots][dispatch]") {
  FreshRandom random;
  INFO("seed " << random.seed);
  const cas::ModulusPtr m = cas::make_modulus(ulong{4611685941117976577ull});
  for (const slong from : {slong{100}, slong{2}}) {
    cas::test::AlgorithmCrossoverGuard at(cas::AlgorithmCrossover::Roots, static_cast<size_t>(from));
    for (const slong n : {from - 1, from}) {
      // n terms: up to 40 linear factors (a quarter of them squared) times a random polynomial.
      const slong count = std::min<slong>(40, (n - 1) / 2);
      const ModPoly f = with_roots(random.state(), m, count, 0);
      const ModPoly g = cas::multiply(f, cas::test::random_modpoly(random.state(), m, n - f.length() + 1));
      REQUIRE(g.length() == n);
      INFO("crossover " << from << ", " << n << " terms");
      cas::engine_reset();
      const std::vector<Fmpz> found = cas::roots(g);
      CHECK(cas::test::noted("roots by splitting") == (n >= from));
      CHECK(cas::test::equal(found, cas::roots_flint(g)));
    }
  }
}

TEST_CASE("roots past their crossover, through the interpreter, and the errors", "[roots][builtins]") {
  cas::test::Session s;
  s.eval("p = 4611685941117976577; seed(9); v = coeffs(randpoly(700, p)); w = vector(700); "
         "for i in 0..699 { w[i] = x - v[i] }; f = prod(w) * randpoly(300, p)");
  // Every root found is one, and every v[i] is found (the random tail may add a few more).
  CHECK(s.show("r = roots(f); eval(f, r) == vector(len(r), 0 mod p)") == "true");
  CHECK(s.show("u = vector(len(r)); for j in 0..len(r)-1 { u[j] = x - r[j] }; eval(prod(u), v) == vector(700, 0 mod p)") ==
        "true");
  CHECK(s.error("roots(0 * x mod 7)")->message() == "roots: every element is a root of the zero polynomial");
  CHECK(s.error("roots((x^600 + 1) mod 1000)")->message().find("roots needs a field") == 0);
}
