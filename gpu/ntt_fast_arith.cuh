// The arithmetic of the fast transform's passes (ntt_fast_pass.cuh): the reduction policies
// (Arith), the DIF butterflies and the products built on them, and the reduction of any 64-bit
// word for the fused loads of products. The modular primitives are modarith.cuh's and
// goldilocks.hpp's; this header picks among them per policy at compile time.
#pragma once

#include "gpu/detail.cuh"
#include "gpu/goldilocks.hpp"
#include "gpu/modarith.cuh"

#include <cstdint>

namespace cas::gpu::detail {

// How a pass reduces, a compile-time choice per kernel made from p in run_pass (ntt_fast.cu):
//   arith_exact       every value in [0, p), Shoup products (32-bit words, and 64-bit p >= 2^62)
//   arith_lazy        64-bit words, p < 2^62: Harvey's butterflies, values in [0, 2p) (below)
//   arith_goldilocks  p = 2^64 - 2^32 + 1: products reduced by shifts and additions
//                     (gpu/goldilocks.hpp), no Shoup companions; otherwise p >= 2^63 would take
//                     the carry-aware Shoup product, three high multiplies and two low ones
//                     (forward NTT of 2^24 words: 0.699 against 0.788 ms; docs/measurements.md,
//                     "Fast NTT modulo the Goldilocks prime").
// The DFT stages of half size <= 32 keep their products although every 64th root of unity
// modulo the Goldilocks prime is a power of two: the passes are bound by issue slots, and a
// product by 2^k for a k that differs between threads (shifts, selects and a reduction) costs
// more instructions than the four wide multiplies it saves (same section).
enum Arith { arith_exact = 0, arith_lazy = 1, arith_goldilocks = 2 };
constexpr bool goldilocks_arith(int arith) { return arith == arith_goldilocks; }

// x w for a twiddle w with Shoup companion wq (unused modulo the Goldilocks prime).
template <int ARITH, class T>
__device__ __forceinline__ T twiddle_product(T x, T w, T wq, const Modulus<T>& m)
{
    if constexpr (goldilocks_arith(ARITH)) return goldilocks::mul(x, w);
    else return mul_twiddle(x, w, wq, m);
}

// a b mod p for a, b in [0, p), neither known in advance (pointwise products).
template <int ARITH, class T>
__device__ __forceinline__ T general_product(T a, T b, const Modulus<T>& m)
{
    if constexpr (goldilocks_arith(ARITH)) return goldilocks::mul(a, b);
    else return mul_mod(a, b, m);
}

// One DIF butterfly: (a, b) -> (a + b, (a - b) w), w = omega_R^idx with Shoup companion wq.
// arith_lazy (64-bit words, p < 2^62): Harvey's butterflies (modarith.cuh), entries in [0, 2p)
// instead of [0, p). Two of the three 64-bit compare-and-selects of a butterfly go; the store
// normalises.
template <int ARITH, class T>
__device__ __forceinline__ void dif_butterfly(T& a, T& b, T w, T wq, const Modulus<T>& m)
{
    T x = a, y = b;
    if constexpr (ARITH == arith_lazy) {
        lazy_dif_butterfly(a, b, w, wq, m.p);
    } else if constexpr (goldilocks_arith(ARITH)) {
        a = goldilocks::add(x, y);
        b = goldilocks::mul(goldilocks::sub(x, y), w);
    } else if constexpr (sizeof(T) == 4) {
        // a - b + p lies in [1, 2p) < 2^32 (p < 2^31), and a Shoup product accepts any
        // 32-bit input: the difference needs no reduction, one IADD3 instead of three
        // instructions. Never slower, though at 2^24 the 31-bit transform takes the same
        // time either way (docs/measurements.md, "Fast NTT, 32-bit butterfly difference
        // left unreduced").
        a = add_mod(x, y, m.p);
        b = mul_shoup(x - y + m.p, w, wq, m.p);
    } else {
        a = add_mod(x, y, m.p);
        b = mul_twiddle(sub_mod(x, y, m.p), w, wq, m);
    }
}

// The same butterfly with w = 1: no product. In the last round trip of a DFT the twiddle index
// of each butterfly is a compile-time constant, and many of them are 1: all of the h = 1 stage,
// half of h = 2, a quarter of h = 4, ... (3 of the 4 butterflies of the 64-bit kernels' last
// round trip, 31 of the 80 of the 32-bit ones').
template <int ARITH, class T>
__device__ __forceinline__ void dif_butterfly_unit(T& a, T& b, const Modulus<T>& m)
{
    T x = a, y = b;
    if constexpr (ARITH == arith_lazy) {
        const T two_p = m.p << 1;
        a = below_two_p(x + y, two_p);  // both in [0, 4p) before
        b = below_two_p(x - y + two_p, two_p);
    } else if constexpr (goldilocks_arith(ARITH)) {
        a = goldilocks::add(x, y);
        b = goldilocks::sub(x, y);
    } else {
        a = add_mod(x, y, m.p);
        b = sub_mod(x, y, m.p);
    }
}

// x mod p for any 64-bit word x (fused zero padding of products): Shoup products by 1 (and by
// 2^32 mod p for 32-bit words, x = hi 2^32 + lo); one conditional subtraction modulo the
// Goldilocks prime (x < 2^64 < 2p).
template <int ARITH, class T>
__device__ __forceinline__ T reduce_word(std::uint64_t x, const Fusion<T>& f, const Modulus<T>& m)
{
    if constexpr (goldilocks_arith(ARITH)) {
        return goldilocks::canonical(x);
    } else if constexpr (sizeof(T) == 4) {
        std::uint32_t hi = mul_shoup(std::uint32_t(x >> 32), f.two32, f.two32_q, m.p);
        std::uint32_t lo = mul_shoup(std::uint32_t(x), 1u, f.one_q, m.p);
        return add_mod(hi, lo, m.p);
    } else {
        return mul_twiddle(x, std::uint64_t(1), f.one_q, m);
    }
}

}  // namespace cas::gpu::detail
