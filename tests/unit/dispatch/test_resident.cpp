// Values whose coefficients the GPU keeps (algebra/dispatch/resident.hpp). First with a download
// that reads a host vector, so that the bookkeeping runs without a GPU: when the host copy is
// made, once, what copies and changes do to the kept array, eviction under a limit. Then, where a
// GPU answers, products and powers of kept values against FLINT on fresh random inputs.
#include <catch2/catch.hpp>

#include "flint_support.hpp"

#include "algebra/dispatch/engine.hpp"
#include "algebra/dispatch/resident.hpp"
#include "algebra/poly/modpoly.hpp"
#include "algebra/poly/division.hpp"
#include "algebra/poly/multiply.hpp"
#include "algebra/support/flint_util.hpp"

#include <atomic>
#include <thread>
#include <vector>

using namespace cas;

namespace {

const ModulusPtr prime = make_modulus(4611685941117976577ULL);

struct FakeGpu {
  std::vector<ulong> words;
  std::atomic<int> downloads{0};

  ResidentWords::Download download() {
    return [this](const gpu::DeviceWords&, ulong* out, size_t count) {
      downloads++;
      std::copy(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(count), out);
    };
  }
  ModPoly value() { return ModPoly::on_gpu(prime, keep_on_gpu(gpu::DeviceWords(), words.size(), download())); }
};

std::vector<ulong> coefficients(const ModPoly& f) {
  const nmod_poly_struct* g = f.nmod();
  return std::vector<ulong>(g->coeffs, g->coeffs + g->length);
}

struct LimitGuard {
  explicit LimitGuard(size_t bytes) { set_resident_limit(bytes); }
  ~LimitGuard() { set_resident_limit(0); }
};

}  // namespace

TEST_CASE("resident values: the host copy is made on the first read, once", "[resident]") {
  LimitGuard unlimited(size_t{1} << 40);
  FakeGpu gpu{{5, 0, 7, 1}};
  const ModPoly f = gpu.value();
  CHECK(f.length() == 4);  // from the kept array, nothing downloaded
  CHECK(!f.coefficients_on_host());
  CHECK(gpu.downloads == 0);
  CHECK(f.device_words() != nullptr);
  CHECK(coefficients(f) == gpu.words);
  CHECK(gpu.downloads == 1);
  CHECK(f.coefficients_on_host());
  CHECK(coefficients(f) == gpu.words);
  CHECK(gpu.downloads == 1);
  CHECK(f.device_words() != nullptr);  // still on the GPU for the next product
}

TEST_CASE("resident values: copies share the kept array, a change drops it", "[resident]") {
  LimitGuard unlimited(size_t{1} << 40);
  FakeGpu gpu{{1, 2, 3}};
  ModPoly f = gpu.value();
  const ModPoly copy = f;
  CHECK(gpu.downloads == 1);
  CHECK(copy.device_words() == f.device_words());
  Fmpz nine(9);
  f.set_coeff(0, nine.get());
  CHECK(f.device_words() == nullptr);
  CHECK(coefficients(f) == std::vector<ulong>{9, 2, 3});
  CHECK(coefficients(copy) == std::vector<ulong>{1, 2, 3});
  CHECK(copy.device_words() != nullptr);
}

TEST_CASE("resident values: moves carry the pending copy", "[resident]") {
  LimitGuard unlimited(size_t{1} << 40);
  FakeGpu gpu{{4, 4, 2}};
  ModPoly f = gpu.value();
  ModPoly g(std::move(f));
  CHECK(gpu.downloads == 0);
  ModPoly h(prime);
  h = std::move(g);
  CHECK(h.length() == 3);
  CHECK(gpu.downloads == 0);
  CHECK(coefficients(h) == gpu.words);
}

TEST_CASE("resident values: over the limit the least recently used move to the host", "[resident]") {
  FakeGpu first{{1, 1}}, second{{2, 2}}, third{{3, 3}};
  LimitGuard two_values(2 * 2 * sizeof(ulong));
  const ModPoly a = first.value();
  const ModPoly b = second.value();
  CHECK(first.downloads == 0);
  CHECK(b.device_words() != nullptr);  // b used last
  const ModPoly c = third.value();   // a, used least recently, goes
  CHECK(first.downloads == 1);
  CHECK(a.device_words() == nullptr);
  CHECK(coefficients(a) == first.words);  // the eviction's copy, not a second download
  CHECK(first.downloads == 1);
  CHECK(second.downloads == 0);
  CHECK(coefficients(c) == third.words);
}

TEST_CASE("resident values: all move to the host on request; freed values leave the cache", "[resident]") {
  LimitGuard unlimited(size_t{1} << 40);
  const size_t before = resident_use().values;
  FakeGpu gpu{{8, 6}};
  {
    const ModPoly f = gpu.value();
    CHECK(resident_use().values == before + 1);
    move_resident_to_host();
    CHECK(resident_use().values == 0);
    CHECK(f.device_words() == nullptr);
    CHECK(coefficients(f) == gpu.words);
    CHECK(gpu.downloads == 1);
  }
  const ModPoly g = gpu.value();
  CHECK(resident_use().values == 1);
  CHECK(resident_use().bytes == 2 * sizeof(ulong));
}

TEST_CASE("resident values: threads reading one value download it once", "[resident]") {
  LimitGuard unlimited(size_t{1} << 40);
  FakeGpu gpu;
  for (ulong i = 0; i < 4096; i++) gpu.words.push_back(i * 977 + 1);
  const ModPoly f = gpu.value();
  std::vector<std::thread> readers;
  std::atomic<int> equal{0};
  for (int t = 0; t < 8; t++)
    readers.emplace_back([&] {
      if (coefficients(f) == gpu.words) equal++;
    });
  for (auto& r : readers) r.join();
  CHECK(equal == 8);
  CHECK(gpu.downloads == 1);
}

