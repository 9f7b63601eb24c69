// cas-bench-big-prime: transforms and products modulo primes of 2 to 16 words on the GPU's big-prime
// kernels (gpu/big_prime.hpp) against the routes they replace, host to host, results compared.
//   cas-bench-big-prime [--min K] [--max K] [--seconds S] [--cpu-max K] [--flint-max K] [--only TABLE]
// Lengths 2^K from --min (10) to --max (20); each time the best of the runs that fit S seconds (0.5),
// at least 3, or one run where one takes longer than S. Tables (--only fft, product or convert):
//   fft      fft(v, w) modulo P3 = (2^63 + 2^34)^8 + 1 as cas runs it, Values in and out: the GPU route
//            (transform.big_prime forced) against the CPU's radix-2 transform in fmpz_mod arithmetic
//            (up to --cpu-max, default 20), with the GPU route's parts: entries into limb-major words,
//            gpu::big_prime_transform alone, words into entries
//   product  f g in Z/pZ[x] modulo P3 and P4 = (2^62 + 2^36)^16 + 1, f and g of 2^K terms each: the
//            big-prime convolution (product.big_prime forced) against the multi-modular product on the
//            GPU (multimodular.hpp) and FLINT's fmpz_mod_poly_mul (up to --flint-max, default 14)
//   convert  the host's conversions alone at 2^K entries modulo P3 (no GPU needed): Values into
//            limb-major words and back on the cores (big_prime_vectors.hpp) against Values into fmpz's
//            and back on one thread, as the CPU route converts them
// Ratios are the other route's time over the big-prime route's.
#include "algebra/bench/best_time.hpp"
#include "algebra/bench/tables.hpp"
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/fourier/big_prime_words.hpp"
#include "algebra/fourier/fourier.hpp"
#include "algebra/multimodular/multimodular.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/poly/multiply.hpp"
#include "algebra/support/parallel.hpp"
#include "algebra/values/arith.hpp"
#include "algebra/values/big_prime_vectors.hpp"

#include "gpu/big_prime.hpp"
#include "gpu/ntt.hpp"

#include <flint/fmpz_mod_poly.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Options {
  int min_log = 10, max_log = 20, cpu_max_log = 20, flint_max_log = 14;
  double seconds = 0.5;
  std::string only;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (cas::bench::read_table_option(argv[i], argv[i + 1], o.min_log, o.max_log, o.seconds)) continue;
    if (!std::strcmp(argv[i], "--cpu-max")) o.cpu_max_log = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--flint-max")) o.flint_max_log = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--only")) o.only = argv[i + 1];
  }
  return o;
}

// The best time of f in ms as best_ms takes it, or its one run where that run takes longer than
// `seconds` (the CPU's transforms at 2^20 take seconds).
template <class F>
double best_or_once_ms(double seconds, F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  const double once = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (once > seconds * 1e3) return once;
  return std::min(once, cas::bench::best_ms(seconds, f));
}

// (2^a + 2^b)^k + 1.
cas::ModulusPtr generalized_fermat(ulong a, ulong b, ulong k) {
  cas::Fmpz r(ulong{1}), term(ulong{1});
  fmpz_mul_2exp(r.get(), r.get(), a);
  fmpz_mul_2exp(term.get(), term.get(), b);
  fmpz_add(r.get(), r.get(), term.get());
  fmpz_pow_ui(r.get(), r.get(), k);
  fmpz_add_ui(r.get(), r.get(), 1);
  return cas::make_modulus(r.get());
}

cas::Value random_vector(const cas::ModulusPtr& m, size_t n, flint_rand_t state) {
  std::vector<cas::Value> items;
  items.reserve(n);
  cas::Fmpz x;
  for (size_t i = 0; i < n; i++) {
    fmpz_randm(x.get(), state, m->value());
    items.push_back(cas::Value::mod(x.get(), m));
  }
  return cas::Value::vec(std::move(items));
}

// n uniform coefficients, the leading one nonzero.
cas::ModPoly random_poly(const cas::ModulusPtr& m, size_t n, flint_rand_t state) {
  cas::ModPoly f(m);
  cas::Fmpz x;
  for (size_t i = 0; i < n; i++) {
    fmpz_randm(x.get(), state, m->value());
    if (i + 1 == n && fmpz_is_zero(x.get())) fmpz_one(x.get());
    f.set_coeff(static_cast<slong>(i), x.get());
  }
  return f;
}

