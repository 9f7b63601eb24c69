// Evaluation at many points and interpolation over Z/pZ (algebra/poly/multipoint.cpp) against
// FLINT, in FLINT's t-*.c style: the subproduct tree itself at every small size (one leaf, one
// leaf and a few points, odd levels) and through evaluate_many and interpolate on both sides of
// their crossover (AlgorithmCrossover::MultipointTree, honoured where it is set); word-size primes
// from 2 up to 2^64 - 59 and multi-word ones; polynomials shorter and longer than the point count;
// repeated points and composite moduli refused; eval(f, v) and interpolate through the interpreter.
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/poly/multipoint.hpp"
#include "algebra/support/flint_util.hpp"
#include "flint_support.hpp"
#include "interpreter_support.hpp"

#include <catch2/catch.hpp>
#include <flint/fmpz_mod_poly.h>
#include <flint/nmod_poly.h>

#include <string>
#include <vector>

namespace {

using cas::Fmpz;
using cas::ModPoly;
using cas::test::FreshRandom;
using cas::test::Session;
using cas::test::trials;

// n residues mod p (n <= p): 0, 1, 2, ... for a small p, else random ones, distinct up to 600 of them.
std::vector<Fmpz> distinct_points(flint_rand_t state, const cas::Modulus& m, size_t n) {
  std::vector<Fmpz> points;
  std::vector<Fmpz> sorted;
  while (points.size() < n) {
    Fmpz x;
    if (fmpz_cmp_ui(m.value(), 4 * n) <= 0)
      fmpz_set_ui(x.get(), points.size());
    else
      fmpz_randm(x.get(), state, m.value());
    bool seen = false;
    for (const Fmpz& y : points) seen = seen || fmpz_equal(x.get(), y.get());
    if (!seen || n > 600) points.push_back(std::move(x));  // long lists: a repeat is unlikely and harmless
  }
  return points;
}

std::vector<Fmpz> pointwise(const ModPoly& f, const std::vector<Fmpz>& points) {
  std::vector<Fmpz> out(points.size());
  for (size_t i = 0; i < points.size(); i++) cas::evaluate(out[i].get(), f, points[i].get());
  return out;
}

bool distinct(const std::vector<Fmpz>& v) {
  for (size_t i = 0; i < v.size(); i++)
    for (size_t j = i + 1; j < v.size(); j++)
      if (fmpz_equal(v[i].get(), v[j].get())) return false;
  return true;
}

}  // namespace

TEST_CASE("the subproduct tree evaluates and interpolates at every small size", "[multipoint]") {
  FreshRandom random;
  INFO("seed " << random.seed);
  for (int kind = 0; kind < cas::test::test_modulus_kinds; kind++) {
    for (int t = 0; t < trials(3); t++) {
      const cas::ModulusPtr m = cas::test::test_modulus(random.state(), kind);
      const size_t most = fmpz_cmp_ui(m->value(), 80) < 0 ? fmpz_get_ui(m->value()) : 80;
      for (size_t n = 1; n <= most; n += (n < 40 ? 1 : 13)) {
        INFO("p = " << m->to_string() << ", n = " << n);
        const std::vector<Fmpz> points = distinct_points(random.state(), *m, n);
        const cas::SubproductTree tree(points, m);
        // The root is prod (x - x_i): zero at every point, monic of degree n.
        REQUIRE(tree.product().length() == static_cast<slong>(n + 1));
        for (const Fmpz& v : pointwise(tree.product(), points)) CHECK(fmpz_is_zero(v.get()));
        for (size_t length : {size_t{0}, size_t{1}, n, 3 * n + 5}) {
          const ModPoly f = cas::test::random_modpoly(random.state(), m, static_cast<slong>(length));
          CHECK(cas::test::equal(tree.evaluate(f), pointwise(f, points)));
        }
        const ModPoly g = cas::test::random_modpoly(random.state(), m, static_cast<slong>(n));
        const ModPoly back = tree.interpolate(pointwise(g, points));
        CHECK(cas::equal(back, g));
      }
    }
  }
}

TEST_CASE("evaluate_many and interpolate agree with FLINT on both sides of the tree's crossover", "[multipoint]") {
  FreshRandom random;
  INFO("seed " << random.seed);
  for (int kind = 3; kind < cas::test::test_modulus_kinds; kind++) {
    const cas::ModulusPtr m = cas::test::test_modulus(random.state(), kind);
    const size_t from = cas::algorithm_crossover(cas::AlgorithmCrossover::MultipointTree);
    for (size_t n : {from - 1, from, size_t{1000}, size_t{2500}}) {
      INFO("p = " << m->to_string() << ", n = " << n);
      const std::vector<Fmpz> points = distinct_points(random.state(), *m, n);
      if (!distinct(points)) continue;  // a repeat among random residues of a 40-bit p or more: never seen
      for (size_t length : {n / 3, 2 * n + 1}) {
        const ModPoly f = cas::test::random_modpoly(random.state(), m, static_cast<slong>(length));
        const std::vector<Fmpz> values = cas::evaluate_many(f, points);
        if (m->word_size()) {
          std::vector<ulong> xs(n), ys(n);
          for (size_t i = 0; i < n; i++) xs[i] = fmpz_get_ui(points[i].get());
          nmod_poly_evaluate_nmod_vec_iter(ys.data(), f.nmod(), xs.data(), static_cast<slong>(n));
          bool same = true;
          for (size_t i = 0; i < n; i++) same = same && fmpz_equal_ui(values[i].get(), ys[i]);
          CHECK(same);
        } else {
          CHECK(cas::test::equal(values, pointwise(f, points)));
        }
      }
      const ModPoly g = cas::test::random_modpoly(random.state(), m, static_cast<slong>(n));
      const std::vector<Fmpz> ys = pointwise(g, points);
      const ModPoly interpolated = cas::interpolate(points, ys, m);
      CHECK(cas::equal(interpolated, g));
      if (m->word_size()) {
        std::vector<ulong> x(n), y(n);
        for (size_t i = 0; i < n; i++) {
          x[i] = fmpz_get_ui(points[i].get());
          y[i] = fmpz_get_ui(ys[i].get());
        }
        ModPoly oracle(m);
        nmod_poly_interpolate_nmod_vec_fast(oracle.nmod(), x.data(), y.data(), static_cast<slong>(n));
        CHECK(cas::equal(interpolated, oracle));
      }
    }
  }
}

