// The engine dispatcher: modes, crossover file, and (on a GPU machine) that
// products routed to the GPU equal FLINT's, through the algebra layer.
#include "algebra/arith.hpp"
#include "algebra/dispatch.hpp"
#include "algebra/engine.hpp"
#include "algebra/fourier.hpp"
#include "algebra/modpoly_ops.hpp"
#include "algebra/multiply.hpp"
#include "flint_support.hpp"
#include "gpu/ntt.hpp"

#include <catch2/catch.hpp>
#include <flint/ulong_extras.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using cas::test::ModeGuard;

namespace {

struct ConfigHome {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("cas-config-test-" + std::to_string(getpid()));
  ConfigHome() { setenv("XDG_CONFIG_HOME", dir.c_str(), 1); }
  ~ConfigHome() {
    std::filesystem::remove_all(dir);
    unsetenv("XDG_CONFIG_HOME");
  }
};

}  // namespace

TEST_CASE("gpu modes parse and print", "[dispatch]") {
  cas::GpuMode m;
  for (const char* name : {"auto", "on", "off"}) {
    REQUIRE(cas::parse_gpu_mode(name, m));
    CHECK(std::string(cas::gpu_mode_name(m)) == name);
  }
  CHECK_FALSE(cas::parse_gpu_mode("yes", m));
}

TEST_CASE("mode off never uses the GPU; without a GPU no mode does", "[dispatch]") {
  ModeGuard guard;
  cas::set_gpu_mode(cas::GpuMode::Off);
  CHECK_FALSE(cas::use_gpu(cas::GpuOperation::ProductNttPrime, size_t{1} << 24));
  cas::set_gpu_mode(cas::GpuMode::On);
  CHECK(cas::use_gpu(cas::GpuOperation::ProductNttPrime, size_t{1} << 24) == cas::gpu_usable());
}

TEST_CASE("asking for the GPU where none answers says so", "[dispatch]") {
  CHECK(cas::gpu_mode_caveat(cas::GpuMode::Off).empty());
  CHECK(cas::gpu_mode_caveat(cas::GpuMode::Auto).empty());
  const std::string caveat = cas::gpu_mode_caveat(cas::GpuMode::On);
  if (cas::gpu_usable()) {
    CHECK(caveat.empty());
  } else {
    CHECK(caveat.find("no usable GPU here (") == 0);
    CHECK(caveat.find("): everything runs on FLINT") != std::string::npos);
  }
}

TEST_CASE("crossovers survive a save and a load", "[dispatch]") {
  ConfigHome home;
  cas::Crossovers c;
  c.length[0] = 1234;
  c.length[1] = 5678;
  c.length[2] = 91011;
  cas::save_crossovers(c);
  REQUIRE(std::filesystem::exists(cas::crossover_config_path()));
  cas::set_crossovers(cas::Crossovers{});
  cas::load_crossovers();
  CHECK(cas::crossovers().length[0] == 1234);
  CHECK(cas::crossovers().length[1] == 5678);
  CHECK(cas::crossovers().length[2] == 91011);
  CHECK(cas::crossovers().origin == cas::crossover_config_path());
  cas::set_crossovers(cas::Crossovers{});
}

TEST_CASE("a missing or malformed crossover file keeps the defaults", "[dispatch]") {
  ConfigHome home;
  cas::load_crossovers();
  CHECK(cas::crossovers().origin == "defaults");
  std::filesystem::create_directories(home.dir / "cas");
  std::ofstream(home.dir / "cas" / "crossover.conf")
      << "# comment\ngarbage\nproduct.crt = notanumber\ntransform = 77\n\nprodcut.z = 5\nproduct.z = -3\n"
         "product.integer = 12 34\n = 9\nproduct.ntt_prime = 4096  # measured\n";
  cas::take_notices();
  cas::load_crossovers();
  CHECK(cas::crossovers().length[2] == 77);
  CHECK(cas::crossovers().length[0] == 4096);
  for (size_t op : {1, 3, 4}) CHECK(cas::crossovers().length[op] == cas::Crossovers{}.length[op]);
  // Every unreadable line is named, with its number, and nothing else.
  const std::vector<std::string> notices = cas::take_notices();
  REQUIRE(notices.size() == 6);
  const std::string file = cas::crossover_config_path() + ":";
  CHECK(notices[0] == file + "2: expected `key = length`, found 'garbage'; the line is ignored");
  CHECK(notices[1] == file + "3: product.crt: expected a length (a whole number), found ' notanumber'; the line is ignored");
  CHECK(notices[2].find(file + "6: unknown key 'prodcut.z' (known: product.ntt_prime, product.crt, transform, "
                               "product.z, product.integer)") == 0);
  CHECK(notices[3].find(file + "7: product.z: expected a length") == 0);
  CHECK(notices[4].find(file + "8: product.integer: expected a length") == 0);
  CHECK(notices[5].find(file + "9: a length without a key") == 0);
  cas::set_crossovers(cas::Crossovers{});
}

