// Multi-modular products (algebra/multimodular/multimodular.hpp) against independent oracles: fmpz_poly_mul,
// fmpz_mod_poly_mul and mpz_mul, on fresh random inputs (the seed is printed on failure and can
// be fixed with CAS_TEST_SEED), trials scaled by CAS_TEST_MULTIPLIER. The CPU engine runs
// everywhere; the same tests on the GPU engine are tagged [gpu] and skip without a device.
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/dispatch/explain.hpp"
#include "algebra/multimodular/multimodular.hpp"
#include "algebra/poly/multiply.hpp"
#include "flint_support.hpp"
#include "interpreter_support.hpp"

#include "gpu/crt.hpp"
#include "gpu/ntt.hpp"

#include <catch2/catch.hpp>
#include <flint/fmpz_mod_poly.h>
#include <flint/fmpz_poly.h>
#include <flint/fmpz_vec.h>
#include <gmp.h>

#include <chrono>
#include <cstdlib>
#include <numeric>
#include <random>

namespace {

using cas::CrtMethod;
using cas::ProductEngine;
using cas::ZPoly;

using cas::test::FreshRandom;
using cas::test::random_zpoly_of_length;

// Signed coefficients of up to `bits` bits, biased to edge cases (zeros, +-(2^k - 1)).
ZPoly random_zpoly(flint_rand_t state, slong length, ulong bits) {
  ZPoly f;
  fmpz_poly_randtest(f.get(), state, length, bits);
  return f;
}

// Every coefficient equal to `value`: the largest |c_k| for a given length and size.
ZPoly constant_coefficients(slong length, const fmpz_t value) {
  ZPoly f;
  for (slong i = length - 1; i >= 0; i--) fmpz_poly_set_coeff_fmpz(f.get(), i, value);
  return f;
}

ZPoly flint_product(const ZPoly& a, const ZPoly& b) {
  ZPoly c;
  fmpz_poly_mul(c.get(), a.get(), b.get());
  return c;
}

bool equal(const ZPoly& a, const ZPoly& b) { return fmpz_poly_equal(a.get(), b.get()); }

std::string describe(const ZPoly& f) {
  return "length " + std::to_string(f.length()) + ", " +
         std::to_string(std::labs(_fmpz_vec_max_bits(f.get()->coeffs, f.length()))) + " bits";
}

void check_product(const ZPoly& a, const ZPoly& b, ProductEngine engine) {
  INFO("a: " << describe(a) << "; b: " << describe(b));
  cas::MultimodularPlan plan;
  const ZPoly c = cas::multiply_multimodular(a, b, engine, &plan);
  INFO(plan.primes.size() << " primes, bound 2^" << plan.bound_bits);
  CHECK(equal(c, flint_product(a, b)));
}

struct Shape {
  slong length_a, length_b;
  ulong bits;
};

// Lengths 1..2^16 (2^20 on the GPU), coefficient sizes 1..10,000 bits, unequal lengths.
const Shape fixed_shapes[] = {{1, 1, 1},        {1, 1, 10000},     {1, 700, 64},       {700, 1, 3000},
                              {2, 3, 62},       {5, 8, 10000},     {100, 37, 1000},    {1000, 999, 61},
                              {4096, 4096, 64}, {4096, 100, 1000}, {65536, 65536, 1}, {65536, 65536, 64},
                              {65535, 2, 200},  {300, 300, 10000}};

void run_differential(ProductEngine engine, int random_trials, const std::vector<Shape>& extra) {
  FreshRandom r;
  INFO("seed " << r.seed);
  for (int t = 0; t < random_trials; t++) {
    const slong la = static_cast<slong>(n_randint(r.state(), 300)) + 1;
    const slong lb = static_cast<slong>(n_randint(r.state(), 300)) + 1;
    const ulong bits = n_randint(r.state(), t % 4 == 0 ? 3000 : 200) + 1;
    check_product(random_zpoly(r.state(), la, bits), random_zpoly(r.state(), lb, n_randint(r.state(), bits) + 1),
                  engine);
  }
  for (const Shape& s : fixed_shapes) check_product(random_zpoly(r.state(), s.length_a, s.bits), random_zpoly(r.state(), s.length_b, s.bits), engine);
  for (const Shape& s : extra)  // of exactly the lengths asked for
    check_product(random_zpoly_of_length(r.state(), s.length_a, s.bits),
                  random_zpoly_of_length(r.state(), s.length_b, s.bits), engine);
}

// The extremal inputs -(2^bits - 1) everywhere, of length n: c_{n-1} = n (2^bits - 1)^2 is
// within a hair of the bound n 2^(2 bits), so k primes must suffice. k - 1 primes, of product M',
// give every coefficient exactly when 2 c_{n-1} < M' (the symmetric range of an odd M'): primes
// just below a power of two can leave that hair of room, so the test asks which case holds.
void check_boundary(slong n, ulong bits, ProductEngine engine) {
  cas::Fmpz value;
  fmpz_one(value.get());
  fmpz_mul_2exp(value.get(), value.get(), bits);
  fmpz_sub_ui(value.get(), value.get(), 1);
  fmpz_neg(value.get(), value.get());
  const ZPoly a = constant_coefficients(n, value.get());
  const cas::MultimodularPlan plan = cas::plan_multimodular(a, a);
  INFO("length " << n << ", " << bits << "-bit coefficients: " << plan.primes.size() << " primes");
  const ZPoly expected = flint_product(a, a);
  CHECK(equal(cas::multiply_multimodular(a, a, engine), expected));
  std::vector<ulong> one_fewer(plan.primes.begin(), plan.primes.end() - 1);
  cas::Fmpz twice_largest, fewer_modulus;
  fmpz_mul(twice_largest.get(), value.get(), value.get());
  fmpz_mul_ui(twice_largest.get(), twice_largest.get(), 2 * static_cast<ulong>(n));
  fmpz_one(fewer_modulus.get());
  for (ulong p : one_fewer) fmpz_mul_ui(fewer_modulus.get(), fewer_modulus.get(), p);
  const bool room_left = fmpz_cmp(twice_largest.get(), fewer_modulus.get()) < 0;
  INFO("2 max|c| " << (room_left ? "<" : ">=") << " the product of one prime fewer");
  CHECK(equal(cas::multiply_with_primes(a, a, one_fewer, engine), expected) == room_left);
}

// The smallest coefficient size at which a product of length-n operands needs one more prime
// than at one bit less.
ulong next_prime_boundary(slong n, ulong from_bits) {
  const unsigned log2_length = static_cast<unsigned>(std::ceil(std::log2(2.0 * n - 1)));
  const ulong log2_n = static_cast<ulong>(std::ceil(std::log2(static_cast<double>(n))));
  size_t count = cas::multimodular_primes(2 * from_bits + log2_n, log2_length).size();
  for (ulong bits = from_bits + 1;; bits++)
    if (cas::multimodular_primes(2 * bits + log2_n, log2_length).size() > count) return bits;
}

void run_boundaries(ProductEngine engine, slong max_length) {
  for (slong n : {slong{1}, slong{16}, slong{1000}, max_length})
    for (ulong from : {ulong{1}, ulong{200}, ulong{1500}}) {
      const ulong bits = next_prime_boundary(n, from);
      check_boundary(n, bits - 1, engine);
      check_boundary(n, bits, engine);
    }
}

void check_modular(const fmpz_t p, slong la, slong lb, ProductEngine engine, flint_rand_t state) {
  const cas::ModulusPtr m = cas::make_modulus(p);
  cas::ModPoly a(m), b(m), expected(m);
  fmpz_mod_poly_randtest(a.big(), state, la, m->ctx());
  fmpz_mod_poly_randtest(b.big(), state, lb, m->ctx());
  fmpz_mod_poly_mul(expected.big(), a.big(), b.big(), m->ctx());
  const cas::ModPoly c = cas::multiply_multimodular(a, b, engine);
  INFO("p of " << fmpz_bits(p) << " bits, lengths " << la << " and " << lb);
  CHECK(fmpz_mod_poly_equal(c.big(), expected.big(), m->ctx()));
}

void run_modular(ProductEngine engine, slong max_length) {
  FreshRandom r;
  INFO("seed " << r.seed);
  for (ulong bits : {65, 100, 521, 3000}) {
    cas::Fmpz p;
    fmpz_randprime(p.get(), r.state(), bits, 0);
    for (auto [la, lb] : {std::pair<slong, slong>{1, 1}, {3, 1}, {17, 40}, {600, 599}, {max_length, max_length / 3}})
      check_modular(p.get(), la, lb, engine, r.state());
  }
}

void check_integer(const fmpz_t a, const fmpz_t b, ProductEngine engine) {
  mpz_t x, y, expected;
  mpz_inits(x, y, expected, nullptr);
  fmpz_get_mpz(x, a);
  fmpz_get_mpz(y, b);
  mpz_mul(expected, x, y);
  cas::Fmpz c, oracle;
  cas::multiply_integers_multimodular(c.get(), a, b, engine);
  fmpz_set_mpz(oracle.get(), expected);
  INFO("factors of " << fmpz_bits(a) << " and " << fmpz_bits(b) << " bits");
  CHECK(fmpz_equal(c.get(), oracle.get()));
  mpz_clears(x, y, expected, nullptr);
}

void run_integers(ProductEngine engine, const std::vector<ulong>& large_bits) {
  FreshRandom r;
  INFO("seed " << r.seed);
  cas::Fmpz a, b;
  for (int t = 0; t < cas::test::trials(60); t++) {
    fmpz_randtest(a.get(), r.state(), n_randint(r.state(), 20000) + 1);
    fmpz_randtest(b.get(), r.state(), n_randint(r.state(), 20000) + 1);
    check_integer(a.get(), b.get(), engine);
  }
  fmpz_zero(a.get());
  check_integer(a.get(), b.get(), engine);
  for (ulong bits : large_bits) {
    fmpz_randbits(a.get(), r.state(), bits);
    fmpz_randbits(b.get(), r.state(), bits - bits / 3);
    fmpz_neg(b.get(), b.get());
    check_integer(a.get(), b.get(), engine);
    fmpz_one(a.get());
    fmpz_mul_2exp(a.get(), a.get(), bits);
    fmpz_sub_ui(a.get(), a.get(), 1);  // all ones: every limb at its maximum
    check_integer(a.get(), a.get(), engine);
  }
}

// A pair of random operands of exactly each shape's lengths.
template <size_t count>
std::vector<std::pair<ZPoly, ZPoly>> operand_pairs(flint_rand_t state, const Shape (&shapes)[count]) {
  std::vector<std::pair<ZPoly, ZPoly>> operands;
  for (const Shape& s : shapes)
    operands.emplace_back(random_zpoly_of_length(state, s.length_a, s.bits),
                          random_zpoly_of_length(state, s.length_b, s.bits));
  return operands;
}

bool skip_without_gpu() { return cas::test::skipped_without_gpu("the GPU engine of the multi-modular products"); }

}  // namespace