namespace {

ModPoly random_poly(const ModulusPtr& m, slong length, flint_rand_t state) {
  ModPoly f(m);
  nmod_poly_randtest(f.nmod(), state, length);
  nmod_poly_set_coeff_ui(f.nmod(), length - 1, 1 + n_randint(state, m->word() - 1));  // exactly `length` terms
  return f;
}

bool equal(const ModPoly& a, const ModPoly& b) { return nmod_poly_equal(a.nmod(), b.nmod()) != 0; }

// The detail of the last note named `what` since the statement began.
OperationDetail last_detail(const char* what) {
  OperationDetail found;
  for (const EngineNote& n : engine_notes())
    if (std::string(n.what) == what) found = n.detail;
  return found;
}

}  // namespace

TEST_CASE("resident values on the GPU: products and powers of kept values against FLINT", "[resident]") {
  if (test::skipped_without_gpu("keeping values on the GPU")) return;
  test::FreshRandom random;
  INFO("seed " << random.seed);
  test::ModeGuard on(GpuMode::On);
  const slong n = 3000 + static_cast<slong>(n_randint(random.state(), 3000));
  const ModPoly f = random_poly(prime, n, random.state()), g = random_poly(prime, n - 17, random.state());
  ModPoly fg(prime), fg_squared(prime), fg_fourth(prime), fgf(prime);
  nmod_poly_mul(fg.nmod(), f.nmod(), g.nmod());
  nmod_poly_mul(fg_squared.nmod(), fg.nmod(), fg.nmod());
  nmod_poly_pow(fg_fourth.nmod(), fg.nmod(), 4);
  nmod_poly_mul(fgf.nmod(), fg.nmod(), f.nmod());

  const ModPoly h = multiply(f, g, ResultPlace::KeptOnGpu);
  CHECK(h.device_words() != nullptr);
  CHECK(!h.coefficients_on_host());
  CHECK(h.length() == fg.length());

  engine_reset();
  const ModPoly square = multiply(h, h, ResultPlace::KeptOnGpu);
  CHECK(last_detail("gpu ntt product").operands_on_gpu == 2);
  CHECK(last_detail("gpu ntt product").result_kept_on_gpu);
  CHECK(!h.coefficients_on_host());  // nothing came to the host
  CHECK(equal(square, fg_squared));

  engine_reset();
  const ModPoly fourth = power(h, 4, ResultPlace::KeptOnGpu);
  CHECK(last_detail("gpu ntt power").operands_on_gpu == 1);
  CHECK(equal(fourth, fg_fourth));

  engine_reset();
  const ModPoly mixed = multiply(h, f);  // one operand held; the result to the host
  CHECK(last_detail("gpu ntt product").operands_on_gpu == 1);
  CHECK(!last_detail("gpu ntt product").result_kept_on_gpu);
  CHECK(mixed.coefficients_on_host());
  CHECK(mixed.device_words() == nullptr);
  CHECK(equal(mixed, fgf));

  engine_reset();
  const ModPoly divisor = random_poly(prime, n / 3, random.state());
  ModPoly q(prime), r(prime);
  nmod_poly_divrem(q.nmod(), r.nmod(), fg.nmod(), divisor.nmod());
  const ModPoly kept = multiply(f, g, ResultPlace::KeptOnGpu);
  const auto [quotient, rest] = divrem(kept, divisor);  // the dividend read on the GPU
  CHECK(last_detail("gpu newton division").operands_on_gpu == 1);
  CHECK(!kept.coefficients_on_host());
  CHECK(equal(quotient, q));
  CHECK(equal(rest, r));
  CHECK(equal(h, fg));
}

TEST_CASE("resident values on the GPU: a composite modulus, gpu off, and a full device", "[resident]") {
  if (test::skipped_without_gpu("keeping values on the GPU")) return;
  test::FreshRandom random;
  INFO("seed " << random.seed);
  test::ModeGuard on(GpuMode::On);
  // Modulo a composite the leading coefficient of a product may vanish: the result comes home.
  const ModulusPtr composite = make_modulus(ulong{1} << 40);
  const ModPoly a = random_poly(composite, 2500, random.state()), b = random_poly(composite, 2500, random.state());
  ModPoly ab(composite);
  nmod_poly_mul(ab.nmod(), a.nmod(), b.nmod());
  const ModPoly c = multiply(a, b, ResultPlace::KeptOnGpu);
  CHECK(c.coefficients_on_host());
  CHECK(equal(c, ab));

  const ModPoly f = random_poly(prime, 4000, random.state()), g = random_poly(prime, 4000, random.state());
  ModPoly fg(prime);
  nmod_poly_mul(fg.nmod(), f.nmod(), g.nmod());
  const ModPoly h = multiply(f, g, ResultPlace::KeptOnGpu);
  REQUIRE(resident_use().values >= 1);
  set_gpu_mode(GpuMode::Off);  // everything comes home
  CHECK(resident_use().values == 0);
  CHECK(h.device_words() == nullptr);
  CHECK(equal(h, fg));
  set_gpu_mode(GpuMode::On);

  // A device too small for the product: the kept values move to the host, the product is tried
  // once more, then the CPU computes it.
  const ModPoly kept = multiply(f, g, ResultPlace::KeptOnGpu);
  gpu::set_allocation_limit(4096);
  const ModPoly fallback = multiply(kept, kept, ResultPlace::KeptOnGpu);
  gpu::set_allocation_limit(0);
  ModPoly expected(prime);
  nmod_poly_mul(expected.nmod(), fg.nmod(), fg.nmod());
  CHECK(equal(fallback, expected));
  CHECK(equal(kept, fg));
}
