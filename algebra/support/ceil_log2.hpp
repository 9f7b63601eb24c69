#pragma once
#include <cstddef>

namespace cas {

// The least k with 2^k >= n (0 for n <= 1). FLINT_CLOG2 gives 64 at n = 0.
constexpr unsigned ceil_log2(std::size_t n) {
  unsigned k = 0;
  while ((std::size_t{1} << k) < n) k++;
  return k;
}

// The least power of two >= n (1 for n <= 1).
constexpr std::size_t power_of_two_at_least(std::size_t n) { return std::size_t{1} << ceil_log2(n); }

}  // namespace cas
