// The integer builtins (gcd lcm xgcd powmod invmod isprime nextprime factor
// crt binomial) through the interpreter, against FLINT computed directly, the
// lecture's worked examples, and values from PARI/GP.
#include "interpreter_support.hpp"

#include "algebra/support/flint_util.hpp"
#include "interpreter/builtins.hpp"

#include <flint/fmpz.h>
#include <flint/ulong_extras.h>

using cas::Fmpz;
using cas::fmpz_to_string;
using cas::test::error_message;
using cas::test::holds;
using cas::test::Session;
using cas::test::show;
using cas::test::trials;

namespace {

// FLINT's random integers for the trials: a fixed seed, so failures repeat.
struct Random {
  flint_rand_t state;
  Random() { flint_randinit(state); }
  ~Random() { flint_randclear(state); }
  Fmpz integer(flint_bitcnt_t bits) {
    Fmpz z;
    fmpz_randtest(z.get(), state, bits);
    return z;
  }
  Fmpz positive(flint_bitcnt_t bits) {
    Fmpz z;
    fmpz_randtest_not_zero(z.get(), state, bits);
    fmpz_abs(z.get(), z.get());
    return z;
  }
};

std::string str(const Fmpz& z) { return z.to_string(); }

}  // namespace

// ---- the lecture's examples -------------------------------------------------------

TEST_CASE("lecture: CRT of residues (2, 0, 8) modulo (3, 7, 11) is 140", "[builtins][integer][lecture]") {
  CHECK(show("crt([2, 0, 8], [3, 7, 11])") == "140");
  CHECK(show("crt([2 mod 3, 0 mod 7, 8 mod 11])") == "140");
}

TEST_CASE("lecture: toy RSA with n = 7 * 11 = 77, e = 13", "[builtins][integer][lecture]") {
  Session s;
  s.eval("n = 7 * 11; e = 13; d = invmod(e, (7 - 1) * (11 - 1))");
  CHECK(s.show("d") == "37");
  CHECK(s.show("c = powmod(15, e, n)") == "64");
  CHECK(s.show("powmod(c, d, n)") == "15");
  // Every message survives the round trip.
  CHECK(holds(s, "ok = true; for m in 0..76 { ok = ok and powmod(powmod(m, e, n), d, n) == m }; ok"));
}

// ---- gcd, lcm, xgcd ------------------------------------------------------------------

TEST_CASE("gcd and lcm of integers agree with FLINT", "[builtins][integer]") {
  CHECK(show("gcd(12, 18)") == "6");
  CHECK(show("gcd(-12, 18)") == "6");
  CHECK(show("gcd(0, 0)") == "0");
  CHECK(show("gcd(0, -5)") == "5");
  CHECK(show("lcm(4, 6)") == "12");
  CHECK(show("lcm(-4, 6)") == "12");
  CHECK(show("lcm(0, 6)") == "0");
  Random r;
  Session s;
  for (int i = 0; i < trials(200); i++) {
    Fmpz a = r.integer(200), b = r.integer(200), g, l;
    // Shared factors, so that the gcd is not usually 1.
    Fmpz common = r.integer(60);
    fmpz_mul(a.get(), a.get(), common.get());
    fmpz_mul(b.get(), b.get(), common.get());
    fmpz_gcd(g.get(), a.get(), b.get());
    fmpz_lcm(l.get(), a.get(), b.get());
    CHECK(s.show("gcd(" + str(a) + ", " + str(b) + ")") == str(g));
    CHECK(s.show("lcm(" + str(a) + ", " + str(b) + ")") == str(l));
  }
}

