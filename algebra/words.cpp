#include "words.hpp"

#include "gpu/host_memory.hpp"

namespace cas {

// On the 2-core development machine at 2^22 words, best of 7: -v 23 -> 7-10 ms, a .* b
// 36 -> 15-22 ms, a + b 25 -> 10-12 ms with the hint.
void advise_huge_pages_if_large(void* memory, std::size_t bytes) {
  if (bytes >= gpu::huge_pages_worth_it) gpu::advise_huge_pages(memory, bytes);
}

}  // namespace cas
