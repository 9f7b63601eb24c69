// Printed forms and their round-trip contract: every printed value is valid
// input that evaluates to an equal value.
#include "algebra/values/arith.hpp"
#include "algebra/values/format.hpp"
#include "interpreter/repl.hpp"
#include "flint_support.hpp"
#include "interpreter_support.hpp"

#include <flint/fmpz_poly.h>
#include <flint/ulong_extras.h>

#include <string>
#include <vector>

using cas::Fmpz;
using cas::Kind;
using cas::ModulusPtr;
using cas::Value;
using cas::ZPoly;
using cas::test::Random;
using cas::test::Session;
using cas::test::show;

TEST_CASE("printed forms are exactly those of the spec", "[format]") {
  CHECK(show("16 mod 17") == "16 mod 17");
  CHECK(show("-1 mod 17") == "16 mod 17");
  CHECK(show("3*x^4 - 4*x^2") == "3*x^4 - 4*x^2");
  CHECK(show("f = 3*x^4 - 4*x^2; f^5 mod 5") == "(3*x^20 + x^10) mod 5");
  CHECK(show("-x") == "-x");
  CHECK(show("x^2 - 1 mod 17") == "(x^2 + 16) mod 17");
  CHECK(show("[1, 2, 1, 2, 1, 2, 1, 2] * 0 + [12, 0, 0, 0, 13, 0, 0, 0] mod 17") == "[12, 0, 0, 0, 13, 0, 0, 0] mod 17");
  CHECK(show("[12, 0, 0, 0, -4, 0, 0, 0] mod 17") == "[12, 0, 0, 0, 13, 0, 0, 0] mod 17");
  CHECK(show("true") == "true");
  CHECK(show("false") == "false");
  CHECK(show("1 < 2") == "true");
}

TEST_CASE("polynomials print in descending degree with unit coefficients omitted", "[format]") {
  CHECK(show("x") == "x");
  CHECK(show("x^2") == "x^2");
  CHECK(show("1 - x") == "-x + 1");
  CHECK(show("x - 1") == "x - 1");
  CHECK(show("-2*x^3 - x") == "-2*x^3 - x");
  CHECK(show("x^3 + x^2 + x + 1") == "x^3 + x^2 + x + 1");
  CHECK(show("-x^5 + 10^30*x") == "-x^5 + 1000000000000000000000000000000*x");
  CHECK(show("x - x") == "0");
  CHECK(show("0*x + 7") == "7");
  CHECK(show("x mod 17") == "x mod 17");
  CHECK(show("3*x^2 mod 17") == "3*x^2 mod 17");
  CHECK(show("-x mod 17") == "16*x mod 17");
  CHECK(show("x - x mod 17") == "0 mod 17");
  CHECK(show("(x + 1 mod 2)^2") == "(x^2 + 1) mod 2");
}

TEST_CASE("vectors, strings and nested vectors over Z/pZ", "[format]") {
  CHECK(show("[]") == "[]");
  CHECK(show("[1, -2, [3, []]]") == "[1, -2, [3, []]]");
  CHECK(show("[[1, 2], [3, 4]] mod 5") == "[[1, 2], [3, 4]] mod 5");
  CHECK(show("[x + 1, 2] mod 3") == "[x + 1, 2] mod 3");
  CHECK(show("[1 mod 3, 1 mod 5]") == "[1 mod 3, 1 mod 5]");  // no common modulus
  CHECK(show("[1 mod 3, 2]") == "[1 mod 3, 2]");
  CHECK(show("[true, \"a\"]") == "[true, \"a\"]");
  CHECK(show("\"say \\\"hi\\\"\"") == "\"say \\\"hi\\\"\"");
}

namespace {

// `inner` wrapped in `depth` pairs of brackets.
Value nested(Value inner, int depth) {
  for (int i = 0; i < depth; i++) inner = Value::vec({std::move(inner)});
  return inner;
}

std::string brackets(const std::string& inner, int depth) {
  return std::string(static_cast<size_t>(depth), '[') + inner + std::string(static_cast<size_t>(depth), ']');
}

}  // namespace

