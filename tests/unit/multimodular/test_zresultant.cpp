// Resultants and discriminants in Z[x] through word-size primes (algebra/multimodular/zresultant.hpp)
// against FLINT's fmpz_poly_resultant and fmpz_poly_discriminant on fresh random inputs biased to
// edge cases: a common factor (resultant 0), equal operands, degree 1, coefficients +-1 or of
// hundreds of bits, a leading coefficient divisible by the first primes. The CPU engines run
// everywhere (HostKernels: the GPU's Euclidean resultant on the host); the GPU engine's tests are
// tagged [gpu] and skip without a device.
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/multimodular/zresultant.hpp"
#include "flint_support.hpp"
#include "interpreter_support.hpp"

#include "gpu/crt.hpp"
#include "gpu/ntt.hpp"

#include <catch2/catch.hpp>
#include <flint/fmpz_poly.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

using cas::Fmpz;
using cas::ProductEngine;
using cas::ZPoly;
using cas::test::FreshRandom;
using cas::test::random_zpoly_of_length;

ZPoly product(const ZPoly& a, const ZPoly& b) {
  ZPoly c;
  fmpz_poly_mul(c.get(), a.get(), b.get());
  return c;
}

// A random pair for the differential tests, one of several kinds.
std::pair<ZPoly, ZPoly> random_pair(flint_rand_t state, slong max_length) {
  const slong la = 2 + static_cast<slong>(n_randint(state, static_cast<ulong>(max_length - 1)));
  const slong lb = 2 + static_cast<slong>(n_randint(state, static_cast<ulong>(max_length - 1)));
  const ulong bits = 1 + n_randint(state, n_randint(state, 2) ? 70 : 300);
  ZPoly a = random_zpoly_of_length(state, la, bits), b = random_zpoly_of_length(state, lb, bits);
  switch (n_randint(state, 5)) {
    case 0: {  // a common factor
      const ZPoly c = random_zpoly_of_length(state, 2 + static_cast<slong>(n_randint(state, 8)), 20);
      return {product(a, c), product(b, c)};
    }
    case 1:
      return {a, a};
    case 2: {  // degree 1 against anything
      return {random_zpoly_of_length(state, 2, bits), b};
    }
    default:
      return {a, b};
  }
}

Fmpz flint_resultant(const ZPoly& a, const ZPoly& b) {
  Fmpz r;
  fmpz_poly_resultant(r.get(), a.get(), b.get());
  return r;
}

std::string text(const ZPoly& f) {
  char* s = fmpz_poly_get_str_pretty(f.get(), "x");
  std::string out(s);
  flint_free(s);
  return out.size() > 300 ? out.substr(0, 300) + "..." : out;
}

void run_differential(ProductEngine engine, int trials, slong max_length) {
  FreshRandom r;
  INFO("seed " << r.seed);
  for (int t = 0; t < trials; t++) {
    const auto [a, b] = random_pair(r.state(), max_length);
    INFO("a = " << text(a) << "\nb = " << text(b));
    Fmpz ours;
    cas::resultant_multimodular(ours.get(), a, b, engine);
    CHECK(fmpz_equal(ours.get(), flint_resultant(a, b).get()));
  }
}

bool skip_without_gpu() { return cas::test::skipped_without_gpu("the GPU engine of Z[x] resultants"); }

}  // namespace

TEST_CASE("Z[x] resultant plan: Hadamard's bound holds and the primes cover it", "[zresultant]") {
  FreshRandom r;
  INFO("seed " << r.seed);
  for (int t = 0; t < cas::test::trials(40); t++) {
    const auto [a, b] = random_pair(r.state(), 60);
    const cas::ResultantPlan plan = cas::plan_resultant(a, b);
    const Fmpz exact = flint_resultant(a, b);
    CHECK(fmpz_bits(exact.get()) <= plan.bound_bits);
    Fmpz modulus(ulong{1});
    for (ulong p : plan.primes) {
      fmpz_mul_ui(modulus.get(), modulus.get(), p);
      CHECK(fmpz_fdiv_ui(a.coeff(a.length() - 1), p) != 0);
      CHECK(fmpz_fdiv_ui(b.coeff(b.length() - 1), p) != 0);
    }
    CHECK(fmpz_bits(modulus.get()) >= plan.bound_bits + 2);
  }
}

