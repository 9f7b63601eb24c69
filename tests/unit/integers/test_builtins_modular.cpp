// The Z/pZ builtins (lift centerlift modulus primroot rootofunity order)
// through the interpreter, against FLINT, the lecture and PARI/GP.
#include "interpreter_support.hpp"

#include "algebra/support/flint_util.hpp"
#include "interpreter/builtins.hpp"

#include <flint/fmpz.h>
#include <flint/ulong_extras.h>

using cas::Fmpz;
using cas::test::error_message;
using cas::test::holds;
using cas::test::Session;
using cas::test::show;
using cas::test::trials;

namespace {

// The multiplicative order of a modulo p by brute force.
ulong order_by_powers(ulong a, ulong p) {
  ulong k = 1, power = a % p;
  while (power != 1) {
    power = n_mulmod2(power, a, p);
    k++;
  }
  return k;
}

}  // namespace

// ---- the lecture's examples -------------------------------------------------------

TEST_CASE("lecture: Z/17Z has primitive root 3, 2 has order 8, rootofunity(8, 17) = 9", "[builtins][modular][lecture]") {
  CHECK(show("primroot(17)") == "3 mod 17");
  CHECK(show("primroot(17) == 3") == "true");
  CHECK(show("order(2 mod 17)") == "8");
  CHECK(show("rootofunity(8, 17)") == "9 mod 17");  // 3^(16/8); PARI: znprimroot(17)^2
  Session s;
  s.eval("w = rootofunity(8, 17)");
  CHECK(s.show("order(w)") == "8");
  CHECK(s.show("w^8") == "1 mod 17");
  CHECK(s.show("w^4") == "16 mod 17");
}

// ---- lift, centerlift, modulus ------------------------------------------------------

TEST_CASE("lift and centerlift of elements, polynomials and vectors", "[builtins][modular]") {
  CHECK(show("lift(16 mod 17)") == "16");
  CHECK(show("centerlift(16 mod 17)") == "-1");
  CHECK(show("centerlift(8 mod 17)") == "8");
  CHECK(show("centerlift(9 mod 17)") == "-8");
  CHECK(show("centerlift(2 mod 4)") == "2");  // PARI: -p/2 < r <= p/2
  CHECK(show("centerlift(7 mod 14)") == "7");
  CHECK(show("lift(-1 mod 2^100)") == "1267650600228229401496703205375");
  CHECK(show("centerlift(-1 mod 2^100)") == "-1");
  CHECK(show("lift((x^2 + 16) mod 17)") == "x^2 + 16");
  CHECK(show("centerlift((x^2 + 16) mod 17)") == "x^2 - 1");
  CHECK(show("lift([1, -1, 0] mod 5)") == "[1, 4, 0]");
  CHECK(show("centerlift([1, -1, 0] mod 5)") == "[1, -1, 0]");
  CHECK(show("centerlift([[3 mod 5, x + 4 mod 5], 7])") == "[[-2, x - 1], 7]");
  CHECK(show("lift(5)") == "5");  // already over Z: unchanged, as PARI
  CHECK(show("lift(x + 1)") == "x + 1");
  CHECK(show("lift(0 mod 7)") == "0");
  CHECK(show("lift(0 * x mod 7)") == "0");
  CHECK(error_message("lift(\"a\")").find("lift: argument 1 must be an element or polynomial over Z/pZ") == 0);
  CHECK(error_message("centerlift(true)").find("centerlift: argument 1") == 0);
}

TEST_CASE("lift and centerlift agree with FLINT's fmpz_mod and fmpz_smod", "[builtins][modular]") {
  flint_rand_t state;
  flint_randinit(state);
  Session s;
  for (int i = 0; i < trials(200); i++) {
    Fmpz a, p, r, c;
    fmpz_randtest(a.get(), state, 150);
    fmpz_randtest_unsigned(p.get(), state, 150);
    fmpz_add_ui(p.get(), p.get(), 2);
    fmpz_mod(r.get(), a.get(), p.get());
    fmpz_smod(c.get(), a.get(), p.get());
    const std::string value = "(" + a.to_string() + " mod " + p.to_string() + ")";
    CHECK(s.show("lift" + value) == r.to_string());
    CHECK(s.show("centerlift" + value) == c.to_string());
    CHECK(holds(s, "centerlift" + value + " mod " + p.to_string() + " == " + value));
  }
  flint_randclear(state);
}

TEST_CASE("modulus of elements, polynomials and vectors over Z/pZ", "[builtins][modular]") {
  CHECK(show("modulus(3 mod 7)") == "7");
  CHECK(show("modulus((x + 1) mod 2^70)") == "1180591620717411303424");
  CHECK(show("modulus([1, 2] mod 5)") == "5");
  CHECK(show("modulus([[1 mod 5], x mod 5])") == "5");
  CHECK(error_message("modulus(3)") == "modulus: argument 1 must be over Z/pZ, not 3");
  CHECK(error_message("modulus([])").find("modulus: the vector's entries must all be over the same Z/pZ") == 0);
  CHECK(error_message("modulus([1 mod 5, 1 mod 7])").find("modulus: the vector's entries") == 0);
}

