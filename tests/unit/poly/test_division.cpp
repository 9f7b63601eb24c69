// Division with remainder, inverse series and powers modulo a polynomial in Z/nZ[x] by Newton's
// iteration on cas's cyclic products (algebra/poly/division.cpp) against FLINT's nmod_poly_divrem,
// nmod_poly_inv_series and nmod_poly_powmod_fmpz_binexp: moduli that take one transform, CRT
// primes, composite and 64-bit ones; lengths on both sides of the base precision and of the
// CPU transforms' crossovers; leading and constant terms other than 1.
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/poly/division.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/support/flint_util.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "flint_support.hpp"
#include "interpreter_support.hpp"

#include <catch2/catch.hpp>
#include <flint/nmod_poly.h>
#include <flint/ulong_extras.h>

#include <string>
#include <vector>

namespace {

using cas::Fmpz;
using cas::ModPoly;
using cas::test::check_in_mode;
using cas::test::FreshRandom;
using cas::test::ModeGuard;

// Moduli of every kind; the composite ones get a leading coefficient prime to them.
const ulong moduli[] = {2,
                        3,
                        17,
                        65537,                    // 2^16 | p - 1
                        45119,                    // p = 3 mod 4: CRT primes at every length
                        998244353,                // 2^23 | p - 1
                        1000000007,               // 2 | p - 1 only
                        1000000000,               // composite
                        (ulong{1} << 61) - 1,     // Mersenne prime
                        4611686018326724609ull,   // 62-bit NTT prime
                        18446744073709551557ull,  // 2^64 - 59
                        18446744069414584321ull}; // 2^64 - 2^32 + 1

// `length` uniform residues below n (every seventh n - 1), the last one a unit mod n other than 1
// where there is one, so that the leading coefficient is invertible and the inverse's first term
// is not trivial.
ModPoly random_poly(const cas::ModulusPtr& m, size_t length, flint_rand_t state) {
  const ulong n = m->word();
  std::vector<ulong> w(length);
  for (size_t i = 0; i < length; i++) w[i] = i % 7 == 3 ? n - 1 : n_randint(state, n);
  if (length > 0) {
    ulong lead = n <= 2 ? 1 : 2 + n_randint(state, n - 2);
    while (n_gcd(lead, n) != 1) lead++;
    w[length - 1] = lead;
  }
  return cas::modpoly_from_words(m, w.data(), w.size());
}

bool same(const ModPoly& a, const nmod_poly_t b) { return nmod_poly_equal(a.nmod(), b) != 0; }

void check_against_flint(const ModPoly& f, const ModPoly& g) {
  nmod_poly_t q, r;
  nmod_poly_init_mod(q, f.modulus()->nmod());
  nmod_poly_init_mod(r, f.modulus()->nmod());
  nmod_poly_divrem(q, r, f.nmod(), g.nmod());
  const auto [nq, nr] = cas::divrem_newton(f, g);
  CHECK(same(nq, q));
  CHECK(same(nr, r));
  nmod_poly_clear(q);
  nmod_poly_clear(r);
}

struct Lengths {
  size_t dividend, divisor;
};

// Quotients and divisors shorter and longer than the base precision (256) and the transforms'
// crossovers; equal lengths (a quotient of one term), a divisor of one term, a dividend shorter;
// quotients of P + s terms that split (P >= 4096, 2s - 1 <= P / 2: 4096 + 1, 8192 + 552, 8192 + 809,
// 16384 + 3616) and one that does not (8192 + 2809).
const Lengths division_lengths[] = {{1, 1},        {9, 1},        {5, 7},        {40, 40},      {300, 2},
                                    {600, 300},    {1000, 257},   {1500, 1000},  {3000, 700},   {5000, 4999},
                                    {5000, 2500},  {9000, 257},   {12289, 8193}, {13000, 4000}, {20000, 9000},
                                    {40000, 20001}};

void check_divisions(flint_rand_t state) {
  for (ulong n : moduli) {
    const cas::ModulusPtr m = cas::make_modulus(n);
    for (const Lengths& l : division_lengths) {
      if (l.dividend > 9000 && n < 100) continue;  // FLINT's divrem alone takes seconds there
      INFO("mod " << n << ", lengths " << l.dividend << " / " << l.divisor << ", GPU "
                  << cas::gpu_mode_name(cas::gpu_mode()));
      check_against_flint(random_poly(m, l.dividend, state), random_poly(m, l.divisor, state));
    }
  }
}

}  // namespace

TEST_CASE("Newton's division equals FLINT's divrem", "[division]") {
  check_in_mode(cas::GpuMode::Off, check_divisions);
}