// ---- the plan --------------------------------------------------------------------------------

TEST_CASE("multimodular plan: bound and primes", "[multimodular]") {
  ZPoly a, b;
  fmpz_poly_set_coeff_si(a.get(), 0, -5);   // 3 bits
  fmpz_poly_set_coeff_si(a.get(), 2, 7);    // length 3
  fmpz_poly_set_coeff_ui(b.get(), 4, 255);  // 8 bits, length 5
  const cas::MultimodularPlan plan = cas::plan_multimodular(a, b);
  CHECK(plan.bound_bits == 3 + 8 + 2);  // min length 3: ceil(log2 3) = 2
  CHECK(plan.log2_length == 3);         // product length 7
  REQUIRE(plan.primes.size() == 1);
  CHECK(plan.primes[0] < (ulong{1} << 62));
  CHECK(plan.primes[0] > (ulong{1} << 61));
  CHECK((plan.primes[0] - 1) % 8 == 0);
  CHECK(cas::plan_multimodular(a, ZPoly()).primes.empty());
  // 1000-bit coefficients, length 2^20: M >= 2^(2000 + 19 + 1) needs 33 primes just below 2^62
  // (32 of them have at most 32 * 62 = 1984 bits).
  const auto primes = cas::multimodular_primes(2000 + 19, 20);
  CHECK(primes.size() == 33);
  for (ulong p : primes) CHECK((p - 1) % (ulong{1} << 20) == 0);
}