// Each vector's common modulus is found once (printing was quadratic in the depth); the printed
// form must not change: the outermost vector over one Z/pZ says `mod p`, the entries are lifted.
TEST_CASE("nested vectors over Z/pZ print their modulus once, at the outermost level over it", "[format]") {
  CHECK(show("[[[1 mod 7], [2 mod 7]], [[x mod 7]]]") == "[[[1], [2]], [[x]]] mod 7");
  CHECK(show("[[[1 mod 7], [2 mod 11]], [[x mod 7], 3]]") == "[[[1] mod 7, [2] mod 11], [[x] mod 7, 3]]");
  CHECK(show("[[1 mod 7, [2 mod 7]], [[3 mod 5]], 4]") == "[[1, [2]] mod 7, [[3]] mod 5, 4]");
  CHECK(show("[[], [1 mod 7]]") == "[[], [1] mod 7]");  // [] has no modulus, so none is common
  CHECK(show("[[(x + 1) mod 7, 2 mod 7], [[3 mod 7]]]") == "[[x + 1, 2], [[3]]] mod 7");

  const ModulusPtr m7 = cas::make_modulus(7), m11 = cas::make_modulus(11);
  Fmpz three(3), four(4);
  const int depth = 300;
  const Value deep = nested(Value::mod(three.get(), m7), depth);
  CHECK(cas::format(deep) == brackets("3", depth) + " mod 7");
  // Mixed at the top: each branch keeps its own modulus, however deep.
  const Value mixed = Value::vec({deep, nested(Value::mod(four.get(), m11), depth), nested(Value::integer(slong{5}), depth)});
  CHECK(cas::format(mixed) == "[" + brackets("3", depth) + " mod 7, " + brackets("4", depth) + " mod 11, " +
                                  brackets("5", depth) + "]");
  // Mixed at the bottom: no level has a common modulus.
  const Value bottom = nested(Value::vec({Value::mod(three.get(), m7), Value::mod(four.get(), m11)}), depth);
  CHECK(cas::format(bottom) == brackets("3 mod 7, 4 mod 11", depth + 1));
}

// Only error messages abbreviate: a result is printed whole.
TEST_CASE("long numbers are abbreviated in error messages, never in results", "[format][errors]") {
  const std::string digits_200(200, '7'), digits_201 = "1" + std::string(199, '0') + "9";
  CHECK(cas::abbreviate_numbers("index " + digits_200 + " is out of range") ==
        "index " + digits_200 + " is out of range");
  CHECK(cas::abbreviate_numbers("index " + digits_201 + " is out of range") ==
        "index 10000000000000000000...00000000000000000009 (201 digits) is out of range");
  CHECK(cas::abbreviate_numbers("-" + digits_201 + " mod 7") ==
        "-10000000000000000000...00000000000000000009 (201 digits) mod 7");
  CHECK(cas::abbreviate_numbers("") == "");

  Session s;
  s.eval("h = 2^2^2^2^2");  // 2^65536, 19729 digits
  CHECK(s.show("h").size() == 19729);
  CHECK(s.show("h mod (h + 1)").size() == 19729 + 5 + 19729);
  const std::string h = "20035299304068464649...45587895905719156736 (19729 digits)";
  CHECK(s.error("[1, 2][h]")->message() ==
        "index " + h + " is out of range for a vector of length 2 (indices start at 0)");
  CHECK(s.error("not h")->message() == "'not' needs true or false, not " + h);
  CHECK(s.error("invmod(h, 2*h)")->message() ==
        "invmod: " + h + " mod 40070598608136929299...91175791811438313472 (19729 digits) is not invertible");
  // A vector or polynomial quoted by assert is elided as well.
  CHECK(s.error("assert(false, [h, 1, 2, 3, 4, 5, 6, 7, 8, 9])")->message() ==
        "assertion failed: [" + h + ", 1, ... 6 more entries ..., 8, 9]");
  CHECK(s.error("assert(false, h*x^9 + x)")->message() == "assertion failed: " + h + "*x^9 + x");
}

// ---- the round trip ------------------------------------------------------------------

namespace {

ModulusPtr random_modulus(flint_rand_t state) {
  Fmpz p;
  if (n_randint(state, 2)) {
    fmpz_set_ui(p.get(), n_randtest_not_zero(state));
    if (fmpz_cmp_ui(p.get(), 2) < 0) fmpz_set_ui(p.get(), 2);
  } else {
    fmpz_randtest_unsigned(p.get(), state, 200);
    fmpz_add_ui(p.get(), p.get(), 2);
  }
  return cas::make_modulus(p.get());
}

Value random_int(flint_rand_t state) {
  Fmpz z;
  fmpz_randtest(z.get(), state, 1 + n_randint(state, 200));
  return Value::integer(std::move(z));
}

Value random_zpoly(flint_rand_t state) {
  ZPoly f;
  fmpz_poly_randtest(f.get(), state, n_randint(state, 12), 1 + n_randint(state, 100));
  return Value::zpoly(std::move(f));
}

std::string random_text(flint_rand_t state) {
  const char alphabet[] = "abc XYZ09\"\\\n\t#;{}[]()+-*/%=.'";
  std::string s;
  const ulong length = n_randint(state, 12);
  for (ulong i = 0; i < length; i++) s += alphabet[n_randint(state, sizeof alphabet - 1)];
  return s;
}

// A random value of any kind a user can print and read back; vectors nest.
Value random_value(flint_rand_t state, int depth = 0) {
  switch (n_randint(state, depth < 2 ? 9 : 7)) {
    case 0: return random_int(state);
    case 1: return Value::boolean(n_randint(state, 2));
    case 2: return Value::str(random_text(state));
    case 3: return random_zpoly(state);
    case 4: return cas::reduce_mod(random_int(state), Value::integer(random_modulus(state)->value()));
    case 5:
    case 6: return cas::reduce_mod(random_zpoly(state), Value::integer(random_modulus(state)->value()));
    case 7: {  // a vector over Z/pZ, possibly nested: printed as [...] mod p
      Value p = Value::integer(random_modulus(state)->value());
      std::vector<Value> items;
      for (ulong i = n_randint(state, 6); i > 0; i--)
        items.push_back(n_randint(state, 4) ? (n_randint(state, 2) ? random_int(state) : random_zpoly(state))
                                            : Value::vec({random_int(state), random_zpoly(state)}));
      return cas::reduce_mod(Value::vec(std::move(items)), p);
    }
    default: {  // a vector of anything
      std::vector<Value> items;
      for (ulong i = n_randint(state, 5); i > 0; i--) items.push_back(random_value(state, depth + 1));
      return Value::vec(std::move(items));
    }
  }
}

}  // namespace

