// The evaluator's semantics: value semantics, the recursion and resource
// guards, integer arithmetic (floor // and %, exact /), Z/pZ promotion,
// comparisons and conditions.
#include "interpreter_support.hpp"

#include <flint/fmpz.h>
#include <flint/ulong_extras.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <vector>

using cas::Error;
using cas::Value;
using cas::test::error_message;
using cas::test::Session;
using cas::test::show;

// ---- value semantics ----------------------------------------------------------------

TEST_CASE("assignment copies: changing the copy leaves the original unchanged", "[eval][values]") {
  Session s;
  s.eval("a = [1, 2, 3]; b = a; b[0] = 5");
  CHECK(s.show("a") == "[1, 2, 3]");
  CHECK(s.show("b") == "[5, 2, 3]");
  s.eval("m = [[1, 2], [3, 4]]; n = m; n[0][1] = 9");
  CHECK(s.show("m") == "[[1, 2], [3, 4]]");
  CHECK(s.show("n") == "[[1, 9], [3, 4]]");
  s.eval("row = m[1]; row[0] = 0");
  CHECK(s.show("m") == "[[1, 2], [3, 4]]");
  s.eval("c = a; a[2] = 7");  // writing the original leaves the copy unchanged too
  CHECK(s.show("c") == "[1, 2, 3]");
  CHECK(s.show("a") == "[1, 2, 7]");
}

TEST_CASE("a vector assigned into itself keeps its old value", "[eval][values]") {
  CHECK(show("a = [1, 2]; a[0] = a; a") == "[[1, 2], 2]");
  CHECK(show("a = [[1, 2], 3]; a[0][0] = a; a") == "[[[[1, 2], 3], 2], 3]");
}

TEST_CASE("function arguments are copies", "[eval][values]") {
  Session s;
  s.eval("fn f(v) { v[0] = 5; v }");
  s.eval("a = [1, 2]; b = f(a)");
  CHECK(s.show("a") == "[1, 2]");
  CHECK(s.show("b") == "[5, 2]");
  s.eval("fn g(m) { m[1][1] = 0; m }; mm = [[1, 2], [3, 4]]; g(mm)");
  CHECK(s.show("mm") == "[[1, 2], [3, 4]]");
}

TEST_CASE("a loop over a vector sees the vector as it was when the loop began", "[eval][values]") {
  CHECK(show("v = [1, 2, 3]; s = 0; for e in v { v[2] = 100; s = s + e }; [s, v[2]]") == "[6, 100]");
}

TEST_CASE("large values are shared, not copied, by assignment", "[eval][values]") {
  Session s;
  s.eval("v = [x^100000, 2]; w = v");
  const Value* v = s.interp.find_global("v");
  const Value* w = s.interp.find_global("w");
  REQUIRE(v);
  REQUIRE(w);
  CHECK(&v->as_vec() == &w->as_vec());
  s.eval("w[1] = 3");
  CHECK(&v->as_vec() != &w->as_vec());
  CHECK(s.show("v[1]") == "2");
}

// ---- guards -------------------------------------------------------------------------

TEST_CASE("runaway recursion is an error, not a crash", "[eval][guards]") {
  std::string message;
  std::string after;
  cas::test::on_big_stack([&] {
    Session s;
    s.eval("fn down(n) { down(n + 1) }");
    try {
      s.eval("down(0)");
    } catch (const Error& e) {
      message = e.message();
    }
    // The interpreter is usable afterwards, at depth 0 again.
    after = s.show("fn sum(n) { if n == 0 { 0 } else { n + sum(n - 1) } }; sum(1000)");
    CHECK(s.interp.depth == 0);
  });
  CHECK_THAT(message, Catch::Contains("recursion is too deep"));
  CHECK_THAT(message, Catch::Contains(std::to_string(cas::Interpreter::max_depth)));
  CHECK(after == "500500");
}

