// Division in Z[x] through primes (algebra/poly/zpoly_division.cpp) against FLINT's fmpz_poly_divrem
// and fmpz_poly_divides: divisors with leading coefficient 1 and -1, quotients far larger than the
// estimate (the primes double), more than the most primes (FLINT's turn), exact division by
// divisors with a content and non-unit leading coefficients, remainders that only a proof shows,
// and the dispatch in cas.
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/support/flint_util.hpp"
#include "algebra/multimodular/multimodular.hpp"
#include "algebra/poly/multiply.hpp"
#include "algebra/poly/zpoly_cores.hpp"
#include "algebra/poly/zpoly_division.hpp"
#include "flint_support.hpp"
#include "interpreter_support.hpp"

#include "gpu/ntt.hpp"

#include <catch2/catch.hpp>

#include <string>

namespace {

using cas::Exactness;
using cas::Fmpz;
using cas::ZPoly;
using cas::test::check_in_mode;
using cas::test::ModeGuard;

// `length` uniform coefficients of at most `bits` bits with random signs, the leading one `lead`
// (0: random nonzero).
ZPoly random_zpoly(flint_rand_t state, size_t length, ulong bits, slong lead = 0) {
  ZPoly f;
  Fmpz c;
  for (size_t i = 0; i + 1 < length; i++) {
    fmpz_randbits(c.get(), state, static_cast<flint_bitcnt_t>(bits));
    fmpz_poly_set_coeff_fmpz(f.get(), static_cast<slong>(i), c.get());
  }
  if (lead != 0) fmpz_set_si(c.get(), lead);
  else do fmpz_randbits(c.get(), state, static_cast<flint_bitcnt_t>(bits));
    while (fmpz_is_zero(c.get()));
  fmpz_poly_set_coeff_fmpz(f.get(), static_cast<slong>(length - 1), c.get());
  return f;
}

ZPoly sum(const ZPoly& a, const ZPoly& b) {
  ZPoly s;
  fmpz_poly_add(s.get(), a.get(), b.get());
  return s;
}

ZPoly times(const ZPoly& a, slong c) {
  ZPoly s;
  fmpz_poly_scalar_mul_si(s.get(), a.get(), c);
  return s;
}

// divrem through primes equals FLINT's (lc(g) = +-1: both are the unique Euclidean division).
void check_divrem(const ZPoly& f, const ZPoly& g) {
  ZPoly q, r;
  fmpz_poly_divrem(q.get(), r.get(), f.get(), g.get());
  const auto ours = cas::divrem_through_primes(f, g);
  REQUIRE(ours);
  CHECK(fmpz_poly_equal(ours->first.get(), q.get()));
  CHECK(fmpz_poly_equal(ours->second.get(), r.get()));
}

// Lengths and coefficient sizes; a random dividend only where the divisor's roots are small enough
// for a quotient within the most primes (its coefficients grow like the largest root's powers).
struct Shape {
  size_t f_length, g_length;
  ulong f_bits, g_bits;
  bool random_dividend;
};

void check_divisions(flint_rand_t state) {
  const Shape shapes[] = {
      {300, 300, 64, 64, true},     // a quotient of one term
      {600, 2, 80, 2, true},        // a divisor of two terms
      {700, 300, 500, 3, true},     // a quotient larger than f's coefficients suggest
      {1200, 500, 20, 200, false},  // g's coefficients larger than f's
      {2000, 700, 130, 130, false}, // past the Z/pZ division's Newton crossover
      {2000, 700, 130, 1, true},
  };
  for (const Shape& s : shapes)
    for (slong lead : {1, -1}) {
      INFO("lengths " << s.f_length << " by " << s.g_length << ", bits " << s.f_bits << " and " << s.g_bits
                      << ", leading coefficient " << lead);
      const ZPoly g = random_zpoly(state, s.g_length, s.g_bits, lead);
      if (s.random_dividend) check_divrem(random_zpoly(state, s.f_length, s.f_bits), g);
      if (s.f_length > s.g_length) {  // a multiple plus a remainder: q = h exactly
        const ZPoly h = random_zpoly(state, s.f_length - s.g_length + 1, s.f_bits);
        check_divrem(sum(cas::multiply(g, h), random_zpoly(state, s.g_length - 1, s.f_bits)), g);
      }
    }
}

// A quotient far larger than the estimate (bits(f) - bits(g) and a margin): the primes double.
void check_growing_quotients(flint_rand_t state) {
  ZPoly g;  // x^2 - 1000 x + 7: the quotient's coefficients grow like 1000^k
  fmpz_poly_set_coeff_si(g.get(), 2, 1);
  fmpz_poly_set_coeff_si(g.get(), 1, -1000);
  fmpz_poly_set_coeff_si(g.get(), 0, 7);
  check_divrem(random_zpoly(state, 150, 10), g);  // about 1500 bits: 2 primes -> 32
}

// Exact multiples by divisors with a content and non-unit leading coefficients; non-multiples.
void check_exact_divisions(flint_rand_t state) {
  const ZPoly h = random_zpoly(state, 400, 90);
  for (slong lead : {1, -1, 5, 0}) {
    INFO("leading coefficient " << lead);
    const ZPoly g = random_zpoly(state, 300, 70, lead), g6 = times(g, 6);
    for (const ZPoly* divisor : {&g, &g6}) {
      const cas::ExactQuotient q = cas::exact_quotient_through_primes(cas::multiply(*divisor, h), *divisor);
      REQUIRE(q.exactness == Exactness::Exact);
      CHECK(fmpz_poly_equal(q.quotient.get(), h.get()));
    }
    // g h + 1: the first prime's remainder is not 0
    CHECK(cas::exact_quotient_through_primes(sum(cas::multiply(g, h), ZPoly::x()), g).exactness ==
          Exactness::NotExact);
    // (6 g) h / (12 g) = h / 2: g' divides, the content does not (h has odd coefficients)
    CHECK(cas::exact_quotient_through_primes(cas::multiply(g6, h), times(g, 12)).exactness == Exactness::NotExact);
  }
}

// Remainders that only the proof shows, and quotients in Q[x] that no prime decides.
void check_remainders_the_first_prime_divides(flint_rand_t state) {
  const ZPoly g = random_zpoly(state, 300, 40, 3), h = random_zpoly(state, 400, 40);
  const ZPoly gh = cas::multiply(g, h);
  // The first prime of a division of f by g: the first 62-bit NTT prime for transforms of twice
  // f's length (none divides a leading coefficient of 2 or 3).
  auto first_prime = [](unsigned log2_length) {
    return cas::gpu::ntt_primes(cas::multimodular_prime_bits, static_cast<int>(log2_length), 1).at(0);
  };
  const ulong p = first_prime(11);  // len f = 699
  ZPoly r;  // p x: 0 modulo the first prime, nonzero of degree below g's
  fmpz_poly_set_coeff_ui(r.get(), 1, p);
  CHECK(cas::exact_quotient_through_primes(sum(gh, r), g).exactness == Exactness::NotExact);
  // q x^2 / (2 x^2 + 1) = q / 2 - (q / 2) / (2 x^2 + 1) for the first prime q: the quotient in Q[x]
  // is not in Z[x] and its remainder is 0 modulo q, so no prime decides before the most primes.
  const ulong q = first_prime(3);  // len f = 3
  ZPoly f, d;
  fmpz_poly_set_coeff_ui(f.get(), 2, q);
  fmpz_poly_set_coeff_si(d.get(), 2, 2);
  fmpz_poly_set_coeff_si(d.get(), 0, 1);
  CHECK(cas::exact_quotient_through_primes(f, d).exactness == Exactness::Undecided);
  CHECK_FALSE(cas::zpoly_exact_quotient(f, d));
}

}  // namespace

