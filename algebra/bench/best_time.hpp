#pragma once
// The timing rule of the CPU benchmarks (cas-bench-cpu, cas-bench-division, cas-bench-zdivision): the
// best of the runs of f that fit `seconds`, at least 3 and at most 51, in milliseconds.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>

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

// The options every table of these benchmarks has: --min K and --max K (lengths 2^K) and
// --seconds S (best_ms's budget). Returns whether `name` was one of them.
inline bool read_table_option(const char* name, const char* value, int& min_log, int& max_log, double& seconds) {
  if (!std::strcmp(name, "--min")) min_log = std::atoi(value);
  else if (!std::strcmp(name, "--max")) max_log = std::atoi(value);
  else if (!std::strcmp(name, "--seconds")) seconds = std::atof(value);
  else return false;
  return true;
}

}  // namespace cas::bench
