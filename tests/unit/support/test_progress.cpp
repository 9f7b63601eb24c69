// The record of the work in progress (algebra/support/progress.cpp): the line a display shows, the
// snapshot of nested operations and their steps, what threads other than the statement's may and
// may not change, the loop slot, and a reader that snapshots while a writer works (no torn text,
// no fraction above its total; ThreadSanitizer checks the rest when the tests are built with it).
#include "algebra/support/progress.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

using cas::ProgressLoop;
using cas::ProgressScope;
using cas::ProgressSnapshot;
using cas::ProgressSteps;
using cas::describe_progress;
using cas::progress_primes;
using cas::progress_reset;
using cas::progress_snapshot;

namespace {

ProgressSnapshot snapshot_of(std::string text, std::string steps, uint64_t done, uint64_t total) {
  ProgressSnapshot s;
  s.text = std::move(text);
  s.steps = std::move(steps);
  s.done = done;
  s.total = total;
  return s;
}

}  // namespace

TEST_CASE("describe_progress: elapsed time, operation, steps and loop on one line", "[progress]") {
  CHECK(describe_progress(ProgressSnapshot{}, 3.24) == "3.2 s  running");
  CHECK(describe_progress(snapshot_of("gpu crt product 2^24, 130 primes", "", 0, 0), 3.2) ==
        "3.2 s  gpu crt product 2^24, 130 primes");
  CHECK(describe_progress(snapshot_of("cpu crt product 2^20, 17 primes", "primes", 5, 17), 12.4) ==
        "12.4 s  cpu crt product 2^20, 17 primes  primes 5/17 (29%)");
  // steps without a name, and a done count past its total (clamped)
  CHECK(describe_progress(snapshot_of("x", "", 41, 130), 1) == "1.0 s  x  41/130 (31%)");
  CHECK(describe_progress(snapshot_of("x", "crt", 9, 4), 1) == "1.0 s  x  crt 4/4 (100%)");
  // a total of 0 is no fraction, whatever done says
  CHECK(describe_progress(snapshot_of("x", "crt", 3, 0), 1) == "1.0 s  x");

  ProgressSnapshot loop = snapshot_of("cpu ntt product 2^21", "", 0, 0);
  loop.loop_done = 7;
  loop.loop_total = 100;
  CHECK(describe_progress(loop, 65.0) == "1 min 05 s  loop 7/100 (7%)  cpu ntt product 2^21");
  loop.text.clear();
  CHECK(describe_progress(loop, 3725.0) == "1 h 02 min  loop 7/100 (7%)");
  CHECK(describe_progress(ProgressSnapshot{}, -0.5) == "0.0 s  running");
}

TEST_CASE("progress_snapshot: nested operations, their primes and steps, and progress_reset", "[progress]") {
  const auto before = std::chrono::steady_clock::now();
  progress_reset();
  CHECK(progress_snapshot().started >= before);
  CHECK(progress_snapshot().started <= std::chrono::steady_clock::now());
  CHECK(progress_snapshot().text.empty());
  {
    const ProgressScope outer("half-gcd resultant", 5000);
    CHECK(progress_snapshot().text == "half-gcd resultant 2^13");
    {
      const ProgressScope short_one("flint nmod_poly_mul", 16, false);  // not recorded
      CHECK(progress_snapshot().text == "half-gcd resultant 2^13");
    }
    {
      const ProgressScope inner("cpu crt product", 1 << 20);
      progress_primes(17);
      const ProgressSteps steps("primes", 17);
      steps.advance(3);
      steps.advance(2);
      const ProgressSnapshot s = progress_snapshot();
      CHECK(s.text == "cpu crt product 2^20, 17 primes");
      CHECK(s.steps == "primes");
      CHECK(s.done == 5);
      CHECK(s.total == 17);
      const ProgressSteps crt("crt", 4096);  // a later stage replaces the first
      crt.advance(1024);
      CHECK(progress_snapshot().steps == "crt");
      CHECK(progress_snapshot().done == 1024);
      CHECK(progress_snapshot().total == 4096);
    }
    const ProgressSnapshot s = progress_snapshot();  // the outer one again, without the inner's steps
    CHECK(s.text == "half-gcd resultant 2^13");
    CHECK(s.total == 0);
    CHECK(s.steps.empty());
  }
  CHECK(progress_snapshot().text.empty());

  // progress_reset forgets an operation still open (its end then changes nothing)
  {
    const ProgressScope left("cpu ntt", 64);
    progress_reset();
    CHECK(progress_snapshot().text.empty());
    const ProgressScope next("gpu ntt", 128);
    CHECK(progress_snapshot().text == "gpu ntt 2^7");
  }
  CHECK(progress_snapshot().text.empty());
}

