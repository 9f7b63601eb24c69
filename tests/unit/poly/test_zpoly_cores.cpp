// Long Z[x] sums, differences, negation, derivatives and divisions by a constant on the cores
// (algebra/poly/zpoly_cores.hpp), and conversions to Z/pZ[x] and back (modpoly_ops.hpp), against
// FLINT's serial functions.
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/poly/zpoly_cores.hpp"
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

// f // c and f % c coefficient by coefficient, as for integers; f / c when c divides every
// coefficient; a longer divisor keeps FLINT's division.
TEST_CASE("divisions of Z[x] by a constant are floor divisions of every coefficient", "[zpoly_cores]") {
  cas::test::FreshRandom r;
  INFO("seed " << r.seed);
  for (slong length : {slong{7}, (slong{1} << 15) + 1000}) {
    const cas::ZPoly a = random_poly(r, length, 100);
    for (slong bits : {2, 64, 130}) {
      cas::ZPoly c;
      fmpz_poly_set_coeff_si(c.get(), 0, 1);  // not zero
      fmpz_randtest_not_zero(c.get()->coeffs, r.state(), bits);
      INFO("length " << length << ", c = " << cas::fmpz_to_string(c.coeff(0)));
      const auto [q, rem] = cas::zpoly_divrem(a, c);
      cas::ZPoly expected_q, expected_r;
      fmpz_poly_fit_length(expected_q.get(), length);
      fmpz_poly_fit_length(expected_r.get(), length);
      for (slong i = 0; i < length; i++) {
        cas::Fmpz qi, ri;
        fmpz_fdiv_qr(qi.get(), ri.get(), a.coeff(i), c.coeff(0));
        fmpz_poly_set_coeff_fmpz(expected_q.get(), i, qi.get());
        fmpz_poly_set_coeff_fmpz(expected_r.get(), i, ri.get());
      }
      CHECK(fmpz_poly_equal(q.get(), expected_q.get()));
      CHECK(fmpz_poly_equal(rem.get(), expected_r.get()));
      CHECK(fmpz_poly_equal(cas::zpoly_quotient(a, c).get(), expected_q.get()));
      CHECK(fmpz_poly_equal(cas::zpoly_remainder(a, c).get(), expected_r.get()));
      cas::ZPoly multiple;
      fmpz_poly_scalar_mul_fmpz(multiple.get(), a.get(), c.coeff(0));
      const std::optional<cas::ZPoly> exact = cas::exact_quotient_by_constant(multiple, c.coeff(0));
      REQUIRE(exact);
      CHECK(fmpz_poly_equal(exact->get(), a.get()));
      fmpz_add_ui(multiple.get()->coeffs + length / 2, multiple.get()->coeffs + length / 2, 1);
      if (!fmpz_is_pm1(c.coeff(0))) CHECK_FALSE(cas::exact_quotient_by_constant(multiple, c.coeff(0)));
    }
  }
  // (x^2 - 1) % 3 is x^2 + 2, as (x^2 - 4) % 3 (FLINT's division left the first as it was).
  cas::ZPoly f, three, expected;
  fmpz_poly_set_coeff_si(f.get(), 2, 1);
  fmpz_poly_set_coeff_si(f.get(), 0, -1);
  fmpz_poly_set_si(three.get(), 3);
  fmpz_poly_set_coeff_si(expected.get(), 2, 1);
  fmpz_poly_set_coeff_si(expected.get(), 0, 2);
  CHECK(fmpz_poly_equal(cas::zpoly_remainder(f, three).get(), expected.get()));
  // A longer divisor: FLINT's quotient and remainder.
  const cas::ZPoly a = random_poly(r, 300, 80), b = random_poly(r, 40, 30);
  cas::ZPoly flint_q, flint_r;
  fmpz_poly_divrem(flint_q.get(), flint_r.get(), a.get(), b.get());
  CHECK(fmpz_poly_equal(cas::zpoly_quotient(a, b).get(), flint_q.get()));
  CHECK(fmpz_poly_equal(cas::zpoly_remainder(a, b).get(), flint_r.get()));
}

// f mod p and lift / centerlift back, long ones on the cores, against FLINT's conversions and
// fmpz_smod coefficient by coefficient.
TEST_CASE("Z[x] to Z/pZ[x] and back equal FLINT's conversions", "[zpoly_cores]") {
  cas::test::FreshRandom r;
  INFO("seed " << r.seed);
  for (slong length : {slong{9}, (slong{1} << 15) + 1000}) {
    for (const char* modulus : {"998244353", "6", "18446744073709551557", "170141183460469231731687303715884105727"}) {
      cas::Fmpz p;
      fmpz_set_str(p.get(), modulus, 10);
      const cas::ModulusPtr m = cas::make_modulus(p.get());
      INFO("length " << length << ", p = " << modulus);
      cas::ZPoly a = random_poly(r, length, 100);
      fmpz_mul_ui(a.get()->coeffs + length - 1, p.get(), 3);  // the top coefficient vanishes mod p
      const cas::ModPoly reduced = cas::modpoly_from_fmpz_poly(a.get(), m);
      cas::ModPoly expected(m);
      if (expected.word()) fmpz_poly_get_nmod_poly(expected.nmod(), a.get());
      else fmpz_mod_poly_set_fmpz_poly(expected.big(), a.get(), expected.ctx());
      CHECK(cas::equal(reduced, expected));
      CHECK(reduced.length() < length);
      for (bool centred : {false, true}) {
        const cas::ZPoly back = cas::lifted(reduced, centred);
        REQUIRE(back.length() == reduced.length());
        size_t wrong = 0;
        cas::Fmpz residue, want;
        for (slong i = 0; i < reduced.length(); i++) {
          reduced.coeff(residue.get(), i);
          if (centred) fmpz_smod(want.get(), residue.get(), p.get());
          else fmpz_set(want.get(), residue.get());
          if (!fmpz_equal(back.coeff(i), want.get())) wrong++;
        }
        INFO((centred ? "centerlift" : "lift"));
        CHECK(wrong == 0);
      }
    }
  }
}
