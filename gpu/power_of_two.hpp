#pragma once
// The one rounding to a power of two of gpu/ (host code, C++17 like the CUDA sources).
#include <cstddef>

namespace cas::gpu::detail {

// The least power of two >= n (1 for n <= 1).
constexpr std::size_t next_power_of_two(std::size_t n)
{
    std::size_t m = 1;
    while (m < n) m <<= 1;
    return m;
}

}  // namespace cas::gpu::detail