TEST_CASE("multimodular: limbs of integer products stay within three primes", "[multimodular]") {
  for (ulong bits : {ulong{100}, ulong{1} << 20, ulong{100000000}, ulong{1} << 34}) {
    const ulong b = cas::integer_limb_bits(bits, bits);
    const ulong limbs = (bits + b - 1) / b;
    const ulong log2_limbs = static_cast<ulong>(std::ceil(std::log2(static_cast<double>(limbs))));
    INFO(bits << " bits: limbs of " << b << " bits");
    CHECK(b >= 64);
    CHECK(cas::multimodular_primes(2 * b + log2_limbs, 30).size() <= 3);
  }
}

// ---- the CPU engine (CI) ---------------------------------------------------------------------

TEST_CASE("multimodular products equal fmpz_poly_mul (CPU engine)", "[multimodular]") {
  run_differential(ProductEngine::Cpu, cas::test::trials(60), {});
}

TEST_CASE("multimodular: zero, one term, squares, both reconstructions", "[multimodular]") {
  FreshRandom r;
  INFO("seed " << r.seed);
  const ZPoly zero, f = random_zpoly(r.state(), 50, 500);
  CHECK(cas::multiply_multimodular(zero, f, ProductEngine::Cpu).is_zero());
  CHECK(cas::multiply_multimodular(f, zero, ProductEngine::Cpu).is_zero());
  CHECK(equal(cas::multiply_multimodular(f, f, ProductEngine::Cpu), flint_product(f, f)));
  for (ulong bits : {ulong{1}, ulong{64}, ulong{700}, ulong{5000}}) {
    const ZPoly a = random_zpoly(r.state(), 200, bits), b = random_zpoly(r.state(), 130, bits);
    const auto primes = cas::plan_multimodular(a, b).primes;
    for (CrtMethod method : {CrtMethod::Garner, CrtMethod::ProductTree}) {
      INFO(cas::crt_method_name(method) << ", " << bits << " bits");
      CHECK(equal(cas::multiply_with_primes(a, b, primes, ProductEngine::Cpu, method), flint_product(a, b)));
    }
  }
}

TEST_CASE("multimodular: at the prime-count boundary (CPU engine)", "[multimodular]") {
  run_boundaries(ProductEngine::Cpu, 4096);
}

TEST_CASE("multimodular products in Z/pZ[x] for p above 64 bits equal fmpz_mod_poly_mul (CPU engine)",
          "[multimodular]") {
  run_modular(ProductEngine::Cpu, 3000);
}

TEST_CASE("multimodular integer products equal mpz_mul (CPU engine)", "[multimodular]") {
  run_integers(ProductEngine::Cpu, {64, 65, 1000, 100000, 1000000});
}

// ---- the GPU pipeline's word-level steps on the host (CI) -------------------------------------

TEST_CASE("multimodular products equal fmpz_poly_mul (GPU steps on the host)", "[multimodular][crt]") {
  run_differential(ProductEngine::HostKernels, cas::test::trials(30), {});
}

TEST_CASE("multimodular: at the prime-count boundary (GPU steps on the host)", "[multimodular][crt]") {
  run_boundaries(ProductEngine::HostKernels, 1024);
}

TEST_CASE("multimodular products in Z/pZ[x] for p above 64 bits (GPU steps on the host)", "[multimodular][crt]") {
  run_modular(ProductEngine::HostKernels, 1000);
}

TEST_CASE("multimodular integer products equal mpz_mul (GPU steps on the host)", "[multimodular][crt]") {
  run_integers(ProductEngine::HostKernels, {64, 65, 1000, 100000, 1000000});
}

TEST_CASE("multimodular: summed words finished in parallel ranges, carries across them", "[multimodular][crt]") {
  FreshRandom r;
  INFO("seed " << r.seed);
  const size_t words = 1000, groups = cas::crt::summed_groups(words);
  for (int pattern = 0; pattern < 3; pattern++)
    for (size_t ranges : {1, 2, 3, 8, 999, 1000}) {
      // 0: random sums and carries; 1: all-ones sums, one carry into word 1 that ripples through
      // every range; 2: all-ones sums, a carry of 2 out of every word. The top two words stay free.
      std::vector<ulong> summed(words + groups, 0);
      cas::Fmpz expected, term;
      for (size_t w = 0; w + 2 < words; w++) {
        summed[w] = pattern == 0 ? n_randlimb(r.state()) : ~ulong{0};
        const ulong carry = pattern == 0 ? n_randint(r.state(), 3) : pattern == 1 ? (w == 0) : 2;
        summed[words + w / 32] |= carry << (2 * (w % 32));
        fmpz_set_ui(term.get(), summed[w]);
        fmpz_mul_2exp(term.get(), term.get(), 64 * w);
        fmpz_add(expected.get(), expected.get(), term.get());
        fmpz_set_ui(term.get(), carry);
        fmpz_mul_2exp(term.get(), term.get(), 64 * (w + 1));
        fmpz_add(expected.get(), expected.get(), term.get());
      }
      cas::Fmpz sum;
      cas::finish_summed_words(sum.get(), summed.data(), words, ranges);
      INFO("pattern " << pattern << ", " << ranges << " ranges");
      CHECK(fmpz_equal(sum.get(), expected.get()));
    }
}

