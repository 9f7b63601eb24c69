// The engine dispatcher: modes, crossover file, and (on a GPU machine) that
// products routed to the GPU equal FLINT's, through the algebra layer.
#include "algebra/values/arith.hpp"
#include "algebra/dispatch/calibrate.hpp"
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/fourier/fourier.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/multimodular/multimodular.hpp"
#include "algebra/poly/multiply.hpp"
#include "algebra/support/parallel.hpp"
#include "flint_support.hpp"
#include "gpu/ntt.hpp"

#include <catch2/catch.hpp>
#include <flint/fmpz_mod_poly.h>
#include <flint/ulong_extras.h>

#include <cstdlib>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <tuple>

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
    CHECK(caveat.find("): everything runs on the CPU") != std::string::npos);
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
  // The short-operand limits too, and a limit of "any length" (what a calibration writes when FLINT
  // won at every shorter length).
  c.flint_short_operand[2] = 7;
  c.flint_short_operand[5] = cas::never_on_gpu;
  cas::save_crossovers(c);
  cas::load_crossovers();
  CHECK(cas::crossovers().flint_short_operand[2] == 7);
  CHECK(cas::crossovers().flint_short_operand[5] == cas::never_on_gpu);
  CHECK(cas::crossovers().flint_short_operand[0] == cas::Crossovers{}.flint_short_operand[0]);
  // The Z[x] weight's exponent, written with two decimals.
  CHECK(cas::crossovers().z_weight_exponent == Approx(2.0 / 3.0).margin(0.005));
  c.z_weight_exponent = 0.8125;
  cas::save_crossovers(c);
  cas::load_crossovers();
  CHECK(cas::crossovers().z_weight_exponent == Approx(0.81).margin(1e-9));
  const auto report = cas::gpu_report();
  CHECK(std::find(report.begin(), report.end(), "  cpu.short_operand.ntt_prime.32bit: 7 coefficients") != report.end());
  CHECK(std::find(report.begin(), report.end(), "  cpu.short_operand.z: any length") != report.end());
  CHECK(std::find(report.begin(), report.end(),
                  "  a Z[x] product's length counts ((bits_a + bits_b) / 128)^0.81 times against product.z") !=
        report.end());
  cas::set_crossovers(cas::Crossovers{});
}

TEST_CASE("products and transforms modulo p < 2^32 and p < 2^17 have crossovers of their own", "[dispatch]") {
  using cas::GpuOperation;
  CHECK(cas::for_modulus(GpuOperation::ProductNttPrime, 998244353) == GpuOperation::ProductNttPrime32);
  CHECK(cas::for_modulus(GpuOperation::ProductCrt, 4294967291ull) == GpuOperation::ProductCrt32);
  CHECK(cas::for_modulus(GpuOperation::Transform, 1ull << 17 | 29) == GpuOperation::Transform32);
  CHECK(cas::for_modulus(GpuOperation::Transform, 17) == GpuOperation::Transform17);
  CHECK(cas::for_modulus(GpuOperation::ProductNttPrime, 65537) == GpuOperation::ProductNttPrime17);
  CHECK(cas::for_modulus(GpuOperation::ProductCrt, 131071) == GpuOperation::ProductCrt17);  // 2^17 - 1
  CHECK(cas::for_modulus(GpuOperation::ProductCrt, 2) == GpuOperation::ProductCrt17);
  CHECK(cas::for_modulus(GpuOperation::ProductNttPrime, 1ull << 32) == GpuOperation::ProductNttPrime);
  CHECK(cas::for_modulus(GpuOperation::Transform, 18446744069414584321ull) == GpuOperation::Transform);
  CHECK(cas::for_modulus(GpuOperation::ProductZ, 17) == GpuOperation::ProductZ);
  CHECK(std::string(cas::gpu_operation_key(GpuOperation::Transform32)) == "transform.32bit");
  CHECK(std::string(cas::gpu_operation_key(GpuOperation::ProductCrt17)) == "product.crt.17bit");

  // The file sets the two sizes apart, and a file without the size classes' keys keeps their defaults.
  ConfigHome home;
  std::filesystem::create_directories(home.dir / "cas");
  std::ofstream(home.dir / "cas" / "crossover.conf")
      << "product.ntt_prime = 1023\nproduct.ntt_prime.32bit = 4095\nproduct.ntt_prime.17bit = 16383\n";
  cas::load_crossovers();
  const auto& c = cas::crossovers();
  CHECK(c.length[static_cast<size_t>(GpuOperation::ProductNttPrime)] == 1023);
  CHECK(c.length[static_cast<size_t>(GpuOperation::ProductNttPrime32)] == 4095);
  CHECK(c.length[static_cast<size_t>(GpuOperation::ProductNttPrime17)] == 16383);
  CHECK(c.length[static_cast<size_t>(GpuOperation::Transform32)] ==
        cas::Crossovers{}.length[static_cast<size_t>(GpuOperation::Transform32)]);
  ModeGuard guard;
  cas::set_gpu_mode(cas::GpuMode::Auto);
  CHECK(cas::use_gpu(GpuOperation::ProductNttPrime, 2047) == cas::gpu_usable());
  CHECK_FALSE(cas::use_gpu(GpuOperation::ProductNttPrime32, 2047));
  CHECK(cas::use_gpu(GpuOperation::ProductNttPrime32, 4095) == cas::gpu_usable());
  CHECK_FALSE(cas::use_gpu(GpuOperation::ProductNttPrime17, 8191));
  CHECK(cas::use_gpu(GpuOperation::ProductNttPrime17, 16383) == cas::gpu_usable());
  cas::set_crossovers(cas::Crossovers{});
}

