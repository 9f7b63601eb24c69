#pragma once
// Work split over the machine's cores, for passes over large arrays (transforms, CRT
// reconstruction, packed vector arithmetic), by a pool of threads started once: starting 15
// threads a call costs about 430 us on a 16-core host, against 29 us a call on the pool, where a
// transform of 2^20 words takes about 2 ms and makes several such calls (docs/measurements.md,
// "The pool of workers"). Callers still give a grain below which a range is not worth a task.
#include <flint/fmpz.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace cas {

// The machine's cores, asked once: std::thread::hardware_concurrency() reads /sys on each call
// (glibc's get_nprocs: 7 us, several times a transform of 64 words; docs/measurements.md, "The
// pool of workers").
inline std::size_t core_count() {
  static const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  return cores;
}

namespace detail {
// Runs call(context, t) for every t < count, on the pool's workers and the calling thread, and
// returns when all have returned. Calls may nest (a task may run tasks of its own): a caller takes
// the tasks no worker has taken, then waits only for tasks under way, so no call waits on a task
// nobody runs. Without workers (none could be started) the caller runs them all.
void run_tasks(std::size_t count, void (*call)(void*, std::size_t), void* context);
}  // namespace detail

// Runs f(begin, end) on disjoint ranges of [0, count), up to core_count() of them side by side,
// each range at least `grain` long. f must not throw.
template <class F>
void parallel_ranges(std::size_t count, std::size_t grain, F&& f) {
  const std::size_t ranges = std::min(core_count(), std::max<std::size_t>(1, count / std::max<std::size_t>(grain, 1)));
  if (ranges <= 1) {
    f(std::size_t{0}, count);
    return;
  }
  auto range = [&](std::size_t t) { f(count * t / ranges, count * (t + 1) / ranges); };
  using Range = decltype(range);
  detail::run_tasks(ranges, [](void* context, std::size_t t) { (*static_cast<Range*>(context))(t); }, &range);
}

// Runs f(i) for every i < count, side by side on the cores: for a few coarse pieces of work of
// about one size (the independent products of an algorithm's step), each of which may spread over
// the cores itself. Unlike parallel_ranges, f may throw: the first exception is rethrown here
// once every call has returned.
template <class F>
void each_on_cores(std::size_t count, F&& f) {
  std::exception_ptr failure;
  std::mutex failure_lock;
  parallel_ranges(count, 1, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; i++) {
      try {
        f(i);
      } catch (...) {
        const std::lock_guard<std::mutex> hold(failure_lock);
        if (!failure) failure = std::current_exception();
      }
    }
  });
  if (failure) std::rethrow_exception(failure);
}

// Whether holds(i) for every i < count, asked in ranges on the cores; every range stops at the
// first i that fails anywhere.
template <class Holds>
bool all_on_cores(std::size_t count, std::size_t grain, Holds&& holds) {
  std::atomic<bool> all{true};
  parallel_ranges(count, grain, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end && all.load(std::memory_order_relaxed); i++)
      if (!holds(i)) all.store(false, std::memory_order_relaxed);
  });
  return all.load();
}

// Work on integers (FLINT's fmpz: a word, or a pointer to GMP's limbs) runs on the cores from
// integers_on_cores_from of them, in ranges of integer_grain: vectors of integers and Z[x]
// polynomials (arithmetic, conversions, sums, freeing a result made on the cores); shorter ones
// take the serial route. On one thread such operations on 2^20 integers of 64 bits take tens of
// milliseconds (a + b: 62 ms, against 33-35 on two cores and PARI/GP's 24): docs/measurements.md,
// "Integers on the cores: vectors of integers and Z[x] polynomials".
constexpr std::size_t integers_on_cores_from = std::size_t{1} << 15, integer_grain = std::size_t{1} << 14;

// Sets values[0..count) to 0 on the cores, which frees their multi-limb integers (one thread takes
// 25-30 ms for the 2^20 of a Z[x] product's result: docs/measurements.md, "Integers on the cores:
// vectors of integers and Z[x] polynomials").
void zero_on_cores(fmpz* values, std::size_t count);

// Copies count words from src to dst on several threads, which also fault dst's fresh pages in
// side by side (one thread copying 2^22 words into a new array takes 6 ms on a 16-core host:
// docs/measurements.md, "Word arrays: huge pages and reused blocks").
inline void copy_words(ulong* dst, const ulong* src, std::size_t count) {
  parallel_ranges(count, std::size_t{1} << 17, [&](std::size_t begin, std::size_t end) {
    std::copy(src + begin, src + end, dst + begin);
  });
}

}  // namespace cas