// The crossover set to a length of its own: one point below it FLINT's evaluation and
// interpolation, from it the tree (its engine_explain notes), the values FLINT's either way, at a
// word-size and a multi-word p; at the least crossover a file may set (2), two points by the tree and
// one by FLINT.
TEST_CASE("evaluate_many and interpolate take the tree from their crossover", "[multipoint][dispatch]") {
  FreshRandom random;
  INFO("seed " << random.seed);
  using cas::test::noted;
  Fmpz multi_word;
  fmpz_setbit(multi_word.get(), 100);
  fmpz_nextprime(multi_word.get(), multi_word.get(), 1);
  for (const cas::ModulusPtr& m :
       {cas::make_modulus(ulong{4611685941117976577ull}), cas::make_modulus(multi_word.get())})
    for (const size_t from : {size_t{100}, size_t{2}}) {
      cas::test::AlgorithmCrossoverGuard at(cas::AlgorithmCrossover::MultipointTree, from);
      for (const size_t n : {from - 1, from}) {
        INFO("p = " << m->to_string() << ", crossover " << from << ", " << n << " points");
        const std::vector<Fmpz> points = distinct_points(random.state(), *m, n);
        REQUIRE(distinct(points));
        const ModPoly f = cas::test::random_modpoly(random.state(), m, static_cast<slong>(n + 3));
        cas::engine_reset();
        const std::vector<Fmpz> values = cas::evaluate_many(f, points);
        CHECK(noted("subproduct tree evaluation") == (n >= from));
        CHECK(cas::test::equal(values, pointwise(f, points)));
        const ModPoly g = cas::test::random_modpoly(random.state(), m, static_cast<slong>(n));
        cas::engine_reset();
        const ModPoly interpolated = cas::interpolate(points, pointwise(g, points), m);
        CHECK(noted("subproduct tree interpolation") == (n >= from));
        CHECK(cas::equal(interpolated, g));
      }
    }
}

TEST_CASE("interpolate refuses repeated points and composite moduli, at any size", "[multipoint]") {
  const cas::ModulusPtr p = cas::make_modulus(ulong{998244353});
  for (size_t n : {size_t{5}, cas::algorithm_crossover(cas::AlgorithmCrossover::MultipointTree) + 7}) {
    std::vector<Fmpz> xs, ys;
    for (size_t i = 0; i < n; i++) {
      xs.emplace_back(static_cast<slong>(i));
      ys.emplace_back(static_cast<slong>(i * i));
    }
    fmpz_set_si(xs[n - 1].get(), -998244353 + 3);  // 3 mod p again
    CHECK(cas::test::domain_error([&] { cas::interpolate(xs, ys, p); }) ==
          "interpolate: the point 3 mod 998244353 occurs twice");
  }
  const cas::ModulusPtr composite = cas::make_modulus(ulong{1000});
  CHECK(cas::test::domain_error([&] {
          cas::interpolate({Fmpz(slong{1}), Fmpz(slong{2})}, {Fmpz(slong{1}), Fmpz(slong{1})}, composite);
        }).find("interpolate") == 0);
}

TEST_CASE("eval(f, v) over Z/pZ and Z[x]; interpolate through the interpreter", "[multipoint][builtins]") {
  CHECK(cas::test::show("eval((x^3 + 2*x + 5) mod 7, [0, 1, 2, 10])") == "[5, 1, 3, 3] mod 7");
  CHECK(cas::test::show("eval(x^2 + 1, [1, -2, 3])") == "[2, 5, 10]");
  CHECK(cas::test::show("eval(x^2 + 1, [1, 2] mod 5)") == "[2, 0] mod 5");
  CHECK(cas::test::show("f = (x + 1) mod 11; f([3, 4] mod 11)") == "[4, 5] mod 11");
  CHECK(cas::test::show("eval(x mod 7, [])") == "[]");
  CHECK(cas::test::error_message("eval(x mod 5, [1 mod 7])") == "eval: cannot mix Z/5Z and Z/7Z");
  CHECK(cas::test::error_message("eval(x, [1, x])") ==
        "eval: the points must be integers or elements of Z/pZ, not x");
  Session s;
  s.eval("p = 998244353; seed(11); xs = coeffs(randpoly(3000, p)); ys = coeffs(randpoly(3000, p))");
  CHECK(s.show("g = interpolate(xs, ys); deg(g) < 3000 and eval(g, xs) == ys") == "true");
  CHECK(s.show("h = randpoly(4000, p); v = eval(h, xs); v[0] == h(xs[0]) and v[2999] == h(xs[2999])") == "true");
  CHECK(s.show("q = nextprime(2^90); a = coeffs(randpoly(600, q)); b = coeffs(randpoly(600, q)); "
               "eval(interpolate(a, b), a) == b") == "true");
}