TEST_CASE("Z[x] products weigh their length by the size of their coefficients", "[dispatch]") {
  // 64-bit coefficients (the calibration's) and smaller count as their length.
  CHECK(cas::z_product_weight(1000, 64, 64) == 1000);
  CHECK(cas::z_product_weight(1000, 1, 3) == 1000);
  CHECK(cas::z_product_weight(1000, 64, 0) == 1000);
  // ((bits_a + bits_b) / 128)^(2/3): 4x for two 512-bit operands, 16x for 4096 and 4096 bits,
  // 2.52x for 128 and 128 (rounded to the nearest length).
  CHECK(cas::z_product_weight(1000, 512, 512) == 4000);
  CHECK(cas::z_product_weight(255, 4096, 4096) == 4080);
  CHECK(cas::z_product_weight(1000, 128, 128) == 1587);
  CHECK(cas::z_product_weight(SIZE_MAX / 2, 1 << 20, 1 << 20) == SIZE_MAX);
  // Another exponent, given or calibrated: 8^0.5 = 2.83x, 8^0 = 1x, 8^1 = 8x.
  CHECK(cas::z_product_weight(1000, 512, 512, 0.5) == 2828);
  CHECK(cas::z_product_weight(1000, 512, 512, 0.0) == 1000);
  cas::Crossovers calibrated;
  calibrated.z_weight_exponent = 1.0;
  cas::set_crossovers(calibrated);
  CHECK(cas::z_product_weight(1000, 512, 512) == 8000);
  cas::set_crossovers(cas::Crossovers{});
  // With product.z at 1023 and the GPU in auto mode: 255 coefficients of 1024 bits go there
  // (weight 1619), 255 of 64 bits do not.
  ModeGuard guard;
  cas::set_gpu_mode(cas::GpuMode::Auto);
  cas::Crossovers c;
  c.length[static_cast<size_t>(cas::GpuOperation::ProductZ)] = 1023;
  cas::set_crossovers(c);
  CHECK(cas::use_gpu(cas::GpuOperation::ProductZ, cas::z_product_weight(255, 1024, 1024)) == cas::gpu_usable());
  CHECK_FALSE(cas::use_gpu(cas::GpuOperation::ProductZ, cas::z_product_weight(255, 64, 64)));
  // Products modulo p above 64 bits are Z[x] products of coefficients below p: 255 terms modulo
  // 2^521 - 1 weigh 255 (1042 / 128)^(2/3) = 1030 and leave FLINT for the GPU; modulo a 65-bit p
  // (weight 258) they stay, and so do 127 terms modulo 2^521 - 1 (weight 513).
  cas::Fmpz mersenne, small;
  fmpz_one(mersenne.get());
  fmpz_mul_2exp(mersenne.get(), mersenne.get(), 521);
  fmpz_sub_ui(mersenne.get(), mersenne.get(), 1);
  fmpz_set_ui(small.get(), 1);
  fmpz_mul_2exp(small.get(), small.get(), 64);
  fmpz_add_ui(small.get(), small.get(), 13);
  const cas::ModulusPtr large_p = cas::make_modulus(mersenne.get()), small_p = cas::make_modulus(small.get());
  CHECK(cas::big_modulus_product_leaves_flint(*large_p, 255, 128) == cas::gpu_usable());
  CHECK_FALSE(cas::big_modulus_product_leaves_flint(*large_p, 127, 64));
  CHECK_FALSE(cas::big_modulus_product_leaves_flint(*small_p, 255, 128));
  cas::set_crossovers(cas::Crossovers{});
}

namespace {
// n coefficients of exactly `bits` bits (fmpz_randbits sets the top bit), random signs.
cas::ZPoly full_size_zpoly(flint_rand_t state, slong n, ulong bits) {
  cas::ZPoly f;
  fmpz_poly_fit_length(f.get(), n);
  for (slong i = 0; i < n; i++) fmpz_randbits(f.get()->coeffs + i, state, bits);
  _fmpz_poly_set_length(f.get(), n);
  return f;
}
}  // namespace

TEST_CASE("few coefficients from very many primes stay with FLINT; powers weigh their coefficients",
          "[dispatch]") {
  ModeGuard guard(cas::GpuMode::Auto);
  cas::Crossovers c;
  c.length[static_cast<size_t>(cas::GpuOperation::ProductZ)] = 1023;
  cas::set_crossovers(c);
  cas::test::FreshRandom random;
  INFO("seed " << random.seed);
  // 16 terms of 16000 bits weigh 31 (32000 / 128)^(2/3) = 1231, but their 31 coefficients would
  // come from about 525 primes, more than the warps take: FLINT. From 2 x 525 coefficients (600
  // terms) the GPU. 8000-bit coefficients (263 primes): by the weight alone, from 32 terms.
  const cas::ZPoly few = full_size_zpoly(random.state(), 16, 16000), many = full_size_zpoly(random.state(), 600, 16000);
  CHECK_FALSE(cas::z_product_goes_to_gpu(few, few));
  CHECK(cas::z_product_goes_to_gpu(many, many) == cas::gpu_usable());
  const cas::ZPoly smaller = full_size_zpoly(random.state(), 32, 8000);
  CHECK(cas::z_product_goes_to_gpu(smaller, smaller) == cas::gpu_usable());
  // Powers: 256 terms of 4000 bits cubed (766 coefficients of 12000 bits, weight 15800) go to the
  // GPU; 16 terms of 8000 bits to the 5th (76 coefficients from about 656 primes) stay with FLINT.
  // Small coefficients weigh at least 1.5 (e - 1)^1.4 times, e - 1 at most 4: 64 terms of 64 bits
  // to the 5th weigh 316 x 10.4 and go to the GPU; two terms to the 20th, 21 x 10.4, stay.
  const cas::ZPoly cubed = full_size_zpoly(random.state(), 256, 4000), fifth = full_size_zpoly(random.state(), 16, 8000);
  const cas::ZPoly small = full_size_zpoly(random.state(), 64, 64), binomial = full_size_zpoly(random.state(), 2, 64);
  for (const auto& [f, e, on_gpu] : {std::tuple{&cubed, 3ul, true}, std::tuple{&fifth, 5ul, false},
                                     std::tuple{&small, 5ul, true}, std::tuple{&binomial, 20ul, false}}) {
    cas::ZPoly expected;
    fmpz_poly_pow(expected.get(), f->get(), e);
    cas::engine_reset();
    CHECK(fmpz_poly_equal(cas::power(*f, e).get(), expected.get()));
    CHECK(cas::engine_last().rfind(on_gpu && cas::gpu_usable() ? "gpu crt power" : "flint fmpz_poly_pow", 0) == 0);
  }
  cas::set_crossovers(cas::Crossovers{});
}

