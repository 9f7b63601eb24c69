// Host memory that large arrays land in: the engine's downloads, and the algebra layer's word
// arrays (algebra/support/words.hpp). Plain C++, no CUDA: the stub build uses it too.
#pragma once

#include <cstddef>
#include <cstdint>

#include <sys/mman.h>

namespace cas::gpu {

// Below this many bytes the first touch of fresh memory costs too little to be worth a hint.
constexpr std::size_t huge_pages_worth_it = std::size_t(4) << 20;

// Asks for transparent huge pages (MADV_HUGEPAGE) on the 2 MiB-aligned interior of
// [begin, begin + bytes). Fresh memory then takes one page fault per 2 MiB instead of one per
// 4 KiB on its first touch: on the H100 machine's host, copying 128 MiB into fresh memory on one
// thread takes 72-138 ms with 4 KiB pages and 27-37 ms with huge pages asked for
// (docs/measurements.md, "Downloads into fresh memory: page faults and huge pages"). A hint: it
// may fail, changes nothing for memory touched before, and is a no-op where unsupported.
inline void advise_huge_pages(void* begin, std::size_t bytes)
{
#ifdef MADV_HUGEPAGE
    constexpr std::uintptr_t huge = std::uintptr_t(2) << 20;
    const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(begin);
    const std::uintptr_t first = (start + huge - 1) & ~(huge - 1), last = (start + bytes) & ~(huge - 1);
    if (first < last) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
    (void)begin;
    (void)bytes;
#endif
}

}  // namespace cas::gpu
