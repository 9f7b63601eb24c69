// Long Z[x] sums, differences, negation and derivatives on the cores (algebra/zpoly_cores.hpp)
// against FLINT's serial functions.
#include "algebra/zpoly_cores.hpp"
#include "flint_support.hpp"

#include <flint/fmpz_poly.h>

namespace {

cas::ZPoly random_poly(cas::test::FreshRandom& r, slong length, ulong bits) {
  cas::ZPoly f;
  fmpz_poly_randtest_not_zero(f.get(), r.state(), length, bits);
  fmpz_poly_set_coeff_si(f.get(), length - 1, -7);  // the full length
  return f;
}

}  // namespace

TEST_CASE("sums, differences, negation and derivatives on the cores equal FLINT's", "[zpoly_cores]") {
  cas::test::FreshRandom r;
  INFO("seed " << r.seed);
  const slong longer = (slong{1} << 15) + 1000, shorter = (slong{1} << 15) - 10;
  for (const auto& lengths : {std::pair{longer, shorter}, std::pair{shorter, longer}, std::pair{longer, longer},
                              std::pair{slong{5}, slong{3}}}) {
    const cas::ZPoly a = random_poly(r, lengths.first, 90), b = random_poly(r, lengths.second, 70);
    INFO("lengths " << lengths.first << " and " << lengths.second);
    cas::ZPoly expected;
    fmpz_poly_add(expected.get(), a.get(), b.get());
    CHECK(fmpz_poly_equal(cas::add_on_cores(a, b).get(), expected.get()));
    fmpz_poly_sub(expected.get(), a.get(), b.get());
    CHECK(fmpz_poly_equal(cas::sub_on_cores(a, b).get(), expected.get()));
    fmpz_poly_neg(expected.get(), a.get());
    CHECK(fmpz_poly_equal(cas::neg_on_cores(a).get(), expected.get()));
    fmpz_poly_derivative(expected.get(), a.get());
    CHECK(fmpz_poly_equal(cas::derivative_on_cores(a).get(), expected.get()));
  }
  // Cancellation: a + (x^5 - a) is x^5, a - a is zero.
  const cas::ZPoly a = random_poly(r, longer, 64);
  cas::ZPoly b;
  fmpz_poly_neg(b.get(), a.get());
  fmpz_add_ui(b.get()->coeffs + 5, b.get()->coeffs + 5, 1);
  const cas::ZPoly sum = cas::add_on_cores(a, b);
  CHECK(sum.length() == 6);
  CHECK(fmpz_is_one(sum.get()->coeffs + 5));
  cas::ZPoly expected;
  CHECK(cas::sub_on_cores(a, a).is_zero());
  // the same object on both sides
  fmpz_poly_scalar_mul_ui(expected.get(), a.get(), 2);
  CHECK(fmpz_poly_equal(cas::add_on_cores(a, a).get(), expected.get()));
}