TEST_CASE("the big-prime crossovers: keys, defaults, a file, and gpuinfo's lines", "[dispatch]") {
  using cas::GpuOperation;
  const auto transform = static_cast<size_t>(GpuOperation::TransformBigPrime);
  const auto product = static_cast<size_t>(GpuOperation::ProductBigPrime);
  CHECK(std::string(cas::gpu_operation_key(GpuOperation::TransformBigPrime)) == "transform.big_prime");
  CHECK(std::string(cas::gpu_operation_key(GpuOperation::ProductBigPrime)) == "product.big_prime");
  CHECK(cas::for_modulus(GpuOperation::TransformBigPrime, 17) == GpuOperation::TransformBigPrime);
  CHECK(cas::Crossovers{}.length[transform] == 1024);
  CHECK(cas::Crossovers{}.length[product] == 1023);
  cas::set_crossovers(cas::Crossovers{});
  auto report = cas::gpu_report();
  CHECK(std::find(report.begin(), report.end(), "  transform.big_prime >= 1024") != report.end());
  CHECK(std::find(report.begin(), report.end(), "  product.big_prime >= 1023") != report.end());

  ConfigHome home;
  std::filesystem::create_directories(home.dir / "cas");
  std::ofstream(home.dir / "cas" / "crossover.conf") << "transform.big_prime = 4096\nproduct.big_prime = 2047\n";
  cas::take_notices();
  cas::load_crossovers();
  CHECK(cas::take_notices().empty());
  CHECK(cas::crossovers().length[transform] == 4096);
  CHECK(cas::crossovers().length[product] == 2047);
  report = cas::gpu_report();
  CHECK(std::find(report.begin(), report.end(), "  product.big_prime >= 2047") != report.end());
  // A calibration's file names them too.
  cas::save_crossovers(cas::crossovers());
  cas::set_crossovers(cas::Crossovers{});
  cas::load_crossovers();
  CHECK(cas::crossovers().length[transform] == 4096);
  CHECK(cas::crossovers().length[product] == 2047);
  cas::set_crossovers(cas::Crossovers{});
}

TEST_CASE("a missing or malformed crossover file keeps the defaults", "[dispatch]") {
  ConfigHome home;
  cas::load_crossovers();
  CHECK(cas::crossovers().origin == "defaults");
  std::filesystem::create_directories(home.dir / "cas");
  std::ofstream(home.dir / "cas" / "crossover.conf")
      << "# comment\ngarbage\nproduct.crt = notanumber\ntransform = 77\n\nprodcut.z = 5\nproduct.z = -3\n"
         "product.integer = 12 34\n = 9\nproduct.ntt_prime = 4096  # measured\n"
         "product.z.weight_exponent = 2.5\nproduct.z.weight_exponent = 0.75\n";
  cas::take_notices();
  cas::load_crossovers();
  CHECK(cas::crossovers().length[2] == 77);
  CHECK(cas::crossovers().length[0] == 4096);
  CHECK(cas::crossovers().z_weight_exponent == 0.75);
  for (size_t op : {1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}) CHECK(cas::crossovers().length[op] == cas::Crossovers{}.length[op]);
  // Every unreadable line is named, with its number, and nothing else.
  const std::vector<std::string> notices = cas::take_notices();
  REQUIRE(notices.size() == 7);
  const std::string file = cas::crossover_config_path() + ":";
  CHECK(notices[0] == file + "2: expected `key = length`, found 'garbage'; the line is ignored");
  CHECK(notices[1] == file + "3: product.crt: expected a length (a whole number), found ' notanumber'; the line is ignored");
  CHECK(notices[2].find(file + "6: unknown key 'prodcut.z' (known: product.ntt_prime, product.crt, transform, "
                               "product.z, product.integer, product.ntt_prime.32bit, product.crt.32bit, "
                               "transform.32bit, product.ntt_prime.17bit, product.crt.17bit, transform.17bit, "
                               "transform.big_prime, product.big_prime, cpu.short_operand.ntt_prime.64bit, cpu.short_operand.ntt_prime.62bit, "
                               "cpu.short_operand.ntt_prime.32bit, "
                               "cpu.short_operand.ntt_prime.17bit, cpu.short_operand.crt, cpu.short_operand.z, "
                               "algorithm.multipoint_tree, algorithm.half_gcd, algorithm.half_gcd_resultant, "
                               "algorithm.roots, algorithm.zresultant_primes, algorithm.factor, "
                               "algorithm.factor.small_p, product.z.weight_exponent)") == 0);
  CHECK(notices[3].find(file + "7: product.z: expected a length") == 0);
  CHECK(notices[4].find(file + "8: product.integer: expected a length") == 0);
  CHECK(notices[5].find(file + "9: a length without a key") == 0);
  CHECK(notices[6] == file + "11: product.z.weight_exponent: expected a number from 0 to 2, found ' 2.5'; the line is "
                             "ignored");
  cas::set_crossovers(cas::Crossovers{});
}