TEST_CASE("progress: steps outside every operation, or with a total of 0, record nothing", "[progress]") {
  progress_reset();
  const ProgressSteps outside("primes", 10);
  outside.advance(4);
  CHECK(progress_snapshot().total == 0);
  const ProgressScope scope("cpu crt product", 4096);
  const ProgressSteps counted("primes", 3);
  counted.advance();
  const ProgressSteps none("crt", 0);  // leaves the stage before it on show
  none.advance(100);
  CHECK(progress_snapshot().steps == "primes");
  CHECK(progress_snapshot().done == 1);
}

TEST_CASE("progress: only the statement's thread records operations, any thread counts steps", "[progress]") {
  progress_reset();
  const ProgressScope scope("cpu crt product", 1 << 16);
  const ProgressSteps steps("primes", 400);
  std::vector<std::thread> workers;
  for (int t = 0; t < 4; t++)
    workers.emplace_back([&steps] {
      // an operation on a worker (each_on_cores) leaves the statement's record alone
      const ProgressScope elsewhere("flint nmod_poly_mul", 64);
      progress_primes(3);
      const ProgressSteps other("crt", 9);
      for (int i = 0; i < 100; i++) steps.advance();
    });
  for (auto& w : workers) w.join();
  const ProgressSnapshot s = progress_snapshot();
  CHECK(s.text == "cpu crt product 2^16");
  CHECK(s.steps == "primes");
  CHECK(s.done == 400);
  CHECK(s.total == 400);
}

TEST_CASE("progress: the loop slot belongs to the outermost loop", "[progress]") {
  progress_reset();
  {
    const ProgressLoop outer(10);
    outer.finished(3);
    {
      const ProgressLoop inner(1000);  // the slot is taken
      inner.finished(999);
      CHECK(progress_snapshot().loop_total == 10);
      CHECK(progress_snapshot().loop_done == 3);
    }
    CHECK(progress_snapshot().loop_total == 10);
    const ProgressLoop empty(0);  // a loop without iterations takes nothing
    outer.finished(4);
    CHECK(progress_snapshot().loop_done == 4);
  }
  CHECK(progress_snapshot().loop_total == 0);
  const ProgressLoop next(5);  // free again
  CHECK(progress_snapshot().loop_total == 5);
}

// The writer opens and closes operations of two kinds, each with its own text and steps; the
// reader must only ever see one of them whole (or none), and never more steps done than in all.
TEST_CASE("progress: snapshots read while the statement's thread works are consistent", "[progress]") {
  std::atomic<bool> writing{true}, started{false};
  std::thread writer([&] {
    progress_reset();
    started = true;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
    for (uint64_t round = 0; std::chrono::steady_clock::now() < until; round++) {
      const ProgressLoop loop(1000);
      loop.finished(round % 1000);
      const ProgressScope outer("alpha", 1024);
      const ProgressSteps alpha("primes", 7);
      for (int i = 0; i < 7; i++) alpha.advance();
      {
        const ProgressScope inner("beta", 1 << 20);
        progress_primes(130);
        const ProgressSteps beta("crt", 1000);
        for (int i = 0; i < 10; i++) beta.advance(100);
      }
    }
    writing = false;
  });
  while (!started) std::this_thread::yield();
  const std::set<std::string> texts{"", "alpha 2^10", "beta 2^20", "beta 2^20, 130 primes"};
  size_t reads = 0, torn = 0;
  std::set<std::string> seen;
  while (writing) {
    const ProgressSnapshot s = progress_snapshot();
    reads++;
    seen.insert(s.text);
    if (!texts.count(s.text) || s.done > s.total || s.loop_done > s.loop_total) torn++;
    if (s.text == "alpha 2^10" && !(s.total == 0 || (s.steps == "primes" && s.total == 7))) torn++;
    if (s.text.rfind("beta", 0) == 0 && !(s.total == 0 || (s.steps == "crt" && s.total == 1000))) torn++;
    if (describe_progress(s, 1.0).find("running") == std::string::npos && s.text.empty() && s.loop_total == 0) torn++;
  }
  writer.join();
  INFO("snapshots read: " << reads);
  CHECK(torn == 0);
  CHECK(seen.count("alpha 2^10") + seen.count("beta 2^20, 130 primes") > 0);
}
