#include "algebra/support/words.hpp"

#include "algebra/support/guards.hpp"

#include "gpu/host_memory.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <new>
#include <vector>

namespace cas {

// The hint more than halves a pass that makes a fresh array of 2^22 words (-v of a packed vector
// on two cores: 7-10 ms with it, 23 without): docs/measurements.md, "Word arrays: huge pages and
// reused blocks".
void advise_huge_pages_if_large(void* memory, std::size_t bytes) {
  if (bytes >= gpu::huge_pages_worth_it) gpu::advise_huge_pages(memory, bytes);
}

namespace {

// Freed large blocks, oldest first, at most `budget` bytes in all.
class LargeBlocks {
 public:
  void* take(std::size_t bytes) {
    const std::lock_guard<std::mutex> hold(mutex_);
    const auto found = std::find_if(blocks_.rbegin(), blocks_.rend(), [&](const Block& b) { return b.bytes == bytes; });
    if (found == blocks_.rend()) return nullptr;
    void* memory = found->memory;
    held_ -= bytes;
    blocks_.erase(std::next(found).base());
    return memory;
  }

  // Called from a deallocation, so it never throws: a block it cannot keep is freed.
  void give(void* memory, std::size_t bytes) noexcept {
    const std::lock_guard<std::mutex> hold(mutex_);
    try {
      blocks_.push_back(Block{memory, bytes});
    } catch (const std::bad_alloc&) {
      std::free(memory);
      return;
    }
    held_ += bytes;
    while (held_ > budget()) {
      held_ -= blocks_.front().bytes;
      std::free(blocks_.front().memory);
      blocks_.pop_front();
    }
  }

 private:
  struct Block {
    void* memory;
    std::size_t bytes;
  };
  static std::size_t budget() {
    static const std::size_t bytes =
        static_cast<std::size_t>(std::min(double(std::size_t(1) << 30), physical_memory_bytes() / 16));
    return bytes;
  }
  std::mutex mutex_;
  std::deque<Block> blocks_;
  std::size_t held_ = 0;
};

LargeBlocks& large_blocks() {
  static LargeBlocks* const blocks = new LargeBlocks;  // never destroyed: arrays may be freed at exit
  return *blocks;
}

}  // namespace

void* allocate_large_words(std::size_t bytes) {
  if (void* memory = large_blocks().take(bytes)) return memory;
  void* memory = std::malloc(bytes);  // malloc's, so that FLINT may realloc or free a polynomial's block
  if (!memory) throw std::bad_alloc();
  advise_huge_pages_if_large(memory, bytes);
  return memory;
}

void free_large_words(void* memory, std::size_t bytes) { large_blocks().give(memory, bytes); }

void reserve_thread_heap(std::size_t bytes) {
  static const bool enabled = [] {
    const char* v = std::getenv("CAS_HEAP_RESERVE");
    return !(v && std::strcmp(v, "0") == 0);
  }();
  if (!enabled) return;
  constexpr std::size_t piece = std::size_t{96} << 10;
  std::vector<void*> pieces;
  pieces.reserve(bytes / piece + 1);
  for (std::size_t reserved = 0; reserved < bytes; reserved += piece) pieces.push_back(std::malloc(piece));
  for (void* p : pieces) std::free(p);
}

}  // namespace cas
