// The polynomial builtins over Z[x] and (Z/pZ)[x] through the interpreter:
// properties on random polynomials (word-size and multi-word p), Z[x]
// results against FLINT directly, worked values from PARI/GP, and the error
// of every field operation over a composite modulus.
#include "flint_support.hpp"
#include "interpreter_support.hpp"

#include "algebra/support/flint_util.hpp"
#include "algebra/values/format.hpp"
#include "interpreter/builtins.hpp"

#include <flint/fmpz_poly.h>

using cas::Fmpz;
using cas::test::error_message;
using cas::test::holds;
using cas::test::Session;
using cas::test::show;
using cas::test::trials;

namespace {

// A word-size prime, a prime above 2^64 (fmpz_mod storage) and 2 (the smallest field).
const char* const primes[] = {"101", "nextprime(2^70)", "2"};

// Random Z[x] polynomials from FLINT, written as cas source.
struct RandomZ {
  flint_rand_t state;
  RandomZ() { flint_randinit(state); }
  ~RandomZ() { flint_randclear(state); }
  cas::ZPoly poly(slong length, flint_bitcnt_t bits) {
    cas::ZPoly f;
    fmpz_poly_randtest(f.get(), state, length, bits);
    return f;
  }
  cas::ZPoly nonzero(slong length, flint_bitcnt_t bits) {
    cas::ZPoly f;
    fmpz_poly_randtest_not_zero(f.get(), state, length, bits);
    return f;
  }
};

std::string src(const cas::ZPoly& f) { return "(" + cas::format_zpoly(f) + ")"; }

}  // namespace

// ---- shape: deg coeff coeffs poly lc --------------------------------------------------

TEST_CASE("deg, coeff, coeffs, poly and lc", "[builtins][poly]") {
  CHECK(show("deg(3*x^4 - 4*x^2)") == "4");
  CHECK(show("deg(0)") == "-1");  // as FLINT
  CHECK(show("deg(x - x)") == "-1");
  CHECK(show("deg(5)") == "0");
  CHECK(show("deg((x^3 + 5) mod 5)") == "3");
  CHECK(show("deg((5*x^3 + 1) mod 5)") == "0");
  CHECK(show("coeff(3*x^4 - 4*x^2, 2)") == "-4");
  CHECK(show("coeff(3*x^4 - 4*x^2, 100)") == "0");
  CHECK(show("coeff(3*x^4 - 4*x^2, 10^30)") == "0");
  CHECK(show("coeff((3*x^4 - 4*x^2) mod 5, 2)") == "1 mod 5");
  CHECK(show("coeffs(3*x^4 - 4*x^2)") == "[0, 0, -4, 0, 3]");
  CHECK(show("coeffs((3*x^4 - 4*x^2) mod 5)") == "[0, 0, 1, 0, 3] mod 5");
  CHECK(show("coeffs(0)") == "[]");
  CHECK(show("coeffs(7)") == "[7]");
  CHECK(show("poly([1, 0, 3])") == "3*x^2 + 1");
  CHECK(show("poly([1, 2] mod 7)") == "(2*x + 1) mod 7");
  CHECK(show("poly([1, 2 mod 7, 9])") == "(2*x^2 + 2*x + 1) mod 7");
  CHECK(show("poly([])") == "0");
  CHECK(show("poly([0, 0])") == "0");
  CHECK(show("lc(3*x^4 - 4*x^2)") == "3");
  CHECK(show("lc((3*x^4 - 4*x^2) mod 5)") == "3 mod 5");
  CHECK(show("lc(0)") == "0");
  Session s;
  for (const char* p : primes)
    for (int i = 0; i < trials(20); i++) {
      s.eval("seed(" + std::to_string(i) + "); f = randpoly(" + std::to_string(i) + ", " + p + "); c = coeffs(f)");
      CHECK(holds(s, "poly(c) == f and len(c) == deg(f) + 1"));
      CHECK(holds(s, "ok = true; for k in 0..deg(f) { ok = ok and coeff(f, k) == c[k] }; ok"));
      if (i > 0) CHECK(holds(s, "lc(f) == c[deg(f)] and lc(f) != 0"));
    }
  RandomZ r;
  for (int i = 0; i < trials(50); i++) {
    cas::ZPoly f = r.poly(20, 100);
    s.eval("f = " + src(f));
    CHECK(s.show("deg(f)") == std::to_string(f.degree()));
    CHECK(holds(s, "poly(coeffs(f)) == f"));
  }
  CHECK(error_message("deg(\"a\")") == "deg: argument 1 must be a polynomial, not \"a\"");
  CHECK(error_message("coeff(x, -1)") == "coeff: argument 2 must be a non-negative index, not -1");
  CHECK(error_message("poly([x])") == "poly: the coefficients must be integers or elements of Z/pZ, but entry 0 is x");
  CHECK(error_message("poly([1 mod 5, 1 mod 7])") == "poly: cannot mix Z/5Z and Z/7Z");
  CHECK(error_message("poly(3)") == "poly: argument 1 must be a vector, not 3");
}

