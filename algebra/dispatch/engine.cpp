#include "algebra/dispatch/engine.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>

namespace cas {

namespace {
struct Record {
  const char* what = nullptr;
  double size = 0;
  unsigned primes = 0;
};
Record largest;

// Operations that run side by side on the cores (each_on_cores) note from several threads.
std::mutex notes_lock;
EngineNote notes[engine_note_capacity];
size_t note_count = 0;
size_t dropped = 0;

bool same_operation(const EngineNote& n, const char* what, double size, const OperationDetail& d) {
  const OperationDetail& e = n.detail;
  return n.what == what && n.size == size && e.length1 == d.length1 && e.length2 == d.length2 &&
         e.modulus == d.modulus && e.modulus_bits == d.modulus_bits && e.root == d.root && e.primes == d.primes &&
         e.bound_bits == d.bound_bits && e.operands_on_gpu == d.operands_on_gpu &&
         e.result_kept_on_gpu == d.result_kept_on_gpu && e.devices == d.devices &&
         std::equal(e.primes_per_device, e.primes_per_device + OperationDetail::most_devices_noted,
                    d.primes_per_device) &&
         (d.function == nullptr ? n.function[0] == '\0' : std::strncmp(n.function, d.function, sizeof n.function) == 0);
}

void append_note(const char* what, double size, const OperationDetail& detail) {
  if (note_count > 0 && same_operation(notes[note_count - 1], what, size, detail)) {
    notes[note_count - 1].count++;
    return;
  }
  if (note_count == engine_note_capacity) {
    dropped++;
    return;
  }
  EngineNote& n = notes[note_count++];
  n.what = what;
  n.size = size;
  n.detail = detail;
  n.function[0] = '\0';
  if (detail.function) {
    std::strncpy(n.function, detail.function, sizeof n.function - 1);
    n.function[sizeof n.function - 1] = '\0';
  }
  n.detail.function = nullptr;  // the copy is what stays valid
  n.count = 1;
}
}  // namespace

void note_primes_per_device(OperationDetail& d, const std::vector<size_t>& primes_per_device) {
  d.devices = static_cast<unsigned>(primes_per_device.size());
  for (size_t i = 0; i < OperationDetail::most_devices_noted; i++)
    d.primes_per_device[i] = i < primes_per_device.size() ? static_cast<unsigned>(primes_per_device[i]) : 0;
}

void engine_reset() {
  largest = Record{};
  note_count = 0;
  dropped = 0;
}

void engine_note(const char* what, double size, const OperationDetail& detail) {
  const std::lock_guard<std::mutex> hold(notes_lock);
  if (size >= largest.size) largest = Record{what, size, detail.primes};
  append_note(what, size, detail);
}

void engine_explain(const char* what, double size, const OperationDetail& detail) {
  const std::lock_guard<std::mutex> hold(notes_lock);
  append_note(what, size, detail);
}

std::string engine_last() {
  if (!largest.what) return "";
  int k = largest.size < 2 ? 0 : static_cast<int>(std::ceil(std::log2(largest.size)));
  std::string text = largest.what;
  if (largest.primes) text.append(" ").append(std::to_string(largest.primes)).append(" primes");
  return text.append(" 2^").append(std::to_string(k));
}

std::vector<EngineNote> engine_notes() { return std::vector<EngineNote>(notes, notes + note_count); }

size_t engine_notes_dropped() { return dropped; }

}  // namespace cas
