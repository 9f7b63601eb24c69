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
  echo_on_line_ = false;
  in_statement_ = true;
  wake_.notify_one();
}

// A Ctrl-C while the line goes waits until it has gone: its handler then finds no statement
// running and writes its notice itself, under a line that shows nothing.
void ProgressLine::end() {
  const InterruptsHeld held;
  const std::lock_guard<std::mutex> hold(lock_);
  running_ = false;
  in_statement_ = false;
  clear();
  write_notice();
  wake_.notify_one();
}

bool ProgressLine::interrupted(const InterruptNotice* notice) {
  if (!in_statement_.load()) return false;
  echo_on_line_.store(true);
  if (notice) notice_.store(notice);
  return true;
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
    write_notice();
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

// Erases the progress text, and the ^C that the terminal echoed after it or on the empty line.
void ProgressLine::clear() {
  const bool echoed = echo_on_line_.exchange(false);
  if (!shown_ && !echoed) return;
  write_to_stderr("\r\x1b[K");
  shown_ = false;
}

// In place of what the line shows, even while print has it hidden: a notice that quits must not
// wait for a print that may take long (print formats its values while the line is hidden), and a
// printed line reaches a terminal in one write (stdout is line-buffered there), not in pieces that
// the notice could split.
void ProgressLine::write_notice() {
  const InterruptNotice* notice = notice_.exchange(nullptr);
  if (!notice) return;
  write_to_stderr(std::string("\r\x1b[K") + notice->text);
  shown_ = false;
  echo_on_line_ = false;
  if (notice->exit_status >= 0) _exit(notice->exit_status);
}

}  // namespace cas