TEST_CASE("the algorithms' crossovers: defaults, a save and a load, and lengths refused", "[dispatch]") {
  using cas::AlgorithmCrossover;
  const struct {
    AlgorithmCrossover a;
    const char* key;
    size_t by_default;
  } algorithms[] = {{AlgorithmCrossover::MultipointTree, "algorithm.multipoint_tree", 512},
                    {AlgorithmCrossover::HalfGcd, "algorithm.half_gcd", 512},
                    {AlgorithmCrossover::HalfGcdResultant, "algorithm.half_gcd_resultant", 2048},
                    {AlgorithmCrossover::Roots, "algorithm.roots", 512},
                    {AlgorithmCrossover::ZResultantPrimes, "algorithm.zresultant_primes", 32},
                    {AlgorithmCrossover::Factor, "algorithm.factor", 256},
                    {AlgorithmCrossover::FactorSmallP, "algorithm.factor.small_p", 640}};
  static_assert(std::size(algorithms) == cas::algorithm_crossover_count);
  ConfigHome home;
  cas::load_crossovers();
  for (const auto& x : algorithms) {
    CHECK(std::string(cas::algorithm_crossover_key(x.a)) == x.key);
    CHECK(cas::algorithm_crossover_default(x.a) == x.by_default);
    CHECK(cas::algorithm_crossover(x.a) == x.by_default);
  }
  // Every one survives a save and a load, next to the others.
  cas::Crossovers c;
  for (size_t i = 0; i < cas::algorithm_crossover_count; i++) c.algorithm_from[i] = 100 + i;
  c.length[0] = 999;
  cas::save_crossovers(c);
  cas::set_crossovers(cas::Crossovers{});
  cas::load_crossovers();
  for (size_t i = 0; i < cas::algorithm_crossover_count; i++)
    CHECK(cas::algorithm_crossover(algorithms[i].a) == 100 + i);
  CHECK(cas::crossovers().length[0] == 999);
  const auto report = cas::gpu_report();
  CHECK(std::find(report.begin(), report.end(), "  algorithm.multipoint_tree: 100 points") != report.end());
  CHECK(std::find(report.begin(), report.end(), "  algorithm.zresultant_primes: 104 terms") != report.end());
  // A length below 2, negative or not a number is refused with a notice, and the default kept.
  std::ofstream(cas::crossover_config_path()) << "algorithm.roots = 1\nalgorithm.half_gcd = -5\n"
                                                 "algorithm.multipoint_tree = many\nalgorithm.half_gcd_resultant = 0\n"
                                                 "algorithm.zresultant_primes = 2\n";
  cas::take_notices();
  cas::load_crossovers();
  const std::vector<std::string> notices = cas::take_notices();
  REQUIRE(notices.size() == 4);
  const std::string file = cas::crossover_config_path() + ":";
  CHECK(notices[0] == file + "1: algorithm.roots: expected a length of at least 2, found ' 1'; the line is ignored");
  CHECK(notices[1] == file + "2: algorithm.half_gcd: expected a length (a whole number), found ' -5'; the line is "
                             "ignored");
  CHECK(notices[2] == file + "3: algorithm.multipoint_tree: expected a length (a whole number), found ' many'; the "
                             "line is ignored");
  CHECK(notices[3] == file + "4: algorithm.half_gcd_resultant: expected a length of at least 2, found ' 0'; the line "
                             "is ignored");
  for (size_t i = 0; i < 4; i++) CHECK(cas::algorithm_crossover(algorithms[i].a) == algorithms[i].by_default);
  CHECK(cas::algorithm_crossover(AlgorithmCrossover::ZResultantPrimes) == 2);
  cas::set_crossovers(cas::Crossovers{});
}

// Differential: the product with the GPU forced on equals FLINT's, for NTT-friendly primes,
// primes that need CRT, composite moduli and p = 2, at lengths around the transform sizes.
namespace {

// n uniform coefficients mod p, the leading one nonzero: exactly n coefficients.
cas::ModPoly full_length_poly(const cas::ModulusPtr& m, slong n, flint_rand_t state) {
  cas::ModPoly f(m);
  nmod_poly_fit_length(f.nmod(), n);
  for (slong i = 0; i < n; i++) f.nmod()->coeffs[i] = n_randint(state, m->word());
  if (f.nmod()->coeffs[n - 1] == 0) f.nmod()->coeffs[n - 1] = 1;
  f.nmod()->length = n;
  return f;
}

bool engine_is(const char* prefix) { return cas::engine_last().rfind(prefix, 0) == 0; }

}  // namespace

// Without the GPU, products in Z/pZ[x] go to cas's transforms from the CPU crossover of their
// class of p on, and stay with FLINT below it; either way the result is FLINT's.
TEST_CASE("CPU products take cas's transforms from their crossover and equal FLINT's", "[dispatch]") {
  ModeGuard guard(cas::GpuMode::Off);
  cas::test::FreshRandom random;
  INFO("seed " << random.seed);
  const struct {
    ulong p;
    bool one_transform;
  } cases[] = {{65537, true},       {45119, false},     {998244353, true}, {1000000007, false},
               {1000000000, false}, {4611686018326724609ull, true}, {18446744073709551557ull, false},
               {18446744069414584321ull, true}};
  for (const auto& c : cases) {
    auto m = cas::make_modulus(c.p);
    const size_t crossover = cas::cpu_ntt_crossover(c.one_transform, c.p);
    for (size_t length : {crossover - 1, crossover, crossover + 1000}) {
      const slong na = static_cast<slong>(length / 3), nb = static_cast<slong>(length) + 1 - na;
      const cas::ModPoly a = full_length_poly(m, na, random.state()), b = full_length_poly(m, nb, random.state());
      cas::engine_reset();
      const cas::ModPoly product = cas::multiply(a, b);
      INFO("p = " << c.p << ", product length " << length << ": " << cas::engine_last());
      CHECK(cas::equal(product, cas::mul_flint(a, b)));
      const char* expected = length < crossover ? "flint" : c.one_transform ? "cpu ntt product" : "cpu crt product";
      CHECK(engine_is(expected));
    }
  }
}