TEST_CASE("recursion just below the depth limit works", "[eval][guards]") {
  std::string result;
  cas::test::on_big_stack([&] {
    Session s;
    s.eval("fn count(n) { if n == 0 { 0 } else { 1 + count(n - 1) } }");
    result = s.show("count(" + std::to_string(cas::Interpreter::max_depth - 10) + ")");
  });
  CHECK(result == std::to_string(cas::Interpreter::max_depth - 10));
}

TEST_CASE("a power too large for memory is an error before any allocation", "[eval][guards]") {
  CHECK_THAT(error_message("x^(10^15)"), Catch::Contains("would need"));
  CHECK_THAT(error_message("2^(10^15)"), Catch::Contains("would need"));
  CHECK_THAT(error_message("(x + 1)^(10^12)"), Catch::Contains("would need"));
  CHECK_THAT(error_message("(x + 1 mod 17)^(10^15)"), Catch::Contains("would need"));
  CHECK_THAT(error_message("3^(10^40)"), Catch::Contains("too large"));
  CHECK_THAT(error_message("(x + 1)^(10^7)"), Catch::Contains("would need"));  // 10^7 coefficients of up to 10^7 bits
  // Powers whose result stays small are not refused: x^(10^6) has 10^6
  // one-word coefficients (the guard bounds coefficients by the 1-norm, 1 here).
  Session s;
  Value monomial = s.eval("x^(10^6)");
  REQUIRE(monomial.is(cas::Kind::ZPoly));
  CHECK(monomial.as_zpoly().degree() == 1000000);
  CHECK(s.show("(x^(10^6) - 1) / (x - 1) == (x^(10^6) - 1) // (x - 1)") == "true");
  CHECK(s.show("(3*x^2 mod 17)^(10^6) == (3 mod 17)^(10^6) * x^(2*10^6)") == "true");
  CHECK(s.show("(x^2 - x)^3") == "x^6 - 3*x^5 + 3*x^4 - x^3");
  CHECK(show("1^(10^40)") == "1");
  CHECK(show("(-1)^(10^40 + 1)") == "-1");
  CHECK(show("0^(10^40)") == "0");
  CHECK(show("(3 mod 7)^(10^40)") == "4 mod 7");
  CHECK(show("x^0") == "1");
}

// ---- integers -------------------------------------------------------------------------

TEST_CASE("// and % are the floor quotient and remainder (GMP fdiv)", "[eval][integers]") {
  flint_rand_t state;
  flint_randinit(state);
  Session s;
  cas::Fmpz a, b, q, r, check;
  for (int trial = 0; trial < cas::test::trials(300); trial++) {
    fmpz_randtest(a.get(), state, 200);
    fmpz_randtest_not_zero(b.get(), state, trial % 3 == 0 ? 8 : 150);
    fmpz_fdiv_qr(q.get(), r.get(), a.get(), b.get());
    const std::string as = a.to_string(), bs = b.to_string();
    INFO("a = " << as << ", b = " << bs);
    CHECK(s.show("(" + as + ") // (" + bs + ")") == q.to_string());
    CHECK(s.show("(" + as + ") % (" + bs + ")") == r.to_string());
    // a == (a // b) * b + a % b, the remainder has the sign of b.
    CHECK(s.show("a = " + as + "; b = " + bs + "; (a // b) * b + a % b == a") == "true");
    fmpz_mul(check.get(), q.get(), b.get());
    fmpz_add(check.get(), check.get(), r.get());
    CHECK(fmpz_equal(check.get(), a.get()));
  }
  flint_randclear(state);
}

