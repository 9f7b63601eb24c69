#pragma once
// Work split over the machine's cores by plain threads, for passes over large arrays (CRT
// reconstruction, packed vector arithmetic). Starting a thread costs tens of microseconds, so
// callers give a grain below which a range is not worth one.
#include <flint/flint.h>

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace cas {

// Runs f(begin, end) on disjoint ranges of [0, count) on up to hardware_concurrency threads,
// each range at least `grain` long; the calling thread takes the first range. f must not throw.
template <class F>
void parallel_ranges(std::size_t count, std::size_t grain, F&& f) {
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t threads = std::min(cores, std::max<std::size_t>(1, count / std::max<std::size_t>(grain, 1)));
  if (threads <= 1) {
    f(std::size_t{0}, count);
    return;
  }
  auto begin = [&](std::size_t t) { return count * t / threads; };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; t++)
    pool.emplace_back([&, t] {
      f(begin(t), begin(t + 1));
      flint_cleanup();  // FLINT's per-thread caches die with the thread
    });
  f(begin(0), begin(1));
  for (auto& thread : pool) thread.join();
}

}  // namespace cas