void check_powers(ProductEngine engine, slong max_length) {
  FreshRandom r;
  INFO("seed " << r.seed);
  for (ulong e : {0ul, 1ul, 2ul, 3ul, 5ul, 12ul})
    for (int t = 0; t < cas::test::trials(6); t++) {
      const slong length = t == 0 ? 1 : static_cast<slong>(n_randint(r.state(), static_cast<ulong>(max_length))) + 1;
      const ZPoly f = random_zpoly(r.state(), length, n_randint(r.state(), t % 2 ? 600 : 64) + 1);
      ZPoly expected;
      fmpz_poly_pow(expected.get(), f.get(), e);
      cas::MultimodularPlan plan;
      const ZPoly c = cas::power_multimodular(f, e, engine, &plan);
      INFO(describe(f) << ", e = " << e << ": " << plan.primes.size() << " primes, bound 2^" << plan.bound_bits);
      CHECK(equal(c, expected));
    }
}

// The product folded modulo x^n -+ 1 by FLINT: the convolutions' oracle.
ZPoly flint_folded(const ZPoly& a, const ZPoly& b, slong n, bool negacyclic) {
  const ZPoly c = flint_product(a, b);
  ZPoly folded;
  for (slong k = c.length() - 1; k >= 0; k--) {
    cas::Fmpz sum;
    fmpz_poly_get_coeff_fmpz(sum.get(), folded.get(), k % n);
    if (negacyclic && k >= n)
      fmpz_sub(sum.get(), sum.get(), c.get()->coeffs + k);
    else
      fmpz_add(sum.get(), sum.get(), c.get()->coeffs + k);
    fmpz_poly_set_coeff_fmpz(folded.get(), k % n, sum.get());
  }
  return folded;
}

// Cyclic and negacyclic convolutions through the product's primes, folded before Garner
// (convolve_through_product): any n, operands of n coefficients or fewer, sizes up to 1000 bits,
// and the extreme -(2^bits - 1) everywhere (check_boundary's), whose folded sums reach the bound.
void check_convolutions(ProductEngine engine, slong max_n) {
  FreshRandom r;
  INFO("seed " << r.seed);
  for (int t = 0; t < cas::test::trials(12); t++) {
    const slong n = t == 0 ? 1 : static_cast<slong>(n_randint(r.state(), static_cast<ulong>(max_n))) + 1;
    const ulong bits = n_randint(r.state(), t % 3 ? 100 : 1000) + 1;
    const bool extreme = t % 4 == 1;
    cas::Fmpz value;
    fmpz_one(value.get());
    fmpz_mul_2exp(value.get(), value.get(), bits);
    fmpz_sub_ui(value.get(), value.get(), 1);
    fmpz_neg(value.get(), value.get());
    const ZPoly a = extreme ? constant_coefficients(n, value.get()) : random_zpoly(r.state(), n, bits);
    const ZPoly b = extreme ? constant_coefficients(n, value.get())
                            : random_zpoly(r.state(), static_cast<slong>(n_randint(r.state(), n)) + 1, bits);
    if (a.is_zero() || b.is_zero()) continue;
    for (bool negacyclic : {false, true}) {
      cas::MultimodularPlan plan;
      const ZPoly c = cas::convolve_through_product(a, b, static_cast<size_t>(n), negacyclic, engine, &plan);
      INFO("n = " << n << ", a: " << describe(a) << ", b: " << describe(b) << (negacyclic ? ", negacyclic" : "")
                  << ": " << plan.primes.size() << " primes");
      CHECK(equal(c, flint_folded(a, b, n, negacyclic)));
    }
  }
}

TEST_CASE("multimodular convolutions fold the product's residues (GPU steps on the host)", "[multimodular][crt]") {
  check_convolutions(ProductEngine::HostKernels, 3000);
}

TEST_CASE("multimodular powers equal fmpz_poly_pow (GPU steps on the host)", "[multimodular][crt]") {
  check_powers(ProductEngine::HostKernels, 300);
  // The square's plan is the product's: the bound of f * f.
  FreshRandom r;
  const ZPoly f = random_zpoly(r.state(), 100, 300);
  CHECK(cas::plan_multimodular_power(f, 2).primes == cas::plan_multimodular(f, f).primes);
  CHECK(cas::plan_multimodular_power(f, 2).bound_bits == cas::plan_multimodular(f, f).bound_bits);
}

TEST_CASE("multimodular: limb matrices round-trip", "[multimodular][crt]") {
  FreshRandom r;
  INFO("seed " << r.seed);
  for (ulong bits : {ulong{1}, ulong{62}, ulong{64}, ulong{65}, ulong{3000}}) {
    const ZPoly f = random_zpoly(r.state(), 300, bits);
    const cas::crt::LimbMatrix m = cas::to_limb_matrix(f.get()->coeffs, static_cast<size_t>(f.length()));
    const size_t max_bits = static_cast<size_t>(std::labs(_fmpz_vec_max_bits(f.get()->coeffs, f.length())));
    CHECK(m.width == std::max<size_t>(1, (max_bits + 63) / 64));
    ZPoly g;
    fmpz_poly_fit_length(g.get(), f.length());
    cas::from_limb_matrix(g.get()->coeffs, m);
    _fmpz_poly_set_length(g.get(), f.length());
    CHECK(equal(f, g));
  }
}

