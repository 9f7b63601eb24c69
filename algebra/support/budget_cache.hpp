#pragma once
// A cache of the values used last, bounded by their bytes in all and by their number: the CPU
// transforms' twiddle tables, which take up to a transform's time to build, most of it page faults
// on fresh memory (docs/measurements.md, "The CPU transform's twiddle tables and threads"), so that
// a loop of products of one size, or a Z[x] product's primes product after product, builds them
// once.
// Values are shared: a caller holds its own reference, and an eviction never frees a value in use.
#include <algorithm>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <utility>

namespace cas {

// Value::bytes() says what a value costs. Thread-safe.
template <class Key, class Value>
class BudgetCache {
 public:
  BudgetCache(std::size_t byte_budget, std::size_t max_entries)
      : byte_budget_(byte_budget), max_entries_(max_entries) {}

  // The value for key: the cached one, else make()'s, kept if it fits the budget (the least
  // recently used values leave to make room). make runs outside the lock, so two threads may both
  // build a missing value; the first one cached wins.
  template <class Make>
  std::shared_ptr<const Value> get(const Key& key, Make&& make) {
    if (std::shared_ptr<const Value> found = take(key)) return found;
    std::shared_ptr<const Value> made = make();
    return keep(key, std::move(made));
  }

  std::size_t bytes() const {
    const std::lock_guard<std::mutex> hold(lock_);
    return bytes_;
  }
  std::size_t size() const {
    const std::lock_guard<std::mutex> hold(lock_);
    return entries_.size();
  }

 private:
  struct Entry {
    Key key;
    std::shared_ptr<const Value> value;
    std::size_t bytes;
  };

  // The cached value for key, moved to the front; null if none. Takes the lock.
  std::shared_ptr<const Value> take(const Key& key) {
    const std::lock_guard<std::mutex> hold(lock_);
    return take_locked(key);
  }

  std::shared_ptr<const Value> take_locked(const Key& key) {
    const auto found = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.key == key; });
    if (found == entries_.end()) return nullptr;
    Entry entry = std::move(*found);
    entries_.erase(found);
    entries_.push_front(std::move(entry));
    return entries_.front().value;
  }

  std::shared_ptr<const Value> keep(const Key& key, std::shared_ptr<const Value> made) {
    const std::lock_guard<std::mutex> hold(lock_);
    if (std::shared_ptr<const Value> first = take_locked(key)) return first;
    const std::size_t cost = made->bytes();
    if (cost > byte_budget_ || max_entries_ == 0) return made;
    while (!entries_.empty() && (bytes_ + cost > byte_budget_ || entries_.size() >= max_entries_)) {
      bytes_ -= entries_.back().bytes;
      entries_.pop_back();
    }
    entries_.push_front(Entry{key, made, cost});
    bytes_ += cost;
    return made;
  }

  const std::size_t byte_budget_, max_entries_;
  mutable std::mutex lock_;
  std::deque<Entry> entries_;  // most recently used first
  std::size_t bytes_ = 0;
};

}  // namespace cas