TEST_CASE("// and % agree with PARI/GP's \\ and % when the divisor is positive", "[eval][integers]") {
  // Values from `gp -q`: for b > 0, PARI's euclidean \ and % are the floor ones.
  // For b < 0 they differ: PARI gives 7 \ -2 = -3, 7 % -2 = 1, -7 \ -2 = 4,
  // -7 % -2 = 1 (a remainder >= 0), cas gives the floor -4, -1, 3, -1 (a
  // remainder with the sign of b, like Python and GMP's fdiv).
  struct Case {
    const char *a, *b, *quotient, *remainder;
  };
  const Case cases[] = {
      {"7", "2", "3", "1"},
      {"-7", "2", "-4", "1"},
      {"-1", "5", "-1", "4"},
      {"0", "3", "0", "0"},
      {"-12345678901234567890123", "97", "-127275040218913071033", "78"},
      {"12345678901234567890123", "98765432109", "124999998862", "4629630165"},
      {"-100000000000000000000", "3", "-33333333333333333334", "2"},
  };
  for (const Case& c : cases) {
    INFO(c.a << " and " << c.b);
    CHECK(show(std::string("(") + c.a + ") // " + c.b) == c.quotient);
    CHECK(show(std::string("(") + c.a + ") % " + c.b) == c.remainder);
  }
  CHECK(show("7 // -2") == "-4");
  CHECK(show("7 % -2") == "-1");
  CHECK(show("-7 // -2") == "3");
  CHECK(show("-7 % -2") == "-1");
}

TEST_CASE("/ is exact division", "[eval][integers]") {
  CHECK(show("6 / 3") == "2");
  CHECK(show("-6 / 3") == "-2");
  CHECK(show("(10^40) / (10^20)") == "100000000000000000000");
  CHECK_THAT(error_message("7 / 2"), Catch::Contains("7 is not divisible by 2"));
  CHECK_THAT(error_message("1 / 0"), Catch::Contains("division by zero"));
  CHECK_THAT(error_message("1 // 0"), Catch::Contains("division by zero"));
  CHECK_THAT(error_message("1 % 0"), Catch::Contains("division by zero"));
  CHECK_THAT(error_message("0 / 0"), Catch::Contains("division by zero"));
  CHECK(show("(x^2 - 1) / (x - 1)") == "x + 1");
  CHECK_THAT(error_message("x / (x + 1)"), Catch::Contains("not exact"));
  CHECK_THAT(error_message("x / 0"), Catch::Contains("zero polynomial"));
}

// `e mod p` takes the divisions of e that are not exact over Z in Z/pZ (as Maple and Sage read
// 1/3 mod 7); exact ones stay over Z, so 6/2 mod 4 is 3 mod 4. Arguments of calls are not affected.
TEST_CASE("divisions under mod p that are not exact over Z are taken in Z/pZ", "[eval][mod]") {
  CHECK(show("1/3 mod 7") == "5 mod 7");
  CHECK(show("-1/3 mod 7") == "2 mod 7");
  CHECK(show("1/3 + 1/5 mod 7") == "1 mod 7");
  CHECK(show("(1/3) * 3 mod 7") == "1 mod 7");
  CHECK(show("2^-1 mod 7") == "4 mod 7");
  CHECK(show("(2/3)^-2 mod 7") == "4 mod 7");  // (3/2)^2 = 9/4 = 2 * 2 = 4
  CHECK(show("6/2 mod 4") == "3 mod 4");
  CHECK(show("(x^2 + 1)/2 mod 7") == "(4*x^2 + 4) mod 7");
  CHECK(show("(x^2 - 1)/(x + 1) mod 7") == "(x + 6) mod 7");
  CHECK(show("[1, 2]/3 mod 7") == "[5, 3] mod 7");
  CHECK(show("3^(10^20) mod 101") == "1 mod 101");  // a power too large over Z, fine mod 101
  CHECK(show("a = 1/3 mod 7; a * 3") == "1 mod 7");
  CHECK(error_message("1/3 mod 6") == "3 mod 6 is not invertible");
  CHECK(error_message("1/0 mod 7") == "0 mod 7 is not invertible");
  CHECK(error_message("x^-1 mod 7") == "a polynomial to a negative power is not a polynomial");
  CHECK(error_message("(x^2 + 1)/(x + 1) mod 7") == "the division is not exact: the divisor does not divide the dividend");
  CHECK(error_message("1/3 mod 1") == "a modulus must be at least 2, not 1");
  // Already in some Z/pZ, a failure stands; a call's arguments are evaluated as anywhere.
  CHECK(error_message("1/(3 mod 5) mod 7") == "2 mod 5 is already reduced mod 5; lift it first to reduce mod 7");
  CHECK_THAT(error_message("coeff(x/2, 1) mod 7"), Catch::Contains("not exact in Z[x]"));
  CHECK_THAT(error_message("1/3"), Catch::Contains("1/3 mod 7 is 5 mod 7"));
}