// Differential: the product with the GPU forced on equals FLINT's, for NTT-friendly primes,
// primes that need CRT, composite moduli and p = 2, at lengths around the transform sizes.
TEST_CASE("products through the dispatcher equal FLINT's", "[dispatch][gpu]") {
  if (cas::test::skipped_without_gpu("the GPU route of the dispatcher")) return;
  ModeGuard guard;
  flint_rand_t state;
  flint_randinit(state);
  const ulong moduli[] = {998244353ull, 18446744069414584321ull, 4611686018427388039ull, 2, 3,
                          1000000007ull * 3, (1ull << 63) + 29};
  for (ulong p : moduli) {
    auto m = cas::make_modulus(p);
    for (slong na : {1, 7, 1000, 40000, 300000})
      for (slong nb : {1, 513, 40000}) {
        cas::ModPoly a(m), b(m);
        nmod_poly_randtest(a.nmod(), state, na);
        nmod_poly_randtest(b.nmod(), state, nb);
        cas::set_gpu_mode(cas::GpuMode::On);
        cas::ModPoly on_gpu = cas::multiply(a, b);
        cas::ModPoly on_cpu = cas::mul_flint(a, b);
        INFO("p = " << p << ", lengths " << na << " and " << nb);
        CHECK(cas::equal(on_gpu, on_cpu));
      }
  }
  flint_randclear(state);
}

TEST_CASE("powers through the dispatcher equal FLINT's, in one transform when p allows", "[dispatch][gpu]") {
  if (cas::test::skipped_without_gpu("the GPU route of powers")) return;
  ModeGuard guard;
  flint_rand_t state;
  flint_randinit(state);
  // 998244353 = 119 2^23 + 1 and 2^64 - 2^32 + 1 have the roots; 1000000007 does not (square
  // and multiply on the GPU instead).
  for (ulong p : {998244353ull, 18446744069414584321ull, 1000000007ull})
    for (slong na : {2, 3, 1000, 20000})
      for (ulong e : {2ul, 3ul, 7ul, 64ul}) {
        if (static_cast<ulong>(na - 1) * e + 1 > (ulong{1} << 22)) continue;
        auto m = cas::make_modulus(p);
        cas::ModPoly a(m);
        nmod_poly_randtest_not_zero(a.nmod(), state, na);
        cas::set_gpu_mode(cas::GpuMode::On);
        cas::engine_reset();
        const cas::ModPoly on_gpu = cas::power(a, e);
        const bool one_transform = cas::engine_last().rfind("gpu ntt power", 0) == 0;
        INFO("p = " << p << ", length " << a.length() << ", e = " << e << ": " << cas::engine_last());
        CHECK(cas::equal(on_gpu, cas::pow_flint(a, e)));
        if (a.length() > 1) CHECK(one_transform == (p != 1000000007ull));
      }
  flint_randclear(state);
}

namespace {

cas::Value random_vector(size_t n, const cas::ModulusPtr& m, flint_rand_t state) {
  std::vector<cas::Value> items;
  cas::Fmpz r;
  for (size_t i = 0; i < n; i++) {
    fmpz_randm(r.get(), state, m->value());
    items.push_back(cas::Value::mod(r.get(), m));
  }
  return cas::Value::vec(std::move(items));
}

cas::Value root_of_unity_value(ulong p, size_t n, const cas::ModulusPtr& m) {
  cas::Fmpz w(static_cast<ulong>(cas::gpu::root_of_unity(p, n)));
  return cas::Value::mod(w.get(), m);
}

}  // namespace

// Differential: fft, ifft and convolve with the GPU forced on equal the CPU's.
TEST_CASE("transforms and convolutions through the dispatcher equal the CPU's", "[dispatch][gpu]") {
  if (cas::test::skipped_without_gpu("the GPU route of fft and convolve")) return;
  ModeGuard guard;
  flint_rand_t state;
  flint_randinit(state);
  for (ulong p : {ulong{998244353}, ulong{18446744069414584321ull}, ulong{cas::gpu::ntt_primes(62, 20, 1).at(0)}}) {
    auto m = cas::make_modulus(p);
    for (size_t n : {size_t{2}, size_t{64}, size_t{1} << 12, size_t{1} << 17}) {
      cas::Value v = random_vector(n, m, state), u = random_vector(n, m, state);
      cas::Value w = root_of_unity_value(p, n, m);
      INFO("p = " << p << ", n = " << n);
      cas::set_gpu_mode(cas::GpuMode::On);
      cas::Value gpu_fft = cas::fft(v, w), gpu_ifft = cas::ifft(v, w);
      cas::Value gpu_cyclic = cas::convolve(v, u, false), gpu_nega = cas::convolve(v, u, true);
      cas::set_gpu_mode(cas::GpuMode::Off);
      CHECK(cas::equal_values(gpu_fft, cas::fft(v, w)));
      CHECK(cas::equal_values(gpu_ifft, cas::ifft(v, w)));
      CHECK(cas::equal_values(gpu_cyclic, cas::convolve(v, u, false)));
      CHECK(cas::equal_values(gpu_nega, cas::convolve(v, u, true)));
    }
  }
  flint_randclear(state);
}
