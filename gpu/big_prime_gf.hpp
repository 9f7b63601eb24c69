// Transforms modulo a generalized Fermat prime p = r^k + 1 (k = 8 or 16, r even, 2^32 <= r < 2^64),
// such as the seed's P3 = (2^63 + 2^34)^8 + 1 and P4 = (2^62 + 2^36)^16 + 1: the big-prime-field
// seed's FFT (big-prime-field-fft-gpu-thesis-slides.txt, "Fürer's trick"), where r is a 2k-th root
// of unity, so that the radix-2k DFTs multiply only by powers of r (digit shifts) and full
// products are left for the twiddles between levels. An alternative to big_prime_transform
// (big_prime.hpp) for such p, with the same conventions; plain C++ types only.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cas::gpu {

// Whether big_prime_transform_gf takes p = r^k + 1 and length n: k is 8 or 16, r is even with
// 2^32 <= r < 2^64 (smaller r make p fit fewer than k words, where big_prime_transform with fewer
// limbs is the path), n is a power of two up to 2^26 that divides r^k = p - 1. Says nothing of
// whether p is prime (the caller knows).
bool generalized_fermat_transform_takes(std::uint64_t r, std::size_t k, std::size_t n);

// X_j = sum_i x_i w^(ij) mod p = r^k + 1 for a prime p, like big_prime_transform: natural order in
// and out, from in[] into out[] (limb-major binary words, L = k words an element: limb d of
// element i at [d n + i], every element below p); out may be in. w (k words) is a primitive n-th
// root of unity. With inverse the transform runs at w^-1 and includes 1/n (the caller passes w).
// Throws Error when generalized_fermat_transform_takes refuses or w^(n/2) != -1, Unavailable or
// OutOfMemory.
void big_prime_transform_gf(const std::uint64_t* in, std::uint64_t* out, std::size_t n, std::uint64_t r,
                            std::size_t k, const std::uint64_t* w, bool inverse);

}  // namespace cas::gpu
