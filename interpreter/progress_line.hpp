#pragma once
// The REPL's progress line. A statement that runs longer than progress_after gets a line on
// stderr (a terminal) that says how long it has run, what runs and how far it is
// (describe_progress), rewritten in place every progress_refresh and cleared when the statement
// ends, before anything it prints. A thread of its own draws it; every write to the terminal that
// may meet it goes through its lock: the statement's end, and print (ProgressOutputGuard), which
// clears it first.
#include "algebra/support/progress.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace cas {

class ProgressLine final : public ProgressDisplay {
 public:
  static constexpr std::chrono::milliseconds progress_after{1000}, progress_refresh{200};

  ProgressLine();
  ~ProgressLine() override;
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void begin();  // a statement starts
  void end();    // it ended: the line goes
  void hide() override;
  void show() override;

 private:
  void watch();
  void draw(double elapsed_seconds);
  void clear();

  std::mutex lock_;
  std::condition_variable wake_;
  bool running_ = false, hidden_ = false, shown_ = false, stopping_ = false;
  std::chrono::steady_clock::time_point started_;
  std::thread thread_;
};

// The progress line (if any) shown while a statement runs, and cleared however it ends.
class ShownWhileRunning {
 public:
  explicit ShownWhileRunning(ProgressLine* line) : line_(line) {
    if (line_) line_->begin();
  }
  ~ShownWhileRunning() {
    if (line_) line_->end();
  }
  ShownWhileRunning(const ShownWhileRunning&) = delete;
  ShownWhileRunning& operator=(const ShownWhileRunning&) = delete;

 private:
  ProgressLine* line_;
};

}  // namespace cas