// PARI's gcd(v) and lcm(v), and more than two arguments, folded pairwise; the values from PARI/GP.
TEST_CASE("gcd and lcm of a vector's entries or of several arguments", "[builtins][integer]") {
  CHECK(show("gcd([4, 6, 8])") == "2");
  CHECK(show("gcd(12, 18, 24)") == "6");
  CHECK(show("lcm([4, 6, 10])") == "60");
  CHECK(show("lcm(4, 6, 10)") == "60");
  CHECK(show("gcd([])") == "0");
  CHECK(show("lcm([])") == "1");
  CHECK(show("gcd([-4])") == "4");
  CHECK(show("lcm([-4])") == "4");
  CHECK(show("gcd(x^2 - 1, x^3 - 1, x^2 - 2*x + 1)") == "x - 1");
  CHECK(show("gcd([x^2 - 1 mod 7, x - 1])") == "(x + 6) mod 7");
  CHECK(show("lcm(2, 3, x)") == "6*x");
  Random r;
  Session s;
  for (int i = 0; i < trials(100); i++) {
    Fmpz g, l;
    std::string entries;
    fmpz_one(l.get());
    for (int k = 0; k < 4; k++) {
      Fmpz e = r.integer(100), common(slong{12});
      fmpz_mul(e.get(), e.get(), common.get());
      fmpz_gcd(g.get(), g.get(), e.get());
      fmpz_lcm(l.get(), l.get(), e.get());
      entries += (k ? ", " : "") + str(e);
    }
    CHECK(s.show("gcd([" + entries + "])") == str(g));
    CHECK(s.show("gcd(" + entries + ")") == str(g));
    CHECK(s.show("lcm([" + entries + "])") == str(l));
  }
  CHECK(error_message("gcd(5)") == "gcd: needs a vector, or two or more integers or polynomials, not 5 alone");
  CHECK(error_message("gcd([1, \"a\"])") == "gcd: needs two integers or two polynomials, not 1 and \"a\"");
  CHECK(error_message("gcd()").find("gcd() takes at least 1 argument") == 0);
}

TEST_CASE("xgcd of integers: [g, s, t] with g = s*a + t*b", "[builtins][integer]") {
  CHECK(show("xgcd(240, 46)") == "[2, -9, 47]");
  CHECK(show("xgcd(0, 0)") == "[0, 0, 0]");
  // The smallest cofactors, as PARI/GP's gcdext gives them ([s, t, g] there).
  CHECK(show("xgcd(12, 18)") == "[6, -1, 1]");
  CHECK(show("xgcd(-12, 18)") == "[6, 1, 1]");
  CHECK(show("xgcd(12, -18)") == "[6, -1, -1]");
  CHECK(show("xgcd(0, 5)") == "[5, 0, 1]");
  CHECK(show("xgcd(-5, 0)") == "[5, -1, 0]");
  CHECK(show("xgcd(7, 7)") == "[7, 0, 1]");
  CHECK(show("xgcd(6, 3)") == "[3, 0, 1]");
  CHECK(show("xgcd(3, 6)") == "[3, 1, 0]");
  CHECK(show("xgcd(10^30 + 1, 2^80)") == "[1, -56506301120538055016447, 46740916773992502442069135673]");
  Random r;
  Session s;
  for (int i = 0; i < trials(200); i++) {
    Fmpz a = r.integer(150), b = r.integer(150), g;
    fmpz_gcd(g.get(), a.get(), b.get());
    s.eval("a = " + str(a) + "; b = " + str(b) + "; v = xgcd(a, b)");
    CHECK(s.show("v[0]") == str(g));
    CHECK(holds(s, "v[0] == v[1]*a + v[2]*b"));
    Fmpz cofactor, bound;  // the smallest cofactors: 2 g |s| <= |b|, or |s| <= 1
    fmpz_set_str(cofactor.get(), s.show("v[1]").c_str(), 10);
    fmpz_abs(cofactor.get(), cofactor.get());
    fmpz_mul(bound.get(), cofactor.get(), g.get());
    fmpz_mul_2exp(bound.get(), bound.get(), 1);
    CHECK((fmpz_cmpabs(bound.get(), b.get()) <= 0 || fmpz_cmp_ui(cofactor.get(), 1) <= 0));
  }
}