// A product by a constant (one operand of length 1) scales the other operand's coefficients on the
// cores, on either side and on any engine: through a transform of the whole length it took 4-33
// times as long as FLINT's serial scaling (H100 host and development machine, 2^18 coefficients).
TEST_CASE("products by a constant scale the coefficients, whatever the length and engine", "[dispatch]") {
  cas::test::FreshRandom random;
  INFO("seed " << random.seed);
  for (cas::GpuMode mode : {cas::GpuMode::Off, cas::GpuMode::On}) {
    ModeGuard guard(mode);
    for (slong length : {slong{1}, slong{7}, slong{40000}}) {
      cas::ZPoly f, c, expected;
      fmpz_poly_randtest_not_zero(f.get(), random.state(), length, 100);
      fmpz_poly_set_coeff_ui(f.get(), length - 1, 3);
      fmpz_poly_randtest_not_zero(c.get(), random.state(), 1, 90);
      fmpz_poly_mul(expected.get(), f.get(), c.get());
      for (bool constant_first : {false, true}) {
        cas::engine_reset();
        const cas::ZPoly product = constant_first ? cas::multiply(c, f) : cas::multiply(f, c);
        INFO("Z[x], length " << length << ", constant first " << constant_first << ": " << cas::engine_last());
        CHECK(fmpz_poly_equal(product.get(), expected.get()));
        CHECK(engine_is("cpu scalar product"));
      }
    }
    cas::Fmpz big_prime;
    fmpz_setbit(big_prime.get(), 100);
    fmpz_nextprime(big_prime.get(), big_prime.get(), 1);
    for (const cas::ModulusPtr& m : {cas::make_modulus(998244353), cas::make_modulus(4611686018326724609ull),
                                     cas::make_modulus(6), cas::make_modulus(big_prime.get())})
      for (slong length : {slong{1}, slong{7}, slong{40000}}) {
        cas::ModPoly f(m), c(m);
        cas::Fmpz coefficient;
        for (slong i = 0; i < length; i++) {
          fmpz_randm(coefficient.get(), random.state(), m->value());
          f.set_coeff(i, coefficient.get());
        }
        f.set_coeff(length - 1, cas::Fmpz(1).get());
        do fmpz_randm(coefficient.get(), random.state(), m->value());
        while (fmpz_is_zero(coefficient.get()));
        c.set_coeff(0, coefficient.get());
        const cas::ModPoly expected = cas::mul_flint(f, c);
        for (bool constant_first : {false, true}) {
          cas::engine_reset();
          const cas::ModPoly product = constant_first ? cas::multiply(c, f) : cas::multiply(f, c);
          INFO("mod " << m->to_string() << ", length " << length << ": " << cas::engine_last());
          CHECK(cas::equal(product, expected));
          CHECK(engine_is("cpu scalar product"));
        }
      }
    // Modulo a composite the top coefficient may vanish: (2 x + 1) * 3 = 3 mod 6.
    const cas::ModulusPtr six = cas::make_modulus(6);
    cas::ModPoly f(six), three(six);
    f.set_coeff(0, cas::Fmpz(1).get());
    f.set_coeff(1, cas::Fmpz(2).get());
    three.set_coeff(0, cas::Fmpz(3).get());
    const cas::ModPoly product = cas::multiply(f, three);
    CHECK(product.length() == 1);
    CHECK(cas::equal(product, cas::mul_flint(f, three)));
  }
}

// A long operand times a short one stays with FLINT while the shorter length m has m * cores up to
// the class's limit, and goes to the transforms beyond it (above the product's crossover either way).
TEST_CASE("CPU products with a short operand stay with FLINT up to the class's limit", "[dispatch]") {
  ModeGuard guard(cas::GpuMode::Off);
  cas::test::FreshRandom random;
  INFO("seed " << random.seed << ", " << cas::core_count() << " cores");
  const struct {
    ulong p;
    bool one_transform;
  } cases[] = {{65537, true},     {45119, false}, {998244353, true}, {1000000007, false},
               {4611686018326724609ull, true}, {18446744069414584321ull, true}, {18446744073709551557ull, false}};
  for (const auto& c : cases) {
    auto m = cas::make_modulus(c.p);
    const size_t last_for_flint = cas::short_operand_default(cas::short_operand_class(c.one_transform, c.p));
    const slong long_length = static_cast<slong>(cas::cpu_ntt_crossover(c.one_transform, c.p)) + 5000;
    const cas::ModPoly a = full_length_poly(m, long_length, random.state());
    for (size_t shorter : {last_for_flint, last_for_flint + 1}) {
      if (shorter < 2) continue;  // a constant is scaled
      const cas::ModPoly b = full_length_poly(m, static_cast<slong>(shorter), random.state());
      cas::engine_reset();
      const cas::ModPoly product = cas::multiply(b, a);
      INFO("p = " << c.p << ", lengths " << shorter << " and " << long_length << ": " << cas::engine_last());
      CHECK(cas::equal(product, cas::mul_flint(a, b)));
      CHECK(engine_is(shorter <= last_for_flint ? "flint" : c.one_transform ? "cpu ntt product" : "cpu crt product"));
    }
  }
  const size_t last_for_flint = cas::short_operand_default(cas::ShortOperandClass::Z);
  cas::ZPoly a, expected;
  fmpz_poly_randtest_not_zero(a.get(), random.state(), 20000, 64);
  fmpz_poly_set_coeff_ui(a.get(), 19999, 1);
  for (size_t shorter : {last_for_flint, last_for_flint + 1}) {
    if (shorter < 2) continue;
    cas::ZPoly b;
    fmpz_poly_randtest_not_zero(b.get(), random.state(), static_cast<slong>(shorter), 64);
    fmpz_poly_set_coeff_ui(b.get(), static_cast<slong>(shorter) - 1, 1);
    fmpz_poly_mul(expected.get(), a.get(), b.get());
    cas::engine_reset();
    const cas::ZPoly product = cas::multiply(a, b);
    INFO("Z[x], lengths 20000 and " << shorter << ": " << cas::engine_last());
    CHECK(fmpz_poly_equal(product.get(), expected.get()));
    CHECK(engine_is(shorter <= last_for_flint ? "flint fmpz_poly_mul" : "cpu crt"));
  }
}