TEST_CASE("division in Z[x] through primes equals FLINT's", "[zdivision]") {
  check_in_mode(cas::GpuMode::Off, check_divisions);
  check_in_mode(cas::GpuMode::Off, check_growing_quotients);
}

TEST_CASE("division in Z[x] through primes on the GPU equals FLINT's", "[zdivision][gpu]") {
  if (cas::test::skipped_without_gpu("Z[x] division's primes on the GPU")) return;
  check_in_mode(cas::GpuMode::On, check_divisions);
}

TEST_CASE("division in Z[x] through primes leaves huge quotients to FLINT", "[zdivision]") {
  ModeGuard cpu(cas::GpuMode::Off);
  ZPoly g, f;  // x^2 - 2^40 x: x^500 // g has coefficients of about 40 * 500 bits, past 256 primes
  fmpz_poly_set_coeff_si(g.get(), 2, 1);
  Fmpz c;
  fmpz_set_si(c.get(), -1);
  fmpz_mul_2exp(c.get(), c.get(), 40);
  fmpz_poly_set_coeff_fmpz(g.get(), 1, c.get());
  fmpz_poly_set_coeff_si(f.get(), 500, 1);
  CHECK_FALSE(cas::divrem_through_primes(f, g));
  const cas::ExactQuotient exact = cas::exact_quotient_through_primes(cas::multiply(f, g), g);  // small q
  REQUIRE(exact.exactness == Exactness::Exact);
  CHECK(fmpz_poly_equal(exact.quotient.get(), f.get()));
}