// gcd refused two elements of Z/pZ that resultant took; over a field, nonzero constants have gcd 1.
TEST_CASE("gcd, lcm and xgcd take elements of Z/pZ as constant polynomials", "[builtins][integer]") {
  CHECK(show("gcd(2 mod 7, 3 mod 7)") == "1 mod 7");
  CHECK(show("gcd(2 mod 7, 3)") == "1 mod 7");
  CHECK(show("gcd(0 mod 7, 3 mod 7)") == "1 mod 7");
  CHECK(show("gcd(0 mod 7, 0 mod 7)") == "0 mod 7");
  CHECK(show("gcd(2 mod 7, 3 mod 7) == gcd(2 mod 7, x + 3 mod 7)") == "true");
  CHECK(show("lcm(2 mod 7, 3 mod 7)") == "1 mod 7");
  CHECK(show("lcm(0 mod 7, 3 mod 7)") == "0 mod 7");
  CHECK(show("xgcd(2 mod 7, 3 mod 7)") == "[1, 0, 5] mod 7");
  CHECK(show("resultant(2 mod 7, 3 mod 7)") == "1 mod 7");
  CHECK(error_message("gcd(2 mod 6, 3 mod 6)") == "gcd needs a field, but 6 is not prime (2 mod 6 is not invertible)");
  CHECK(error_message("lcm(2 mod 7, 3 mod 11)") == "lcm: cannot mix Z/7Z and Z/11Z");
}

TEST_CASE("gcd, lcm and xgcd errors name the arguments", "[builtins][integer][errors]") {
  CHECK(error_message("gcd(\"a\", [1])") == "gcd: needs two integers or two polynomials, not \"a\" and a vector of length 1");
  CHECK(error_message("lcm(\"a\", 3)").find("lcm: needs two integers or two polynomials") == 0);
  CHECK(error_message("xgcd([1], 3)").find("xgcd: needs two integers or two polynomials") == 0);
  CHECK(error_message("gcd(1)").find("gcd: needs a vector") == 0);
}

// ---- powmod, invmod ------------------------------------------------------------------

TEST_CASE("powmod of integers agrees with fmpz_powm", "[builtins][integer]") {
  CHECK(show("powmod(2, 10, 1000)") == "24");
  CHECK(show("powmod(-2, 3, 7)") == "6");
  CHECK(show("powmod(3, -1, 7)") == "5");
  CHECK(show("powmod(5, 0, 1)") == "0");
  CHECK(show("powmod(0, 0, 7)") == "1");
  Random r;
  Session s;
  for (int i = 0; i < trials(200); i++) {
    Fmpz a = r.integer(300), e = r.positive(100), m = r.positive(300), base, x;
    fmpz_mod(base.get(), a.get(), m.get());
    fmpz_powm(x.get(), base.get(), e.get(), m.get());
    CHECK(s.show("powmod(" + str(a) + ", " + str(e) + ", " + str(m) + ")") == str(x));
  }
}

TEST_CASE("invmod inverts modulo m and names the value it cannot invert", "[builtins][integer]") {
  CHECK(show("invmod(13, 60)") == "37");
  CHECK(show("invmod(-1, 7)") == "6");
  Random r;
  Session s;
  for (int i = 0; i < trials(200); i++) {
    Fmpz a = r.integer(200), m = r.positive(200);
    fmpz_add_ui(m.get(), m.get(), 1);
    Fmpz g;
    fmpz_gcd(g.get(), a.get(), m.get());
    std::string call = "invmod(" + str(a) + ", " + str(m) + ")";
    if (fmpz_is_one(g.get()))
      CHECK(holds(s, "(" + call + " * " + str(a) + ") % " + str(m) + " == 1 % " + str(m)));
    else
      CHECK(s.error(call).has_value());
  }
  CHECK(error_message("invmod(2, 4)") == "invmod: 2 mod 4 is not invertible");
  CHECK(error_message("invmod(10, 4)") == "invmod: 2 mod 4 is not invertible");
  CHECK(error_message("invmod(3, 1)") == "invmod: the modulus must be at least 2, not 1");
  CHECK(error_message("powmod(2, -1, 4)") == "powmod: 2 mod 4 is not invertible, so it has no negative powers");
  CHECK(error_message("powmod(2, 3, 0)") == "powmod: the modulus must be positive, not 0");
  CHECK(error_message("powmod(2, 3 mod 5, 7)") == "powmod: argument 2 must be an integer, not 3 mod 5");
}

// ---- primes -------------------------------------------------------------------------

