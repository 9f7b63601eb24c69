// The progress that multi-modular work records (algebra/support/progress.hpp): the primes it runs
// through, one step per prime counted from the workers, and from crt_steps_from coefficients one
// step per rebuilt coefficient. Each test holds the operation's scope, as the dispatching code does,
// so that the last stage is still on show when the work returns.
#include "algebra/multimodular/multimodular.hpp"
#include "algebra/multimodular/zresultant.hpp"
#include "algebra/support/progress.hpp"
#include "flint_support.hpp"

#include <catch2/catch.hpp>
#include <flint/fmpz_poly.h>

#include <string>

namespace {

using cas::ProductEngine;
using cas::ProgressScope;
using cas::ZPoly;

ZPoly flint_product(const ZPoly& a, const ZPoly& b) {
  ZPoly c;
  fmpz_poly_mul(c.get(), a.get(), b.get());
  return c;
}

// Random coefficients of up to `bits` bits, the leading one 2^bits - 1: many primes, whatever the draw.
ZPoly wide_zpoly(flint_rand_t state, slong length, ulong bits) {
  ZPoly f = cas::test::random_zpoly_of_length(state, length, bits);
  cas::Fmpz top;
  fmpz_setbit(top.get(), bits);
  fmpz_sub_ui(top.get(), top.get(), 1);
  fmpz_poly_set_coeff_fmpz(f.get(), length - 1, top.get());
  return f;
}

const char* engine_name(ProductEngine engine) { return engine == ProductEngine::Cpu ? "cpu" : "host kernels"; }

}  // namespace

TEST_CASE("a multimodular product counts every prime it multiplies modulo", "[progress][multimodular]") {
  cas::test::FreshRandom r;
  INFO("seed " << r.seed);
  const ZPoly a = wide_zpoly(r.state(), 500, 300);
  const ZPoly b = wide_zpoly(r.state(), 400, 300);
  const cas::MultimodularPlan plan = cas::plan_multimodular(a, b);
  REQUIRE(plan.primes.size() >= 10);
  for (ProductEngine engine : {ProductEngine::Cpu, ProductEngine::HostKernels}) {
    INFO(engine_name(engine));
    cas::progress_reset();
    const ProgressScope scope("test product", static_cast<double>(a.length() + b.length() - 1));
    const ZPoly c = cas::multiply_with_primes(a, b, plan.primes, engine);
    CHECK(fmpz_poly_equal(c.get(), flint_product(a, b).get()));
    const cas::ProgressSnapshot s = cas::progress_snapshot();
    CHECK(s.text == "test product 2^10, " + std::to_string(plan.primes.size()) + " primes");
    CHECK(s.steps == "primes");  // 899 coefficients: their reconstruction counts no steps
    CHECK(s.total == plan.primes.size());
    CHECK(s.done == s.total);
  }
}

TEST_CASE("a long multimodular product counts every coefficient it rebuilds", "[progress][multimodular]") {
  cas::test::FreshRandom r;
  INFO("seed " << r.seed);
  const ZPoly a = cas::test::random_zpoly_of_length(r.state(), 8193, 64);
  const ZPoly b = cas::test::random_zpoly_of_length(r.state(), 8193, 64);
  const cas::MultimodularPlan plan = cas::plan_multimodular(a, b);
  const uint64_t length = 8193 + 8193 - 1;
  for (ProductEngine engine : {ProductEngine::Cpu, ProductEngine::HostKernels}) {
    INFO(engine_name(engine));
    cas::progress_reset();
    const ProgressScope scope("test product", static_cast<double>(length));
    const ZPoly c = cas::multiply_with_primes(a, b, plan.primes, engine);
    CHECK(fmpz_poly_equal(c.get(), flint_product(a, b).get()));
    const cas::ProgressSnapshot s = cas::progress_snapshot();
    CHECK(s.steps == "crt");
    CHECK(s.total == length);
    CHECK(s.done == length);
  }
}

TEST_CASE("a Z[x] resultant through primes counts every prime", "[progress][multimodular]") {
  cas::test::FreshRandom r;
  INFO("seed " << r.seed);
  const ZPoly a = wide_zpoly(r.state(), 40, 200);
  const ZPoly b = wide_zpoly(r.state(), 30, 200);
  cas::progress_reset();
  const ProgressScope scope("test resultant", 40);
  cas::Fmpz result;
  cas::ResultantPlan plan;
  cas::resultant_multimodular(result.get(), a, b, ProductEngine::Cpu, &plan);
  const cas::ProgressSnapshot s = cas::progress_snapshot();
  CHECK(s.text == "test resultant 2^6, " + std::to_string(plan.primes.size()) + " primes");
  CHECK(s.steps == "primes");
  CHECK(s.total == plan.primes.size());
  CHECK(s.done == s.total);
}