// ---- primroot, order, rootofunity ------------------------------------------------------

TEST_CASE("primroot: the smallest generator, as PARI's znprimroot", "[builtins][modular]") {
  // PARI/GP: znprimroot(7), (23), (41), (257), (65537), (9), (1000003), (nextprime(2^64)).
  CHECK(show("primroot(7)") == "3 mod 7");
  CHECK(show("primroot(23)") == "5 mod 23");
  CHECK(show("primroot(41)") == "6 mod 41");
  CHECK(show("primroot(257)") == "3 mod 257");
  CHECK(show("primroot(65537)") == "3 mod 65537");
  CHECK(show("primroot(9)") == "2 mod 9");
  // PARI's znprimroot(50) is 27, a generator but not the smallest: 3 has order phi(50) = 20.
  CHECK(show("primroot(50)") == "3 mod 50");
  CHECK(show("order(primroot(50))") == "20");
  CHECK(show("primroot(1000003)") == "2 mod 1000003");
  CHECK(show("primroot(nextprime(2^64))") == "2 mod 18446744073709551629");
  CHECK(show("primroot(2)") == "1 mod 2");
  Session s;
  for (ulong p = 3; p < 2000; p = n_nextprime(p, 1)) {
    ulong g = n_primitive_root_prime(p);  // FLINT's generator need not be the smallest
    INFO("p = " << p);
    s.eval("g = primroot(" + std::to_string(p) + ")");
    CHECK(s.show("order(g)") == std::to_string(p - 1));
    CHECK(holds(s, "ok = true; for h in 1..lift(g) - 1 { ok = ok and order(h mod " + std::to_string(p) + ") < " +
                       std::to_string(p - 1) + " }; ok"));
    CHECK(order_by_powers(g, p) == p - 1);
  }
  CHECK(error_message("primroot(8)") == "primroot: (Z/8Z)* is not cyclic, so it has no generator");
  CHECK(error_message("primroot(1)") == "primroot: argument 1 must be a modulus of at least 2, not 1");
  CHECK(error_message("primroot(3 mod 7)") == "primroot: argument 1 must be an integer, not 3 mod 7");
}

TEST_CASE("order agrees with the order found by repeated multiplication", "[builtins][modular]") {
  CHECK(show("order(3 mod 1000003)") == "333334");  // PARI: znorder(Mod(3, 1000003))
  CHECK(show("order(1 mod 5)") == "1");
  CHECK(show("order(-1 mod 2^100 + 277)") == "2");
  Session s;
  for (ulong p : {7ul, 15ul, 17ul, 97ul, 100ul, 101ul, 1024ul}) {
    for (ulong a = 1; a < p; a++) {
      if (n_gcd(a, p) != 1) continue;
      CHECK(s.show("order(" + std::to_string(a) + " mod " + std::to_string(p) + ")") ==
            std::to_string(order_by_powers(a, p)));
    }
  }
  CHECK(error_message("order(2 mod 4)") == "order: 2 mod 4 is not invertible, so it has no multiplicative order");
  CHECK(error_message("order(0 mod 5)") == "order: 0 mod 5 is not invertible, so it has no multiplicative order");
  CHECK(error_message("order(2)") == "order: argument 1 must be an element of Z/pZ, like 2 mod 17, not 2");
}

TEST_CASE("rootofunity(n, p) is a primitive n-th root, primroot(p)^((p-1)/n)", "[builtins][modular]") {
  Session s;
  for (ulong p = 3; p < 400; p = n_nextprime(p, 1)) {
    for (ulong n = 1; n < p; n++) {
      if ((p - 1) % n) continue;
      const std::string call = "rootofunity(" + std::to_string(n) + ", " + std::to_string(p) + ")";
      CHECK(s.show("order(" + call + ")") == std::to_string(n));
      CHECK(holds(s, call + " == primroot(" + std::to_string(p) + ")^(" + std::to_string((p - 1) / n) + ")"));
    }
  }
  CHECK(show("rootofunity(2, nextprime(2^64))") == "18446744073709551628 mod 18446744073709551629");  // PARI
  CHECK(show("rootofunity(2^16, 65537)") == "3 mod 65537");
  CHECK(error_message("rootofunity(5, 17)") ==
        "rootofunity: 5 does not divide p - 1 = 16, so Z/17Z has no primitive 5-th root of unity");
  CHECK(error_message("rootofunity(2, 15)") == "rootofunity: 15 is not prime");
  CHECK(error_message("rootofunity(0, 17)") == "rootofunity: the order must be positive, not 0");
  CHECK(error_message("rootofunity(2, 1)") == "rootofunity: argument 2 must be a modulus of at least 2, not 1");
}

TEST_CASE("every Z/pZ builtin has help text", "[builtins][modular]") {
  for (const char* name : {"lift", "centerlift", "modulus", "primroot", "rootofunity", "order"}) {
    const cas::Builtin* b = cas::builtins().find(name);
    REQUIRE(b != nullptr);
    CHECK(b->help.rfind(std::string(name) + "(", 0) == 0);
  }
}