TEST_CASE("isprime and nextprime agree with FLINT's n_is_prime", "[builtins][integer]") {
  Session s;
  for (long n = -5; n < 600; n++) {
    bool prime = n >= 2 && n_is_prime(static_cast<ulong>(n));
    CHECK(s.show("isprime(" + std::to_string(n) + ")") == (prime ? "true" : "false"));
    ulong next = n < 2 ? 2 : n_nextprime(static_cast<ulong>(n), 1);
    CHECK(s.show("nextprime(" + std::to_string(n) + ")") == std::to_string(next));
  }
  CHECK(show("isprime(2^127 - 1)") == "true");
  CHECK(show("isprime(2^128 + 1)") == "false");
  CHECK(show("nextprime(10^20 + 1)") == "100000000000000000039");  // PARI/GP
  CHECK(error_message("isprime(x)") == "isprime: argument 1 must be an integer, not x");
}

// ---- factor -------------------------------------------------------------------------

TEST_CASE("factor of integers: primes ascending, the sign as [-1, 1] (as PARI)", "[builtins][integer]") {
  CHECK(show("factor(-12)") == "[[-1, 1], [2, 2], [3, 1]]");
  CHECK(show("factor(1)") == "[]");
  CHECK(show("factor(-1)") == "[[-1, 1]]");
  CHECK(show("factor(97)") == "[[97, 1]]");
  CHECK(show("factor(2^64 + 1)") == "[[274177, 1], [67280421310721, 1]]");  // PARI/GP
  CHECK(error_message("factor(0)") == "factor: 0 has no factorisation");
  CHECK(error_message("factor([6])") == "factor: argument 1 must be an integer or a polynomial, not a vector of length 1");
  Random r;
  Session s;
  for (int i = 0; i < trials(100); i++) {
    Fmpz n = r.integer(90);
    if (fmpz_is_zero(n.get())) continue;
    INFO("n = " << str(n));
    s.eval("n = " + str(n) + "; f = factor(n); p = 1; ok = true");
    s.eval("for e in f { p = p * e[0]^e[1]; ok = ok and e[1] > 0 and (e[0] == -1 or isprime(e[0])) }");
    CHECK(holds(s, "ok and p == n"));
    CHECK(holds(s, "sorted = true; for i in 1..len(f)-1 { sorted = sorted and f[i-1][0] < f[i][0] }; sorted"));
  }
}

// ---- crt ---------------------------------------------------------------------------

TEST_CASE("crt: the solution in 0..lcm-1 satisfies every congruence", "[builtins][integer]") {
  CHECK(show("crt([], [])") == "0");
  CHECK(show("crt([3], [7])") == "3");
  CHECK(show("crt([-1], [7])") == "6");
  CHECK(show("crt([1, 3], [4, 6])") == "9");  // not coprime, but consistent
  Random r;
  Session s;
  for (int i = 0; i < trials(100); i++) {
    std::string residues, moduli;
    Fmpz p = r.positive(40);
    for (int k = 0; k < 4; k++) {
      // Increasing primes are coprime; the residues are any integers.
      Fmpz start = r.positive(40);
      fmpz_add(start.get(), start.get(), p.get());
      fmpz_nextprime(p.get(), start.get(), 0);
      residues += (k ? ", " : "") + str(r.integer(60));
      moduli += (k ? ", " : "") + str(p);
    }
    s.eval("rs = [" + residues + "]; ms = [" + moduli + "]; c = crt(rs, ms); M = 1");
    CHECK(holds(s, "ok = true; for i in 0..3 { ok = ok and (c - rs[i]) % ms[i] == 0; M = lcm(M, ms[i]) }; ok"));
    CHECK(holds(s, "c >= 0 and c < M"));
  }
}

TEST_CASE("crt errors", "[builtins][integer][errors]") {
  CHECK(error_message("crt([1, 2], [4, 6])") == "crt: the residues are inconsistent (2 mod 6 contradicts the earlier ones)");
  CHECK(error_message("crt([1, 2], [3])") == "crt: 2 residues but 1 moduli");
  CHECK(error_message("crt([1], [0])") == "crt: the moduli must be positive, not 0");
  CHECK(error_message("crt([1 mod 5], [7])") == "crt: residue 1 is 1 mod 5, but its modulus is given as 7");
  CHECK(error_message("crt([1, 2])") == "crt: residue 1 is 1, with no modulus: give the moduli as a second argument");
  CHECK(error_message("crt([1], [x])") == "crt: the moduli must be integers, not x");
  CHECK(error_message("crt(1, [2])") == "crt: argument 1 must be a vector, not 1");
}

