// The inter-pass twiddles omega_N^{rd} of the fast transform's passes (ntt_fast_pass.cuh).
// A pass with N = n / s <= 2^16 (every pass but the last at 2^24) takes one Shoup product with
// (w, w') from the per-pass table (load_pair); otherwise the two-level table costs two
// (mul_power32), or the thread walks its twiddles from word to word (TwiddleWalk). The per-pass
// table's one product: forward NTT of 2^24 words 0.628 against 0.658 ms on 62-bit words
// (docs/measurements.md, "Fast NTT per-pass twiddle tables and fused products against neither").
#pragma once

#include "gpu/ntt_fast_arith.cuh"

#include <cstdint>

namespace cas::gpu::detail {

// x w^e for e < 2^32 (a transform of one vector is at most 2^30 long).
template <int ARITH, class T>
__device__ inline T mul_power32(T x, std::uint32_t e, const Twiddles<T>& tw, const Modulus<T>& m)
{
    std::uint32_t h = e >> tw.low_bits, l = e & ((1u << tw.low_bits) - 1);
    if (h != 0) x = twiddle_product<ARITH>(x, tw.hi[h], tw.hi_q[h], m);
    if (l != 0) x = twiddle_product<ARITH>(x, tw.lo[l], tw.lo_q[l], m);
    return x;
}

// omega^k and its Shoup companion from the interleaved per-pass table: one 8- or 16-byte load.
template <class T>
__device__ __forceinline__ void load_pair(const T* pairs, std::uint32_t k, T& w, T& wq)
{
    if constexpr (sizeof(T) == 4) {
        uint2 q = __ldg(reinterpret_cast<const uint2*>(pairs) + k);
        w = q.x;
        wq = q.y;
    } else {
        ulonglong2 q = __ldg(reinterpret_cast<const ulonglong2*>(pairs) + k);
        w = q.x;
        wq = q.y;
    }
}

// Inter-pass twiddles by walking instead of looking up. On the last pass of n > 2^16 (contiguous,
// N > 2^log_pairs) every word has its own omega_n^{rd}; the two-level table costs it two Shoup
// products and four dependent table loads, which leave that pass latency-bound (Nsight Compute,
// 2^24, 31-bit: twice the first pass's time, DRAM 24% busy). But a thread's word keeps its d in
// every iteration of a contiguous pass while r grows by a fixed step, and on strided passes the
// block shares r while a thread's d grows by a fixed step. Either way the thread's twiddle walks
//   w <- w omega^step,
// with w in Montgomery form (times 2^b), applied by one Montgomery product, which needs no Shoup
// companion. The step is one Shoup product when omega^step is in the low table (it has
// companions), a Montgomery product otherwise. Forward NTT of 2^24 words on the H100, 31-bit:
// 0.241 ms walking against 0.318 ms looking up (docs/measurements.md, "Fast NTT twiddle walks
// against table lookups"). Strided passes walk on 32-bit words only: on 64-bit ones the
// Montgomery product costs more than the Shoup product and the load it replaces (same section).
template <int ARITH, class T>
__device__ inline T montgomery_power(std::uint32_t e, const Twiddles<T>& tw, const Modulus<T>& m)
{
    return mont_mul(mul_power32<ARITH>(T(1), e, tw, m), m.r2, m.p, m.p_inv);
}

// omega^e as a walk's step: from the low table with its Shoup companion when e is there (q != 0:
// a companion is never 0 for a power other than 1), in Montgomery form otherwise (q == 0).
template <int ARITH, class T>
struct WalkStep {
    T w, q;
    __device__ static WalkStep of(std::uint32_t e, const Twiddles<T>& tw, const Modulus<T>& m)
    {
        if constexpr (goldilocks_arith(ARITH)) return {mul_power32<ARITH>(T(1), e, tw, m), T(0)};
        else if (e != 0 && (e >> tw.low_bits) == 0) return {tw.lo[e], tw.lo_q[e]};
        else return {montgomery_power<ARITH>(e, tw, m), T(0)};
    }
};

// Modulo the Goldilocks prime the walk stays in plain form: its product needs no companion and
// is cheaper than a Montgomery one.
template <int ARITH, class T>
struct TwiddleWalk {
    T current;  // omega^e of this iteration, Montgomery form (plain modulo the Goldilocks prime)

    __device__ void start(std::uint32_t e, const Twiddles<T>& tw, const Modulus<T>& m)
    {
        if constexpr (goldilocks_arith(ARITH)) current = mul_power32<ARITH>(T(1), e, tw, m);
        else current = montgomery_power<ARITH>(e, tw, m);
    }
    __device__ T apply(T x, const Modulus<T>& m) const  // x < p
    {
        if constexpr (goldilocks_arith(ARITH)) return goldilocks::mul(x, current);
        else return mont_mul(x, current, m.p, m.p_inv);
    }
    __device__ void advance(T step, T step_q, const Modulus<T>& m)
    {
        if constexpr (goldilocks_arith(ARITH)) current = goldilocks::mul(current, step);
        else current = step_q != 0 ? mul_twiddle(current, step, step_q, m) : mont_mul(current, step, m.p, m.p_inv);
    }
};

}  // namespace cas::gpu::detail
