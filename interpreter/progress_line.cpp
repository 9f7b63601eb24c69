#include "progress_line.hpp"

#include "interrupt_mask.hpp"

#include <sys/ioctl.h>
#include <unistd.h>


namespace cas {

namespace {

void write_to_stderr(const std::string& text) {
  ssize_t ignored = write(STDERR_FILENO, text.data(), text.size());
  (void)ignored;
}

}  // namespace

ProgressLine::ProgressLine() {
  // Ctrl-C belongs to the REPL's thread (repl.cpp's on_interrupt): the drawing thread blocks it.
  thread_ = thread_without_interrupts([this] { watch(); });
  set_progress_display(this);
}

ProgressLine::~ProgressLine() {
  set_progress_display(nullptr);
  {
    const std::lock_guard<std::mutex> hold(lock_);
    stopping_ = true;
    wake_.notify_one();
  }
  thread_.join();
}

void ProgressLine::begin() {
  const std::lock_guard<std::mutex> hold(lock_);
  running_ = true;
  hidden_ = false;
  started_ = std::chrono::steady_clock::now();
  wake_.notify_one();
}

void ProgressLine::end() {
  const std::lock_guard<std::mutex> hold(lock_);
  running_ = false;
  clear();
  wake_.notify_one();
}

void ProgressLine::hide() {
  const std::lock_guard<std::mutex> hold(lock_);
  hidden_ = true;
  clear();
}

void ProgressLine::show() {
  const std::lock_guard<std::mutex> hold(lock_);
  hidden_ = false;
}

// Sleeps at the prompt; while a statement runs, wakes every progress_refresh.
void ProgressLine::watch() {
  std::unique_lock<std::mutex> hold(lock_);
  while (!stopping_) {
    wake_.wait(hold, [this] { return stopping_ || running_; });
    if (wake_.wait_for(hold, progress_refresh, [this] { return stopping_ || !running_; })) continue;
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started_;
    if (!hidden_ && elapsed >= progress_after) draw(elapsed.count());
  }
}

// One line no wider than the terminal (a wrapped line could not be rewritten in place).
void ProgressLine::draw(double elapsed_seconds) {
  std::string line = describe_progress(progress_snapshot(), elapsed_seconds);
  winsize size{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 1 && line.size() >= size.ws_col)
    line.resize(size.ws_col - 1);
  write_to_stderr("\r" + line + "\x1b[K");
  shown_ = true;
}

void ProgressLine::clear() {
  if (!shown_) return;
  write_to_stderr("\r\x1b[K");
  shown_ = false;
}

}  // namespace cas
