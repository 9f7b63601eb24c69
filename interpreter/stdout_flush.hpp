#pragma once
// Standard output reaches its destination within flush_delay of being written, while the statement
// that wrote it runs on: a pipe (`cas long.cas | tee log`) shows each printed line as it comes, and a
// killed script loses at most that much of what it printed. A flush per printed line made a script
// printing 10^5 lines 3 to 4 times slower; here a line costs one atomic exchange, and one thread
// passes on at once all that came within the delay (docs/measurements.md, "Printing into a pipe").
#include "interrupt_mask.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <ostream>
#include <thread>

namespace cas {

class StdoutFlusher {
 public:
  static constexpr std::chrono::milliseconds flush_delay{50};

  static StdoutFlusher& instance() {
    static StdoutFlusher flusher;
    return flusher;
  }

  // std::cout holds output to pass on. The exchange orders the output before the flush that
  // clears the flag, so nothing written before a call waits for a later one.
  void written() {
    if (pending_.exchange(true, std::memory_order_acq_rel)) return;
    const std::lock_guard<std::mutex> hold(lock_);
    if (!thread_.joinable()) start();
    wake_.notify_one();
  }

  ~StdoutFlusher() {
    {
      const std::lock_guard<std::mutex> hold(lock_);
      stopping_ = true;
      wake_.notify_one();
    }
    if (thread_.joinable()) thread_.join();
  }

 private:
  StdoutFlusher() = default;

  // The thread blocks SIGINT: Ctrl-C belongs to the interpreter's thread (main.cpp, repl.cpp). It
  // takes SIGPIPE as the interpreter's thread would: `cas script.cas | head` ends when head does.
  void start() { thread_ = thread_without_interrupts([this] { run(); }); }

  void run() {
    std::unique_lock<std::mutex> hold(lock_);
    while (!stopping_) {
      wake_.wait(hold, [this] { return stopping_ || pending_.load(std::memory_order_relaxed); });
      wake_.wait_for(hold, flush_delay, [this] { return stopping_; });
      if (pending_.exchange(false, std::memory_order_acq_rel)) {
        hold.unlock();
        std::cout.flush();
        hold.lock();
      }
    }
  }

  std::atomic<bool> pending_{false};
  std::mutex lock_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

// Passes on what was written to `out`: std::cout within the delay, any other stream now.
inline void flush_soon(std::ostream& out) {
  if (&out == &std::cout)
    StdoutFlusher::instance().written();
  else
    out.flush();
}

}  // namespace cas
