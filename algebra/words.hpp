#pragma once
// Arrays of machine words whose new entries are left unwritten. std::vector<ulong>(n) writes n
// zeros; for a result that the GPU engine overwrites whole (fft's 2^22 words: 32 MiB), those
// zeros cost a single-threaded pass that faults every page in, where the engine's download would
// fault the pages in on its copy workers while the GPU computes (gpu/runtime.cu, fault_in).
#include <flint/flint.h>

#include <memory>
#include <utility>
#include <vector>

namespace cas {

// std::allocator, except that a value-initialisation (vector(n), resize(n)) default-initialises:
// for a word, nothing is written. Copies and explicit values (vector(n, 0)) are as usual.
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

  template <class U>
  void construct(U* place) noexcept {
    ::new (static_cast<void*>(place)) U;
  }
  template <class U, class... Args>
  void construct(U* place, Args&&... args) {
    ::new (static_cast<void*>(place)) U(std::forward<Args>(args)...);
  }
};

// Residues of word-size Z/pZ as machine words (PackedResidues, and the transforms' arrays).
using Words = std::vector<ulong, DefaultInitAllocator<ulong>>;

}  // namespace cas