TEST_CASE("Z[x] resultant plan: primes that divide a leading coefficient are left out", "[zresultant]") {
  // lc(a) = the product of the first three odd 62-bit primes the plan would take
  const std::vector<std::uint64_t> first = cas::gpu::ntt_primes(cas::multimodular_prime_bits, 1, 3);
  ZPoly a, b;
  Fmpz lc(ulong{1});
  for (std::uint64_t p : first) fmpz_mul_ui(lc.get(), lc.get(), p);
  fmpz_poly_set_coeff_fmpz(a.get(), 40, lc.get());
  fmpz_poly_set_coeff_si(a.get(), 0, -7);
  fmpz_poly_set_coeff_si(a.get(), 3, 5);
  fmpz_poly_set_coeff_si(b.get(), 25, 1);
  fmpz_poly_set_coeff_si(b.get(), 1, 3);
  const cas::ResultantPlan plan = cas::plan_resultant(a, b);
  for (std::uint64_t p : first) CHECK(std::find(plan.primes.begin(), plan.primes.end(), p) == plan.primes.end());
  for (ProductEngine engine : {ProductEngine::Cpu, ProductEngine::HostKernels}) {
    Fmpz ours;
    cas::resultant_multimodular(ours.get(), a, b, engine);
    CHECK(fmpz_equal(ours.get(), flint_resultant(a, b).get()));
  }
}

TEST_CASE("Z[x] resultant through primes equals fmpz_poly_resultant (CPU engines)", "[zresultant]") {
  run_differential(ProductEngine::Cpu, cas::test::trials(40), 80);
  run_differential(ProductEngine::HostKernels, cas::test::trials(40), 80);
  run_differential(ProductEngine::Cpu, cas::test::trials(2), 400);
}

// The crossover set to a length of its own: one term below it (the longer operand) FLINT's
// fmpz_poly_resultant, from it the primes (their engine note), the resultant FLINT's either way; at
// the least crossover a file may set (2), two linear operands through the primes.
TEST_CASE("Z[x] resultant and discriminant: FLINT below the crossover, the primes from it", "[zresultant][dispatch]") {
  cas::test::ModeGuard guard(cas::GpuMode::Off);
  FreshRandom r;
  INFO("seed " << r.seed);
  for (const slong from : {slong{20}, slong{2}}) {
    cas::test::AlgorithmCrossoverGuard at(cas::AlgorithmCrossover::ZResultantPrimes, static_cast<size_t>(from));
    for (const slong length : {from - 1, from}) {
      const ZPoly a = random_zpoly_of_length(r.state(), length, 40),
                  b = random_zpoly_of_length(r.state(), std::min<slong>(5, length), 40);
      INFO("crossover " << from << ", operands of " << a.length() << " and " << b.length() << " terms");
      cas::engine_reset();
      Fmpz ours;
      cas::resultant_z(ours.get(), a, b);
      CHECK(fmpz_equal(ours.get(), flint_resultant(a, b).get()));
      CHECK(cas::test::noted("cpu crt resultant") == (length >= from));
      if (from < 3) continue;  // the discriminant of a linear f is a resultant with a constant: FLINT's
      Fmpz theirs;
      cas::engine_reset();
      cas::discriminant_z(ours.get(), a);
      CHECK(cas::test::noted("cpu crt resultant") == (length >= from));
      fmpz_poly_discriminant(theirs.get(), a.get());
      CHECK(fmpz_equal(ours.get(), theirs.get()));
    }
  }
}

TEST_CASE("Z[x] resultant and discriminant of any operands equal FLINT's", "[zresultant]") {
  cas::test::ModeGuard guard(cas::GpuMode::Off);
  FreshRandom r;
  INFO("seed " << r.seed);
  const slong from = static_cast<slong>(cas::algorithm_crossover(cas::AlgorithmCrossover::ZResultantPrimes));
  ZPoly zero, constant;
  fmpz_poly_set_si(constant.get(), -3);
  const ZPoly long_one = random_zpoly_of_length(r.state(), from + 20, 30);
  const std::vector<const ZPoly*> operands = {&zero, &constant, &long_one};
  for (const ZPoly* a : operands)
    for (const ZPoly* b : operands) {
      Fmpz ours;
      cas::resultant_z(ours.get(), *a, *b);
      CHECK(fmpz_equal(ours.get(), flint_resultant(*a, *b).get()));
    }
  for (int t = 0; t < cas::test::trials(6); t++) {
    ZPoly f = random_zpoly_of_length(r.state(), from + static_cast<slong>(n_randint(r.state(), 100)), 50);
    if (t % 3 == 0) f = product(f, random_zpoly_of_length(r.state(), 3, 10));  // a square factor when squared
    if (t % 3 == 0) f = product(f, f);
    INFO("f = " << text(f));
    Fmpz ours, theirs;
    cas::discriminant_z(ours.get(), f);
    fmpz_poly_discriminant(theirs.get(), f.get());
    CHECK(fmpz_equal(ours.get(), theirs.get()));
  }
  for (slong degree : {1, 2, 3}) {  // small discriminants stay FLINT's
    const ZPoly f = random_zpoly_of_length(r.state(), degree + 1, 20);
    Fmpz ours, theirs;
    cas::discriminant_z(ours.get(), f);
    fmpz_poly_discriminant(theirs.get(), f.get());
    CHECK(fmpz_equal(ours.get(), theirs.get()));
  }
}