// ---- Z/pZ ---------------------------------------------------------------------------

TEST_CASE("integers are promoted to Z/pZ; Z[x] to Z/pZ[x]", "[eval][mod]") {
  CHECK(show("(3 mod 7) + 5") == "1 mod 7");
  CHECK(show("5 - (3 mod 7)") == "2 mod 7");
  CHECK(show("5 * (3 mod 7)") == "1 mod 7");
  CHECK(show("(3 mod 7) / 2") == "5 mod 7");
  CHECK(show("1 / (3 mod 7)") == "5 mod 7");
  CHECK(show("-(3 mod 7)") == "4 mod 7");
  CHECK(show("x + (1 mod 7)") == "(x + 1) mod 7");
  CHECK(show("(x mod 7) * 8") == "x mod 7");
  CHECK(show("(2*x + 1 mod 7) / 2") == "(x + 4) mod 7");
  CHECK(show("[1, 2] + ([3, 4] mod 7)") == "[4, 6] mod 7");
  CHECK(show("(3 mod 7) == 10") == "true");
  CHECK(show("10 == (3 mod 7)") == "true");
  CHECK(show("(3 mod 7) == 4") == "false");
  CHECK(show("(3 mod 7) != 4") == "true");
}

TEST_CASE("mixing two moduli is an error", "[eval][mod]") {
  CHECK_THAT(error_message("(1 mod 5) + (1 mod 7)"), Catch::Contains("cannot mix Z/5Z and Z/7Z"));
  CHECK_THAT(error_message("(x mod 5) * (1 mod 7)"), Catch::Contains("cannot mix"));
  CHECK_THAT(error_message("(x mod 5) - (x mod 7)"), Catch::Contains("cannot mix"));
  CHECK_THAT(error_message("([1] mod 5) + ([1] mod 7)"), Catch::Contains("cannot mix"));
  CHECK_THAT(error_message("(1 mod 5) mod 7"), Catch::Contains("already reduced mod 5"));
  CHECK(show("(1 mod 5) mod 5") == "1 mod 5");
  CHECK(show("(1 mod 5) == (1 mod 7)") == "false");  // different rings: unequal, not an error
}

TEST_CASE("the modulus must be an integer at least 2", "[eval][mod]") {
  CHECK_FALSE(error_message("1 mod 1").empty());
  CHECK_FALSE(error_message("1 mod 0").empty());
  CHECK_FALSE(error_message("1 mod -5").empty());
  CHECK_THAT(error_message("1 mod x"), Catch::Contains("must be an integer"));
  CHECK_THAT(error_message("1 mod (2 mod 3)"), Catch::Contains("must be an integer"));
  CHECK(show("5 mod 2") == "1 mod 2");
}

TEST_CASE("in Z/nZ with n composite, a non-invertible element is named", "[eval][mod]") {
  CHECK_THAT(error_message("(1 mod 4) / (2 mod 4)"), Catch::Contains("2 mod 4 is not invertible"));
  CHECK_THAT(error_message("(2 mod 4)^-1"), Catch::Contains("2 mod 4 is not invertible"));
  CHECK_THAT(error_message("(1 mod 7) / 0"), Catch::Contains("0 mod 7 is not invertible"));
  CHECK(show("(3 mod 4) / (3 mod 4)") == "1 mod 4");
  CHECK_THAT(error_message("(7 mod 17) // 2"), Catch::Contains("not defined in Z/17Z"));
  CHECK_THAT(error_message("(7 mod 17) % 2"), Catch::Contains("not defined in Z/17Z"));
}

