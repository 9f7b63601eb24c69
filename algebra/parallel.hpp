#pragma once
// Work split over the machine's cores by plain threads, for passes over large arrays (CRT
// reconstruction, packed vector arithmetic). Starting a thread costs tens of microseconds, so
// callers give a grain below which a range is not worth one.
#include <flint/flint.h>

#include <algorithm>
#include <cstddef>
#include <system_error>
#include <thread>
#include <vector>

namespace cas {

// The machine's cores, asked once: std::thread::hardware_concurrency() reads /sys on each call
// (glibc's get_nprocs), which made a transform of 64 words three times as slow.
inline std::size_t core_count() {
  static const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  return cores;
}

// Runs f(begin, end) on disjoint ranges of [0, count) on up to core_count() threads,
// each range at least `grain` long; the calling thread takes the first range, and any range no
// thread could be started for (the system refused one). f must not throw.
template <class F>
void parallel_ranges(std::size_t count, std::size_t grain, F&& f) {
  const std::size_t threads = std::min(core_count(), std::max<std::size_t>(1, count / std::max<std::size_t>(grain, 1)));
  if (threads <= 1) {
    f(std::size_t{0}, count);
    return;
  }
  auto begin = [&](std::size_t t) { return count * t / threads; };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  std::size_t started = 1;
  try {
    for (; started < threads; started++)
      pool.emplace_back([&, t = started] {
        f(begin(t), begin(t + 1));
        flint_cleanup();  // FLINT's per-thread caches die with the thread
      });
  } catch (const std::system_error&) {
    // out of threads: the caller runs the ranges from `started` on
  }
  f(begin(0), begin(1));
  for (std::size_t t = started; t < threads; t++) f(begin(t), begin(t + 1));
  for (auto& thread : pool) thread.join();
}

// Copies count words from src to dst on several threads, which also fault dst's fresh pages in
// side by side: one thread copying 2^22 words into a new array took 6 ms on the H100's host.
inline void copy_words(ulong* dst, const ulong* src, std::size_t count) {
  parallel_ranges(count, std::size_t{1} << 17, [&](std::size_t begin, std::size_t end) {
    std::copy(src + begin, src + end, dst + begin);
  });
}

}  // namespace cas
