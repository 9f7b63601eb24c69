#pragma once
#include <cstddef>

namespace cas {

// The least k with 2^k >= n (0 for n <= 1). FLINT_CLOG2 gives 64 at n = 0.
constexpr unsigned ceil_log2(std::size_t n) {
  unsigned k = 0;
  while ((std::size_t{1} << k) < n) k++;
  return k;
}

}  // namespace cas
