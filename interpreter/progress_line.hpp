#pragma once
// The REPL's progress line. A statement that runs longer than progress_after gets a line on
// stderr (a terminal) that says how long it has run, what runs and how far it is
// (describe_progress), rewritten in place every progress_refresh and cleared when the statement
// ends, before anything it prints. A thread of its own draws it; every write to the terminal that
// may meet it goes through its lock: the statement's end, and print (ProgressOutputGuard), which
// clears it first. The SIGINT handler, which may not take that lock, hands its notices to the line
// (interrupted), which clears itself and writes them.
#include "algebra/support/progress.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace cas {

// What the SIGINT handler says about a Ctrl-C during a statement: a static object (a handler may
// not allocate), read whole by the thread that writes it.
struct InterruptNotice {
  const char* text;  // whole lines, each ending in '\n'
  int exit_status;   // cas ends with this status once the text is written; -1: it runs on
};

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

  // For the SIGINT handler, on the thread that calls begin() and end(): async-signal-safe (atomic
  // stores only). False when no statement runs: the line shows nothing, and the handler writes
  // its notice itself. Else the terminal has echoed Ctrl-C ("^C") on the line, which is therefore
  // cleared when the statement ends even where no progress shows; and the notice, if any, is
  // written in the line's place (the progress goes on under it) by the drawing thread within
  // progress_refresh, or by end() if that comes first.
  bool interrupted(const InterruptNotice* notice);

 private:
  void watch();
  void draw(double elapsed_seconds);
  void clear();
  void write_notice();

  std::mutex lock_;
  std::condition_variable wake_;
  bool running_ = false, hidden_ = false, shown_ = false, stopping_ = false;
  std::chrono::steady_clock::time_point started_;
  std::thread thread_;
  // Shared with the SIGINT handler, which cannot take lock_.
  std::atomic<bool> in_statement_{false};  // between begin() and end()
  std::atomic<bool> echo_on_line_{false};  // Ctrl-C was pressed during the statement: "^C" is on the line
  std::atomic<const InterruptNotice*> notice_{nullptr};  // to write; null when none
  static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<const InterruptNotice*>::is_always_lock_free,
                "a signal handler may only use lock-free atomics");
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