// Blocks as the GPU moves them: a polynomial pulled through limb_source and pushed back through
// read_limb_block in blocks of 1, 7, 1000 and more coefficients than it has, against the whole
// matrix (to_limb_matrix) and the polynomial itself.
TEST_CASE("multimodular: limb blocks of any size", "[multimodular][crt]") {
  FreshRandom r;
  INFO("seed " << r.seed);
  for (ulong bits : {ulong{1}, ulong{64}, ulong{65}, ulong{700}}) {
    const ZPoly f = random_zpoly_of_length(r.state(), 2500, bits);
    const size_t n = static_cast<size_t>(f.length());
    const cas::crt::LimbMatrix whole = cas::to_limb_matrix(f.get()->coeffs, n);
    for (size_t block : {size_t{1}, size_t{7}, size_t{1000}, n + 5}) {
      INFO(bits << "-bit coefficients, blocks of " << block);
      const cas::crt::LimbMatrix pulled = cas::gpu::pull_matrix(cas::limb_source(f.get()->coeffs, n), block);
      CHECK(pulled.width == whole.width);
      CHECK(pulled.limbs == whole.limbs);
      CHECK(pulled.negative == whole.negative);
      ZPoly g;
      fmpz_poly_fit_length(g.get(), f.length());
      cas::gpu::push_matrix(pulled, block, [&g](const cas::gpu::ConstLimbBlock& b) {
        cas::read_limb_block(g.get()->coeffs, b);
      });
      _fmpz_poly_set_length(g.get(), f.length());
      CHECK(equal(f, g));
    }
  }
}

TEST_CASE("multimodular: :timer names the primes", "[multimodular]") {
  cas::engine_reset();
  cas::OperationDetail d;
  d.primes = 17;
  d.bound_bits = 1000;
  cas::engine_note("gpu crt", double(1 << 20), d);
  CHECK(cas::engine_last() == "gpu crt 17 primes 2^20");
  cas::engine_reset();
}

TEST_CASE("multimodular: :explain names the primes and the bound", "[multimodular]") {
  cas::EngineNote note;
  note.what = "gpu crt";
  note.detail.length1 = 3;
  note.detail.length2 = 5;
  note.detail.primes = 1;
  note.detail.bound_bits = 13;
  const std::string text = cas::explain_note(note);
  INFO(text);
  const auto primes = cas::multimodular_primes(13, 3);
  REQUIRE(primes.size() == 1);
  CHECK(text.find(std::to_string(primes[0])) != std::string::npos);
  CHECK(text.find("< 2^13") != std::string::npos);
  CHECK(text.find("on the GPU") != std::string::npos);
}

TEST_CASE("multimodular: :explain describes powers in one transform", "[multimodular]") {
  cas::EngineNote note;
  note.what = "gpu crt power";
  note.detail.length1 = 1000;  // f of length 1000 to the 5th: 4996 coefficients, transforms of 8192
  note.detail.length2 = 5;
  note.detail.bound_bits = 560;
  std::string text = cas::explain_note(note);
  INFO(text);
  const auto primes = cas::multimodular_primes(560, 13);
  CHECK(text.find(std::to_string(primes.size()) + " primes") != std::string::npos);
  CHECK(text.find(std::to_string(primes[0])) != std::string::npos);
  CHECK(text.find("one NTT of length 8192 per prime") != std::string::npos);
  CHECK(text.find("< 2^560") != std::string::npos);
  note.what = "gpu ntt power";
  note.detail.modulus = 998244353;
  note.detail.modulus_bits = 30;
  text = cas::explain_note(note);
  INFO(text);
  CHECK(text.find("NTT of length 8192") != std::string::npos);
  CHECK(text.find("raised to the power 5") != std::string::npos);
}

TEST_CASE("multimodular: without a GPU the dispatcher keeps FLINT", "[multimodular]") {
  if (cas::gpu_usable()) return;  // the [gpu] tests below cover the other case
  const cas::GpuMode saved = cas::gpu_mode();
  cas::set_gpu_mode(cas::GpuMode::On);
  FreshRandom r;
  const ZPoly a = random_zpoly(r.state(), 3000, 64), b = random_zpoly(r.state(), 3000, 64);
  cas::engine_reset();
  CHECK(equal(cas::multiply(a, b), flint_product(a, b)));
  CHECK(cas::engine_last().rfind("flint fmpz_poly_mul", 0) == 0);
  cas::set_gpu_mode(saved);
}