// Sets a GPU crossover for as long as it lives.
struct ForcedCrossover {
  cas::Crossovers saved = cas::crossovers();
  ForcedCrossover(cas::GpuOperation op, size_t from) {
    cas::Crossovers c = saved;
    c.length[static_cast<size_t>(op)] = from;
    cas::set_crossovers(c);
  }
  ~ForcedCrossover() { cas::set_crossovers(saved); }
};

void fft_row(const Options& o, int k, const cas::ModulusPtr& m, flint_rand_t state) {
  const size_t n = size_t{1} << k, limbs = cas::big_prime_limbs(*m);
  const cas::Value v = random_vector(m, n, state);
  cas::Fmpz root;
  cas::find_root_of_unity(root, *m, n);
  const cas::Value w = cas::Value::mod(root.get(), m);
  cas::Value on_gpu, on_cpu;
  std::string engine;
  double gpu_ms = 0, to_words_ms = 0, kernel_ms = 0, to_values_ms = 0;
  if (cas::gpu_usable()) {
    cas::set_gpu_mode(cas::GpuMode::Auto);
    const ForcedCrossover forced(cas::GpuOperation::TransformBigPrime, 2);
    gpu_ms = best_or_once_ms(o.seconds, [&] {
      cas::engine_reset();
      on_gpu = cas::fft(v, w);
    });
    engine = cas::engine_last();
    cas::Words words;
    to_words_ms = cas::bench::best_ms(o.seconds, [&] { words = cas::residue_limbs(v.as_vec(), *m, limbs, "fft"); });
    const cas::Words p = cas::element_limbs(m->value(), limbs), omega = cas::element_limbs(root.get(), limbs);
    cas::Words out(words.size());
    kernel_ms = cas::bench::best_ms(o.seconds, [&] {
      cas::gpu::big_prime_transform(words.data(), out.data(), n, p.data(), limbs, omega.data(), false);
    });
    to_values_ms = cas::bench::best_ms(o.seconds, [&] { cas::vector_from_limbs(m, out.data(), n, limbs); });
  }
  double cpu_ms = 0;
  if (k <= o.cpu_max_log) {
    cas::set_gpu_mode(cas::GpuMode::Off);
    cpu_ms = best_or_once_ms(o.seconds, [&] { on_cpu = cas::fft(v, w); });
    cas::set_gpu_mode(cas::GpuMode::Auto);
  }
  const char* check = gpu_ms == 0 || cpu_ms == 0 ? "" : cas::equal_values(on_gpu, on_cpu) ? "equal" : "DIFFERENT";
  std::printf("fft      2^%-3d %10.3f %10.3f %8.1fx %10.3f %10.3f %10.3f  %-26s %s\n", k, cpu_ms, gpu_ms,
              gpu_ms > 0 ? cpu_ms / gpu_ms : 0.0, to_words_ms, kernel_ms, to_values_ms, engine.c_str(), check);
}

void product_row(const Options& o, int k, const cas::ModulusPtr& m, const char* name, flint_rand_t state) {
  const size_t n = size_t{1} << k;
  const cas::ModPoly f = random_poly(m, n, state), g = random_poly(m, n, state);
  cas::ModPoly ours(m), primes(m), flint(m);
  double big_prime_ms = 0, primes_ms = 0, flint_ms = 0;
  std::string engine;
  if (cas::gpu_usable()) {
    cas::set_gpu_mode(cas::GpuMode::Auto);
    const ForcedCrossover forced(cas::GpuOperation::ProductBigPrime, 2);
    big_prime_ms = best_or_once_ms(o.seconds, [&] {
      cas::engine_reset();
      ours = cas::multiply(f, g);
    });
    engine = cas::engine_last();
    primes_ms = best_or_once_ms(o.seconds, [&] { primes = cas::multiply_multimodular(f, g, cas::ProductEngine::Gpu); });
  }
  if (k <= o.flint_max_log)
    flint_ms = best_or_once_ms(o.seconds, [&] { fmpz_mod_poly_mul(flint.big(), f.big(), g.big(), m->ctx()); });
  bool agree = true;
  if (big_prime_ms > 0) agree = cas::equal(ours, primes) && (flint_ms == 0 || cas::equal(ours, flint));
  auto ratio = [&](double other) { return big_prime_ms > 0 && other > 0 ? other / big_prime_ms : 0.0; };
  std::printf("product  %-3s 2^%-3d %10.3f %10.3f %8.2fx %10.3f %8.2fx  %-26s %s\n", name, k, big_prime_ms, primes_ms,
              ratio(primes_ms), flint_ms, ratio(flint_ms), engine.c_str(), agree ? "equal" : "DIFFERENT");
}