// ---- eval, deriv, compose -----------------------------------------------------------

TEST_CASE("eval: integers in Z[x], Z/pZ elements over Z/pZ", "[builtins][poly]") {
  CHECK(show("eval(3*x^4 - 4*x^2, 2)") == "32");
  CHECK(show("eval((3*x^4 - 4*x^2) mod 5, 2)") == "2 mod 5");
  CHECK(show("eval(3*x^4 - 4*x^2, 2 mod 5)") == "2 mod 5");
  CHECK(show("eval(0, 5)") == "0");
  RandomZ r;
  Session s;
  for (int i = 0; i < trials(50); i++) {
    cas::ZPoly f = r.poly(15, 80);
    Fmpz a, v;
    fmpz_randtest(a.get(), r.state, 80);
    fmpz_poly_evaluate_fmpz(v.get(), f.get(), a.get());
    CHECK(s.show("eval(" + src(f) + ", " + a.to_string() + ")") == v.to_string());
  }
  CHECK(error_message("eval(x, x)") ==
        "eval: argument 2 must be an integer, an element of Z/pZ or a vector of them, not x (compose(f, g) substitutes a "
        "polynomial)");
  CHECK(error_message("eval(x mod 5, 1 mod 7)") == "eval: cannot mix Z/5Z and Z/7Z");
}

TEST_CASE("deriv follows the product rule; compose agrees with eval", "[builtins][poly]") {
  CHECK(show("deriv(3*x^4 - 4*x^2)") == "12*x^3 - 8*x");
  CHECK(show("deriv((3*x^4 - 4*x^2) mod 5)") == "(2*x^3 + 2*x) mod 5");
  CHECK(show("deriv(x^5 mod 5)") == "0 mod 5");
  CHECK(show("compose(x^2 + 1, x + 1)") == "x^2 + 2*x + 2");
  CHECK(show("compose((x^2 + 1) mod 3, x + 2)") == "(x^2 + x + 2) mod 3");
  CHECK(show("compose(x^2, 3)") == "9");
  Session s;
  for (const char* p : primes)
    for (int i = 0; i < trials(20); i++) {
      s.eval(std::string("seed(") + std::to_string(i) + "); P = " + p + "; f = randpoly(9, P); g = randpoly(6, P)");
      CHECK(holds(s, "deriv(f*g) == deriv(f)*g + f*deriv(g)"));
      s.eval("a = randpoly(1, P) + 0; a = eval(a, 0)");
      CHECK(holds(s, "eval(compose(f, g), a) == eval(f, eval(g, a))"));
      CHECK(holds(s, "deg(compose(f, g)) == deg(f) * deg(g) or P == 2 or deg(g) < 1"));
    }
  RandomZ r;
  for (int i = 0; i < trials(30); i++) {
    cas::ZPoly f = r.poly(8, 40), g = r.poly(6, 40), c, d;
    fmpz_poly_compose(c.get(), f.get(), g.get());
    fmpz_poly_derivative(d.get(), f.get());
    CHECK(s.show("compose(" + src(f) + ", " + src(g) + ")") == cas::format_zpoly(c));
    CHECK(s.show("deriv(" + src(f) + ")") == cas::format_zpoly(d));
  }
  CHECK(error_message("compose(x^100000, x^100000 + 1)").find("compose would need about") == 0);
}

// Over Z/mZ, g = c*x^k has its own one-pass route; the oracle is the composition in Z[x] reduced.
TEST_CASE("compose with a monomial over Z/mZ equals the composition in Z[x] reduced", "[builtins][poly]") {
  CHECK(show("compose((x^2 + 3*x + 1) mod 7, 2*x^3 mod 7)") == "(4*x^6 + 6*x^3 + 1) mod 7");  // PARI/GP subst
  CHECK(show("compose((x^2 + x + 1) mod 4, 2*x mod 4)") == "(2*x + 1) mod 4");  // 2^2 = 0 mod 4; PARI/GP
  CHECK(show("compose(0*x mod 7, x^2 mod 7)") == "0 mod 7");
  Session s;
  for (const char* m : {"7", "998244353", "12", "(2^64 + 13)", "(2^127 - 1)", "(3^50)"})
    for (int i = 0; i < trials(15); i++) {
      s.eval(std::string("seed(") + std::to_string(i) + "); M = " + m + "; f = randpoly(" + std::to_string(1 + 7 * i) +
             ", M); c = eval(randpoly(1, M), 0); g = c * x^" + std::to_string(1 + i % 5) + " mod M");
      INFO("modulus " << m << ", trial " << i);
      CHECK(holds(s, "compose(f, g) == compose(lift(f), lift(g)) mod M"));
    }
}