// Hidden: cas_unit_tests "[timing]" prints the reconstruction times quoted in multimodular.cpp.
// The host's share of the GPU pipeline at the size of its headline Z[x] product (2^20
// coefficients of 1000 bits, a product of 2^21 coefficients of 33 limbs): operands into limb
// matrices, the result out of one.
TEST_CASE("multimodular: host conversions of the GPU pipeline", "[.][timing]") {
  FreshRandom r;
  const slong length = slong{1} << 20;
  ZPoly f;
  fmpz_poly_fit_length(f.get(), length);
  for (slong i = 0; i < length; i++) fmpz_randbits(f.get()->coeffs + i, r.state(), 1000);
  _fmpz_poly_set_length(f.get(), length);
  auto ms_since = [](std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  };
  auto start = std::chrono::steady_clock::now();
  const cas::crt::LimbMatrix m = cas::to_limb_matrix(f.get()->coeffs, static_cast<size_t>(length));
  WARN("to_limb_matrix, 2^20 x 1000 bits: " << ms_since(start) << " ms");
  cas::crt::LimbMatrix product;
  product.count = size_t{1} << 21;
  product.width = 33;
  product.limbs.resize(product.count * product.width);
  for (size_t i = 0; i < product.limbs.size(); i++) product.limbs[i] = n_randlimb(r.state());
  product.negative.assign(product.count, 0);
  for (const char* run : {"first run", "memory reused"}) {  // the first run faults its pages in
    fmpz* out = _fmpz_vec_init(static_cast<slong>(product.count));
    start = std::chrono::steady_clock::now();
    cas::from_limb_matrix(out, product);
    WARN("from_limb_matrix, 2^21 x 33 limbs, " << run << ": " << ms_since(start) << " ms");
    _fmpz_vec_clear(out, static_cast<slong>(product.count));
  }
  CHECK(m.width == 16);
  // An integer product of 10^8-bit factors: 3.2 million summed words and their carries.
  const size_t words = 3200000, groups = cas::crt::summed_groups(words);
  std::vector<ulong> summed(words + groups);
  for (size_t w = 0; w + 2 < words; w++) summed[w] = n_randlimb(r.state());
  for (size_t g = 0; g + 1 < groups; g++) summed[words + g] = n_randlimb(r.state()) & 0x5555555555555555ull;
  cas::Fmpz integer;
  for (const char* run : {"first run", "into the same integer"}) {  // the first one faults its pages in
    start = std::chrono::steady_clock::now();
    cas::finish_summed_words(integer.get(), summed.data(), words);
    WARN("finish_summed_words, 3.2e6 words, " << run << ": " << ms_since(start) << " ms");
  }
}

// Garner's reconstruction against FLINT's product tree, with residues 0 and p - 1 among random ones
// (and p_0 - 1 with zeros: a digit above the primes after the first, which random residues almost
// never give), over lengths that split over threads.
TEST_CASE("multimodular: Garner's reconstruction equals the product tree", "[multimodular]") {
  FreshRandom r;
  for (size_t length : {size_t{1}, size_t{8}, size_t{1003}, size_t{5000}})
    for (ulong bits : {ulong{20}, ulong{64}, ulong{200}, ulong{1000}, ulong{1200}}) {
      const auto primes = cas::multimodular_primes(2 * bits + 16, 17);
      std::vector<ulong> residues(primes.size() * length);
      for (size_t j = 0; j < primes.size(); j++)
        for (size_t i = 0; i < length; i++)
          residues[j * length + i] = i % 5 == 1   ? primes[j] - 1
                                     : i % 5 == 2 ? 0
                                     : i % 5 == 3 ? (j == 0 ? primes[0] - 1 : 0)  // a digit p_0 - 1 above p_j
                                                  : n_randint(r.state(), primes[j]);
      fmpz* tree = _fmpz_vec_init(static_cast<slong>(length));
      fmpz* garner = _fmpz_vec_init(static_cast<slong>(length));
      cas::reconstruct_symmetric(tree, residues.data(), length, primes, CrtMethod::ProductTree);
      cas::reconstruct_symmetric(garner, residues.data(), length, primes, CrtMethod::Garner);
      INFO(primes.size() << " primes, " << length << " coefficients");
      CHECK(_fmpz_vec_equal(garner, tree, static_cast<slong>(length)));
      _fmpz_vec_clear(tree, static_cast<slong>(length));
      _fmpz_vec_clear(garner, static_cast<slong>(length));
    }
}

TEST_CASE("multimodular: Garner against the product tree", "[.][timing]") {
  FreshRandom r;
  const size_t length = size_t{1} << 16;
  for (ulong bits : {ulong{64}, ulong{150}, ulong{250}, ulong{400}, ulong{1000}, ulong{3000}}) {
    const auto primes = cas::multimodular_primes(2 * bits + 16, 17);
    std::vector<ulong> residues(primes.size() * length);
    for (size_t j = 0; j < primes.size(); j++)
      for (size_t i = 0; i < length; i++) residues[j * length + i] = n_randint(r.state(), primes[j]);
    fmpz* garner = _fmpz_vec_init(static_cast<slong>(length));
    fmpz* tree = _fmpz_vec_init(static_cast<slong>(length));
    for (CrtMethod method : {CrtMethod::Garner, CrtMethod::ProductTree}) {
      const auto start = std::chrono::steady_clock::now();
      cas::reconstruct_symmetric(method == CrtMethod::Garner ? garner : tree, residues.data(), length, primes, method);
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      WARN(primes.size() << " primes, 2^16 coefficients, " << cas::crt_method_name(method) << ": " << ms << " ms");
    }
    CHECK(_fmpz_vec_equal(garner, tree, static_cast<slong>(length)));
    _fmpz_vec_clear(garner, static_cast<slong>(length));
    _fmpz_vec_clear(tree, static_cast<slong>(length));
  }
}

// ---- the GPU engine (the device) -------------------------------------------------------------

TEST_CASE("multimodular products equal fmpz_poly_mul (GPU engine)", "[multimodular][gpu]") {
  if (skip_without_gpu()) return;
  run_differential(ProductEngine::Gpu, cas::test::trials(60),
                   {{1 << 18, 1 << 18, 64}, {1 << 19, (1 << 19) + 1, 64}, {1 << 19, 1 << 19, 1000},
                    {1 << 20, 7, 100}, {1 << 16, 1 << 16, 10000}});
}

TEST_CASE("multimodular products of length 2^22 equal fmpz_poly_mul (GPU engine)", "[multimodular][gpu]") {
  if (skip_without_gpu()) return;
  run_differential(ProductEngine::Gpu, 0, {{1 << 21, (1 << 21) + 1, 64}, {1 << 22, 1, 200}});
}

TEST_CASE("multimodular: at the prime-count boundary (GPU engine)", "[multimodular][gpu]") {
  if (skip_without_gpu()) return;
  run_boundaries(ProductEngine::Gpu, 1 << 19);
}

