// Modular arithmetic on the device, one place for every reduction the kernels use.
//
// Which product where, and why (rates on the H100: docs/measurements.md, "The card's ceilings:
// copy, PCIe, modular products, cuFFT"):
//   * Twiddle products w * x, w known in advance: Shoup's product with the precomputed
//     w' = floor(w 2^b / p). One high multiply, two low multiplies, one conditional subtraction,
//     no carry chain; faster than Montgomery's on both word sizes, and 32-bit Shoup runs at 4.4x
//     the rate of 64-bit Shoup (3.8e12 against 8.7e11 products/s). Hence the 32-bit words for
//     primes < 2^31.
//   * General products a * b (the pointwise step of a convolution, table building): Montgomery,
//     which needs no precomputation per operand. It runs once per coefficient, not log n times.
// Values are kept fully reduced in [0, p), but for the lazy butterflies of 64-bit words with
// p < 2^62 ([0, 2p) inside a pass, below): the transforms are bounded by memory traffic at large
// sizes, so the one compare-and-subtract per operation costs little, and every kernel can be
// checked against the plain definition.
#pragma once

#include <cstdint>

namespace cas::gpu::detail {

// Unsigned minimum: one IMNMX on the device.
__host__ __device__ inline std::uint32_t min_u32(std::uint32_t a, std::uint32_t b)
{
#ifdef __CUDA_ARCH__
    return ::min(a, b);
#else
    return a < b ? a : b;
#endif
}

// ---------------------------------------------------------------- add, subtract
// 32-bit words hold p < 2^31, so a + b < 2^32 never wraps. min(s, s - p) picks s - p exactly
// when s >= p (otherwise s - p wraps above s): one VIMNMX instead of a compare and a select, in
// the integer pipes that the fast transform's passes issue from (docs/measurements.md, "Fast NTT:
// what each design step adds at 2^24").
__host__ __device__ inline std::uint32_t add_mod(std::uint32_t a, std::uint32_t b, std::uint32_t p)
{
    std::uint32_t s = a + b;
    return min_u32(s, s - p);
}
// 64-bit words hold any p < 2^64: a + b may wrap, and then the true sum exceeds p.
__host__ __device__ inline std::uint64_t add_mod(std::uint64_t a, std::uint64_t b, std::uint64_t p)
{
    std::uint64_t s = a + b;
    return (s < a || s >= p) ? s - p : s;
}
template <class T>
__host__ __device__ inline T sub_mod(T a, T b, T p)
{
    return a >= b ? a - b : a - b + p;  // wraps back into [0, p) in unsigned arithmetic
}
// 32 bits: d = a - b wraps above 2^32 - p when a < b, and then d + p < p is the smaller one.
__host__ __device__ inline std::uint32_t sub_mod(std::uint32_t a, std::uint32_t b, std::uint32_t p)
{
    std::uint32_t d = a - b;
    return min_u32(d, d + p);
}

// ---------------------------------------------------------------- Shoup products (w fixed)
// q = floor(a w' / 2^b) underestimates floor(a w / p) by at most 1, so r = a w - q p lies in
// [0, 2p), computed exactly mod 2^b as long as 2p <= 2^b.
__device__ inline std::uint32_t mul_shoup(std::uint32_t a, std::uint32_t w, std::uint32_t w_shoup, std::uint32_t p)
{
    std::uint32_t q = __umulhi(a, w_shoup);
    std::uint32_t r = a * w - q * p;  // needs p < 2^31
    return min_u32(r, r - p);         // r < 2p: as in add_mod
}
// a w + q n mod 2^64 in six 32-bit multiplies: the Shoup remainder a w - q p with n = 2^64 - p.
// Written as C++ (a * w - q * p), the two 64-bit low products are three multiplies each and the
// subtraction two more instructions; here the second product accumulates onto the first and the
// four cross terms onto its high half. With the signed test of lazy_dif_butterfly below, a lazy
// butterfly takes 22.4 SASS instructions instead of the plain form's 27.5 (cas-bench-butterfly on
// the H100: 760 against 681 G butterflies/s; docs/measurements.md, "The 64-bit lazy butterfly in
// six 32-bit multiplies").
__device__ __forceinline__ std::uint64_t low_product_sum(std::uint64_t a, std::uint64_t w, std::uint64_t q,
                                                         std::uint64_t n)
{
    std::uint64_t r;
    asm("{\n\t"
        ".reg .u32 a0, a1, w0, w1, q0, q1, n0, n1, r0, r1;\n\t"
        ".reg .u64 t;\n\t"
        "mov.b64 {a0, a1}, %1;\n\t"
        "mov.b64 {w0, w1}, %2;\n\t"
        "mov.b64 {q0, q1}, %3;\n\t"
        "mov.b64 {n0, n1}, %4;\n\t"
        "mul.wide.u32 t, a0, w0;\n\t"
        "mad.wide.u32 t, q0, n0, t;\n\t"
        "mov.b64 {r0, r1}, t;\n\t"
        "mad.lo.u32 r1, a0, w1, r1;\n\t"
        "mad.lo.u32 r1, a1, w0, r1;\n\t"
        "mad.lo.u32 r1, q0, n1, r1;\n\t"
        "mad.lo.u32 r1, q1, n0, r1;\n\t"
        "mov.b64 %0, {r0, r1};\n\t"
        "}"
        : "=l"(r)
        : "l"(a), "l"(w), "l"(q), "l"(n));
    return r;
}
// r = a w - q p in [0, 2p) before the final correction, for 64-bit words with p < 2^63.
__device__ __forceinline__ std::uint64_t shoup_remainder(std::uint64_t a, std::uint64_t w, std::uint64_t w_shoup,
                                                         std::uint64_t p)
{
    return low_product_sum(a, w, __umul64hi(a, w_shoup), std::uint64_t(0) - p);
}
__device__ inline std::uint64_t mul_shoup(std::uint64_t a, std::uint64_t w, std::uint64_t w_shoup, std::uint64_t p)
{
    std::uint64_t r = shoup_remainder(a, w, w_shoup, p);  // needs p < 2^63
    return r >= p ? r - p : r;
}
// x in [0, 4p) brought into [0, 2p), for 64-bit words with p < 2^62: 4p < 2^64 and 2p <= 2^63,
// so x - 2p has its top bit set exactly when it wrapped (one signed test instead of a 64-bit
// unsigned compare).
__device__ __forceinline__ std::uint64_t below_two_p(std::uint64_t x, std::uint64_t two_p)
{
    const std::uint64_t reduced = x - two_p;
    return static_cast<std::int64_t>(reduced) < 0 ? x : reduced;
}
// Harvey's lazy DIF butterfly on 64-bit words, p < 2^62: (a, b) -> (a + b, (a - b) w) with every
// entry in [0, 2p) instead of [0, p). The sum is brought below 2p by one conditional subtraction;
// the difference plus 2p (below 4p) goes through a Shoup product without its final correction,
// whose result is in [0, 2p) for any input.
__device__ __forceinline__ void lazy_dif_butterfly(std::uint64_t& a, std::uint64_t& b, std::uint64_t w,
                                                   std::uint64_t w_shoup, std::uint64_t p)
{
    const std::uint64_t x = a, y = b, two_p = p << 1;
    a = below_two_p(x + y, two_p);
    b = shoup_remainder(x - y + two_p, w, w_shoup, p);
}

// For 2^63 <= p < 2^64 the remainder r in [0, 2p) can pass 2^64: compute its top bit from the
// high halves as well (two more high multiplies). Works for every p < 2^64, even or odd.
__device__ inline std::uint64_t mul_shoup_full(std::uint64_t a, std::uint64_t w, std::uint64_t w_shoup, std::uint64_t p)
{
    std::uint64_t q = __umul64hi(a, w_shoup);
    std::uint64_t lo1 = a * w, hi1 = __umul64hi(a, w);
    std::uint64_t lo2 = q * p, hi2 = __umul64hi(q, p);
    std::uint64_t r = lo1 - lo2;
    std::uint64_t top = hi1 - hi2 - (lo1 < lo2 ? 1 : 0);  // 0 or 1
    return (top != 0 || r >= p) ? r - p : r;
}

// ---------------------------------------------------------------- Montgomery products (general)
// REDC in the subtractive form: with m = lo(t) p^-1 mod 2^b, t - m p is divisible by 2^b and
// (t - m p) / 2^b = hi(t) - hi(m p) lies in (-p, p): no carry out of the top word, so it works
// for every odd p < 2^b. Returns a b 2^-b mod p for a, b in [0, p).
__device__ inline std::uint32_t mont_mul(std::uint32_t a, std::uint32_t b, std::uint32_t p, std::uint32_t p_inv)
{
    std::uint64_t t = std::uint64_t(a) * b;
    std::uint32_t m = std::uint32_t(t) * p_inv;
    std::uint32_t hi = std::uint32_t(t >> 32);
    std::uint32_t mp = __umulhi(m, p);
    return hi >= mp ? hi - mp : hi - mp + p;
}
__device__ inline std::uint64_t mont_mul(std::uint64_t a, std::uint64_t b, std::uint64_t p, std::uint64_t p_inv)
{
    std::uint64_t lo = a * b, hi = __umul64hi(a, b);
    std::uint64_t m = lo * p_inv;
    std::uint64_t mp = __umul64hi(m, p);
    return hi >= mp ? hi - mp : hi - mp + p;
}

// The constants a kernel needs to multiply modulo p. Built on the host by make_modulus().
template <class T>
struct Modulus {
    T p;
    T p_inv;       // p^-1 mod 2^b (odd p only; 0 otherwise)
    T r2;          // 2^(2b) mod p: mont_mul(mont_mul(a, b), r2) == a b mod p
    bool full;     // 64-bit words with p >= 2^63: Shoup needs the carry-aware form
};

// a b mod p for a, b in [0, p), odd p: two Montgomery reductions.
template <class T>
__device__ inline T mul_mod(T a, T b, const Modulus<T>& m)
{
    return mont_mul(mont_mul(a, b, m.p, m.p_inv), m.r2, m.p, m.p_inv);
}

// x w mod p with w's Shoup companion; picks the carry-aware form where p needs it.
__device__ inline std::uint32_t mul_twiddle(std::uint32_t x, std::uint32_t w, std::uint32_t wq, const Modulus<std::uint32_t>& m)
{
    return mul_shoup(x, w, wq, m.p);
}
__device__ inline std::uint64_t mul_twiddle(std::uint64_t x, std::uint64_t w, std::uint64_t wq, const Modulus<std::uint64_t>& m)
{
    return m.full ? mul_shoup_full(x, w, wq, m.p) : mul_shoup(x, w, wq, m.p);
}

// floor(w 2^b / p) for w < p: the Shoup companion, computed where the table is built.
__host__ __device__ inline std::uint32_t shoup_companion(std::uint32_t w, std::uint32_t p)
{
    return std::uint32_t((std::uint64_t(w) << 32) / p);
}
// 128-by-64 long division, one bit at a time: only used when tables are built.
__host__ __device__ inline std::uint64_t shoup_companion(std::uint64_t w, std::uint64_t p)
{
    std::uint64_t rem = w, quo = 0;  // divides w * 2^64 by p; rem < p throughout
    for (int i = 0; i < 64; ++i) {
        bool carry = (rem >> 63) != 0;
        rem <<= 1;
        quo <<= 1;
        if (carry || rem >= p) { rem -= p; quo |= 1; }
    }
    return quo;
}

}  // namespace cas::gpu::detail