TEST_CASE("every printed value reads back as an equal value", "[format][roundtrip]") {
  Random r;
  Session s;
  for (int i = 0; i < cas::test::trials(2000); i++) {
    Value v = random_value(r.state);
    const std::string printed = cas::format(v);
    INFO("printed: " << printed);
    Value back;
    REQUIRE_NOTHROW(back = s.eval(printed));
    CHECK(cas::equal_values(back, v));
    CHECK(cas::format(back) == printed);  // the printed form is canonical
  }
}

TEST_CASE("printed values read back for word-size and multi-word moduli at the edges", "[format][roundtrip]") {
  Session s;
  for (const char* p : {"2", "3", "18446744073709551615", "18446744073709551616", "170141183460469231731687303715884105727",
                        "1180591620717411303425"}) {
    for (const char* body : {"0", "1", "-1", "x", "-x^3 + 5*x - 1", "[1, -1, [x, 0]]"}) {
      const std::string source = std::string("(") + body + ") mod " + p;
      INFO(source);
      Value v = s.eval(source);
      Value back = s.eval(cas::format(v));
      CHECK(cas::equal_values(back, v));
      CHECK(cas::format(back) == cas::format(v));
    }
  }
}

// ---- eliding long values (the REPL) ----------------------------------------------------

namespace {

cas::FormatOptions repl_options() {
  cas::FormatOptions o;
  o.elide_above = 50;
  return o;
}

// 1 + x + ... + x^(n-1): n terms.
Value all_ones(slong n) {
  ZPoly f;
  fmpz_poly_fit_length(f.get(), n);
  for (slong i = 0; i < n; i++) fmpz_poly_set_coeff_ui(f.get(), i, 1);
  return Value::zpoly(std::move(f));
}

}  // namespace

TEST_CASE("the REPL elides values with more than 50 terms or entries", "[format][elide]") {
  Value big = all_ones(1000000);
  const std::string elided = cas::format(big, repl_options());
  CHECK(elided ==
        "x^999999 + x^999998 + x^999997 + x^999996 + x^999995 + ... 999990 more terms ... + x^4 + x^3 + x^2 + x + 1");
  const std::string full = cas::format(big);  // print and scripts show everything
  CHECK(full.find("...") == std::string::npos);
  CHECK(full.size() > 1000000 * 4);

  Value big_mod = cas::reduce_mod(big, Value::integer(17));
  CHECK(cas::format(big_mod, repl_options()) ==
        "(x^999999 + x^999998 + x^999997 + x^999996 + x^999995 + ... 999990 more terms ... + x^4 + x^3 + x^2 + x + "
        "1) mod 17");

  std::vector<Value> entries(1000000, Value::integer(7));
  CHECK(cas::format(Value::vec(entries), repl_options()) == "[7, 7, 7, 7, 7, ... 999990 more entries ..., 7, 7, 7, 7, 7]");

  // At the threshold nothing is elided; one more and it is.
  CHECK(cas::format(all_ones(50), repl_options()).find("...") == std::string::npos);
  CHECK(cas::format(all_ones(51), repl_options()).find("... 41 more terms ...") != std::string::npos);
  std::vector<Value> fifty(50, Value::integer(slong{0}));
  CHECK(cas::format(Value::vec(fifty), repl_options()).find("...") == std::string::npos);
}

TEST_CASE("the REPL prints a 10^6-term polynomial elided and keeps it whole in ans", "[format][elide]") {
  Session s;
  Value f = s.eval("f = (x^(10^6) - 1) / (x - 1)");
  std::ostringstream shown;
  cas::show_repl_value(s.interp, f, shown);
  CHECK(shown.str().find("... 999990 more terms ...") != std::string::npos);
  CHECK(shown.str().size() < 200);
  CHECK(s.show("ans == f") == "true");
  CHECK(s.show("print(f)").empty());
  CHECK(s.out.str().size() > 1000000 * 4);  // print shows everything
}