TEST_CASE("multimodular products in Z/pZ[x] for p above 64 bits (GPU engine)", "[multimodular][gpu]") {
  if (skip_without_gpu()) return;
  run_modular(ProductEngine::Gpu, 1 << 17);
}

TEST_CASE("multimodular integer products equal mpz_mul (GPU engine)", "[multimodular][gpu]") {
  if (skip_without_gpu()) return;
  run_integers(ProductEngine::Gpu, {64, 1000, 1000000, 10000000, 100000000});
}

TEST_CASE("multimodular powers equal fmpz_poly_pow (GPU engine)", "[multimodular][gpu]") {
  if (skip_without_gpu()) return;
  check_powers(ProductEngine::Gpu, 3000);
}

TEST_CASE("multimodular convolutions fold the product's residues (GPU engine)", "[multimodular][gpu]") {
  if (skip_without_gpu()) return;
  check_convolutions(ProductEngine::Gpu, 1 << 17);
}

// How the engine divided the primes among the GPUs (gpu::last_split), kept in the plan and noted
// for :explain: nothing on the host's engines; on the GPU every prime once, on one device or, where
// several share work and the threshold lets every operation be split, on each of them.
TEST_CASE("multimodular: the plan says which GPU took which primes", "[multimodular][gpu]") {
  FreshRandom r;
  INFO("seed " << r.seed);
  // nonzero operands (randtest's polynomials may be 0, whose product takes no primes)
  const ZPoly a = random_zpoly_of_length(r.state(), 3000, 900), b = random_zpoly_of_length(r.state(), 2000, 700);
  cas::MultimodularPlan plan;
  for (ProductEngine engine : {ProductEngine::Cpu, ProductEngine::HostKernels}) {
    cas::multiply_multimodular(a, b, engine, &plan);
    CHECK(plan.primes_per_device.empty());
    cas::power_multimodular(a, 3, engine, &plan);
    CHECK(plan.primes_per_device.empty());
  }
  if (skip_without_gpu()) return;
  const std::size_t threshold = cas::gpu::set_split_threshold(0);
  const bool shared = cas::gpu::devices_share_work();
  auto check_split = [&](const cas::MultimodularPlan& p) {
    INFO(p.primes.size() << " primes on " << p.primes_per_device.size() << " GPUs");
    std::size_t sum = 0;
    for (std::size_t k : p.primes_per_device) sum += k;
    CHECK(sum == p.primes.size());
    CHECK(p.primes_per_device.size() ==
          (shared ? std::min<std::size_t>(cas::gpus_in_use(), p.primes.size()) : std::size_t{1}));
  };
  cas::multiply_multimodular(a, b, ProductEngine::Gpu, &plan);
  check_split(plan);
  cas::power_multimodular(a, 3, ProductEngine::Gpu, &plan);
  check_split(plan);
  cas::convolve_through_product(a, b, 4096, true, ProductEngine::Gpu, &plan);
  check_split(plan);
  cas::engine_reset();
  cas::multiply_multimodular_on_best_engine(a, b, plan);
  const auto notes = cas::engine_notes();
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].detail.devices == plan.primes_per_device.size());
  cas::engine_reset();
  cas::gpu::set_split_threshold(threshold);
}

// Products and powers whose transforms fit a block's shared memory run every prime in one launch
// (gpu/block_products.cu), and the reconstruction of few coefficients one warp a coefficient
// (gpu/garner_warps.cu). The same inputs by the default rules, with both wherever they fit, with
// neither, and limited to transforms of 64 words and 100 coefficients (so that the paths meet in
// one run), all against FLINT: at the largest transform a block holds on the H100 (2^14) and one
// past it, with hundreds of primes, one term, powers, convolutions and integers of a few thousand
// chunks.
TEST_CASE("multimodular: short products one block a prime whole or in pieces or through the passes (GPU engine)",
          "[multimodular][gpu]") {
  if (skip_without_gpu()) return;
  FreshRandom r;
  INFO("seed " << r.seed);
  const Shape shapes[] = {{1, 1, 1},        {1, 1, 10000},    {5, 8, 10000},      {33, 32, 64},    {2000, 40, 4000},
                          {8192, 8193, 64}, {8193, 8193, 64}, {4096, 4096, 1000}, {300, 300, 64},  {10000, 9000, 1000},
                          {20000, 300, 500}};
  const std::vector<std::pair<ZPoly, ZPoly>> operands = operand_pairs(r.state(), shapes);
  const ZPoly f = random_zpoly_of_length(r.state(), 700, 300);
  cas::Fmpz x, y;
  fmpz_randbits(x.get(), r.state(), 150000);
  fmpz_randbits(y.get(), r.state(), 100000);
  struct Limits {
    size_t blocks, pieces, warps;
  };
  const Limits limits[] = {{SIZE_MAX, SIZE_MAX, SIZE_MAX},
                           {size_t{1} << 14, SIZE_MAX - 1, size_t{1} << 15},
                           {0, 0, 0},
                           {size_t{1} << 14, 0, 0},
                           {64, size_t{1} << 15, 100}};
  for (const Limits& l : limits) {
    INFO("block products limit " << l.blocks << ", in pieces up to " << l.pieces << ", Garner by warps up to "
                                 << l.warps << " coefficients");
    const size_t saved = cas::gpu::set_block_products_limit(l.blocks);
    const size_t saved_pieces = cas::gpu::set_piece_products_limit(l.pieces);
    const size_t saved_warps = cas::gpu::set_warp_garner_limit(l.warps);
    for (const auto& [a, b] : operands) check_product(a, b, ProductEngine::Gpu);
    for (ulong e : {1ul, 2ul, 7ul, 23ul}) {
      ZPoly expected;
      fmpz_poly_pow(expected.get(), f.get(), e);
      INFO("f^" << e);
      CHECK(equal(cas::power_multimodular(f, e, ProductEngine::Gpu), expected));
    }
    for (bool negacyclic : {false, true}) {
      const auto& [a, b] = operands[7];
      CHECK(equal(cas::convolve_through_product(a, b, 4096, negacyclic, ProductEngine::Gpu),
                  flint_folded(a, b, 4096, negacyclic)));
    }
    check_integer(x.get(), y.get(), ProductEngine::Gpu);
    cas::gpu::set_block_products_limit(saved);
    cas::gpu::set_piece_products_limit(saved_pieces);
    cas::gpu::set_warp_garner_limit(saved_warps);
  }
}

