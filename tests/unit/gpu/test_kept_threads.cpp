// The kept threads that run a device's share of an operation (gpu/kept_threads.hpp), without
// GPUs: every task once, side by side, task i on the same thread from call to call, failures
// rethrown and the threads still working after them, calls of different sizes and from several
// callers one after the other.
#include "gpu/kept_threads.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

using cas::gpu::KeptThreads;

// Waits until `count` tasks have arrived, or 10 s: tasks run one after the other never all arrive.
class Meeting {
 public:
  explicit Meeting(int count) : count_(count) {}
  bool arrive() {
    std::unique_lock<std::mutex> guard(lock_);
    if (++arrived_ == count_) all_.notify_all();
    return all_.wait_for(guard, std::chrono::seconds(10), [this] { return arrived_ >= count_; });
  }

 private:
  std::mutex lock_;
  std::condition_variable all_;
  int count_, arrived_ = 0;
};

TEST_CASE("kept threads: every task once, side by side, task 0 on the caller", "[kept_threads]") {
  KeptThreads& threads = *new KeptThreads;  // never destroyed: its threads wait on it for good
  for (int count : {1, 4, 2, 3, 4}) {
    INFO(count << " tasks");
    std::vector<int> runs(static_cast<size_t>(count), 0);
    std::vector<std::thread::id> ids(static_cast<size_t>(count));
    Meeting meeting(count);
    std::atomic<int> met{0};
    threads.run(count, [&](int i) {
      runs[size_t(i)]++;
      ids[size_t(i)] = std::this_thread::get_id();
      if (meeting.arrive()) met++;
    });
    CHECK(runs == std::vector<int>(size_t(count), 1));
    CHECK(met == count);
    CHECK(ids[0] == std::this_thread::get_id());
    for (int i = 1; i < count; i++) CHECK(ids[size_t(i)] != std::this_thread::get_id());
  }
  CHECK(threads.threads_started() == 3);
  threads.run(0, [](int) { FAIL("a task of a call of none"); });
}

TEST_CASE("kept threads: task i keeps its thread from call to call", "[kept_threads]") {
  KeptThreads& threads = *new KeptThreads;  // never destroyed: its threads wait on it for good
  std::vector<std::thread::id> first(4), again(4);
  threads.run(4, [&](int i) { first[size_t(i)] = std::this_thread::get_id(); });
  threads.run(2, [&](int i) { again[size_t(i)] = std::this_thread::get_id(); });
  threads.run(4, [&](int i) {
    if (i >= 2) again[size_t(i)] = std::this_thread::get_id();
  });
  CHECK(again == first);
  for (int i = 1; i < 4; i++)
    for (int j = i + 1; j < 4; j++) CHECK(first[size_t(i)] != first[size_t(j)]);
}

TEST_CASE("kept threads: the first failure comes back and the threads keep working", "[kept_threads]") {
  KeptThreads& threads = *new KeptThreads;  // never destroyed: its threads wait on it for good
  auto failing = [](int i) {
    if (i == 1) throw std::runtime_error("task one");
    if (i == 2) throw std::logic_error("task two");
  };
  CHECK_THROWS_WITH(threads.run(3, failing), "task one");
  CHECK_THROWS_WITH(threads.run(1, [](int) { throw std::runtime_error("on the caller"); }), "on the caller");
  std::atomic<int> ran{0};
  threads.run(3, [&](int) { ran++; });
  CHECK(ran == 3);
}

TEST_CASE("kept threads: calls from several threads take turns", "[kept_threads]") {
  KeptThreads& threads = *new KeptThreads;  // never destroyed: its threads wait on it for good
  std::atomic<int> inside{0}, overlaps{0}, tasks{0};
  auto caller = [&] {
    for (int call = 0; call < 50; call++)
      threads.run(1 + call % 3, [&](int i) {
        if (i == 0 && inside.fetch_add(1) != 0) overlaps++;
        tasks++;
        if (i == 0) inside.fetch_sub(1);
      });
  };
  std::thread a(caller), b(caller);
  a.join();
  b.join();
  CHECK(overlaps == 0);
  int expected = 0;
  for (int call = 0; call < 50; call++) expected += 2 * (1 + call % 3);
  CHECK(tasks == expected);
}

}  // namespace
