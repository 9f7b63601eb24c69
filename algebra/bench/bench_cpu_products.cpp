// cas-bench-cpu: products in Z/pZ[x] and Z[x] on the CPU, cas's transforms (algebra/fourier/ntt_product_cpu.hpp,
// and the multi-modular Z[x] product through them) against FLINT's nmod_poly_mul and fmpz_poly_mul,
// both measured in the same run; the results are compared, and the table says where the CPU
// crossovers of algebra/dispatch/dispatch.hpp lie on this machine.
//   cas-bench-cpu [--min K] [--max K] [--seconds S] [--scalar 1] [--pool 1]
// --scalar 1 runs the transforms' scalar butterflies on a machine with AVX-512 (ntt_cpu_lanes.hpp).
// --pool 1 prints only what one call of parallel_ranges costs (algebra/support/parallel.hpp).
// Rows: product length 2^k - 1 (operands of 2^(k-1) coefficients), best of the runs that fit S
// seconds (at least 3); primes: the CRT primes, or p for one transform modulo p; dispatch: the
// engine cas picks at that length without a GPU.
#include "algebra/bench/best_time.hpp"
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/multimodular/multimodular.hpp"
#include "algebra/fourier/ntt_cpu_lanes.hpp"
#include "algebra/fourier/ntt_product_cpu.hpp"
#include "algebra/support/parallel.hpp"

#include <flint/fmpz_poly.h>
#include <flint/nmod_poly.h>
#include <flint/ulong_extras.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

struct Options {
  int min_log = 8, max_log = 20;
  double seconds = 0.3;
  bool scalar = false;
  bool pool = false;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (cas::bench::read_table_option(argv[i], argv[i + 1], o.min_log, o.max_log, o.seconds)) continue;
    if (!std::strcmp(argv[i], "--scalar")) o.scalar = std::atoi(argv[i + 1]) != 0;
    else if (!std::strcmp(argv[i], "--pool")) o.pool = std::atoi(argv[i + 1]) != 0;
  }
  return o;
}

using cas::bench::best_ms;

// primes: the CRT primes, 0 for one transform modulo p itself.
void print_row(const char* what, const char* ring, int k, size_t primes, double reference, double ours, bool same,
               size_t crossover) {
  char primes_text[16];
  std::snprintf(primes_text, sizeof primes_text, primes ? "%zu" : "p", primes);
  std::printf("%-14s %-22s 2^%-3d %6s %12.4f %12.4f %8.2fx %6s %s\n", what, ring, k, primes_text, reference, ours,
              reference / ours, same ? "ok" : "DIFFER", (size_t{1} << k) - 1 >= crossover ? "cas" : "flint");
}

void modular_rows(const Options& o, ulong p, flint_rand_t state) {
  nmod_t mod;
  nmod_init(&mod, p);
  char ring[32];
  std::snprintf(ring, sizeof ring, "Z/%luZ", p);
  for (int k = o.min_log; k <= o.max_log; k++) {
    const size_t n = size_t{1} << (k - 1), length = 2 * n - 1;
    std::vector<ulong> a(n), b(n), flint(length), ours(length);
    for (size_t i = 0; i < n; i++) a[i] = n_randint(state, p), b[i] = n_randint(state, p);
    const double reference = best_ms(o.seconds, [&] {
      _nmod_poly_mul(flint.data(), a.data(), static_cast<slong>(n), b.data(), static_cast<slong>(n), mod);
    });
    const double time = best_ms(o.seconds, [&] { cas::multiply_words_cpu_ntt(a.data(), n, b.data(), n, mod, ours.data()); });
    const std::vector<ulong> primes = cas::cpu_product_primes(n, n, p);
    const bool one_transform = primes.size() == 1 && primes[0] == p;
    print_row("nmod_poly_mul", ring, k, one_transform ? 0 : primes.size(), reference, time, flint == ours,
              cas::cpu_ntt_crossover(one_transform, p));
  }
}

