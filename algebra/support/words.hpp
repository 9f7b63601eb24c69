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

// Memory for arrays of `bytes` >= 4 MiB: a block of the same size that a Words array (or a long
// polynomial over a word-size Z/pZ, modpoly.hpp) freed lately, else a fresh one from malloc (with
// the huge-page hint). Freed blocks are kept for reuse, the latest up to min(1 GiB, physical
// memory / 16): the first touch of fresh memory (the kernel zeroing its huge pages) is a fifth of
// a Z[x] product's time otherwise, for its residue, transform and result arrays, every product
// (docs/measurements.md, "Word arrays: huge pages and reused blocks"). Blocks are malloc's:
// free_large_words takes any block of `bytes` that malloc returned.
void* allocate_large_words(std::size_t bytes);
void free_large_words(void* memory, std::size_t bytes);
constexpr std::size_t large_words_from = std::size_t(4) << 20;

// Before a thread makes many fresh integers (mpz's) at once: glibc grows a thread's own heap with
// one mprotect call per page the first time it gets that far, and mprotect takes the address-space
// lock for writing, so threads that allocate side by side queue behind each other's calls.
// Allocating, then freeing, the `bytes` the thread is about to need in 96 KiB pieces (below the
// mmap threshold) grows its heap in 96 KiB steps instead; freed, the space stays mapped read-write
// for the allocations that follow. CAS_HEAP_RESERVE=0 turns it off (to measure it).
void reserve_thread_heap(std::size_t bytes);

// std::allocator, except that a value-initialisation (vector(n), resize(n)) default-initialises:
// for a word, nothing is written. Copies and explicit values (vector(n, 0)) are as usual.
// Large arrays ask for transparent huge pages before their first touch: without, a 2^22-word
// result of `a .* b` takes 8192 page faults on one thread (23 ms on a 16-core host:
// docs/measurements.md, "Word arrays: huge pages and reused blocks").
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
    if (n * sizeof(T) >= large_words_from) return static_cast<T*>(allocate_large_words(n * sizeof(T)));
    return std::allocator<T>::allocate(n);
  }
  void deallocate(T* memory, std::size_t n) noexcept {
    if (n * sizeof(T) >= large_words_from)
      free_large_words(memory, n * sizeof(T));
    else
      std::allocator<T>::deallocate(memory, n);
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