// ---- divrem, gcd, xgcd, lcm, resultant --------------------------------------------------

TEST_CASE("divrem: f = q*g + r with deg r < deg g over Z/pZ", "[builtins][poly]") {
  CHECK(show("divrem(x^3 + 1, x + 1)") == "[x^2 - x + 1, 0]");
  CHECK(show("divrem((x^3 + 2) mod 7, (3*x + 1) mod 7)") == "[5*x^2 + 3*x + 6, 3] mod 7");
  Session s;
  for (const char* p : primes)
    for (int i = 0; i < trials(30); i++) {
      s.eval(std::string("seed(") + std::to_string(i) + "); P = " + p + "; f = randpoly(" + std::to_string(i % 17) +
             ", P); g = randpoly(" + std::to_string(1 + i % 7) + ", P); d = divrem(f, g)");
      CHECK(holds(s, "f == d[0]*g + d[1] and deg(d[1]) < deg(g)"));
      CHECK(holds(s, "d[0] == f // g and d[1] == f % g"));
    }
  RandomZ r;
  for (int i = 0; i < trials(50); i++) {
    cas::ZPoly f = r.poly(20, 60), g = r.nonzero(8, 60), q, rem;
    cas::test::zpoly_divrem_oracle(q.get(), rem.get(), f.get(), g.get());
    s.eval("f = " + src(f) + "; g = " + src(g) + "; d = divrem(f, g)");
    CHECK(s.show("d") == "[" + cas::format_zpoly(q) + ", " + cas::format_zpoly(rem) + "]");
    CHECK(holds(s, "f == d[0]*g + d[1]"));
  }
  CHECK(error_message("divrem(x, 0)") == "divrem: division by the zero polynomial");
  CHECK(error_message("divrem(x mod 7, 0)") == "divrem: division by the zero polynomial");
  // The operators say it once, over Z/pZ as in Z[x] (it read "division: division by ...").
  for (const char* op : {"//", "%", "/"}) {
    CHECK(error_message(std::string("(x^2 mod 7) ") + op + " (0*x mod 7)") == "division by the zero polynomial");
    CHECK(error_message(std::string("x^2 ") + op + " 0*x") == "division by the zero polynomial");
  }
  CHECK(error_message("divrem(x^2 mod 6, (2*x + 1) mod 6)") ==
        "divrem: the leading coefficient 2 mod 6 is not invertible");
}

TEST_CASE("gcd, xgcd and lcm of polynomials over Z/pZ", "[builtins][poly]") {
  CHECK(show("gcd((x^2 - 1) mod 7, (x^2 + 2*x + 1) mod 7)") == "(x + 1) mod 7");
  CHECK(show("gcd((2*x + 2) mod 7, 0)") == "(x + 1) mod 7");
  CHECK(show("xgcd((x^2 - 1) mod 7, (x^3 + 2) mod 7)") == "[1, 5*x^2 + 4*x + 5, 2*x + 3] mod 7");
  CHECK(show("lcm((x^2 - 1) mod 7, (x + 1) mod 7)") == "(x^2 + 6) mod 7");
  Session s;
  for (const char* p : primes)
    for (int i = 0; i < trials(30); i++) {
      s.eval(std::string("seed(") + std::to_string(i) + "); P = " + p +
             "; c = randpoly(4, P); f = c * randpoly(7, P); h = c * randpoly(5, P)");
      s.eval("g = gcd(f, h); v = xgcd(f, h)");
      CHECK(holds(s, "lc(g) == 1 and f % g == 0 and h % g == 0 and deg(g) >= deg(c)"));
      CHECK(holds(s, "v[0] == g and v[0] == v[1]*f + v[2]*h"));
      CHECK(holds(s, "l = lcm(f, h); lc(l) == 1 and l % f == 0 and l % h == 0 and l * g == f * h / (lc(f) * lc(h))"));
    }
  CHECK(error_message("xgcd((x + 1) mod 5, (x + 1) mod 7)") == "xgcd: cannot mix Z/5Z and Z/7Z");
}