void integer_rows(const Options& o, ulong bits, flint_rand_t state) {
  char ring[32];
  std::snprintf(ring, sizeof ring, "Z, %lu bits", bits);
  for (int k = o.min_log; k <= o.max_log; k++) {
    const slong n = slong{1} << (k - 1);
    cas::ZPoly a, b, flint;
    fmpz_poly_fit_length(a.get(), n);
    fmpz_poly_fit_length(b.get(), n);
    for (slong i = 0; i < n; i++) {
      fmpz_randbits(a.get()->coeffs + i, state, bits);
      fmpz_randbits(b.get()->coeffs + i, state, bits);
    }
    fmpz_one(a.get()->coeffs + n - 1);
    fmpz_one(b.get()->coeffs + n - 1);
    _fmpz_poly_set_length(a.get(), n);
    _fmpz_poly_set_length(b.get(), n);
    const double reference = best_ms(o.seconds, [&] { fmpz_poly_mul(flint.get(), a.get(), b.get()); });
    cas::ZPoly ours;
    const double time = best_ms(o.seconds, [&] { ours = cas::multiply_multimodular(a, b, cas::ProductEngine::Cpu); });
    const size_t primes = cas::plan_multimodular(a, b).primes.size();
    const size_t product_length = 2 * static_cast<size_t>(n) - 1;
    print_row("fmpz_poly_mul", ring, k, primes, reference, time, fmpz_poly_equal(ours.get(), flint.get()),
              primes <= cas::cpu_crt_most_primes_z(product_length) ? cas::cpu_crt_crossover_z : SIZE_MAX);
  }
}

// One call of parallel_ranges over t ranges (at most one a core), each summing 4096 words, against the same sums on the
// calling thread: the mean of 20000 calls, in microseconds.
void pool_rows() {
  constexpr size_t grain = 4096, calls = 20000;
  std::vector<ulong> words(grain * 64, 1);
  std::printf("%-6s %14s %14s\n", "ranges", "pool us/call", "serial us");
  for (size_t tasks : {2, 3, 4, 8, 16, 32}) {
    if (tasks > cas::core_count()) break;
    std::atomic<ulong> total{0};
    auto sum = [&](size_t begin, size_t end) {
      ulong s = 0;
      for (size_t i = begin; i < end; i++) s += words[i];
      total += s;
    };
    auto mean_us = [&](auto&& call) {
      const auto t0 = std::chrono::steady_clock::now();
      for (size_t c = 0; c < calls; c++) call();
      return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / calls;
    };
    const double pooled = mean_us([&] { cas::parallel_ranges(tasks * grain, grain, sum); });
    const double serial = mean_us([&] { sum(0, tasks * grain); });
    std::printf("%-6zu %14.2f %14.2f%s\n", tasks, pooled, serial, total.load() == 2 * calls * tasks * grain ? "" : " WRONG");
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  flint_rand_t state;
  flint_randinit(state);
  cas::lanes::set_enabled(!o.scalar);
  if (o.pool) {
    std::printf("# parallel_ranges on %zu cores\n", cas::core_count());
    pool_rows();
    return 0;
  }
  std::printf("# cas's transforms on the CPU (%zu cores, %s butterflies) against FLINT %s (one core); best of >= 3 "
              "runs, ms\n",
              cas::core_count(), cas::lanes::enabled() ? "AVX-512" : "scalar", FLINT_VERSION);
  std::printf("%-14s %-22s %-5s %6s %12s %12s %9s %6s %s\n", "reference", "ring", "k", "primes", "flint ms",
              "cas ms", "flint/cas", "check", "dispatch");
  // NTT primes (65537, 998244353, a 62-bit one, 2^64 - 2^32 + 1) and primes whose products need
  // CRT primes (16, 30, 62 and 64 bits).
  for (ulong p : {ulong{65537}, ulong{45119}, ulong{998244353}, ulong{1000000007}, ulong{4611686018326724609ull},
                  ulong{4611686018427388039ull}, ulong{18446744069414584321ull}, ulong{18446744073709551557ull}})
    modular_rows(o, p, state);
  for (ulong bits : {16ul, 64ul, 256ul, 1000ul}) integer_rows(o, bits, state);
  flint_randclear(state);
  return 0;
}