// ---- comparisons and conditions ---------------------------------------------------------

TEST_CASE("order comparisons are for integers only", "[eval][conditions]") {
  CHECK(show("-5 < 3") == "true");
  CHECK(show("10^30 > 10^29") == "true");
  for (const char* source : {"(1 mod 5) < (2 mod 5)", "x < 1", "[1] < [2]", "\"a\" < \"b\"", "true < false",
                             "(1 mod 5) >= 0"}) {
    INFO(source);
    CHECK_THAT(error_message(source), Catch::Contains("compares integers only"));
  }
  CHECK(show("[1, 2] == [1, 2]") == "true");
  CHECK(show("[1, 2] == [1, 2, 3]") == "false");
  CHECK(show("\"a\" == \"a\"") == "true");
  CHECK(show("true == false") == "false");
  CHECK(show("1 == true") == "false");
  CHECK(show("x == x") == "true");
}

TEST_CASE("conditions must be true or false", "[eval][conditions]") {
  CHECK_THAT(error_message("if 1 { 2 }"), Catch::Contains("the condition of 'if' must be true or false"));
  CHECK_THAT(error_message("while 1 { }"), Catch::Contains("the condition of 'while' must be true or false"));
  CHECK_THAT(error_message("1 and true"), Catch::Contains("must be true or false"));
  CHECK_THAT(error_message("false or 0"), Catch::Contains("must be true or false"));
  CHECK_THAT(error_message("not 1"), Catch::Contains("'not' needs true or false"));
  CHECK_THAT(error_message("if [] { }"), Catch::Contains("must be true or false"));
}

TEST_CASE("a range needs integers; for needs a vector or a range", "[eval][conditions]") {
  CHECK_THAT(error_message("for i in 1..x { }"), Catch::Contains("a range a..b needs integers"));
  CHECK_THAT(error_message("for i in 5 { }"), Catch::Contains("needs a vector or a range"));
  CHECK_THAT(error_message("v = [1]; v[true]"), Catch::Contains("a vector index must be an integer"));
  CHECK_THAT(error_message("5[0]"), Catch::Contains("only vectors can be indexed"));
  CHECK_THAT(error_message("f = x; f[0] = 1"), Catch::Contains("only vector entries can be assigned"));
}

TEST_CASE("an assignment needs a value", "[eval]") {
  CHECK_THAT(error_message("fn f() { return }; a = f()"), Catch::Contains("no value to assign"));
}

// ---- user functions and the stdlib ------------------------------------------------------

TEST_CASE("loading the stdlib keeps the user's own definitions of stdlib names", "[eval][functions]") {
  // The stdlib loads on the first call of one of its functions. A user
  // function with the name of another stdlib function must survive that load,
  // also while it is running (its nodes must stay alive until it returns).
  Session s;
  s.eval("fn dftmatrix(n, w) { X = dft([1, 2] mod 17, 16 mod 17); [X, 42] }");
  CHECK(s.show("dftmatrix(0, 0)") == "[[3, 16] mod 17, 42]");
  CHECK(s.show("dftmatrix(0, 0)") == "[[3, 16] mod 17, 42]");
}

TEST_CASE("a function redefined while it runs finishes with its old body", "[eval][functions]") {
  // read() inside f defines a new f; the running call keeps its own nodes.
  char path[] = "/tmp/cas_test_redefine_XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  const std::string script = "fn f() { 7 }\n";
  REQUIRE(write(fd, script.data(), script.size()) == static_cast<ssize_t>(script.size()));
  close(fd);
  Session s;
  s.eval(std::string("fn f() { read(\"") + path + "\"); a = 1 + 1; [a, 3] }");
  CHECK(s.show("f()") == "[2, 3]");
  CHECK(s.show("f()") == "7");
  unlink(path);
}

