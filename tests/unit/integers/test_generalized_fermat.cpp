// generalized_fermat_form and is_shift_root (algebra/integers/generalized_fermat.hpp): the seed's
// primes P3 and P4, the Fermat primes, small forms checked against a search over every r and k,
// random forms r^k + 1 and their neighbours, and numbers of many words with and without the form.
#include "algebra/integers/generalized_fermat.hpp"
#include "flint_support.hpp"
#include "interpreter_support.hpp"

#include <catch2/catch.hpp>

#include <optional>
#include <string>

using cas::Fmpz;
using cas::GeneralizedFermat;
using cas::generalized_fermat_form;
using cas::is_shift_root;
using cas::test::FreshRandom;
using cas::test::two_powers;
using cas::test::trials;

namespace {

// r^k + 1.
Fmpz fermat(const Fmpz& r, ulong k) {
  Fmpz p;
  fmpz_pow_ui(p.get(), r.get(), k);
  fmpz_add_ui(p.get(), p.get(), 1);
  return p;
}

Fmpz fermat(ulong r, ulong k) { return fermat(Fmpz(r), k); }

std::string show(const std::optional<GeneralizedFermat>& form) {
  return form ? std::to_string(form->r) + "^" + std::to_string(form->k) + " + 1" : "none";
}

std::string form_of(ulong p) { return show(generalized_fermat_form(Fmpz(p))); }

// The form by searching every k (a power of two) from the largest and every r: the oracle for small p.
std::optional<GeneralizedFermat> form_by_search(ulong p) {
  if (p < 5) return std::nullopt;
  for (ulong k = 64; k >= 2; k /= 2)
    for (ulong r = 2; r < p; r++) {
      const Fmpz value = fermat(r, k);
      const int c = fmpz_cmp_ui(value.get(), p);
      if (c == 0) return GeneralizedFermat{r, k};
      if (c > 0) break;
    }
  return std::nullopt;
}

}  // namespace

TEST_CASE("generalized Fermat forms of the seed's P3 and P4 and of the Fermat primes", "[generalized_fermat]") {
  const Fmpz r3 = two_powers(63, 34), r4 = two_powers(62, 36);
  const auto p3 = generalized_fermat_form(fermat(r3, 8));
  REQUIRE(p3);
  CHECK(p3->r == fmpz_get_ui(r3.get()));
  CHECK(p3->k == 8);  // r^2 does not fit a word: k stays 8
  const auto p4 = generalized_fermat_form(fermat(r4, 16));
  REQUIRE(p4);
  CHECK(p4->r == fmpz_get_ui(r4.get()));
  CHECK(p4->k == 16);
  CHECK(form_of(65537) == "2^16 + 1");  // also 4^8, 16^4, 256^2: the largest k
  CHECK(form_of(257) == "2^8 + 1");
  CHECK(form_of(17) == "2^4 + 1");  // also 4^2 + 1
  CHECK(form_of(5) == "2^2 + 1");
  CHECK(form_of(10) == "3^2 + 1");  // not prime: the caller checks primality
  CHECK(form_of(82) == "3^4 + 1");
  CHECK(form_of(65) == "8^2 + 1");      // 2^6 + 1: k = 6 is no power of two
  CHECK(form_of(4097) == "8^4 + 1");    // 2^12 = 8^4 = 64^2
  CHECK(form_of(2) == "none");
  CHECK(form_of(3) == "none");
  CHECK(form_of(9) == "none");  // 2^3 + 1
  CHECK(form_of(7681) == "none");
  CHECK(form_of(998244353) == "none");
  CHECK(form_of(18446744073709551557ull) == "none");
}

TEST_CASE("generalized_fermat_form agrees with a search over every r and k below 20000", "[generalized_fermat]") {
  for (ulong p = 0; p < 20000; p++) {
    INFO("p = " << p);
    CHECK(form_of(p) == show(form_by_search(p)));
  }
}

TEST_CASE("r at the word's edge: r = 2^64 - 1 fits, r = 2^64 + 1 does not", "[generalized_fermat]") {
  const Fmpz largest(~ulong{0});
  const auto form = generalized_fermat_form(fermat(largest, 2));
  REQUIRE(form);
  CHECK(form->r == ~ulong{0});
  CHECK(form->k == 2);
  Fmpz beyond;
  fmpz_add_ui(beyond.get(), largest.get(), 2);  // 2^64 + 1
  CHECK(show(generalized_fermat_form(fermat(beyond, 2))) == "none");
  CHECK(show(generalized_fermat_form(fermat(Fmpz(ulong{1} << 32), 4))) == "2^128 + 1");
}