// ---- binomial -----------------------------------------------------------------------

TEST_CASE("binomial agrees with fmpz_bin_uiui and extends to negative n as PARI", "[builtins][integer]") {
  Session s;
  for (ulong n = 0; n < 40; n++)
    for (ulong k = 0; k <= n + 2; k++) {
      Fmpz b;
      fmpz_bin_uiui(b.get(), n, k);
      CHECK(s.show("binomial(" + std::to_string(n) + ", " + std::to_string(k) + ")") == str(b));
    }
  CHECK(show("binomial(100, 50)") == "100891344545564193334812497256");  // PARI/GP
  CHECK(show("binomial(-3, 2)") == "6");                                 // PARI/GP
  CHECK(show("binomial(-7, 3)") == "-84");                               // PARI/GP
  CHECK(show("binomial(5, -1)") == "0");
  CHECK(show("binomial(10^30, 2)") == "499999999999999999999999999999500000000000000000000000000000");
  CHECK(show("binomial(10^30, 10^30 - 1)") == "1000000000000000000000000000000");  // by symmetry
  CHECK(show("binomial(-10^30, 1)") == "-1000000000000000000000000000000");
}

// GMP's binomial took 35 s for binomial(2^63, 3*10^5) and over a minute for
// binomial(-953598, 2^63) = binomial(2^63 + 953597, 953597); the rising factorial takes a second.
// The values check the rising-factorial route on such inputs; its speed is not timed here (tests
// are not benchmarks).
TEST_CASE("binomial with n far above k takes the rising factorial", "[builtins][integer]") {
  CHECK(show("binomial(2^63, 3*10^5) % 1000000007") == "485267555");           // PARI/GP
  CHECK(show("binomial(2^40, 10^5) % 1000000007") == "340517568");             // PARI/GP
  CHECK(show("binomial(-953598, 2^63) % 1000000007") == "872865916");          // PARI/GP, by symmetry
  CHECK(show("binomial(4*10^6, 2*10^6) % 1000000007") == "303317497");        // PARI/GP; GMP's route
}

TEST_CASE("binomial refuses results too large for memory", "[builtins][integer][errors]") {
  CHECK(error_message("binomial(10^30, 10^20)").find("this binomial would need about") == 0);
  CHECK(error_message("binomial(2^62, 2^61)").find("this binomial would need about") == 0);
}

// ---- help ---------------------------------------------------------------------------

TEST_CASE("every integer builtin has help text", "[builtins][integer]") {
  for (const char* name : {"gcd", "lcm", "xgcd", "powmod", "invmod", "isprime", "nextprime", "factor", "crt", "binomial"}) {
    const cas::Builtin* b = cas::builtins().find(name);
    REQUIRE(b != nullptr);
    CHECK(b->help.rfind(std::string(name) + "(", 0) == 0);
  }
}

TEST_CASE("abs and factorial", "[builtins][integer]") {
  CHECK(show("abs(-3)") == "3");
  CHECK(show("abs(7)") == "7");
  CHECK(show("abs(-10^30)") == "1000000000000000000000000000000");
  CHECK(show("abs(-1.5)") == "1.5");
  CHECK(error_message("abs(x)") == "abs: argument 1 must be an integer, not x");
  CHECK(error_message("abs(3 mod 7)") == "abs: argument 1 must be an integer, not 3 mod 7");  // no order on Z/pZ
  CHECK(show("factorial(0)") == "1");
  CHECK(show("factorial(20)") == "2432902008176640000");  // PARI/GP 20!
  CHECK(show("factorial(100) % 1000000007") == "437918130");  // PARI/GP 100! % (10^9 + 7)
  CHECK(show("factorial(30) == binomial(30, 15) * factorial(15)^2") == "true");
  CHECK(error_message("factorial(-1)") == "factorial: n must be at least 0, not -1");
  CHECK_THAT(error_message("factorial(2^70)"), Catch::Contains("this factorial would need about"));
}
