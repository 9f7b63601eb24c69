// Integer vectors to and from Z[x] on the cores (algebra/values/integer_vectors.hpp), and vectors whose
// integers are freed on the cores (Value::vec_made_on_cores), against serial FLINT.
#include "algebra/values/arith.hpp"
#include "algebra/values/integer_vectors.hpp"
#include "flint_support.hpp"

#include <flint/fmpz_poly.h>

namespace {

using cas::Fmpz;
using cas::Kind;
using cas::Value;

// Long enough for several ranges on any machine with two cores or more, and above the length from
// which a vector made on the cores is freed there.
constexpr size_t long_length = (size_t{1} << 15) + 3;

// Random integers of every size from 0 to 300 bits, signed, with runs of zeros at the end.
std::vector<Fmpz> random_integers(cas::test::FreshRandom& r, size_t n) {
  std::vector<Fmpz> v(n);
  for (size_t i = 0; i < n; i++) {
    if (n > 8 && i >= n - 3) break;  // trailing zeros: the polynomial is shorter than the vector
    fmpz_randtest(v[i].get(), r.state(), static_cast<slong>(n_randint(r.state(), 301)));
  }
  return v;
}

std::vector<Value> values_of(const std::vector<Fmpz>& v) {
  std::vector<Value> out;
  for (const Fmpz& e : v) out.push_back(Value::integer(e.get()));
  return out;
}

}  // namespace

TEST_CASE("integer_polynomial equals the polynomial set coefficient by coefficient", "[integer_vectors]") {
  cas::test::FreshRandom r;
  INFO("seed " << r.seed);
  for (size_t n : {size_t{0}, size_t{1}, size_t{5}, size_t{40}, long_length}) {
    const std::vector<Fmpz> entries = random_integers(r, n);
    cas::ZPoly expected;
    for (size_t i = 0; i < n; i++) fmpz_poly_set_coeff_fmpz(expected.get(), static_cast<slong>(i), entries[i].get());
    const cas::ZPoly f = cas::integer_polynomial(values_of(entries));
    INFO("n = " << n);
    CHECK(fmpz_poly_equal(f.get(), expected.get()));
    CHECK(f.length() == expected.length());  // normalised: no zero leading coefficient
  }
}

TEST_CASE("an IntegerPolynomialView reads the vector's integers in place and leaves them to it", "[integer_vectors]") {
  cas::test::FreshRandom r;
  INFO("seed " << r.seed);
  for (size_t n : {size_t{0}, size_t{1}, size_t{6}, long_length}) {
    const std::vector<Fmpz> entries = random_integers(r, n);
    const std::vector<Value> items = values_of(entries);
    {
      const cas::IntegerPolynomialView view(items);
      const cas::ZPoly copy = cas::integer_polynomial(items);
      INFO("n = " << n);
      CHECK(fmpz_poly_equal(view.poly().get(), copy.get()));
      // shared, not copied: the view's integers are the vector's own
      if (n > 0 && COEFF_IS_MPZ(*items[0].as_int())) CHECK(view.poly().get()->coeffs[0] == *items[0].as_int());
    }
    size_t changed = 0;  // the view is gone; the vector's integers are intact (and ASan sees no double free)
    for (size_t i = 0; i < n; i++)
      if (!fmpz_equal(items[i].as_int(), entries[i].get())) changed++;
    CHECK(changed == 0);
  }
}

TEST_CASE("integer_vector holds the integers it was given", "[integer_vectors]") {
  cas::test::FreshRandom r;
  INFO("seed " << r.seed);
  for (size_t n : {size_t{0}, size_t{1}, size_t{7}, long_length}) {
    const std::vector<Fmpz> entries = random_integers(r, n);
    std::vector<fmpz> raw(n);
    for (size_t i = 0; i < n; i++) raw[i] = *entries[i].get();  // views, not copies: not cleared
    const Value v = cas::integer_vector(raw.data(), n);
    REQUIRE(v.is(Kind::Vec));
    REQUIRE(v.vec_size() == n);
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++)
      if (!v.as_vec()[i].is(Kind::Int) || !fmpz_equal(v.as_vec()[i].as_int(), entries[i].get())) wrong++;
    INFO("n = " << n);
    CHECK(wrong == 0);
  }
}

TEST_CASE("a vector made on the cores keeps its entries for its copies and frees any kind of entry",
          "[integer_vectors]") {
  cas::test::FreshRandom r;
  INFO("seed " << r.seed);
  const std::vector<Fmpz> entries = random_integers(r, long_length);
  std::vector<fmpz> raw(long_length);
  for (size_t i = 0; i < long_length; i++) raw[i] = *entries[i].get();
  Value v = cas::integer_vector(raw.data(), long_length);
  Value copy = v;
  v = Value();  // the copy shares the entries: nothing is freed yet
  size_t wrong = 0;
  for (size_t i = 0; i < long_length; i++)
    if (!fmpz_equal(copy.as_vec()[i].as_int(), entries[i].get())) wrong++;
  CHECK(wrong == 0);
  // Written in place (the copy is the only owner): entries of other kinds, freed with the rest.
  std::vector<Value>& items = copy.vec_mut();
  items[0] = Value::zpoly(cas::ZPoly::x());
  items[1] = Value::vec({Value::integer(slong{2})});
  Fmpz big;
  fmpz_set_ui(big.get(), 3);
  fmpz_pow_ui(big.get(), big.get(), 200);
  items[2] = Value::integer(big.get());
  CHECK(fmpz_equal(copy.as_vec()[2].as_int(), big.get()));
  copy = Value();  // under ASan: no leak, no double free
}