TEST_CASE("exact division in Z[x] through primes", "[zdivision]") {
  check_in_mode(cas::GpuMode::Off, check_exact_divisions);
}

TEST_CASE("exact division in Z[x] through primes: remainders the first prime divides", "[zdivision]") {
  check_in_mode(cas::GpuMode::Off, check_remainders_the_first_prime_divides);
}

TEST_CASE("division in Z[x]: through primes from the crossover", "[zdivision][dispatch]") {
  // quotients of 32 bits or more from 2^8 terms, with a divisor at most twice as long
  CHECK(cas::division_through_primes_pays(511, 256, 100, 40));
  CHECK_FALSE(cas::division_through_primes_pays(511, 255, 100, 40));
  CHECK_FALSE(cas::division_through_primes_pays(1000, 900, 100, 40));  // a short quotient
  CHECK_FALSE(cas::division_through_primes_pays(4000, 256, 40, 20));   // 20 bits: from 2^12 terms
  CHECK(cas::division_through_primes_pays(8191, 4096, 40, 20));
  CHECK_FALSE(cas::division_through_primes_pays(8191, 4096, 30, 20));  // 10 bits: from 2^13
  CHECK(cas::division_through_primes_pays(16383, 8192, 30, 20));
}

TEST_CASE("division in cas: f // g, f % g, divrem and f / g in Z[x] through primes", "[zdivision]") {
  cas::test::Session s;
  s.eval("gpu(\"off\"); seed(7); g = lift(randpoly(600, 2^40)) + x^600; h = lift(randpoly(700, 2^50)) - 2^49; "
         "r = lift(randpoly(500, 2^45)); f = g*h + r;");
  cas::engine_reset();
  s.eval("q = f // g;");
  bool through_primes = false;
  for (const cas::EngineNote& note : cas::engine_notes())
    through_primes = through_primes || std::string(note.what) == "z[x] division through primes";
  CHECK(through_primes);
  CHECK(s.show("q == h and f % g == r") == "true");
  CHECK(s.show("divrem(f, -g) == [-h, r]") == "true");
  CHECK(s.show("(6*g*h) / (2*g) == 3*h") == "true");
  for (const char* not_exact : {"(g*h + x) / g", "(g*h) / (2*g)"}) {  // h has odd coefficients
    INFO(not_exact);
    const auto error = s.error(not_exact);
    REQUIRE(error);
    CHECK(std::string(error->what()).find("not exact") != std::string::npos);
  }
}