TEST_CASE("gcd and lcm in Z[x] agree with FLINT; xgcd needs a field", "[builtins][poly]") {
  CHECK(show("gcd(6*x^2 - 6, 4*x^2 + 8*x + 4)") == "2*x + 2");  // PARI/GP
  CHECK(show("gcd(x^2 - 1, 3)") == "1");
  RandomZ r;
  Session s;
  for (int i = 0; i < trials(50); i++) {
    cas::ZPoly c = r.poly(4, 20), a = r.poly(6, 30), b = r.poly(5, 30), f, h, g, l;
    fmpz_poly_mul(f.get(), a.get(), c.get());
    fmpz_poly_mul(h.get(), b.get(), c.get());
    fmpz_poly_gcd(g.get(), f.get(), h.get());
    fmpz_poly_lcm(l.get(), f.get(), h.get());
    CHECK(s.show("gcd(" + src(f) + ", " + src(h) + ")") == cas::format_zpoly(g));
    CHECK(s.show("lcm(" + src(f) + ", " + src(h) + ")") == cas::format_zpoly(l));
  }
  CHECK(error_message("xgcd(x^2 + 1, x + 1)").find("xgcd: polynomials need a field") == 0);
}

// PARI's content and primpart: values from PARI/GP, random ones against FLINT's content (the
// primitive part keeps the sign, where fmpz_poly_primitive_part makes the leading coefficient positive).
TEST_CASE("content and primpart over Z", "[builtins][poly]") {
  CHECK(show("content(-2*x - 4)") == "2");
  CHECK(show("primpart(-2*x - 4)") == "-x - 2");
  CHECK(show("content(6*x^2 + 9)") == "3");
  CHECK(show("primpart(6*x^2 + 9)") == "2*x^2 + 3");
  CHECK(show("content(0)") == "0");
  CHECK(show("primpart(0)") == "0");
  CHECK(show("content(-6)") == "6");
  CHECK(show("primpart(-6)") == "-1");
  CHECK(show("content([4, -6, 8])") == "2");
  CHECK(show("primpart([4, -6, 8])") == "[2, -3, 4]");
  RandomZ r;
  Session s;
  for (int i = 0; i < trials(50); i++) {
    cas::ZPoly f = r.nonzero(8, 40), g;
    fmpz_poly_scalar_mul_si(f.get(), f.get(), -6);
    Fmpz content;
    fmpz_poly_content(content.get(), f.get());
    fmpz_poly_scalar_divexact_fmpz(g.get(), f.get(), content.get());
    CHECK(s.show("content(" + src(f) + ")") == content.to_string());
    CHECK(s.show("primpart(" + src(f) + ")") == cas::format_zpoly(g));
    CHECK(holds(s, "f = " + src(f) + "; content(f) * primpart(f) == f and content(primpart(f)) == 1"));
  }
  CHECK(error_message("content(x mod 7)") ==
        "content: needs an integer, a polynomial in Z[x] or a vector of integers, not x mod 7 (over Z/pZ every "
        "non-zero coefficient is a unit)");
  CHECK(error_message("primpart([x])") == "primpart: the entries must be integers, not x");
}

TEST_CASE("resultant: FLINT in Z[x], PARI/GP values, reduction mod p commutes", "[builtins][poly]") {
  CHECK(show("resultant(x^3 + 2*x + 1, 3*x^2 - x + 5)") == "16");      // PARI/GP polresultant
  CHECK(show("resultant(x^5 - 3*x + 7, 2*x^3 + x - 4)") == "-11203");  // PARI/GP
  CHECK(show("resultant((x^5 - 3*x + 7) mod 101, (2*x^3 + x - 4) mod 101)") == "8 mod 101");
  CHECK(show("resultant(x^2 + 1, x^2 - 1)") == "4");
  CHECK(show("resultant((x - 1)*(x + 2), (x - 1)*(x + 5))") == "0");
  RandomZ r;
  Session s;
  for (int i = 0; i < trials(50); i++) {
    cas::ZPoly f = r.poly(8, 30), g = r.poly(6, 30);
    Fmpz res;
    fmpz_poly_resultant(res.get(), f.get(), g.get());
    CHECK(s.show("resultant(" + src(f) + ", " + src(g) + ")") == res.to_string());
  }
  for (const char* p : primes)
    for (int i = 0; i < trials(20); i++) {
      s.eval(std::string("seed(") + std::to_string(i) + "); P = " + p + "; f = randpoly(8, P); g = randpoly(5, P)");
      CHECK(holds(s, "resultant(f, g) == resultant(lift(f), lift(g)) mod P"));
    }
}

// ---- factor, roots, isirreducible ----------------------------------------------------------

