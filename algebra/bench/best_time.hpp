#pragma once
// The timing rule of the CPU benchmarks (cas-bench-cpu, cas-bench-division): the best of the runs
// of f that fit `seconds`, at least 3 and at most 51, in milliseconds.
#include <algorithm>
#include <chrono>

namespace cas::bench {

template <class F>
double best_ms(double seconds, F&& f) {
  using Clock = std::chrono::steady_clock;
  double best = 1e300;
  const auto start = Clock::now();
  for (int run = 0; run < 3 || std::chrono::duration<double>(Clock::now() - start).count() < seconds; run++) {
    const auto t0 = Clock::now();
    f();
    best = std::min(best, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    if (run >= 50) break;
  }
  return best;
}

}  // namespace cas::bench