TEST_CASE("Newton's division on the GPU equals FLINT's divrem", "[division][gpu]") {
  if (cas::test::skipped_without_gpu("Newton's division on the GPU")) return;
  check_in_mode(cas::GpuMode::On, check_divisions);  // every product on the GPU, the short ones too
}

namespace {

// Multi-word moduli: 2^127 - 1, the first prime above 2^64, and 2^200 (composite: odd leading
// coefficients).
std::vector<cas::ModulusPtr> big_moduli() {
  std::vector<cas::ModulusPtr> out;
  for (const char* text : {"170141183460469231731687303715884105727", "18446744073709551629",
                           "1606938044258990275541962092341162602522202993782792835301376"}) {
    Fmpz p;
    fmpz_set_str(p.get(), text, 10);
    out.push_back(cas::make_modulus(p.get()));
  }
  return out;
}

// `length` uniform residues (every seventh p - 1), the leading one a unit other than 1.
ModPoly random_big_poly(const cas::ModulusPtr& m, size_t length, flint_rand_t state) {
  ModPoly f(m);
  Fmpz c, g;
  for (size_t i = 0; i < length; i++) {
    fmpz_randm(c.get(), state, m->value());
    if (i % 7 == 3) fmpz_sub_ui(c.get(), m->value(), 1);
    if (i + 1 == length)
      for (fmpz_gcd(g.get(), c.get(), m->value()); fmpz_cmp_ui(c.get(), 1) <= 0 || !fmpz_is_one(g.get());
           fmpz_gcd(g.get(), c.get(), m->value()))
        fmpz_add_ui(c.get(), c.get(), 1);
    f.set_coeff(static_cast<slong>(i), c.get());
  }
  return f;
}

// Lengths on both sides of the base precision (256) and of the crossover (quotients of 4096,
// divisors of 1024 terms), a divisor of one term, a dividend shorter than the divisor.
const Lengths big_division_lengths[] = {{1, 1},      {9, 1},       {5, 7},       {300, 2},      {600, 300},
                                        {1000, 257}, {3000, 700},  {5000, 1024}, {6000, 1023}, {9000, 4500},
                                        {12000, 600}};

void check_big_divisions(flint_rand_t state) {
  for (const cas::ModulusPtr& m : big_moduli()) {
    for (const Lengths& l : big_division_lengths) {
      INFO("mod " << cas::fmpz_to_string(m->value()) << ", lengths " << l.dividend << " / " << l.divisor
                  << ", GPU " << cas::gpu_mode_name(cas::gpu_mode()));
      const ModPoly f = random_big_poly(m, l.dividend, state), g = random_big_poly(m, l.divisor, state);
      const auto [q, r] = cas::divrem_flint(f, g);
      const auto [nq, nr] = cas::divrem_newton(f, g);
      CHECK(cas::equal(nq, q));
      CHECK(cas::equal(nr, r));
      CHECK(cas::equal(cas::quotient(f, g), q));  // the dispatcher's way, quotient alone
      CHECK(cas::equal(cas::remainder(f, g), r));
    }
  }
}

}  // namespace

TEST_CASE("Newton's division modulo multi-word moduli equals FLINT's divrem", "[division]") {
  check_in_mode(cas::GpuMode::Off, check_big_divisions);
}

TEST_CASE("Newton's division modulo multi-word moduli on the GPU equals FLINT's divrem", "[division][gpu]") {
  if (cas::test::skipped_without_gpu("Newton's division modulo multi-word moduli on the GPU")) return;
  check_in_mode(cas::GpuMode::On, check_big_divisions);
}