TEST_CASE("factor of polynomials: worked values from PARI/GP", "[builtins][poly]") {
  CHECK(show("factor(x^4 - 1)") == "[[x - 1, 1], [x + 1, 1], [x^2 + 1, 1]]");
  CHECK(show("factor(x^6 - 1)") == "[[x - 1, 1], [x + 1, 1], [x^2 - x + 1, 1], [x^2 + x + 1, 1]]");
  // The content is a factor too (PARI, over Q, drops it): the product gives f back.
  CHECK(show("factor(-6*x^2 + 6)") == "[[-6, 1], [x - 1, 1], [x + 1, 1]]");
  CHECK(show("factor(12*x^3 - 12*x)") == "[[12, 1], [x - 1, 1], [x, 1], [x + 1, 1]]");
  CHECK(show("factor((x - 2)^3 * (x^2 + 1)^2)") == "[[x - 2, 3], [x^2 + 1, 2]]");
  CHECK(show("factor((x^4 - 1) mod 17)") ==
        "[[(x + 1) mod 17, 1], [(x + 4) mod 17, 1], [(x + 13) mod 17, 1], [(x + 16) mod 17, 1]]");
  CHECK(show("factor((x^6 - 1) mod 7)") ==
        "[[(x + 1) mod 7, 1], [(x + 2) mod 7, 1], [(x + 3) mod 7, 1], [(x + 4) mod 7, 1], [(x + 5) mod 7, 1], "
        "[(x + 6) mod 7, 1]]");
  CHECK(show("factor((x^8 + x^4 + 1) mod 2)") == "[[(x^2 + x + 1) mod 2, 4]]");
  // The leading coefficient comes first when it is not 1 (PARI makes the factors monic and drops it).
  CHECK(show("factor((2*x^3 + 1) mod 7)") == "[[2 mod 7, 1], [(x^3 + 4) mod 7, 1]]");
  CHECK(show("factor(3 mod 7)") == "[[3 mod 7, 1]]");
  CHECK(show("factor(1 + 0*x)") == "[]");
  CHECK(error_message("factor(x - x)") == "factor: the zero polynomial has no factorisation");
  CHECK(error_message("factor(0 * x mod 7)") == "factor: the zero polynomial has no factorisation");
}

TEST_CASE("factor multiplies back to f, with irreducible factors", "[builtins][poly]") {
  Session s;
  const std::string product = "p = 1; ok = true; for e in F { p = p * e[0]^e[1]; ok = ok and e[1] > 0 }";
  for (const char* p : primes)
    for (int i = 0; i < trials(20); i++) {
      s.eval(std::string("seed(") + std::to_string(i) + "); P = " + p +
             "; f = randpoly(4, P)^2 * randpoly(6, P) * randpoly(3, P); F = factor(f)");
      s.eval(product);
      CHECK(holds(s, "ok and p == f"));
      CHECK(holds(s, "ok = true; for e in F { ok = ok and (deg(e[0]) == 0 or (isirreducible(e[0]) and lc(e[0]) == 1)) }; ok"));
    }
  RandomZ r;
  for (int i = 0; i < trials(30); i++) {
    cas::ZPoly a = r.nonzero(4, 10), b = r.nonzero(5, 10), f;
    fmpz_poly_mul(f.get(), a.get(), b.get());
    fmpz_poly_mul(f.get(), f.get(), a.get());
    s.eval("f = " + src(f) + "; F = factor(f)");
    s.eval(product);
    CHECK(holds(s, "ok and p == f"));
    CHECK(holds(s, "ok = true; for e in F { ok = ok and (deg(e[0]) <= 0 or isirreducible(e[0])) }; ok"));
  }
}

TEST_CASE("roots: distinct, ascending, and roots indeed", "[builtins][poly]") {
  CHECK(show("roots((x^4 - 1) mod 17)") == "[1, 4, 13, 16] mod 17");  // PARI: polrootsmod(x^4 - 1, 17)
  CHECK(show("roots((x^3 - 2) mod 31)") == "[4, 7, 20] mod 31");      // PARI: polrootsmod(x^3 - 2, 31)
  CHECK(show("roots((x^2 + 1) mod 7)") == "[]");
  CHECK(show("roots((x - 3) * (x + 5)^2 * (x^2 + 1))") == "[-5, 3]");
  CHECK(show("roots(2*x - 1)") == "[]");
  CHECK(show("roots(7)") == "[]");
  CHECK(show("roots((x - 1)^3 mod 2^70 + 25)") != "");
  Session s;
  for (const char* p : primes)
    for (int i = 0; i < trials(20); i++) {
      s.eval(std::string("seed(") + std::to_string(i) + "); P = " + p + "; f = randpoly(5, P)");
      s.eval("for k in 1..4 { f = f * (x - eval(randpoly(1, P) + 0, 0)) }; R = roots(f)");
      CHECK(holds(s, "ok = true; for r in R { ok = ok and eval(f, r) == 0 }; ok"));
      CHECK(holds(s, "ok = true; for k in 1..len(R)-1 { ok = ok and lift(R[k-1]) < lift(R[k]) }; ok"));
      CHECK(holds(s, "n = 0; for e in factor(f) { if deg(e[0]) == 1 { n = n + 1 } }; n == len(R) and len(R) >= 1"));
    }
  CHECK(error_message("roots(x - x)") == "roots: every integer is a root of the zero polynomial");
}

