#pragma once
// Coefficient arrays that stay on the GPU after the engine computed them, so that the next GPU
// operation on the same value reads them there instead of across PCIe: h = f * g then h * h
// moves no coefficients at all. The value's host copy is made when something on the host first
// reads it (printing, FLINT, coeffs), or when the GPU's memory is wanted for other work.
//
// Device memory is a cache: the values kept there together take at most half of the GPU's
// memory, the least recently used moving to the host first; move_resident_to_host() empties it
// (gpu("off"), or an allocation that failed and is tried again).
#include "gpu/ntt.hpp"

#include <flint/flint.h>

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>

namespace cas {

class ResidentWords {
 public:
  // How the words reach the host: gpu's download by default; the unit tests give their own.
  using Download = std::function<void(const gpu::DeviceWords&, ulong* out, size_t count)>;

  ResidentWords(gpu::DeviceWords words, size_t length, Download download = {});
  ~ResidentWords();
  ResidentWords(const ResidentWords&) = delete;
  ResidentWords& operator=(const ResidentWords&) = delete;

  size_t length() const { return length_; }
  size_t bytes() const { return length_ * sizeof(ulong); }
  // The device array, null once it moved to the host. Shared, so that an eviction while an
  // operation reads it frees it only after that operation. Marks the words as just used.
  std::shared_ptr<const gpu::DeviceWords> device();
  bool on_gpu();  // without marking a use
  // The words on the host in a block the caller owns and frees as FLINT frees an nmod_poly's
  // array (allocate_large_words from large_words_from bytes, flint_malloc below): the copy an
  // eviction made, or downloaded now. Called once, by the value that holds these words.
  ulong* take_host_copy();
  // Moves the words to the host (when their value has not taken its copy yet) and frees the
  // device array.
  void evict();
  std::uint64_t last_use() const { return last_use_.load(std::memory_order_relaxed); }

 private:
  ulong* allocate_host() const;
  ulong* download_locked();

  std::mutex lock_;
  std::shared_ptr<const gpu::DeviceWords> device_;
  ulong* host_ = nullptr;   // an eviction's copy, not yet taken
  bool host_taken_ = false;
  size_t length_;
  Download download_;
  std::atomic<std::uint64_t> last_use_;
};

// Words the GPU computed, registered in the cache (which may move older ones to the host to keep
// within its share of the GPU's memory).
std::shared_ptr<ResidentWords> keep_on_gpu(gpu::DeviceWords words, size_t length,
                                           ResidentWords::Download download = {});

struct ResidentUse {
  size_t values = 0;  // arrays on the GPU
  size_t bytes = 0;
  size_t limit = 0;   // the most bytes kept before the least recently used move to the host
};
ResidentUse resident_use();

// Every kept array to the host, the device memory freed.
void move_resident_to_host();
// The cache's share of the GPU's memory (bytes); 0 restores the default, half of the GPU's memory.
void set_resident_limit(size_t bytes);

}  // namespace cas
