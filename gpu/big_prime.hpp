// Transforms and convolutions modulo a prime p of 2 to 16 64-bit words ("big p"), for fft, ifft,
// convolve, negaconvolve and products in Z/pZ[x] above 64 bits. Plain C++ types only, like ntt.hpp.
//
// Elements travel limb-major: limb d (little-endian, 64 bits) of element i of an array of `count`
// elements is at words[d * count + i], so that a warp reads one limb of 32 consecutive elements in
// one transaction. Every element is reduced, below p.
//
// On the device an element is `limbs` words in registers and every product is a Montgomery product
// (CIOS, R = 2^(64 limbs)); the data stay in their ordinary form, since a Montgomery product by a
// twiddle held as w^i R is the ordinary product w^i x.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cas::gpu {

// The sizes of p the kernels are built for: 2 to 16 words (p of 65 to 1024 bits), odd.
constexpr std::size_t big_prime_least_limbs = 2;
constexpr std::size_t big_prime_most_limbs = 16;
// The longest transform: 2^26 elements (of up to 16 words: 8 GiB, with its twiddles and a second
// operand beyond any one GPU; the allocation fails first and the caller falls back).
constexpr int big_prime_most_log_length = 26;

// X_k = sum_j x_j w^(jk) mod p for n = 2^k, natural order in and out, from in[] into out[] (limb-
// major, n elements each; out may be in). p odd, limbs words with a nonzero top word, between
// big_prime_least_limbs and big_prime_most_limbs; w (limbs words) a primitive n-th root of unity
// with w^(n/2) = -1. With inverse the transform runs at w^-1 (the caller passes w) and includes
// 1/n, so that the inverse undoes the forward transform. Throws Unavailable, OutOfMemory or Error.
void big_prime_transform(const std::uint64_t* in, std::uint64_t* out, std::size_t n, const std::uint64_t* p,
                         std::size_t limbs, const std::uint64_t* w, bool inverse);

// The cyclic convolution of length n (a power of two) of a[0, na) and b[0, nb), zero-padded, modulo
// p: c_t = sum over i + j = t mod n of a_i b_j; with psi (an element with psi^2 = w, psi^n = -1) the
// negacyclic one (x^n + 1). out receives c[0, out_count) limb-major with stride out_count; na, nb,
// out_count <= n. A product in Z/pZ[x] is the cyclic convolution of length n >= na + nb - 1 with
// out_count = na + nb - 1. w is a primitive n-th root of unity with w^(n/2) = -1 (n >= 2); psi null
// for the cyclic one. shift_radix: r where p = r^limbs + 1 and generalized_fermat_transform_takes(r,
// limbs, n) (big_prime_gf.hpp): the transforms by digit shifts; 0: the Montgomery passes.
void big_prime_convolve(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb, std::size_t n,
                        const std::uint64_t* p, std::size_t limbs, const std::uint64_t* w, const std::uint64_t* psi,
                        std::uint64_t* out, std::size_t out_count, std::uint64_t shift_radix = 0);

}  // namespace cas::gpu
