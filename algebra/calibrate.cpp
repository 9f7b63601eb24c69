#include "calibrate.hpp"

#include "error.hpp"
#include "fourier.hpp"
#include "modpoly_ops.hpp"
#include "multiply.hpp"

#include "gpu/ntt.hpp"

#include <flint/ulong_extras.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>

namespace cas {

namespace {

using Clock = std::chrono::steady_clock;

// The median of `runs` timings of f, in seconds.
template <class F>
double median_seconds(int runs, F&& f) {
  std::vector<double> t;
  for (int i = 0; i < runs; i++) {
    auto start = Clock::now();
    f();
    t.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

ModPoly random_poly(const ModulusPtr& m, slong n, flint_rand_t state) {
  ModPoly f(m);
  nmod_poly_randtest(f.nmod(), state, n);
  return f;
}

// Times the product of two polynomials of n coefficients on each engine.
std::pair<double, double> time_product(const ModulusPtr& m, slong n, flint_rand_t state) {
  ModPoly a = random_poly(m, n, state), b = random_poly(m, n, state);
  const int runs = n <= (1 << 16) ? 7 : 3;
  set_gpu_mode(GpuMode::Off);
  double cpu = median_seconds(runs, [&] { multiply(a, b); });
  set_gpu_mode(GpuMode::On);
  multiply(a, b);  // warm-up: twiddles, allocations
  double gpu = median_seconds(runs, [&] { multiply(a, b); });
  return {cpu, gpu};
}

// The smallest measured length from which the GPU wins at every larger measured length.
size_t crossover(const std::vector<std::pair<size_t, bool>>& gpu_wins) {
  size_t best = SIZE_MAX;
  for (auto it = gpu_wins.rbegin(); it != gpu_wins.rend() && it->second; ++it) best = it->first;
  return best;
}

}  // namespace

Crossovers calibrate(std::ostream& log) {
  if (!gpu_usable()) throw DomainError("calibration needs a GPU: " + gpu::describe());
  const GpuMode saved = gpu_mode();
  flint_rand_t state;
  flint_randinit(state);
  Crossovers result = crossovers();
  result.origin = crossover_config_path();
  // An NTT prime (2^64 - 2^32 + 1 has 2^32 | p - 1) and a 62-bit prime without 2-adic roots.
  const ulong ntt_prime = 18446744069414584321ull;
  ulong crt_prime = n_nextprime((1ull << 62) + 12345, 1);
  while ((crt_prime - 1) % 4 == 0) crt_prime = n_nextprime(crt_prime, 1);
  struct Case {
    GpuOperation op;
    ulong p;
  } cases[] = {{GpuOperation::ProductNttPrime, ntt_prime}, {GpuOperation::ProductCrt, crt_prime}};
  char line[160];
  std::snprintf(line, sizeof line, "%-18s %10s %12s %12s %8s\n", "operation", "length", "flint ms", "gpu ms", "ratio");
  log << line;
  for (const Case& c : cases) {
    ModulusPtr m = make_modulus(c.p);
    std::vector<std::pair<size_t, bool>> wins;
    for (int k = 8; k <= 22; k += 2) {
      slong n = slong{1} << (k - 1);  // two operands of 2^(k-1): a product of about 2^k coefficients
      auto [cpu, gpu] = time_product(m, n, state);
      wins.emplace_back(size_t{1} << k, gpu < cpu);
      std::snprintf(line, sizeof line, "%-18s %10zu %12.3f %12.3f %8.2f\n", gpu_operation_key(c.op), size_t{1} << k,
                    cpu * 1e3, gpu * 1e3, cpu / gpu);
      log << line << std::flush;
    }
    result.length[static_cast<size_t>(c.op)] = crossover(wins);
  }
  // fft of one vector follows the NTT-prime product (one transform instead of three).
  result.length[static_cast<size_t>(GpuOperation::Transform)] =
      result.length[static_cast<size_t>(GpuOperation::ProductNttPrime)];
  flint_randclear(state);
  set_gpu_mode(saved);
  return result;
}

}  // namespace cas
