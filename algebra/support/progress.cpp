#include "algebra/support/progress.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <thread>

namespace cas {

// One slot per nesting level of ProgressScope; level 0 is the statement itself, which has no text
// and no steps. The statement's thread is the only writer of a slot's fields, which it changes
// under the slot's sequence count (odd while it writes) so that a reader can tell a torn read and
// read again; `done` alone is added to from any thread, outside the count.
struct ProgressSteps::Level {
  std::atomic<uint64_t> sequence{0};
  std::atomic<const char*> what{nullptr};
  std::atomic<double> size{0};
  std::atomic<uint64_t> primes{0};
  std::atomic<const char*> steps{nullptr};
  std::atomic<uint64_t> total{0};
  std::atomic<uint64_t> done{0};
};

namespace {

using Slot = ProgressSteps::Level;

// Deeper scopes than this are counted but not shown: the display shows the innermost shown one.
constexpr int slot_count = 16;
Slot slots[slot_count];
std::atomic<int> shown_level{0};  // the innermost level shown
std::atomic<int> nesting{0};      // the scopes alive on the statement's thread

std::atomic<uint64_t> loop_total{0}, loop_done{0};
std::atomic<std::chrono::steady_clock::rep> started_at{0};
std::atomic<ProgressDisplay*> display{nullptr};

// The statement's thread: the one whose generation is the current one. A thread that never called
// progress_reset() has generation 0, which is never current.
std::atomic<uint64_t> owner_generation{0}, generations{0};
thread_local uint64_t this_thread_generation = 0;

bool on_statement_thread() {
  return this_thread_generation != 0 && this_thread_generation == owner_generation.load(std::memory_order_relaxed);
}

// Runs `write` on the slot's fields between the two steps of its sequence count: odd while it
// writes, even after (even if a write from a thread that was the statement's a moment ago left it
// odd).
template <class Write>
void write_slot(Slot& slot, Write&& write) {
  const uint64_t writing = slot.sequence.load(std::memory_order_relaxed) | 1;
  slot.sequence.store(writing, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  write(slot);
  slot.sequence.store(writing + 1, std::memory_order_release);
}

void clear_fields(Slot& slot) {
  slot.what.store(nullptr, std::memory_order_relaxed);
  slot.size.store(0, std::memory_order_relaxed);
  slot.primes.store(0, std::memory_order_relaxed);
  slot.steps.store(nullptr, std::memory_order_relaxed);
  slot.total.store(0, std::memory_order_relaxed);
  slot.done.store(0, std::memory_order_relaxed);
}

// The slot of the innermost scope alive on the statement's thread; null outside every scope, on
// another thread, or beyond the shown levels.
Slot* innermost_scope() {
  if (!on_statement_thread()) return nullptr;
  const int level = nesting.load(std::memory_order_relaxed);
  return level >= 1 && level < slot_count ? &slots[level] : nullptr;
}

struct SlotFields {
  const char* what = nullptr;
  double size = 0;
  uint64_t primes = 0;
  const char* steps = nullptr;
  uint64_t total = 0, done = 0;
};

// A consistent read of the innermost shown slot, retried while the statement's thread writes it
// (a few stores; the reader yields now and then so that a writer it preempted can finish).
SlotFields read_shown_slot() {
  SlotFields f;
  for (int attempt = 0; attempt < 4096; attempt++) {
    if (attempt % 16 == 15) std::this_thread::yield();
    const int level = shown_level.load(std::memory_order_acquire);
    const Slot& slot = slots[level];
    const uint64_t before = slot.sequence.load(std::memory_order_acquire);
    f.what = slot.what.load(std::memory_order_relaxed);
    f.size = slot.size.load(std::memory_order_relaxed);
    f.primes = slot.primes.load(std::memory_order_relaxed);
    f.steps = slot.steps.load(std::memory_order_relaxed);
    f.total = slot.total.load(std::memory_order_relaxed);
    f.done = slot.done.load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    const bool settled = before % 2 == 0 && slot.sequence.load(std::memory_order_relaxed) == before &&
                         shown_level.load(std::memory_order_relaxed) == level;
    if (settled) break;
  }
  return f;
}

// "cpu crt product 2^20, 17 primes": the size as 2^ceil(log2 size), as engine_last shows it.
std::string operation_text(const SlotFields& f) {
  if (!f.what) return "";
  std::string text = f.what;
  if (f.size >= 1) text += " 2^" + std::to_string(static_cast<int>(std::ceil(std::log2(f.size))));
  if (f.primes > 0) text += ", " + std::to_string(f.primes) + (f.primes == 1 ? " prime" : " primes");
  return text;
}

// "5/17 (29%)"; done is clamped to total.
std::string fraction(uint64_t done, uint64_t total) {
  done = std::min(done, total);
  const auto percent = static_cast<unsigned>(static_cast<double>(done) * 100.0 / static_cast<double>(total));
  return std::to_string(done) + "/" + std::to_string(total) + " (" + std::to_string(percent) + "%)";
}

// "3.2 s" below a minute, "2 min 05 s" below an hour, then "1 h 02 min".
std::string elapsed_text(double seconds) {
  char buffer[32];
  seconds = std::max(seconds, 0.0);
  if (seconds < 60) {
    std::snprintf(buffer, sizeof buffer, "%.1f s", seconds);
  } else if (seconds < 3600) {
    const auto whole = static_cast<unsigned long>(seconds);
    std::snprintf(buffer, sizeof buffer, "%lu min %02lu s", whole / 60, whole % 60);
  } else {
    const auto minutes = static_cast<unsigned long>(seconds / 60);
    std::snprintf(buffer, sizeof buffer, "%lu h %02lu min", minutes / 60, minutes % 60);
  }
  return buffer;
}

}  // namespace

void progress_reset() {
  this_thread_generation = generations.fetch_add(1, std::memory_order_relaxed) + 1;
  owner_generation.store(this_thread_generation, std::memory_order_relaxed);
  nesting.store(0, std::memory_order_relaxed);
  shown_level.store(0, std::memory_order_release);
  for (Slot& slot : slots) write_slot(slot, clear_fields);
  loop_total.store(0, std::memory_order_relaxed);
  loop_done.store(0, std::memory_order_relaxed);
  started_at.store(std::chrono::steady_clock::now().time_since_epoch().count(), std::memory_order_relaxed);
}

ProgressSnapshot progress_snapshot() {
  const SlotFields f = read_shown_slot();
  ProgressSnapshot s;
  s.text = operation_text(f);
  if (f.steps && f.total > 0) {
    s.steps = f.steps;
    s.total = f.total;
    s.done = std::min(f.done, f.total);
  }
  s.loop_total = loop_total.load(std::memory_order_relaxed);
  s.loop_done = std::min(loop_done.load(std::memory_order_relaxed), s.loop_total);
  s.started = std::chrono::steady_clock::time_point(
      std::chrono::steady_clock::duration(started_at.load(std::memory_order_relaxed)));
  return s;
}

std::string describe_progress(const ProgressSnapshot& s, double elapsed_seconds) {
  std::string line = elapsed_text(elapsed_seconds);
  bool known = false;
  auto add = [&](const std::string& part) {
    line += "  " + part;
    known = true;
  };
  if (s.loop_total > 0) add("loop " + fraction(s.loop_done, s.loop_total));
  if (!s.text.empty()) add(s.text);
  if (s.total > 0) add((s.steps.empty() ? "" : s.steps + " ") + fraction(s.done, s.total));
  if (!known) add("running");
  return line;
}

ProgressScope::ProgressScope(const char* what, double size, bool recorded)
    : level_(0), generation_(this_thread_generation) {
  if (!recorded || !on_statement_thread()) return;
  level_ = nesting.load(std::memory_order_relaxed) + 1;
  nesting.store(level_, std::memory_order_relaxed);
  if (level_ >= slot_count) return;  // counted, not shown: the innermost shown level stays
  write_slot(slots[level_], [what, size](Slot& slot) {
    clear_fields(slot);
    slot.what.store(what, std::memory_order_relaxed);
    slot.size.store(size, std::memory_order_relaxed);
  });
  shown_level.store(level_, std::memory_order_release);
}

ProgressScope::~ProgressScope() {
  // After a progress_reset() the record is the next statement's: nothing of this scope is in it.
  if (level_ == 0 || generation_ != owner_generation.load(std::memory_order_relaxed)) return;
  nesting.store(level_ - 1, std::memory_order_relaxed);
  shown_level.store(std::min(level_ - 1, slot_count - 1), std::memory_order_release);
}

void progress_primes(uint64_t count) {
  if (Slot* slot = innermost_scope())
    write_slot(*slot, [count](Slot& s) { s.primes.store(count, std::memory_order_relaxed); });
}

ProgressSteps::ProgressSteps(const char* name, uint64_t total) : level_(total > 0 ? innermost_scope() : nullptr) {
  if (!level_) return;
  write_slot(*level_, [name, total](Slot& s) {
    s.steps.store(name, std::memory_order_relaxed);
    s.total.store(total, std::memory_order_relaxed);
    s.done.store(0, std::memory_order_relaxed);
  });
}

void ProgressSteps::advance(uint64_t steps) const {
  if (level_) level_->done.fetch_add(steps, std::memory_order_relaxed);
}

ProgressLoop::ProgressLoop(uint64_t length) : done_(nullptr) {
  uint64_t free = 0;
  if (length == 0 || !loop_total.compare_exchange_strong(free, length, std::memory_order_relaxed)) return;
  loop_done.store(0, std::memory_order_relaxed);
  done_ = &loop_done;
}

ProgressLoop::~ProgressLoop() {
  if (!done_) return;
  loop_total.store(0, std::memory_order_relaxed);
  loop_done.store(0, std::memory_order_relaxed);
}

void set_progress_display(ProgressDisplay* d) { display.store(d, std::memory_order_release); }

ProgressOutputGuard::ProgressOutputGuard() : display_(display.load(std::memory_order_acquire)) {
  if (display_) display_->hide();
}

ProgressOutputGuard::~ProgressOutputGuard() {
  if (display_) display_->show();
}

}  // namespace cas
