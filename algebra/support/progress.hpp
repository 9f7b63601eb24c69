#pragma once
// The work in progress, for a display that another thread refreshes while a statement runs (the
// REPL's line on a terminal, a notebook's updating output): the operation running and its engine
// ("gpu crt product 2^24, 130 primes"), its steps where they are known (primes done, coefficients
// rebuilt), and the iterations of the statement's outermost `for` loop.
//
// One record for the process. The thread that runs statements calls progress_reset() at the start
// of each; from then on the operations it runs record themselves (ProgressScope), and their steps
// may be counted from any thread (ProgressSteps::advance, one relaxed atomic add). Operations that
// other threads run side by side (each_on_cores) leave the record to the one the statement's
// thread runs. Every field is an atomic, so progress_snapshot() may be called from any thread at
// any time (a notebook's kernel polls it from its own); an operation's text and steps are written
// under a sequence count, so a snapshot never pairs one operation's text with another's steps.
//
// The steps the algebra layer counts: "reduction" (coefficients reduced modulo the primes),
// "primes" (primes whose product, power or resultant is done), "crt" (coefficients rebuilt).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

namespace cas {

struct ProgressSnapshot {
  std::string text;          // the running operation and its engine; empty between operations
  std::string steps;         // what its steps count ("primes"); empty when none are known
  uint64_t done = 0;         // its steps done (at most total)
  uint64_t total = 0;        // its steps in all; 0 when none are known
  uint64_t loop_done = 0;    // iterations of the statement's outermost for loop finished
  uint64_t loop_total = 0;   // that loop's length; 0 when no such loop runs
  std::chrono::steady_clock::time_point started;  // the last progress_reset()
};

// Starts the record of a statement on the calling thread: no operation, no steps, no loop, the
// clock at now. Operations on other threads record nothing until they call it.
void progress_reset();

// The record now; safe from any thread.
ProgressSnapshot progress_snapshot();

// One line for a display: "3.2 s  gpu crt product 2^24, 130 primes", or with steps and a loop
// "12.4 s  loop 7/100 (7%)  cpu crt product 2^20, 17 primes  primes 5/17 (29%)"; "running" when
// nothing more is known. No newline, no control characters.
std::string describe_progress(const ProgressSnapshot& snapshot, double elapsed_seconds);

// An operation that may run long, recorded while it lives: `what` (a static string, as engine
// notes name engines: "cpu crt product", "half-gcd resultant") and the length `size`, shown as
// 2^k. Scopes nest: an inner one shows while it runs, then the outer one again. Cheap (a few
// atomic stores) and inert on a thread other than the statement's, or when `recorded` is false
// (an operation too short to show, in code that runs many).
class ProgressScope {
 public:
  ProgressScope(const char* what, double size, bool recorded = true);
  ~ProgressScope();
  ProgressScope(const ProgressScope&) = delete;
  ProgressScope& operator=(const ProgressScope&) = delete;

 private:
  int level_;            // the nesting level it fills, 0 when inert
  uint64_t generation_;  // the statement it belongs to (progress_reset)
};

// The count of primes the running operation works through, shown after its size (", 17 primes").
void progress_primes(uint64_t count);

// The steps of a stage of the running operation (the innermost ProgressScope): begun with a name
// and a total, advanced from any thread (the workers of parallel_ranges). A later stage of the
// same operation replaces it, and it ends with the operation's scope. Inert with a total of 0, on a
// thread other than the statement's, or outside every scope.
class ProgressSteps {
 public:
  struct Level;  // one nesting level's record (progress.cpp)
  ProgressSteps(const char* name, uint64_t total);  // name: a static string
  void advance(uint64_t steps = 1) const;

 private:
  Level* level_;
};

// The iterations of a statement's outermost `for` loop: the interpreter takes the loop slot for
// such a loop; a loop that finds the slot taken (one nested in it) leaves the fraction to the outer.
class ProgressLoop {
 public:
  explicit ProgressLoop(uint64_t length);  // takes the slot if free and length > 0
  ~ProgressLoop();                          // frees it
  ProgressLoop(const ProgressLoop&) = delete;
  ProgressLoop& operator=(const ProgressLoop&) = delete;
  // Iterations done so far; inline, as the interpreter calls it at every iteration.
  void finished(uint64_t iterations) const {
    if (done_) done_->store(iterations, std::memory_order_relaxed);
  }

 private:
  std::atomic<uint64_t>* done_;  // the slot's count; null when the slot is another loop's
};

// A display of the progress on the terminal that the statement's own output goes to (the REPL's
// line on stderr). Output written while a statement runs (print) goes around it through a
// ProgressOutputGuard, so that the display never sits in the middle of a printed line.
class ProgressDisplay {
 public:
  virtual ~ProgressDisplay() = default;
  virtual void hide() = 0;  // takes the display away and keeps it away until show()
  virtual void show() = 0;  // lets it come back at its next refresh
};
void set_progress_display(ProgressDisplay* display);  // nullptr: none

// Hides the display (if any) while it lives.
class ProgressOutputGuard {
 public:
  ProgressOutputGuard();
  ~ProgressOutputGuard();
  ProgressOutputGuard(const ProgressOutputGuard&) = delete;
  ProgressOutputGuard& operator=(const ProgressOutputGuard&) = delete;

 private:
  ProgressDisplay* display_;
};

}  // namespace cas