TEST_CASE("an index that reassigns the vector while it is being assigned into", "[eval][values]") {
  // read() in an index may replace the variable being assigned: the element
  // assignment must then see the new value, not freed memory.
  char path[] = "/tmp/cas_test_reassign_XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  const std::string script = "v = [[5, 6], [7, 8]]\n1\n";
  REQUIRE(write(fd, script.data(), script.size()) == static_cast<ssize_t>(script.size()));
  close(fd);
  const std::string read_call = std::string("read(\"") + path + "\")";
  Session s;
  CHECK(s.show("v = [[1, 2], [3, 4]]; v[0][" + read_call + "] = 0; v") == "[[5, 0], [7, 8]]");
  CHECK(s.show("v = [[1, 2], [3, 4]]; v[" + read_call + "][0] = 0; v") == "[[5, 6], [0, 8]]");
  CHECK(s.show("v = 0; v[" + read_call + "] = 9; v") == "[[5, 6], 9]");
  unlink(path);
}

// ---- PARI/GP as an oracle for language results -----------------------------------------

namespace {

// A random expression written twice: in cas and in GP. Integers with +, -, *,
// small powers, // and % by positive divisors (where GP's \ and % are the
// floor ones), polynomials in Z[x], and Z/pZ arithmetic for prime p read back
// with lift.
struct Twin {
  std::string cas, gp;
};

std::string random_integer_text(flint_rand_t state) {
  cas::Fmpz z;
  fmpz_randtest(z.get(), state, 1 + n_randint(state, 120));
  return z.to_string();
}

std::string random_positive_text(flint_rand_t state) {
  cas::Fmpz z;
  fmpz_randtest_not_zero(z.get(), state, 1 + n_randint(state, 80));
  fmpz_abs(z.get(), z.get());
  return z.to_string();
}

Twin parenthesized(const Twin& t) { return {"(" + t.cas + ")", "(" + t.gp + ")"}; }

Twin random_integer_expression(flint_rand_t state, int depth) {
  if (depth > 3 || n_randint(state, 10) < 3) {
    std::string n = random_integer_text(state);
    return {n, n};
  }
  Twin a = parenthesized(random_integer_expression(state, depth + 1));
  switch (n_randint(state, 6)) {
    case 0: {
      std::string d = random_positive_text(state);
      return {a.cas + " // " + d, a.gp + " \\ " + d};
    }
    case 1: {
      std::string d = random_positive_text(state);
      return {a.cas + " % " + d, a.gp + " % " + d};
    }
    case 2: {
      std::string e = std::to_string(n_randint(state, 6));
      return {a.cas + "^" + e, a.gp + "^" + e};
    }
    case 3: return {"-" + a.cas, "-" + a.gp};
    default: {
      const char* op = n_randint(state, 3) == 0 ? " * " : (n_randint(state, 2) ? " + " : " - ");
      Twin b = parenthesized(random_integer_expression(state, depth + 1));
      return {a.cas + op + b.cas, a.gp + op + b.gp};
    }
  }
}

Twin random_polynomial_expression(flint_rand_t state, int depth) {
  if (depth > 2 || n_randint(state, 10) < 3) {
    std::string f = "0";
    for (ulong i = n_randint(state, 5) + 1; i-- > 0;) {
      cas::Fmpz c;
      fmpz_randtest(c.get(), state, 1 + n_randint(state, 20));
      f += " + (" + c.to_string() + ")*x^" + std::to_string(i);
    }
    return {f, f};
  }
  Twin a = parenthesized(random_polynomial_expression(state, depth + 1));
  if (n_randint(state, 4) == 0) {
    std::string e = std::to_string(n_randint(state, 4));
    return {a.cas + "^" + e, a.gp + "^" + e};
  }
  const char* op = n_randint(state, 3) == 0 ? " * " : (n_randint(state, 2) ? " + " : " - ");
  Twin b = parenthesized(random_polynomial_expression(state, depth + 1));
  return {a.cas + op + b.cas, a.gp + op + b.gp};
}

// Divisions and powers to negative exponents: in cas under `mod p` (Node::eval_modulo), in GP over
// Q and then mapped to Z/pZ. They agree while no denominator vanishes mod p, so p is large here
// and a zero denominator an error on both sides.
Twin random_rational_expression(flint_rand_t state, int depth) {
  if (depth > 2 || n_randint(state, 10) < 3) {
    std::string n = random_integer_text(state);
    return {n, n};
  }
  Twin a = parenthesized(random_rational_expression(state, depth + 1));
  if (n_randint(state, 4) == 0) {
    std::string e = std::to_string(static_cast<slong>(n_randint(state, 7)) - 3);
    return {a.cas + "^(" + e + ")", a.gp + "^(" + e + ")"};
  }
  const char* op = n_randint(state, 2) ? " / " : (n_randint(state, 2) ? " * " : " + ");
  Twin b = parenthesized(random_rational_expression(state, depth + 1));
  return {a.cas + op + b.cas, a.gp + op + b.gp};
}

Twin random_twin(flint_rand_t state) {
  static const char* const primes[] = {"2", "3", "17", "65537", "18446744073709551557",
                                       "170141183460469231731687303715884105727"};
  const std::string p = primes[n_randint(state, 6)];
  switch (n_randint(state, 5)) {
    case 0: return random_integer_expression(state, 0);
    case 1: return random_polynomial_expression(state, 0);
    case 2: {  // a polynomial expression reduced mod p
      Twin f = random_polynomial_expression(state, 1);
      return {"lift((" + f.cas + ") mod " + p + ")", "lift(Mod(1, " + p + ") * (" + f.gp + "))"};
    }
    case 3: {  // a rational expression mod a large p
      const std::string q = primes[4 + n_randint(state, 2)];
      Twin r = random_rational_expression(state, 0);
      return {"lift((" + r.cas + ") mod " + q + ")", "lift(Mod(1, " + q + ") * (" + r.gp + "))"};
    }
    default: {  // Z/pZ arithmetic, inverses included
      const std::string a = random_integer_text(state), b = random_integer_text(state);
      const char* op = n_randint(state, 2) ? " / " : (n_randint(state, 2) ? " * " : " - ");
      const std::string e = std::to_string(static_cast<slong>(n_randint(state, 11)) - 5);
      return {"lift(((" + a + " mod " + p + ")" + op + "(" + b + " mod " + p + "))^" + e + ")",
              "lift((Mod(" + a + ", " + p + ")" + op + "Mod(" + b + ", " + p + "))^" + e + ")"};
    }
  }
}

bool gp_available() { return std::system("command -v gp > /dev/null 2>&1") == 0; }

}  // namespace

