#pragma once
// What the division benchmarks (cas-bench-division, cas-bench-zdivision) share: a comma-separated
// option's numbers, cas's time with the GPU and without it, and the grid of time ratios their
// crossovers come from.
#include "algebra/bench/best_time.hpp"
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"

#include <flint/flint.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace cas::bench {

// What both division benchmarks do first: rows printed as they come (line-buffered stdout, also
// into a file), the GPU allowed (auto) or not, and a line that says which.
inline void start_tables(bool gpu) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  set_gpu_mode(gpu ? GpuMode::Auto : GpuMode::Off);
  std::printf("GPU: %s\n", gpu && gpu_usable() ? "auto" : "off");
}

// "3,17,65537" -> {3, 17, 65537}
inline std::vector<ulong> comma_separated(const char* text) {
  std::vector<ulong> out;
  for (char* end = nullptr; *text; text = *end ? end + 1 : end) out.push_back(std::strtoul(text, &end, 10));
  return out;
}

// cas's best time with the GPU allowed (auto) and, with `gpu` set and a GPU there, without it (else
// cpu_ms 0); the engine note of the first.
struct EngineTiming {
  double ms = 0, cpu_ms = 0;
  std::string engine;
};

template <class F>
EngineTiming time_on_engines(double seconds, bool gpu, F&& f) {
  EngineTiming t;
  t.ms = best_ms(seconds, [&] {
    engine_reset();
    f();
  });
  t.engine = engine_last();
  if (gpu && gpu_usable()) {
    set_gpu_mode(GpuMode::Off);
    t.cpu_ms = best_ms(seconds, f);
    set_gpu_mode(GpuMode::Auto);
  }
  return t;
}

// Rows for quotients of 2^i terms, columns for divisors of 2^j, i and j from min_log to max_log;
// each entry ratio(quotient length, divisor length), printed as it comes.
template <class Ratio>
void print_ratio_grid(int min_log, int max_log, Ratio&& ratio) {
  std::printf("%6s", "");
  for (int j = min_log; j <= max_log; j++) std::printf("  2^%-4d", j);
  std::printf("\n");
  for (int i = min_log; i <= max_log; i++) {
    std::printf("2^%-4d", i);
    for (int j = min_log; j <= max_log; j++) std::printf("  %6.2f", ratio(std::size_t{1} << i, std::size_t{1} << j));
    std::printf("\n");
  }
}

}  // namespace cas::bench