// The best times in ms of making a value by make() and of freeing it, over the runs that fit
// `seconds` (at least 3).
struct MadeAndFreed {
  double made_ms = 1e300, freed_ms = 1e300;
};

template <class Make>
MadeAndFreed made_and_freed_ms(double seconds, Make&& make) {
  using Clock = std::chrono::steady_clock;
  MadeAndFreed t;
  const auto start = Clock::now();
  for (int run = 0; run < 3 || std::chrono::duration<double>(Clock::now() - start).count() < seconds; run++) {
    const auto t0 = Clock::now();
    auto made = make();
    const auto t1 = Clock::now();
    made = decltype(made)();
    const auto t2 = Clock::now();
    t.made_ms = std::min(t.made_ms, std::chrono::duration<double, std::milli>(t1 - t0).count());
    t.freed_ms = std::min(t.freed_ms, std::chrono::duration<double, std::milli>(t2 - t1).count());
    if (run >= 50) break;
  }
  return t;
}

void convert_row(const Options& o, int k, const cas::ModulusPtr& m, flint_rand_t state) {
  const size_t n = size_t{1} << k, limbs = cas::big_prime_limbs(*m);
  const cas::Value v = random_vector(m, n, state);
  cas::Words words;
  const double to_words_ms =
      cas::bench::best_ms(o.seconds, [&] { words = cas::residue_limbs(v.as_vec(), *m, limbs, "fft"); });
  const MadeAndFreed to_values =
      made_and_freed_ms(o.seconds, [&] { return cas::vector_from_limbs(m, words.data(), n, limbs); });
  const MadeAndFreed to_fmpz = made_and_freed_ms(o.seconds, [&] {
    std::vector<cas::Fmpz> residues(n);
    for (size_t i = 0; i < n; i++) fmpz_set(residues[i].get(), v.as_vec()[i].as_int());
    return residues;
  });
  std::vector<cas::Fmpz> residues(n);
  for (size_t i = 0; i < n; i++) fmpz_set(residues[i].get(), v.as_vec()[i].as_int());
  const MadeAndFreed from_fmpz = made_and_freed_ms(o.seconds, [&] { return cas::residue_vector(residues, m); });
  const bool agree = cas::equal_values(cas::vector_from_limbs(m, words.data(), n, limbs), v);
  std::printf("convert  2^%-3d %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f  %zu cores  %s\n", k, to_words_ms,
              to_values.made_ms, to_values.freed_ms, to_fmpz.made_ms, from_fmpz.made_ms, from_fmpz.freed_ms,
              cas::core_count(), agree ? "equal" : "DIFFERENT");
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  cas::bench::start_tables(true);
  std::printf("device: %s\n", cas::gpu::describe().c_str());
  flint_rand_t state;
  flint_randinit(state);
  const cas::ModulusPtr p3 = generalized_fermat(63, 34, 8), p4 = generalized_fermat(62, 36, 16);
  if (o.only.empty() || o.only == "fft") {
    std::printf("fft(v, w) modulo P3, host to host (ms; the GPU route's parts: into words, kernel, into entries)\n");
    std::printf("%-8s %-5s %10s %10s %9s %10s %10s %10s  %-26s %s\n", "table", "n", "cpu", "gpu", "cpu/gpu",
                "to words", "kernel", "to values", "engine", "check");
    for (int k = o.min_log; k <= o.max_log; k++) fft_row(o, k, p3, state);
  }
  if (o.only.empty() || o.only == "product") {
    std::printf("f g in Z/pZ[x], f and g of n terms (ms; ratios: that route's time / the big-prime route's)\n");
    std::printf("%-8s %-3s %-5s %10s %10s %9s %10s %9s  %-26s %s\n", "table", "p", "n", "big-prime", "gpu crt",
                "crt/bp", "flint", "flint/bp", "engine", "check");
    for (const auto& [m, name] : {std::pair{p3, "P3"}, std::pair{p4, "P4"}})
      for (int k = o.min_log; k <= o.max_log; k++) product_row(o, k, m, name, state);
  }
  if (o.only.empty() || o.only == "convert") {
    std::printf("conversions modulo P3 (ms): Values -> limb-major words, words -> Values and freeing them (on "
                "the cores); Values -> fmpz's, fmpz's -> Values and freeing them (one thread)\n");
    std::printf("%-8s %-5s %10s %10s %10s %10s %10s %10s\n", "table", "n", "to words", "to values", "free", "to fmpz",
                "from fmpz", "free");
    for (int k = o.min_log; k <= o.max_log; k++) convert_row(o, k, p3, state);
  }
  flint_randclear(state);
}