TEST_CASE("random forms r^k + 1 are found with the largest k; r^k and r^k + 2 have none", "[generalized_fermat]") {
  FreshRandom random;
  INFO("seed " << random.seed);
  for (int trial = 0; trial < trials(300); trial++) {
    const ulong r = 2 + n_randtest(random.state()) % (~ulong{0} - 1);
    const ulong k = ulong{2} << n_randint(random.state(), 9);  // 2 .. 1024
    const Fmpz p = fermat(r, k);
    INFO("r = " << r << ", k = " << k);
    const auto form = generalized_fermat_form(p);
    REQUIRE(form);
    CHECK(form->k >= k);
    CHECK(form->k % k == 0);
    CHECK(fmpz_equal(fermat(form->r, form->k).get(), p.get()));
    // r^k - 1 + 1 and r^k + 1 + 1: no perfect power is 1 from another but 8 and 9 (Mihailescu).
    Fmpz below, above;
    fmpz_sub_ui(below.get(), p.get(), 1);
    fmpz_add_ui(above.get(), p.get(), 1);
    if (fmpz_cmp_ui(below.get(), 9) > 0) CHECK(show(generalized_fermat_form(below)) == "none");
    CHECK(show(generalized_fermat_form(above)) == "none");
  }
}

TEST_CASE("numbers of many words: the form by few roots, or none", "[generalized_fermat]") {
  // (2^64 - 1)^4096 + 1 has 262,145 bits; 2^200000 + 3 and 3^100000 + 1 have no form with a word r.
  const auto big = generalized_fermat_form(fermat(Fmpz(~ulong{0}), 4096));
  REQUIRE(big);
  CHECK(big->r == ~ulong{0});
  CHECK(big->k == 4096);
  Fmpz huge;
  fmpz_one(huge.get());
  fmpz_mul_2exp(huge.get(), huge.get(), 200000);
  fmpz_add_ui(huge.get(), huge.get(), 3);
  CHECK(show(generalized_fermat_form(huge)) == "none");
  CHECK(show(generalized_fermat_form(fermat(ulong{3}, 100000))) == "none");  // 100000 = 2^5 * 3125
  CHECK(show(generalized_fermat_form(fermat(ulong{3}, 1 << 17))) == "3^131072 + 1");
}

TEST_CASE("is_shift_root: w^k + 1 = p for some k >= 2", "[generalized_fermat]") {
  ulong k = 0;
  CHECK(is_shift_root(Fmpz(ulong{65537}), Fmpz(ulong{16}), k));
  CHECK(k == 4);
  CHECK(is_shift_root(Fmpz(ulong{65537}), Fmpz(ulong{2}), k));
  CHECK(k == 16);
  CHECK(is_shift_root(Fmpz(ulong{65537}), Fmpz(ulong{256}), k));
  CHECK(k == 2);
  CHECK(is_shift_root(Fmpz(ulong{10}), Fmpz(ulong{3}), k));
  CHECK(k == 2);
  CHECK(is_shift_root(Fmpz(ulong{28}), Fmpz(ulong{3}), k));  // k need not be a power of two
  CHECK(k == 3);
  k = 99;
  CHECK_FALSE(is_shift_root(Fmpz(ulong{65537}), Fmpz(ulong{3}), k));
  CHECK_FALSE(is_shift_root(Fmpz(ulong{65537}), Fmpz(ulong{65536}), k));  // k = 1
  CHECK_FALSE(is_shift_root(Fmpz(ulong{65537}), Fmpz(ulong{0}), k));
  CHECK_FALSE(is_shift_root(Fmpz(ulong{65537}), Fmpz(ulong{1}), k));
  CHECK_FALSE(is_shift_root(Fmpz(ulong{65537}), Fmpz(ulong{65537 + 16}), k));  // not 0 < w < p
  CHECK_FALSE(is_shift_root(Fmpz(ulong{17}), Fmpz(ulong{8}), k));              // 8 divides 16, 8^2 does not
  CHECK(k == 99);                                                               // untouched when false
  const Fmpz r3 = two_powers(63, 34), p3 = fermat(r3, 8);
  CHECK(is_shift_root(p3, r3, k));
  CHECK(k == 8);
  Fmpz r3_squared;
  fmpz_mul(r3_squared.get(), r3.get(), r3.get());
  CHECK(is_shift_root(p3, r3_squared, k));  // any size of w, unlike generalized_fermat_form's r
  CHECK(k == 4);
  Fmpz r3_plus_one;
  fmpz_add_ui(r3_plus_one.get(), r3.get(), 1);
  CHECK_FALSE(is_shift_root(p3, r3_plus_one, k));
}