namespace {

void check_big_powmods(flint_rand_t state) {
  const char* exponents[] = {"0", "1", "2", "3", "1000003", "1267650600228229401496703205653"};  // the last 2^100 + 277
  for (const cas::ModulusPtr& m : big_moduli()) {
    for (size_t modulus_length : {2, 3, 70, 300}) {
      const ModPoly g = random_big_poly(m, modulus_length, state);
      for (size_t f_length : {size_t{0}, size_t{2}, modulus_length - 1, 2 * modulus_length + 5}) {
        const ModPoly f = f_length == 2 ? cas::modpoly_x(m) : random_big_poly(m, f_length, state);
        for (const char* text : exponents) {
          INFO("mod " << cas::fmpz_to_string(m->value()) << ", modulus of length " << modulus_length
                      << ", f of length " << f_length << ", e = " << text << ", GPU "
                      << cas::gpu_mode_name(cas::gpu_mode()));
          Fmpz e;
          fmpz_set_str(e.get(), text, 10);
          ModPoly expected(m);
          fmpz_mod_poly_powmod_fmpz_binexp(expected.big(), cas::remainder_flint(f, g).big(), e.get(), g.big(),
                                           m->ctx());
          CHECK(cas::equal(cas::powmod_newton(f, e.get(), g), expected));
          CHECK(cas::equal(cas::powmod(f, e.get(), g), expected));  // the dispatcher's way
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("powmod modulo multi-word moduli by Newton's reductions equals FLINT's", "[division]") {
  check_in_mode(cas::GpuMode::Off, check_big_powmods);
}

TEST_CASE("powmod modulo multi-word moduli on the GPU equals FLINT's", "[division][gpu]") {
  if (cas::test::skipped_without_gpu("powmod modulo multi-word moduli on the GPU")) return;
  check_in_mode(cas::GpuMode::On, check_big_powmods);
}

TEST_CASE("Newton's inverse series equals FLINT's", "[division]") {
  FreshRandom random;
  INFO("seed " << random.seed);
  flint_rand_t& state = random.state();
  ModeGuard cpu(cas::GpuMode::Off);
  for (ulong n : {ulong{17}, ulong{998244353}, ulong{1000000007}, ulong{1000000000}, (ulong{1} << 61) - 1}) {
    const cas::ModulusPtr m = cas::make_modulus(n);
    for (size_t precision : {1, 255, 256, 257, 511, 513, 1000, 4097, 12000}) {
      // h as long as the precision, and shorter: then its missing terms are zeros
      for (size_t nh : {precision, precision / 3 + 1}) {
        INFO("mod " << n << ", precision " << precision << ", " << nh << " terms");
        ModPoly h = random_poly(m, nh, state);
        nmod_poly_reverse(h.nmod(), h.nmod(), static_cast<slong>(nh));  // the unit first
        const cas::Words g = cas::inverse_series(h.nmod()->coeffs, nh, precision, m);
        nmod_poly_t expected;
        nmod_poly_init_mod(expected, m->nmod());
        nmod_poly_inv_series(expected, h.nmod(), static_cast<slong>(precision));
        std::vector<ulong> want(precision, 0);
        std::copy(expected->coeffs, expected->coeffs + expected->length, want.begin());
        CHECK(std::vector<ulong>(g.begin(), g.end()) == want);
        nmod_poly_clear(expected);
      }
    }
  }
}

namespace {

void check_powmods(flint_rand_t state) {
  const char* exponents[] = {"0", "1", "2", "3", "1000003", "1267650600228229401496703205653"};  // the last 2^100 + 277
  for (ulong n : {ulong{3}, ulong{998244353}, ulong{1000000007}, ulong{1000000000}, ulong{18446744073709551557ull}}) {
    const cas::ModulusPtr m = cas::make_modulus(n);
    for (size_t modulus_length : {2, 3, 300, 1025, 3000}) {
      const ModPoly g = random_poly(m, modulus_length, state);
      for (size_t f_length : {size_t{0}, size_t{2}, modulus_length - 1, 2 * modulus_length + 5}) {
        const ModPoly f = f_length == 2 ? cas::modpoly_x(m) : random_poly(m, f_length, state);  // x: shifts
        for (const char* text : exponents) {
          INFO("mod " << n << ", modulus of length " << modulus_length << ", f of length " << f_length
                      << ", e = " << text << ", GPU " << cas::gpu_mode_name(cas::gpu_mode()));
          Fmpz e;
          fmpz_set_str(e.get(), text, 10);
          const ModPoly ours = cas::powmod_newton(f, e.get(), g), theirs = cas::powmod_flint(f, e.get(), g);
          ModPoly reduced = cas::remainder_flint(f, g), plain(m);
          nmod_poly_powmod_fmpz_binexp(plain.nmod(), reduced.nmod(), e.get(), g.nmod());
          CHECK(same(ours, plain.nmod()));
          CHECK(same(theirs, plain.nmod()));
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("powmod by Newton's reductions equals FLINT's", "[division]") {
  check_in_mode(cas::GpuMode::Off, check_powmods);
}

TEST_CASE("powmod by Newton's reductions on the GPU equals FLINT's", "[division][gpu]") {
  if (cas::test::skipped_without_gpu("powmod's reductions on the GPU")) return;
  check_in_mode(cas::GpuMode::On, check_powmods);
}

TEST_CASE("division: Newton's iteration from the crossover", "[division][dispatch]") {
  ModeGuard cpu(cas::GpuMode::Off);
  for (ulong n : {ulong{998244353}, ulong{1000000007}, (ulong{1} << 61) - 1}) {
    INFO("mod " << n);
    CHECK_FALSE(cas::newton_division_pays(100, 100, n));       // FLINT's basecase and short products
    CHECK_FALSE(cas::newton_division_pays(100000, 20, n));     // a short divisor: FLINT's basecase
    CHECK_FALSE(cas::newton_division_pays(20, 100000, n));     // a short quotient
    CHECK(cas::newton_division_pays(size_t{1} << 14, size_t{1} << 14, n));
    CHECK_FALSE(cas::newton_powmod_pays(64, n));
    CHECK(cas::newton_powmod_pays(size_t{1} << 13, n));
  }
  // powmod by the size of p: FLINT's products slow down by steps that come later for larger p
  CHECK(cas::newton_powmod_pays(128, 1000000007));
  CHECK_FALSE(cas::newton_powmod_pays(96, 1000000007));
  CHECK(cas::newton_powmod_pays(256, 1099511627791));  // 2^40 + 15
  CHECK_FALSE(cas::newton_powmod_pays(192, 1099511627791));
  CHECK(cas::newton_powmod_pays(320, 1125899906842597));  // 2^50 - 27
  CHECK_FALSE(cas::newton_powmod_pays(256, 1125899906842597));
  CHECK(cas::newton_powmod_pays(384, (ulong{1} << 61) - 1));
  CHECK_FALSE(cas::newton_powmod_pays(320, (ulong{1} << 61) - 1));
  CHECK(cas::newton_powmod_pays(384, 18446744073709551557ull));  // 2^64 - 59
  CHECK_FALSE(cas::newton_powmod_pays(320, 18446744073709551557ull));
  CHECK_FALSE(cas::newton_powmod_pays(128, 65521));  // below 2^17: the division's rule
  CHECK(cas::newton_powmod_pays(256, 65521));
  // Below 2^17 without one transform: FLINT from divisors of 2^13 terms until dividends of 2^18.
  CHECK(cas::newton_division_pays(4096, 4096, 3));
  CHECK_FALSE(cas::newton_division_pays(8192, 8192, 3));
  CHECK(cas::newton_division_pays((size_t{1} << 17) + 1, size_t{1} << 17, 3));
  CHECK(cas::newton_division_pays(8192, 8192, 65537));  // 2^16 | 65537 - 1
  CHECK(cas::newton_division_pays((size_t{1} << 16) + 1, size_t{1} << 16, 65537));
  // multi-word moduli: from quotients of 2^11 and divisors of 2^10 terms
  CHECK_FALSE(cas::big_newton_division_pays(1024, 2048));
  CHECK_FALSE(cas::big_newton_division_pays(100000, 512));
  CHECK(cas::big_newton_division_pays(2048, 1024));
  // powmod modulo a multi-word p: where the products of 2 len m - 3 terms leave FLINT (without a
  // GPU: the cores' primes from products of 16383 terms)
  const cas::ModulusPtr big = big_moduli().at(0);
  CHECK_FALSE(cas::big_newton_powmod_pays(64, *big));
  CHECK_FALSE(cas::big_newton_powmod_pays(4096, *big));
  CHECK(cas::big_newton_powmod_pays(8193, *big));
}

TEST_CASE("division in cas: f // g, f % g, divrem, exact division and powmod", "[division]") {
  cas::test::Session s;
  s.eval("gpu(\"off\"); p = 998244353; seed(5); f = randpoly(30000, p); g = randpoly(12000, p) + x^12000");
  CHECK(s.show("d = divrem(f, g); d[0] * g + d[1] == f and deg(d[1]) < deg(g)") == "true");
  CHECK(s.show("f // g == d[0] and f % g == d[1]") == "true");
  cas::engine_reset();
  s.eval("r = f % g");
  // rev(f) i of 18001 = 2^14 + 1617 terms split: t0 i0 modulo x^(2^15) - 1, not a product of 2^16
  CHECK_THAT(cas::engine_last(), Catch::Contains("cpu ntt convolution 2^15"));
  CHECK(s.show("h = randpoly(15000, p); (h * g) / g == h") == "true");
  const auto inexact = s.error("(h * g + 1) / g");
  REQUIRE(inexact);
  CHECK(inexact->message() == "the division is not exact: the divisor does not divide the dividend");
  s.eval("m = randpoly(5000, p) + x^5000; a = randpoly(4000, p)");
  CHECK(s.show("powmod(a, p, m) == powmod(a, p - 1, m) * a % m") == "true");
  s.eval("gpu(\"auto\")");
}