// The calibrated limits come from the crossover file and move the choice both ways: a limit of 1
// sends a shorter operand of 2 to the transforms, a long one keeps 600 coefficients with FLINT.
TEST_CASE("the short-operand limits are read from the crossover file", "[dispatch][calibrate]") {
  ModeGuard guard(cas::GpuMode::Off);
  cas::test::FreshRandom random;
  INFO("seed " << random.seed);
  ConfigHome home;
  std::filesystem::create_directories(home.dir / "cas");
  std::ofstream(home.dir / "cas" / "crossover.conf")
      << "cpu.short_operand.ntt_prime.32bit = 1\ncpu.short_operand.crt = 5000\ncpu.short_operand.z = 0\n";
  cas::load_crossovers();
  const auto& limits = cas::crossovers().flint_short_operand;
  CHECK(limits[static_cast<size_t>(cas::ShortOperandClass::NttPrime32)] == 1);
  CHECK(limits[static_cast<size_t>(cas::ShortOperandClass::Crt)] == 5000);
  CHECK(limits[static_cast<size_t>(cas::ShortOperandClass::Z)] == 0);
  CHECK(limits[static_cast<size_t>(cas::ShortOperandClass::NttPrime62)] ==
        cas::short_operand_default(cas::ShortOperandClass::NttPrime62));
  const struct {
    ulong p;
    slong shorter;
    const char* engine;
  } cases[] = {{998244353, 2, "cpu ntt product"}, {998244353, 1, "cpu scalar product"}, {1000000007, 600, "flint"}};
  for (const auto& c : cases) {
    auto m = cas::make_modulus(c.p);
    const cas::ModPoly a = full_length_poly(m, 20000, random.state()), b = full_length_poly(m, c.shorter, random.state());
    cas::engine_reset();
    const cas::ModPoly product = cas::multiply(a, b);
    INFO("p = " << c.p << ", lengths 20000 and " << c.shorter << ": " << cas::engine_last());
    CHECK(cas::equal(product, cas::mul_flint(a, b)));
    CHECK(engine_is(c.engine));
  }
  // Z[x]: a limit of 0 sends a shorter operand of 2 through the primes.
  cas::ZPoly a, b, expected;
  fmpz_poly_randtest_not_zero(a.get(), random.state(), 20000, 64);
  fmpz_poly_set_coeff_ui(a.get(), 19999, 1);
  fmpz_poly_set_coeff_si(b.get(), 1, -3);
  fmpz_poly_set_coeff_ui(b.get(), 0, 5);
  fmpz_poly_mul(expected.get(), a.get(), b.get());
  cas::engine_reset();
  CHECK(fmpz_poly_equal(cas::multiply(a, b).get(), expected.get()));
  CHECK(engine_is("cpu crt"));
  cas::set_crossovers(cas::Crossovers{});
}

TEST_CASE("CPU powers: one transform where p has the roots, square and multiply otherwise", "[dispatch]") {
  ModeGuard guard(cas::GpuMode::Off);
  cas::test::FreshRandom random;
  INFO("seed " << random.seed);
  for (ulong p : {ulong{65537}, ulong{998244353}, ulong{1000000007}, ulong{18446744073709551557ull}})
    for (slong na : {2, 700})
      for (ulong e : {2ul, 5ul, 40ul}) {
        auto m = cas::make_modulus(p);
        const cas::ModPoly a = full_length_poly(m, na, random.state());
        cas::engine_reset();
        const cas::ModPoly power = cas::power(a, e);
        const std::string engine = cas::engine_last();
        INFO("p = " << p << ", length " << na << ", e = " << e << ": " << engine);
        CHECK(cas::equal(power, cas::pow_flint(a, e)));
        const size_t length = static_cast<size_t>(na - 1) * e + 1;
        const bool one_transform = (p - 1) % (ulong{1} << FLINT_CLOG2(length)) == 0;
        if (length < cas::cpu_ntt_crossover(false, p) && !(one_transform && length >= cas::cpu_ntt_crossover(true, p)))
          CHECK(engine_is("flint nmod_poly_pow"));
        else if (one_transform)
          CHECK(engine_is("cpu ntt power"));
        else  // the last squaring is the largest product
          CHECK(engine_is("cpu crt product"));
      }
}

// Z[x] powers: through the primes on the CPU (one transform per prime) from a result of
// cpu_crt_power_crossover_z coefficients while fewer than cpu_crt_most_primes_power_z(result
// length) primes hold the bound, FLINT's fmpz_poly_pow otherwise; equal to FLINT's either way.
TEST_CASE("CPU powers in Z[x] take the primes from their crossover while few do", "[dispatch]") {
  ModeGuard guard(cas::GpuMode::Off);
  cas::test::FreshRandom random;
  INFO("seed " << random.seed);
  const struct {
    slong length;
    ulong bits, e;
    const char* engine;
  } cases[] = {{1000, 64, 2, "flint fmpz_poly_pow"},  // 1999 coefficients: below the crossover
               {1100, 64, 2, "cpu crt power"},        {700, 20, 5, "cpu crt power"},
               {3000, 200, 3, "cpu crt power"},
               {600, 64, 40, "cpu crt power"},  // 2950 bits: 48 primes; a result of 23961: 64 (128 on 8+ cores)
               {30, 64, 80, "flint fmpz_poly_pow"},  // 5515 bits: 90 primes; a result of 2321: 40 (64)
               {2, 1, 5000, "flint fmpz_poly_pow"}};
  for (const auto& c : cases) {
    cas::ZPoly a, expected;
    fmpz_poly_randtest_not_zero(a.get(), random.state(), c.length, c.bits);
    fmpz_poly_set_coeff_si(a.get(), c.length - 1, -3);
    cas::Fmpz largest;  // one coefficient of the full size, which the bound counts
    fmpz_setbit(largest.get(), c.bits - 1);
    fmpz_poly_set_coeff_fmpz(a.get(), 0, largest.get());
    fmpz_poly_pow(expected.get(), a.get(), c.e);
    cas::engine_reset();
    const cas::ZPoly power = cas::power(a, c.e);
    INFO("length " << c.length << ", " << c.bits << " bits, e = " << c.e << ": " << cas::engine_last());
    CHECK(fmpz_poly_equal(power.get(), expected.get()));
    CHECK(engine_is(c.engine));
  }
}