TEST_CASE("integer, Z[x] and Z/pZ results agree with PARI/GP", "[eval][gp]") {
  if (!gp_available()) {
    WARN("PARI/GP (gp) is not installed: this comparison is skipped");
    return;
  }
  flint_rand_t state;
  flint_randinit(state);
  std::vector<Twin> twins;
  for (int i = 0; i < cas::test::trials(300); i++) twins.push_back(random_twin(state));
  flint_randclear(state);

  char input[] = "/tmp/cas_test_gp_XXXXXX";
  const int fd = mkstemp(input);
  REQUIRE(fd >= 0);
  std::string script;
  for (const Twin& t : twins) script += "print(iferr(" + t.gp + ", E, \"error\"))\n";
  REQUIRE(write(fd, script.data(), script.size()) == static_cast<ssize_t>(script.size()));
  close(fd);
  const std::string output = std::string(input) + ".out";
  REQUIRE(std::system(("gp -q -f -D colors=no < " + std::string(input) + " > " + output + " 2>&1").c_str()) == 0);
  std::ifstream answers(output);
  Session s;
  for (const Twin& t : twins) {
    std::string expected;
    REQUIRE(std::getline(answers, expected));
    INFO("cas: " << t.cas << "\ngp:  " << t.gp);
    std::string actual;
    try {
      actual = s.show(t.cas);
    } catch (const Error&) {
      actual = "error";
    }
    CHECK(actual == expected);
  }
  unlink(input);
  unlink(output.c_str());
}