TEST_CASE("resultant and discriminant in cas: Z[x] operands past the crossover", "[zresultant][interpreter]") {
  cas::test::Session s;
  s.eval("v = vector(201); for k in 0..200 { v[k] = (-1)^k * (k^3 + 7) }; f = poly(v)");
  s.eval("w = vector(151); for k in 0..150 { w[k] = k^2 + 1 }; g = poly(w)");
  ZPoly f, g;
  for (slong k = 0; k <= 200; k++) fmpz_poly_set_coeff_si(f.get(), k, (k % 2 ? -1 : 1) * (k * k * k + 7));
  for (slong k = 0; k <= 150; k++) fmpz_poly_set_coeff_si(g.get(), k, k * k + 1);
  char* expected = fmpz_get_str(nullptr, 10, flint_resultant(f, g).get());
  CHECK(s.show("resultant(f, g)") == expected);
  flint_free(expected);
  Fmpz disc;
  fmpz_poly_discriminant(disc.get(), f.get());
  expected = fmpz_get_str(nullptr, 10, disc.get());
  CHECK(s.show("discriminant(f)") == expected);
  flint_free(expected);
}

TEST_CASE("Z[x] resultant through primes equals fmpz_poly_resultant (GPU engine)", "[zresultant][gpu]") {
  if (skip_without_gpu()) return;
  run_differential(ProductEngine::Gpu, cas::test::trials(60), 300);
  run_differential(ProductEngine::Gpu, cas::test::trials(2), 1500);
}

TEST_CASE("Z[x] resultant with its primes shared among several GPUs (GPU engine)", "[zresultant][gpu][devices]") {
  if (skip_without_gpu()) return;
  if (cas::test::sharing_gpus() < 2) {
    WARN("SKIPPED: one GPU; resultants shared among GPUs are not exercised");
    return;
  }
  const size_t saved = cas::gpu::set_split_threshold(0);
  run_differential(ProductEngine::Gpu, cas::test::trials(20), 300);
  FreshRandom r;
  INFO("seed " << r.seed);
  for (slong length : {40, 700}) {
    const ZPoly a = cas::test::random_zpoly_of_length(r.state(), length, 64);
    const ZPoly b = cas::test::random_zpoly_of_length(r.state(), length - 1, 64);
    Fmpz ours;
    cas::resultant_multimodular(ours.get(), a, b, ProductEngine::Gpu);
    CHECK(fmpz_equal(ours.get(), flint_resultant(a, b).get()));
    CHECK(cas::gpu::last_split().devices() == cas::test::sharing_gpus());
  }
  cas::gpu::set_split_threshold(saved);
}

TEST_CASE("Z[x] resultant on the GPU in auto mode, and past what a block holds on the cores", "[zresultant][gpu]") {
  if (skip_without_gpu()) return;
  cas::test::ModeGuard guard(cas::GpuMode::Auto);
  FreshRandom r;
  INFO("seed " << r.seed);
  const ZPoly a = random_zpoly_of_length(r.state(), 600, 64), b = random_zpoly_of_length(r.state(), 500, 64);
  cas::engine_reset();
  Fmpz ours;
  cas::resultant_z(ours.get(), a, b);
  CHECK(fmpz_equal(ours.get(), flint_resultant(a, b).get()));
  CHECK(cas::engine_last().rfind("gpu crt resultant", 0) == 0);
  const slong longest = static_cast<slong>(cas::gpu::longest_resultant_operand());
  const ZPoly too_long = random_zpoly_of_length(r.state(), longest + 1, 1), short_one = random_zpoly_of_length(r.state(), 3, 2);
  cas::engine_reset();
  cas::resultant_z(ours.get(), too_long, short_one);
  CHECK(fmpz_equal(ours.get(), flint_resultant(too_long, short_one).get()));
  CHECK(cas::engine_last().rfind("cpu crt resultant", 0) == 0);
}