// With several GPUs (gpu/crt.hpp, "several GPUs") and the split's threshold at 0, every
// operation with two primes or more is shared: products, powers, convolutions and integers
// against FLINT, uneven lengths and a result range of a few coefficients among them, then the
// same inputs on one device. Skips visibly with fewer than two GPUs.
TEST_CASE("multimodular: products shared among several GPUs equal FLINT's (GPU engine)", "[multimodular][gpu][devices]") {
  if (skip_without_gpu()) return;
  std::string why;
  if (!cas::gpu::devices_share_work(&why) && cas::gpu::sharing_ranks() < 2) {
    WARN("SKIPPED: " << why << "; the split among GPUs is not exercised");
    return;
  }
  FreshRandom r;
  INFO("seed " << r.seed);
  const Shape shapes[] = {{1, 2, 64},        {3, 5, 10000},     {300, 200, 1000},  {8192, 8193, 64},
                          {20000, 300, 500}, {1 << 18, 1 << 18, 64}, {1 << 17, 1 << 17, 2000}};
  const std::vector<std::pair<ZPoly, ZPoly>> operands = operand_pairs(r.state(), shapes);
  const ZPoly f = random_zpoly_of_length(r.state(), 3000, 300);
  cas::Fmpz x, y;
  fmpz_randbits(x.get(), r.state(), 20000000);
  fmpz_randbits(y.get(), r.state(), 7000000);
  const size_t saved = cas::gpu::set_split_threshold(0);
  // Under mpirun every rank's GPU takes part whatever gpus(n) says: one round there.
  const std::vector<int> rounds =
      cas::gpu::sharing_ranks() > 1 ? std::vector<int>{cas::gpu::sharing_ranks()} : std::vector<int>{cas::gpu::device_count(), 1};
  for (int devices : rounds) {
    const int saved_devices = cas::gpu::set_devices_used(devices);
    INFO(devices << " devices");
    // as many devices as the operation has primes, up to every device
    auto shared_by = [](int devices) {
      const cas::gpu::SplitRecord split = cas::gpu::last_split();
      const size_t primes = std::accumulate(split.primes_per_device.begin(), split.primes_per_device.end(), size_t{0});
      CHECK(split.devices() == int(std::min(primes, size_t(devices))));
      for (size_t p : split.primes_per_device) CHECK(p >= 1);
    };
    for (const auto& [a, b] : operands) {
      check_product(a, b, ProductEngine::Gpu);
      shared_by(devices);
    }
    for (ulong e : {2ul, 5ul}) {
      ZPoly expected;
      fmpz_poly_pow(expected.get(), f.get(), e);
      INFO("f^" << e);
      CHECK(equal(cas::power_multimodular(f, e, ProductEngine::Gpu), expected));
      shared_by(devices);
    }
    for (bool negacyclic : {false, true}) {
      const auto& [a, b] = operands[3];
      CHECK(equal(cas::convolve_through_product(a, b, 16384, negacyclic, ProductEngine::Gpu),
                  flint_folded(a, b, 16384, negacyclic)));
      shared_by(devices);
    }
    check_integer(x.get(), y.get(), ProductEngine::Gpu);
    shared_by(devices);
    cas::gpu::set_devices_used(saved_devices);
  }
  cas::gpu::set_split_threshold(saved);
}

TEST_CASE("multimodular: the dispatcher sends Z[x], big-p and integer products to the GPU",
          "[multimodular][gpu]") {
  if (skip_without_gpu()) return;
  const cas::GpuMode saved = cas::gpu_mode();
  cas::set_gpu_mode(cas::GpuMode::On);
  FreshRandom r;
  INFO("seed " << r.seed);
  const ZPoly a = random_zpoly_of_length(r.state(), 5000, 300), b = random_zpoly_of_length(r.state(), 4000, 300);
  cas::engine_reset();
  CHECK(equal(cas::multiply(a, b), flint_product(a, b)));
  CHECK(cas::engine_last().rfind("gpu crt ", 0) == 0);
  CHECK(cas::engine_last().find(" primes 2^14") != std::string::npos);
  cas::Fmpz x, y, z, expected;
  fmpz_randbits(x.get(), r.state(), 3000000);
  fmpz_randbits(y.get(), r.state(), 2000000);
  cas::engine_reset();
  cas::multiply(z.get(), x.get(), y.get());
  fmpz_mul(expected.get(), x.get(), y.get());
  CHECK(fmpz_equal(z.get(), expected.get()));
  CHECK(cas::engine_last().rfind("gpu crt integer 3 primes", 0) == 0);
  const ZPoly f = random_zpoly_of_length(r.state(), 3000, 100);
  ZPoly expected_power;
  fmpz_poly_pow(expected_power.get(), f.get(), 5);
  cas::engine_reset();
  CHECK(equal(cas::power(f, 5), expected_power));
  INFO("engine: " << cas::engine_last());
  std::string notices;
  for (const std::string& notice : cas::take_notices()) notices += notice + "; ";
  INFO("notices: " << notices);
  CHECK(cas::engine_last().rfind("gpu crt power ", 0) == 0);
  cas::set_gpu_mode(saved);
}
