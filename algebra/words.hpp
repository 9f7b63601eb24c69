#pragma once
// Arrays of machine words whose new entries are left unwritten. std::vector<ulong>(n) writes n
// zeros; for a result that the GPU engine overwrites whole (fft's 2^22 words: 32 MiB), those
// zeros cost a single-threaded pass that faults every page in, where the engine's download would
// fault the pages in on its copy workers while the GPU computes (gpu/runtime.cu, fault_in).
#include <flint/flint.h>

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace cas {

// Asks for transparent huge pages on a fresh array of `bytes` when it is large enough to pay
// (gpu/host_memory.hpp; out of line, so that this header does not bring cas::gpu along).
void advise_huge_pages_if_large(void* memory, std::size_t bytes);

// std::allocator, except that a value-initialisation (vector(n), resize(n)) default-initialises:
// for a word, nothing is written. Copies and explicit values (vector(n, 0)) are as usual.
// Large arrays ask for transparent huge pages before their first touch: a 2^22-word result of
// `a .* b` took 23 ms on the H100 machine's host, most of it 8192 page faults on one thread.
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    T* memory = std::allocator<T>::allocate(n);
    advise_huge_pages_if_large(memory, n * sizeof(T));
    return memory;
  }

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