TEST_CASE("isirreducible over Z/pZ and in Z[x]", "[builtins][poly]") {
  CHECK(show("isirreducible((x^2 + 1) mod 3)") == "true");
  CHECK(show("isirreducible((x^2 + 1) mod 5)") == "false");
  CHECK(show("isirreducible(x^2 + 1)") == "true");
  CHECK(show("isirreducible(x^4 + 4)") == "false");  // (x^2 - 2x + 2)(x^2 + 2x + 2)
  CHECK(show("isirreducible(2*x + 2)") == "false");  // 2*(x + 1) in Z[x]
  CHECK(show("isirreducible(x + 2)") == "true");
  CHECK(show("isirreducible(5)") == "false");
  CHECK(show("isirreducible(3 mod 7)") == "false");
}

// ---- interpolate ---------------------------------------------------------------------------

TEST_CASE("interpolate passes through the points", "[builtins][poly]") {
  CHECK(show("interpolate([0, 1, 2], [0, 1, 4])") == "x^2");
  CHECK(show("interpolate([1, 2, 3, 4], [1, 8, 27, 64])") == "x^3");  // PARI: polinterpolate
  CHECK(show("interpolate([0, 1, 2] mod 7, [0, 1, 3])") == "(4*x^2 + 4*x) mod 7");
  CHECK(show("interpolate([], [])") == "0");
  Session s;
  for (const char* p : {"101", "nextprime(2^70)"})
    for (int i = 0; i < trials(20); i++) {
      s.eval(std::string("seed(") + std::to_string(i) + "); P = " + p + "; n = " + std::to_string(1 + i % 12));
      s.eval("xs = vector(n); ys = vector(n); for k in 0..n-1 { xs[k] = (3*k + 1) mod P; ys[k] = eval(randpoly(1, P) + 0, 0) }");
      s.eval("f = interpolate(xs, ys)");
      CHECK(holds(s, "ok = true; for k in 0..n-1 { ok = ok and eval(f, xs[k]) == ys[k] }; ok and deg(f) < n"));
    }
  RandomZ r;
  for (int i = 0; i < trials(30); i++) {
    cas::ZPoly f = r.poly(10, 40);
    s.eval("f = " + src(f) + "; xs = [-4, -2, 0, 1, 3, 5, 6, 8, 9, 11]; ys = vector(10)");
    s.eval("for k in 0..9 { ys[k] = eval(f, xs[k]) }");
    CHECK(holds(s, "interpolate(xs, ys) == f"));
  }
  // FLINT's fmpz_poly_interpolate_fmpz_vec would abort here.
  CHECK(error_message("interpolate([0, 1, 2], [0, 1, 3])").find("interpolate: the polynomial through these points has "
                                                              "non-integer coefficients") == 0);
  CHECK(error_message("interpolate([0, 1, 1], [0, 1, 3])") == "interpolate: the point 1 occurs twice");
  CHECK(error_message("interpolate([0, 1, 8] mod 7, [0, 1, 3])") == "interpolate: the point 1 mod 7 occurs twice");
  CHECK(error_message("interpolate([0, 1], [0])") == "interpolate: 2 points but 1 values");
  CHECK(error_message("interpolate([0, x], [0, 1])").find("interpolate: argument 1 must hold integers") == 0);
}

// ---- powmod and crt of polynomials -----------------------------------------------------

TEST_CASE("powmod of polynomials equals the power reduced", "[builtins][poly]") {
  CHECK(show("powmod(x, 10, x^2 + 1)") == "-1");
  CHECK(show("powmod(x mod 7, 100, (x^3 + 2) mod 7)") == "6*x mod 7");
  CHECK(show("powmod(x + 1, 0, x^2 + 1)") == "1");
  CHECK(show("powmod(x + 1, 5, 1)") == "0");
  Session s;
  for (const char* p : primes)
    for (int i = 0; i < trials(20); i++) {
      s.eval(std::string("seed(") + std::to_string(i) + "); P = " + p + "; f = randpoly(6, P); m = randpoly(5, P)");
      CHECK(holds(s, "powmod(f, 13, m) == f^13 % m"));
      // Fermat in F_P[x]/(m) for m irreducible: f^(P^deg m) = f.
      s.eval("m = x^2 + x mod P; while not isirreducible(m) { m = m + 1 }");
      CHECK(holds(s, "powmod(f, P^2, m) == f % m"));
    }
  RandomZ r;
  for (int i = 0; i < trials(20); i++) {
    cas::ZPoly f = r.poly(6, 10), m = r.poly(4, 10);
    fmpz_poly_set_coeff_si(m.get(), 4, i % 2 ? 1 : -1);  // a unit leading coefficient
    s.eval("f = " + src(f) + "; m = " + src(m));
    CHECK(holds(s, "powmod(f, 7, m) == f^7 % m"));
  }
  CHECK(error_message("powmod(x, 3, 2*x + 1)").find("powmod: in Z[x] the modulus must have leading coefficient 1 or -1") == 0);
  CHECK(error_message("powmod(x mod 6, 5, (2*x + 1) mod 6)") == "powmod: the leading coefficient 2 mod 6 is not invertible");
  CHECK(error_message("powmod(x, -1, x^2 + 1)") == "powmod: the exponent must be non-negative");
  CHECK(error_message("powmod(x, 2^200, x^2 + x + 1)") == "");  // reduction by a monic keeps it small
  CHECK(error_message("powmod(x, 2^200, x^2 - 3)").find("powmod in Z[x] would need about") == 0);
}