// Moduli above 64 bits: products through the primes from the Z[x] crossover while at most
// cpu_crt_most_primes_z(result length) primes hold 2 bits(p) + log2 bits (64 at these lengths, 96
// on 8 cores or more; a 3400-bit p takes 110), FLINT's fmpz_mod_poly_mul otherwise; powers by
// square and multiply through them.
TEST_CASE("CPU products modulo p above 64 bits take the primes from their crossover", "[dispatch]") {
  ModeGuard guard(cas::GpuMode::Off);
  cas::test::FreshRandom random;
  INFO("seed " << random.seed);
  for (ulong bits : {100ul, 3400ul}) {
    cas::Fmpz p;
    fmpz_setbit(p.get(), bits);
    fmpz_nextprime(p.get(), p.get(), 0);  // a probable prime: proving one of 2400 bits took 40 s
    auto m = cas::make_modulus(p.get());
    for (slong length : {slong{8000}, slong{9000}}) {
      cas::ModPoly a(m), b(m);
      fmpz_mod_poly_randtest_monic(a.big(), random.state(), length, m->ctx());
      fmpz_mod_poly_randtest_monic(b.big(), random.state(), length, m->ctx());
      cas::engine_reset();
      const cas::ModPoly product = cas::multiply(a, b);
      INFO(bits << "-bit p, lengths " << length << ": " << cas::engine_last());
      CHECK(cas::equal(product, cas::mul_flint(a, b)));
      CHECK(engine_is(length == 9000 && bits == 100 ? "cpu crt" : "flint fmpz_mod_poly_mul"));
    }
    cas::ModPoly f(m);
    fmpz_mod_poly_randtest_monic(f.big(), random.state(), 3000, m->ctx());
    cas::engine_reset();
    CHECK(cas::equal(cas::power(f, 7), cas::pow_flint(f, 7)));  // 20994 coefficients
    if (bits == 100) CHECK(engine_is("cpu crt"));
  }
}

TEST_CASE("CPU products in Z[x] through the primes from their crossover, with few primes", "[dispatch]") {
  ModeGuard guard(cas::GpuMode::Off);
  cas::test::FreshRandom random;
  INFO("seed " << random.seed);
  for (ulong bits : {10ul, 200ul, 1300ul, 3300ul})  // at 9000: 1, 7, 43 and 107 primes
    for (slong length : {slong{8000}, slong{9000}}) {  // products of 15999 and 17999 coefficients
      cas::ZPoly a, b, expected;
      fmpz_poly_randtest(a.get(), random.state(), length, bits);
      fmpz_poly_randtest(b.get(), random.state(), length, bits);
      fmpz_poly_set_coeff_ui(a.get(), length - 1, 1);
      fmpz_poly_set_coeff_ui(b.get(), length - 1, 1);
      cas::Fmpz largest;  // 2^(bits - 1): the coefficients have `bits` bits at most, and these exactly
      fmpz_setbit(largest.get(), bits - 1);
      fmpz_poly_set_coeff_fmpz(a.get(), 0, largest.get());
      fmpz_poly_set_coeff_fmpz(b.get(), 0, largest.get());
      fmpz_poly_mul(expected.get(), a.get(), b.get());
      cas::engine_reset();
      const cas::ZPoly product = cas::multiply(a, b);
      INFO(bits << "-bit coefficients, lengths " << length << ": " << cas::engine_last());
      CHECK(fmpz_poly_equal(product.get(), expected.get()));
      const size_t product_length = 2 * static_cast<size_t>(length) - 1;
      const size_t primes = cas::plan_multimodular(a, b).primes.size();
      const bool through_primes =
          product_length >= cas::cpu_crt_crossover_z && primes <= cas::cpu_crt_most_primes_z(product_length);
      CHECK(engine_is(through_primes ? "cpu crt" : "flint fmpz_poly_mul"));
      CHECK(through_primes == (length == 9000 && bits < 3300));
    }
}

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

// Convolutions over Z of power-of-two length where the GPU would take their products (default
// crossovers): the GPU folds each prime's product (multimodular.hpp: convolve_through_product), in
// auto as under :gpu on, and equals the CPU, whose transforms of length n take them without it.
TEST_CASE("convolutions over Z where the GPU takes the product: folded on the device", "[dispatch][gpu]") {
  if (cas::test::skipped_without_gpu("convolutions over Z on the GPU")) return;
  ModeGuard guard;
  cas::set_crossovers(cas::Crossovers{});
  flint_rand_t state;
  flint_randinit(state);
  const size_t n = size_t{1} << 12;
  REQUIRE(cas::use_gpu(cas::GpuOperation::ProductZ, 2 * n - 1));
  for (ulong bits : {ulong{40}, ulong{500}}) {  // 2 primes, 17 primes
    std::vector<cas::Value> a, b;
    cas::Fmpz x;
    for (size_t i = 0; i < 2 * n; i++) {
      fmpz_randtest(x.get(), state, static_cast<flint_bitcnt_t>(bits));
      (i < n ? a : b).push_back(cas::Value::integer(x.get()));
    }
    const cas::Value va = cas::Value::vec(a), vb = cas::Value::vec(b);
    for (bool negacyclic : {false, true}) {
      INFO(bits << "-bit entries, " << (negacyclic ? "negaconvolve" : "convolve"));
      const char* gpu_engine = negacyclic ? "gpu crt negacyclic convolution" : "gpu crt cyclic convolution";
      cas::set_gpu_mode(cas::GpuMode::Off);
      cas::engine_reset();
      const cas::Value on_cpu = cas::convolve(va, vb, negacyclic);
      CHECK(engine_is("cpu crt"));
      for (cas::GpuMode mode : {cas::GpuMode::Auto, cas::GpuMode::On}) {
        cas::set_gpu_mode(mode);
        cas::engine_reset();
        CHECK(cas::equal_values(cas::convolve(va, vb, negacyclic), on_cpu));
        INFO(cas::engine_last());
        CHECK(engine_is(gpu_engine));
      }
    }
  }
  flint_randclear(state);
}