// A sum of terms c*x^k gathers them in a sparse sum (eval.cpp, PendingSum): each must give what
// the same sum gives evaluated one `+` at a time. Writing a term as c*x^k*1 keeps it out of the
// gathering, so each line below is checked against its own term-by-term form.
TEST_CASE("sums of terms c*x^k: the same values and kinds as term by term", "[eval][values]") {
  auto term_by_term = [](std::string text) {
    for (const std::string& power : {"x^3", "x^2", "x^0", "x "})
      for (size_t at = text.find(power); at != std::string::npos; at = text.find(power, at + power.size() + 2))
        text.insert(at + power.size() - (power == "x " ? 1 : 0), "*1");
    return text;
  };
  for (const std::string text :
       {"x^3 - 2*x + 7", "1 + x - x", "2 - x^3 + x^3", "-x^2 + 3*x + 0*x^3", "x + 1 - 1", "7 + x^0",
        "x^0 + 5 - 4", "(x mod 5) + 3*x^2 + 4", "\"s\" + 3*x^2 + 4", "x^3 + x^3 - 2*x^3",
        "3*x^2 + -4*x^3 - -5", "(2*x^3 + 1) * x^2 + x^3"}) {
    INFO(text << "  against  " << term_by_term(text));
    Session a, b;
    CHECK(a.show(text) == b.show(term_by_term(text)));
    CHECK(a.show("typeof(" + text + ")") == b.show("typeof(" + term_by_term(text) + ")"));
  }
  CHECK(show("typeof(1 + 2 + 3)") == "\"int\"");
  CHECK(show("typeof(x + 1 - x)") == "\"zpoly\"");
  CHECK(show("x = 5; 3*x^2 + 2*x + 1") == "86");                   // x bound to something else
  CHECK(show("fn f(x) { return x^2 + 2*x + 1 }; f(3)") == "16");  // a local x
  CHECK(show("y = x; y^2 + 2*y + 1") == "x^2 + 2*x + 1");         // another name for x
}

TEST_CASE("a printed polynomial reads back as the same polynomial", "[eval][values]") {
  Session s;
  s.eval("seed(17); f = randzpoly(20000, 300) * x^5 + 1; g = -randzpoly(3000, 8)");
  for (const char* name : {"f", "g", "f - g"}) {
    const std::string printed = s.show(name);
    INFO(name);
    s.eval("h = " + printed);
    CHECK(holds(s, "h == " + std::string(name)));
  }
}

TEST_CASE("sums of terms: errors keep their positions", "[eval][errors]") {
  Session s;  // it owns the source the errors' positions point into
  auto e = s.error("x^2 + 3*x + 1.5");
  REQUIRE(e);
  CHECK(e->where().line_column().column == 11);  // the second +
  CHECK_THAT(e->message(), Catch::Contains("not defined between"));
  auto f = s.error("x^2 + 3*x^1099511627776");  // too large to gather: evaluated, and refused at its ^
  REQUIRE(f);
  CHECK(f->where().line_column().column == 10);
  CHECK_THAT(f->message(), Catch::Contains("this power would need about"));
  auto h = s.error("x - x^9223372036854775807");
  REQUIRE(h);
  CHECK(h->where().line_column().column == 6);
  auto g = s.error("x^2 + 3*x^-1");
  REQUIRE(g);
  CHECK_THAT(g->message(), Catch::Contains("negative power"));
}

TEST_CASE("an error's source line is the line it is on, the first line of a longer source included", "[eval][errors]") {
  const cas::Source source{"<test>", "first line\nsecond\n", 1};
  CHECK(cas::Position{&source, 0}.line_text() == "first line");
  CHECK(cas::Position{&source, 4}.line_text() == "first line");
  CHECK(cas::Position{&source, 11}.line_text() == "second");
  CHECK(cas::Position{&source, 10}.line_text() == "first line");  // the newline ends its line
}