TEST_CASE("crt of polynomials, coefficient by coefficient", "[builtins][poly]") {
  CHECK(show("crt([x + 2, 3*x], [5, 7])") == "31*x + 7");
  CHECK(show("crt([(x + 1) mod 3, (2*x) mod 5], [3, 5])") == "7*x + 10");
  CHECK(show("crt([(x + 1) mod 3, (2*x) mod 5])") == "7*x + 10");
  CHECK(show("crt([x^2, 4], [3, 5])") == "10*x^2 + 9");
  Session s;
  for (int i = 0; i < trials(20); i++) {
    s.eval("seed(" + std::to_string(i) + "); ms = [101, 103, nextprime(2^70)]; rs = vector(3)");
    s.eval("for k in 0..2 { rs[k] = randpoly(8, ms[k]) }; c = crt(rs, ms)");
    CHECK(holds(s, "ok = true; for k in 0..2 { ok = ok and c mod ms[k] == rs[k] }; ok"));
    CHECK(holds(s, "M = 101 * 103 * ms[2]; ok = true; for k in 0..deg(c) { ok = ok and coeff(c, k) >= 0 and coeff(c, k) < M }; ok"));
  }
  CHECK(error_message("crt([x mod 5, x], [7, 3])") == "crt: residue 1 is x mod 5, but its modulus is given as 7");
  CHECK(error_message("crt([x, x + 1], [4, 6])").find("crt: the residues are inconsistent") == 0);
}

// ---- random polynomials ------------------------------------------------------------------

TEST_CASE("randpoly, randzpoly and seed", "[builtins][poly]") {
  Session s;
  s.eval("seed(42); a = randpoly(50, 101); b = randzpoly(20, 30); seed(42); c = randpoly(50, 101); d = randzpoly(20, 30)");
  CHECK(holds(s, "a == c and b == d"));
  s.eval("seed(43); e = randpoly(50, 101)");
  CHECK(holds(s, "a != e"));
  s.eval("seed(7); A = randpoly(30, 2^100 + 277); seed(7); B = randpoly(30, 2^100 + 277)");
  CHECK(holds(s, "A == B and modulus(A) == 2^100 + 277 and deg(A) == 29"));
  CHECK(show("randpoly(0, 7)") == "0 mod 7");
  CHECK(show("randzpoly(0, 7)") == "0");
  for (int i = 0; i < trials(30); i++) {
    const std::string n = std::to_string(1 + i);
    s.eval("f = randpoly(" + n + ", 3); g = randzpoly(" + n + ", 5)");
    CHECK(holds(s, "deg(f) == " + n + " - 1 and deg(g) == " + n + " - 1 and modulus(f) == 3"));
    CHECK(holds(s, "ok = true; for c in coeffs(g) { ok = ok and c > -32 and c < 32 }; ok"));
  }
  // Both signs and the full range appear.
  s.eval("seed(1); g = randzpoly(2000, 3); lo = 0; hi = 0; for c in coeffs(g) { if c < lo { lo = c }; if c > hi { hi = c } }");
  CHECK(s.show("[lo, hi]") == "[-7, 7]");
  s.eval("f = randpoly(2000, 5); seen = vector(5); for c in coeffs(f) { seen[lift(c)] = 1 }");
  CHECK(s.show("seen") == "[1, 1, 1, 1, 1]");
  CHECK(error_message("randpoly(10^12, 7)").find("randpoly would need about") == 0);
  CHECK(error_message("randzpoly(10^12, 7)").find("randzpoly would need about") == 0);
  CHECK(error_message("randzpoly(10, 10^12)").find("randzpoly would need about") == 0);
  CHECK(error_message("randpoly(10^30, 7)").find("randpoly: argument 1 must be a non-negative integer") == 0);
  CHECK(error_message("randpoly(-1, 7)").find("randpoly: argument 1 must be a non-negative integer") == 0);
  CHECK(error_message("randpoly(3, 1)") == "randpoly: the modulus must be at least 2, not 1");
  CHECK(error_message("randzpoly(3, 0)") == "randzpoly: argument 2 (bits) must be at least 1");
  CHECK(error_message("seed(x)") == "seed: argument 1 must be an integer, not x");
}

