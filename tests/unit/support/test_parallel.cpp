// parallel_ranges on the pool of workers (algebra/support/parallel.cpp): every index in exactly one range,
// every range run before the call returns, calls nested three deep and calls from several threads
// at once (the transforms nest them: quarters on threads, each splitting its stages again).
#include "algebra/support/parallel.hpp"

#include <catch2/catch.hpp>
#include <flint/fmpz_vec.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <mutex>
#include <numeric>
#include <thread>
#include <vector>

namespace {

// visits[i] counts the ranges that covered i; the ranges are checked to be disjoint and to cover
// [0, count) once the call returns.
bool covers_once(std::size_t count, std::size_t grain) {
  std::vector<std::atomic<int>> visits(count);
  cas::parallel_ranges(count, grain, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; i++) visits[i]++;
  });
  for (auto& v : visits)
    if (v.load() != 1) return false;
  return true;
}

// The sum of 0..count-1, by ranges of ranges of ranges.
std::size_t nested_sum(std::size_t count) {
  std::atomic<std::size_t> total{0};
  cas::parallel_ranges(count, 1, [&](std::size_t begin, std::size_t end) {
    cas::parallel_ranges(end - begin, 1, [&](std::size_t b, std::size_t e) {
      cas::parallel_ranges(e - b, 1, [&](std::size_t inner_begin, std::size_t inner_end) {
        for (std::size_t i = inner_begin; i < inner_end; i++) total += begin + b + i;
      });
    });
  });
  return total.load();
}

}  // namespace

TEST_CASE("parallel_ranges covers every index once, whatever the count and grain", "[parallel]") {
  for (std::size_t count : {0, 1, 2, 3, 7, 16, 17, 1000, 65537})
    for (std::size_t grain : {0, 1, 3, 100, 1 << 16}) {
      INFO("count " << count << ", grain " << grain);
      CHECK(covers_once(count, grain));
    }
}

TEST_CASE("parallel_ranges nested three deep finishes with every range run", "[parallel]") {
  for (std::size_t count : {1, 5, 64, 1000, 100000}) {
    const std::size_t expected = count * (count - 1) / 2;
    for (int round = 0; round < 20; round++) REQUIRE(nested_sum(count) == expected);
  }
}

TEST_CASE("parallel_ranges called from several threads at once", "[parallel]") {
  std::vector<std::thread> callers;
  std::vector<int> right(6, 0);
  for (std::size_t c = 0; c < right.size(); c++)
    callers.emplace_back([&, c] {
      int ok = 1;
      for (int round = 0; round < 50; round++) ok &= nested_sum(1000 + c) == (1000 + c) * (999 + c) / 2;
      right[c] = ok;
    });
  for (auto& caller : callers) caller.join();
  CHECK(std::accumulate(right.begin(), right.end(), 0) == static_cast<int>(right.size()));
}

TEST_CASE("the pool's workers block signals: Ctrl-C reaches the thread that reads the REPL", "[parallel]") {
  const std::thread::id caller = std::this_thread::get_id();
  std::mutex lock;
  int on_workers = 0, blocking = 0;
  cas::parallel_ranges(cas::core_count(), 1, [&](std::size_t, std::size_t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // so that the workers take ranges
    if (std::this_thread::get_id() == caller) return;
    sigset_t mask;
    pthread_sigmask(SIG_BLOCK, nullptr, &mask);
    const std::lock_guard<std::mutex> hold(lock);
    on_workers++;
    blocking += sigismember(&mask, SIGINT) == 1;
  });
  if (cas::core_count() > 1) CHECK(on_workers > 0);
  CHECK(blocking == on_workers);
}

// Multi-limb integers made on several threads (as a CRT reconstruction makes a product's
// coefficients), small ones between them, all zeroed and freed on the cores.
TEST_CASE("zero_on_cores zeroes every entry, whichever thread made its integer", "[parallel]") {
  const std::size_t count = (std::size_t{1} << 16) + 123;
  fmpz* values = _fmpz_vec_init(static_cast<slong>(count));
  cas::parallel_ranges(count, 1000, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; i++) {
      fmpz_set_si(values + i, static_cast<slong>(i) - 7);
      if (i % 3) fmpz_mul_2exp(values + i, values + i, 64 + i % 200);
    }
  });
  cas::zero_on_cores(values, count);
  std::size_t nonzero = 0;
  for (std::size_t i = 0; i < count; i++) nonzero += !fmpz_is_zero(values + i);
  CHECK(nonzero == 0);
  _fmpz_vec_clear(values, static_cast<slong>(count));
}