// The long integer vectors' arithmetic on the cores (algebra/values/arith.cpp) against fmpz entry by entry.
TEST_CASE("+ - .* and products by an integer of long integer vectors equal FLINT entry by entry", "[integer_vectors]") {
  cas::test::FreshRandom r;
  INFO("seed " << r.seed);
  const std::vector<Fmpz> x = random_integers(r, long_length), y = random_integers(r, long_length);
  const Value a = Value::vec(values_of(x)), b = Value::vec(values_of(y));
  Fmpz c;
  fmpz_randtest(c.get(), r.state(), 200);
  const Value scalar = Value::integer(c.get());
  const struct {
    const char* what;
    Value result;
    void (*expected)(fmpz_t, const fmpz_t, const fmpz_t);
    bool by_scalar;
  } cases[] = {{"a + b", cas::apply(cas::BinaryOp::Add, a, b), fmpz_add, false},
               {"a - b", cas::apply(cas::BinaryOp::Sub, a, b), fmpz_sub, false},
               {"a .* b", cas::apply(cas::BinaryOp::PointMul, a, b), fmpz_mul, false},
               {"a * c", cas::apply(cas::BinaryOp::Mul, a, scalar), fmpz_mul, true},
               {"c * a", cas::apply(cas::BinaryOp::Mul, scalar, a), fmpz_mul, true}};
  Fmpz want;
  for (const auto& k : cases) {
    REQUIRE(k.result.vec_size() == long_length);
    size_t wrong = 0;
    for (size_t i = 0; i < long_length; i++) {
      k.expected(want.get(), x[i].get(), k.by_scalar ? c.get() : y[i].get());
      if (!k.result.as_vec()[i].is(Kind::Int) || !fmpz_equal(k.result.as_vec()[i].as_int(), want.get())) wrong++;
    }
    INFO(k.what);
    CHECK(wrong == 0);
  }
  const Value negated = cas::negate(a);
  size_t wrong = 0;
  for (size_t i = 0; i < long_length; i++) {
    fmpz_neg(want.get(), x[i].get());
    if (!fmpz_equal(negated.as_vec()[i].as_int(), want.get())) wrong++;
  }
  CHECK(wrong == 0);
  // One entry of another kind: the general route, entry by entry, with its kinds.
  std::vector<Value> mixed = values_of(y);
  mixed[5] = Value::zpoly(cas::ZPoly::x());
  const Value sum = cas::apply(cas::BinaryOp::Add, a, Value::vec(std::move(mixed)));
  CHECK(sum.as_vec()[5].is(Kind::ZPoly));
  fmpz_add(want.get(), x[6].get(), y[6].get());
  CHECK(fmpz_equal(sum.as_vec()[6].as_int(), want.get()));
}

// v // c and v % c entry by entry as for integers (floor), v / c when c divides every entry; an
// entry it does not divide, and a zero divisor, give the general route's messages.
TEST_CASE("// % and / by an integer of long integer vectors equal FLINT entry by entry", "[integer_vectors]") {
  cas::test::FreshRandom r;
  INFO("seed " << r.seed);
  const std::vector<Fmpz> x = random_integers(r, long_length);
  const Value a = Value::vec(values_of(x));
  for (slong bits : {3, 64, 150}) {
    Fmpz c;
    fmpz_randtest_not_zero(c.get(), r.state(), bits);
    INFO("c = " << c.to_string());
    const Value divisor = Value::integer(c.get());
    const Value quotient = cas::apply(cas::BinaryOp::FloorDiv, a, divisor);
    const Value remainder = cas::apply(cas::BinaryOp::Rem, a, divisor);
    Fmpz q, rem;
    size_t wrong = 0;
    for (size_t i = 0; i < long_length; i++) {
      fmpz_fdiv_qr(q.get(), rem.get(), x[i].get(), c.get());
      if (!fmpz_equal(quotient.as_vec()[i].as_int(), q.get()) || !fmpz_equal(remainder.as_vec()[i].as_int(), rem.get()))
        wrong++;
    }
    CHECK(wrong == 0);
    // c times the quotients, divided by c exactly: the quotients again.
    const Value multiples = cas::apply(cas::BinaryOp::Mul, quotient, divisor);
    const Value exact = cas::apply(cas::BinaryOp::Div, multiples, divisor);
    wrong = 0;
    for (size_t i = 0; i < long_length; i++)
      if (!fmpz_equal(exact.as_vec()[i].as_int(), quotient.as_vec()[i].as_int())) wrong++;
    CHECK(wrong == 0);
  }
  std::vector<Fmpz> even(long_length);
  for (size_t i = 0; i < long_length; i++) fmpz_mul_ui(even[i].get(), x[i].get(), 2);
  fmpz_set_ui(even[long_length - 9].get(), 7);
  CHECK_THROWS_WITH(cas::apply(cas::BinaryOp::Div, Value::vec(values_of(even)), Value::integer(slong{2})),
                    "7 is not divisible by 2 (use // for the floor quotient, or divide mod p: 1/3 mod 7 is 5 mod 7)");
  CHECK_THROWS_WITH(cas::apply(cas::BinaryOp::Rem, a, Value::integer(slong{0})), Catch::Contains("division by zero"));
}