namespace {

// Every device allocation above `bytes` fails as if the GPU were full, until the test ends.
struct AllocationLimit {
  explicit AllocationLimit(size_t bytes) { cas::gpu::set_allocation_limit(bytes); }
  ~AllocationLimit() { cas::gpu::set_allocation_limit(0); }
  AllocationLimit(const AllocationLimit&) = delete;
  AllocationLimit& operator=(const AllocationLimit&) = delete;
};

// After an operation under an allocation limit: the GPU computed it and said nothing, or it
// ran out of memory, said so (once a product: a power may try several), and the CPU computed
// it. `must_fall_back`: the limit is below the operation's first large allocation.
void check_fallback(const char* operation, bool must_fall_back) {
  const std::string engine = cas::engine_last();
  std::string notes;
  for (const auto& note : cas::engine_notes()) notes += std::string(" [") + note.what + " " + std::to_string(note.size) + "]";
  INFO(operation << ": engine " << engine << "; notes" << notes);
  const std::vector<std::string> notices = cas::take_notices();
  const bool on_gpu = engine.rfind("gpu", 0) == 0;
  if (must_fall_back) CHECK_FALSE(on_gpu);
  if (on_gpu) {
    CHECK(notices.empty());
    return;
  }
  REQUIRE_FALSE(notices.empty());
  for (const auto& notice : notices) CHECK(notice.find("the GPU ran out of memory for ") == 0);
}

}  // namespace

// The out-of-memory contract: when the GPU is out of memory, FLINT computes the result and a
// notice says so, never a crash. set_allocation_limit makes every large allocation fail (the first
// one of each operation, or one in the middle: the scratch of a pass, the second operand).
TEST_CASE("out of GPU memory, every operation falls back to the CPU with a notice", "[dispatch][gpu]") {
  if (cas::test::skipped_without_gpu("the out-of-memory fallback")) return;
  ModeGuard guard(cas::GpuMode::On);
  cas::test::FreshRandom random;
  INFO("seed " << random.seed);
  cas::take_notices();
  // 64 KiB: below every operation's first large allocation; the others fail some operations
  // in the middle (after the operands went up), or none.
  for (size_t limit : {size_t{64} << 10, size_t{3} << 20, size_t{5} << 20, size_t{9} << 20, size_t{17} << 20}) {
    INFO("allocation limit " << limit << " bytes");
    const bool must = limit == size_t{64} << 10;
    for (ulong p : {ulong{998244353}, ulong{1000000007} * 3, (ulong{1} << 63) + 29}) {
      auto m = cas::make_modulus(p);
      cas::ModPoly a(m), b(m);
      nmod_poly_randtest_monic(a.nmod(), random.state(), 300000);  // monic: exactly this length
      nmod_poly_randtest_monic(b.nmod(), random.state(), 200000);
      INFO("p = " << p << ", lengths " << a.length() << " and " << b.length());
      const cas::ModPoly product = cas::mul_flint(a, b), cube = cas::pow_flint(a, 3);
      AllocationLimit full(limit);
      cas::engine_reset();  // the engine of the last operation, not of the expected values
      CHECK(cas::equal(cas::multiply(a, b), product));
      check_fallback("product", must);
      cas::engine_reset();
      CHECK(cas::equal(cas::power(a, 3), cube));
      check_fallback("power", must);
    }
    cas::ZPoly za, zb;
    fmpz_poly_randtest(za.get(), random.state(), 100000, 200);
    fmpz_poly_randtest(zb.get(), random.state(), 100000, 200);
    fmpz_poly_set_coeff_ui(za.get(), 99999, 1);  // exactly 100000 coefficients
    fmpz_poly_set_coeff_ui(zb.get(), 99999, 1);
    cas::ZPoly expected;
    fmpz_poly_mul(expected.get(), za.get(), zb.get());
    {
      AllocationLimit full(limit);
      cas::engine_reset();
      CHECK(fmpz_poly_equal(cas::multiply(za, zb).get(), expected.get()));
      check_fallback("Z[x] product", must);
      std::vector<cas::Value> ea, eb;
      for (slong i = 0; i < 100000; i++) {
        ea.push_back(cas::Value::integer(za.get()->coeffs + i));
        eb.push_back(cas::Value::integer(zb.get()->coeffs + i));
      }
      const cas::Value va = cas::Value::vec(ea), vb = cas::Value::vec(eb);
      cas::set_gpu_mode(cas::GpuMode::Off);
      const cas::Value expected_negacyclic = cas::convolve(va, vb, true);
      cas::set_gpu_mode(cas::GpuMode::On);
      cas::engine_reset();
      CHECK(cas::equal_values(cas::convolve(va, vb, true), expected_negacyclic));
      check_fallback("negaconvolve over Z", must);
      cas::Fmpz x, y, xy, expected_xy;
      fmpz_randbits(x.get(), random.state(), 1 << 22);
      fmpz_randbits(y.get(), random.state(), 1 << 22);
      fmpz_mul(expected_xy.get(), x.get(), y.get());
      cas::engine_reset();
      cas::multiply(xy.get(), x.get(), y.get());
      CHECK(fmpz_equal(xy.get(), expected_xy.get()));
      check_fallback("integer product", must);
    }
    const ulong p = 998244353;
    auto m = cas::make_modulus(p);
    const size_t n = size_t{1} << 18;
    cas::Value v = random_vector(n, m, random.state()), u = random_vector(n, m, random.state());
    cas::Value w = root_of_unity_value(p, n, m);
    cas::set_gpu_mode(cas::GpuMode::Off);
    const cas::Value expected_fft = cas::fft(v, w), expected_convolution = cas::convolve(v, u, false);
    cas::set_gpu_mode(cas::GpuMode::On);
    AllocationLimit full(limit);
    cas::engine_reset();
    CHECK(cas::equal_values(cas::fft(v, w), expected_fft));
    check_fallback("fft", must);
    cas::engine_reset();
    CHECK(cas::equal_values(cas::convolve(v, u, false), expected_convolution));
    check_fallback("convolve", must);
  }
  // With the limit lifted, the GPU takes the same product again.
  auto m = cas::make_modulus(998244353);
  cas::ModPoly a(m), b(m);
  nmod_poly_randtest_monic(a.nmod(), random.state(), 300000);
  nmod_poly_randtest_monic(b.nmod(), random.state(), 200000);
  const cas::ModPoly product = cas::mul_flint(a, b);
  cas::engine_reset();
  CHECK(cas::equal(cas::multiply(a, b), product));
  CHECK(cas::engine_last().rfind("gpu ntt product", 0) == 0);
  CHECK(cas::take_notices().empty());
}
