// Arithmetic modulo the Goldilocks prime p = 2^64 - 2^32 + 1, written once for the host and the
// GPU: the special path for this prime in the fast transform (ntt_fast_arith.cuh,
// arith_goldilocks).
//
// Why this prime: 2^64 = 2^32 - 1 and 2^96 = -1 (mod p), so a 128-bit product reduces with
// shifts, additions and subtractions instead of the multiplies of a Shoup or Montgomery
// reduction: a product is two 64-bit multiplies (low and high half) instead of three, and p >= 2^63
// would otherwise take the carry-aware Shoup product (five). p - 1 = 2^32 (2^32 - 1) allows
// lengths up to 2^32. (2 is a root of unity of order 192, so every 64th root of unity is a power
// of two; products by them as shifts are slower in the transform: ntt_fast_arith.cuh, Arith.)
#pragma once

#include "gpu/crt_words.hpp"  // CAS_HOST_DEVICE, mul_high

#include <cstdint>

namespace cas::gpu::goldilocks {

constexpr std::uint64_t prime = 0xFFFFFFFF00000001ull;
constexpr std::uint64_t epsilon = 0xFFFFFFFFull;  // 2^64 mod p = 2^32 - 1

// s mod p for any 64-bit s: one conditional subtraction (s < 2^64 < 2p).
CAS_HOST_DEVICE inline std::uint64_t canonical(std::uint64_t s) { return s >= prime ? s - prime : s; }

// (hi 2^64 + lo) mod p for any 128-bit value: with hi = h1 2^32 + h0,
//   hi 2^64 + lo = lo + h0 2^64 + h1 2^96 = lo + h0 (2^32 - 1) - h1   (mod p).
// lo - h1 borrows at most once (then + 2^64 = + epsilon, taken back as - epsilon, which cannot
// borrow again: the wrapped value is at least 2^64 - 2^32 + 1); h0 (2^32 - 1) < 2^64; the sum
// carries at most once, and the carry's epsilon cannot carry again.
CAS_HOST_DEVICE inline std::uint64_t reduce128(std::uint64_t lo, std::uint64_t hi)
{
    const std::uint64_t h1 = hi >> 32, h0 = hi & epsilon;
    std::uint64_t t = lo - h1;
    if (lo < h1) t -= epsilon;
    const std::uint64_t h0_epsilon = (h0 << 32) - h0;
    std::uint64_t s = t + h0_epsilon;
    if (s < h0_epsilon) s += epsilon;
    return canonical(s);
}

// a + b, a - b and a b mod p for a, b in [0, p).
CAS_HOST_DEVICE inline std::uint64_t add(std::uint64_t a, std::uint64_t b)
{
    std::uint64_t s = a + b;
    if (s < a) s += epsilon;  // wrapped: + 2^64 = + epsilon, and s + epsilon < 2^64 here
    return canonical(s);
}
CAS_HOST_DEVICE inline std::uint64_t sub(std::uint64_t a, std::uint64_t b)
{
    std::uint64_t d = a - b;
    if (a < b) d -= epsilon;  // wrapped: - 2^64 = - epsilon; d >= 2^64 - p + 1 > epsilon
    return d;
}
CAS_HOST_DEVICE inline std::uint64_t mul(std::uint64_t a, std::uint64_t b)
{
    return reduce128(a * b, cas::crt::mul_high(a, b));
}

}  // namespace cas::gpu::goldilocks