// ---- composite moduli: errors, never FLINT aborts -----------------------------------------

TEST_CASE("field operations over a composite modulus name a non-invertible element", "[builtins][poly][errors]") {
  const std::string f = "(x^2 + 1) mod 6", g = "(x + 1) mod 6";
  CHECK(error_message("gcd(" + f + ", " + g + ")") == "gcd needs a field, but 6 is not prime (2 mod 6 is not invertible)");
  CHECK(error_message("xgcd(" + f + ", " + g + ")") == "xgcd needs a field, but 6 is not prime (2 mod 6 is not invertible)");
  CHECK(error_message("lcm(" + f + ", " + g + ")") == "lcm needs a field, but 6 is not prime (2 mod 6 is not invertible)");
  CHECK(error_message("factor(" + f + ")") == "factor needs a field, but 6 is not prime (2 mod 6 is not invertible)");
  CHECK(error_message("roots(" + f + ")") == "roots needs a field, but 6 is not prime (2 mod 6 is not invertible)");
  CHECK(error_message("resultant(" + f + ", " + g + ")") ==
        "resultant needs a field, but 6 is not prime (2 mod 6 is not invertible)");
  CHECK(error_message("isirreducible(" + f + ")") ==
        "isirreducible needs a field, but 6 is not prime (2 mod 6 is not invertible)");
  CHECK(error_message("interpolate([0, 1] mod 6, [1, 2])") ==
        "interpolate needs a field, but 6 is not prime (2 mod 6 is not invertible)");
  // Division by a monic polynomial is fine over any Z/nZ.
  CHECK(show("divrem((x^3 + 5) mod 6, (x + 1) mod 6)") == "[x^2 + 5*x + 1, 4] mod 6");
  CHECK(show("powmod(x mod 6, 5, (x^2 + 1) mod 6)") == "x mod 6");
  CHECK(show("gcd((x^2 + 1) mod 2^64 + 13, (x + 1) mod 2^64 + 13)") == "1 mod 18446744073709551629");
}

TEST_CASE("every polynomial builtin has help text", "[builtins][poly]") {
  for (const char* name : {"deg", "coeff", "coeffs", "poly", "lc", "eval", "deriv", "divrem", "resultant", "roots",
                           "isirreducible", "interpolate", "compose", "randpoly", "randzpoly", "seed"}) {
    const cas::Builtin* b = cas::builtins().find(name);
    REQUIRE(b != nullptr);
    CHECK(b->help.rfind(std::string(name) + "(", 0) == 0);
  }
}

TEST_CASE("discriminant: PARI/GP values, and (-1)^(n(n-1)/2) resultant(f, f') / lc(f)", "[builtins][poly]") {
  CHECK(show("discriminant(3*x^2 + 2*x + 1)") == "-8");     // PARI/GP poldisc
  CHECK(show("discriminant(2*x^3 - 4*x + 7)") == "-4780");  // PARI/GP
  CHECK(show("discriminant((x^2 + 1) mod 7)") == "3 mod 7");  // PARI/GP
  CHECK(show("discriminant((x^3 + x + 1) mod nextprime(2^100))") ==
        "1267650600228229401496703205622 mod 1267650600228229401496703205653");  // PARI/GP
  CHECK(show("discriminant(x)") == "1");
  CHECK(show("discriminant((x - 3)^2 * (x + 1))") == "0");
  CHECK(error_message("discriminant(5)") == "discriminant: needs a polynomial of degree at least 1, not a constant");
  CHECK(error_message("discriminant(5 mod 7)") ==
        "discriminant: needs a polynomial of degree at least 1, not a constant");
  CHECK_THAT(error_message("discriminant((x^2 + 1) mod 6)"), Catch::Contains("needs a field, but 6 is not prime"));
  RandomZ r;
  Session s;
  for (int i = 0; i < trials(40); i++) {
    const cas::ZPoly f = r.poly(2 + i % 7, 20);
    if (f.degree() < 1) continue;
    s.eval("f = " + src(f) + "; n = deg(f)");
    CHECK(holds(s, "discriminant(f) * lc(f) == (-1)^(n*(n-1)/2) * resultant(f, deriv(f))"));
    CHECK(holds(s, "discriminant(f mod 1009) == discriminant(f) mod 1009"));
  }
}
