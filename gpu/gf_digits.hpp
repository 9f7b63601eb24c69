// Arithmetic modulo a generalized Fermat number p = r^k + 1 in base-r digits, written once for the
// host and the GPU: the kernels of big_prime_gf.cu run exactly this code, and
// tests/unit/fourier/test_gf_digits.cpp checks it against FLINT on the host. Plain C++ where
// __CUDACC__ is not defined.
//
// The seed (big-prime-field-fft-gpu-thesis-slides.txt, "Computing modulo generalized Fermat
// numbers"): x in Z/pZ is held as k digits with x = sum x_i r^i, every digit below r, except the
// one value r^k = -1 (p - 1), held as x_{k-1} = r and the other digits 0 ("canonical" below: one
// representation per residue). Since r^k = -1, r has order 2k, and multiplying by r^e moves every
// digit e places up (mod k), the digits that pass the top coming back negated: no products.
//
// Negated digits are written as complements: for a number M of t digits, -M = (r^t - 1 - M) -
// r^t + 1, where r^t - 1 - M is M with every digit d replaced by r - 1 - d. So x r^e, and the
// butterfly (a +- b) r^e of the seed's DFT_K, is one digit-by-digit sum with carries of two
// rotated, partly complemented digit vectors, plus small corrections at positions 0 and t; the
// carry out of the top digit counts -1 at position 0 (r^k = -1). Folding the corrections in runs
// past one digit with probability about 1/r.
//
// Requirements: k a power of two and k + 2 < r < 2^64 (the carries into a digit stay below r);
// one_half needs r even. The GPU transform asks more (big_prime_gf.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#ifndef CAS_HD
#ifdef __CUDACC__
#define CAS_HD __host__ __device__
#else
#define CAS_HD
#endif
#endif
#if defined(__CUDA_ARCH__)
#define CAS_GF_UNROLL _Pragma("unroll")
#else
#define CAS_GF_UNROLL
#endif

namespace cas::gpu::gf {

using u64 = std::uint64_t;
using s64 = std::int64_t;

// Base-r digits, least significant first.
template <int k>
struct Digits {
    u64 d[k];
};

// Binary words of the same element, least significant first.
template <int k>
struct Words {
    u64 w[k];
};

// The base r with what division by r needs (Moller & Granlund, "Improved division by invariant
// integers", 2011: a 2-by-1 division is one 64x64 product and a few corrections).
struct Radix {
    u64 r;
    u64 normalized;  // r << shift, top bit set
    u64 inverse;     // floor((2^128 - 1) / normalized) - 2^64
    int shift;       // leading zero bits of r
};

// Host only (a 128-bit division).
inline Radix make_radix(u64 r)
{
    int shift = 0;
    while (((r << shift) >> 63) == 0) shift++;
    const u64 normalized = r << shift;
    // The quotient lies in [2^64, 2^65): dropping its top bit subtracts 2^64.
    const u64 inverse = u64(~static_cast<unsigned __int128>(0) / normalized);
    return {r, normalized, inverse, shift};
}

// ---------------------------------------------------------------- words
// a b = high 2^64 + low.
CAS_HD inline u64 multiply_wide(u64 a, u64 b, u64& high)
{
#if defined(__CUDA_ARCH__)
    high = __umul64hi(a, b);
    return a * b;
#else
    const unsigned __int128 t = static_cast<unsigned __int128>(a) * b;
    high = u64(t >> 64);
    return u64(t);
#endif
}

// (u1 2^64 + u0) = q d + remainder for normalized d and u1 < d: Algorithm 4 of Moller & Granlund,
// with v = floor((2^128 - 1) / d) - 2^64.
CAS_HD inline u64 divide_normalized(u64 u1, u64 u0, u64 d, u64 v, u64& remainder)
{
    u64 q1;
    u64 q0 = multiply_wide(v, u1, q1);
    q0 += u0;
    q1 += u1 + (q0 < u0) + 1;
    u64 rest = u0 - q1 * d;
    if (rest > q0) {
        q1--;
        rest += d;
    }
    if (rest >= d) {
        q1++;
        rest -= d;
    }
    remainder = rest;
    return q1;
}

// (high 2^64 + low) = q r + remainder for high < r; returns q.
CAS_HD inline u64 divide_by_radix(u64 high, u64 low, const Radix& radix, u64& remainder)
{
    const int s = radix.shift;
    const u64 u1 = (high << s) | ((low >> 1) >> (63 - s));  // low >> (64 - s), also for s = 0
    u64 rest;
    const u64 q = divide_normalized(u1, low << s, radix.normalized, radix.inverse, rest);
    remainder = rest >> s;
    return q;
}

// A signed 192-bit number, two's complement: the columns of a product before their carries.
struct Wide {
    u64 w0, w1, w2;
};

// acc += a b.
CAS_HD inline void add_product(Wide& acc, u64 a, u64 b)
{
#if defined(__CUDA_ARCH__)
    asm("mad.lo.cc.u64 %0, %3, %4, %0;\n\t"
        "madc.hi.cc.u64 %1, %3, %4, %1;\n\t"
        "addc.u64 %2, %2, 0;"
        : "+l"(acc.w0), "+l"(acc.w1), "+l"(acc.w2)
        : "l"(a), "l"(b));
#else
    const unsigned __int128 t = static_cast<unsigned __int128>(a) * b;
    const unsigned __int128 s = ((static_cast<unsigned __int128>(acc.w1) << 64) | acc.w0) + t;
    acc.w2 += s < t;
    acc.w0 = u64(s);
    acc.w1 = u64(s >> 64);
#endif
}

// acc += x (mod 2^192).
CAS_HD inline void add_wide(Wide& acc, const Wide& x)
{
#if defined(__CUDA_ARCH__)
    asm("add.cc.u64 %0, %0, %3;\n\t"
        "addc.cc.u64 %1, %1, %4;\n\t"
        "addc.u64 %2, %2, %5;"
        : "+l"(acc.w0), "+l"(acc.w1), "+l"(acc.w2)
        : "l"(x.w0), "l"(x.w1), "l"(x.w2));
#else
    const unsigned __int128 a = (static_cast<unsigned __int128>(acc.w1) << 64) | acc.w0;
    const unsigned __int128 s = a + ((static_cast<unsigned __int128>(x.w1) << 64) | x.w0);
    acc.w2 += x.w2 + (s < a);
    acc.w0 = u64(s);
    acc.w1 = u64(s >> 64);
#endif
}

// acc -= x (mod 2^192).
CAS_HD inline void subtract_wide(Wide& acc, const Wide& x)
{
#if defined(__CUDA_ARCH__)
    asm("sub.cc.u64 %0, %0, %3;\n\t"
        "subc.cc.u64 %1, %1, %4;\n\t"
        "subc.u64 %2, %2, %5;"
        : "+l"(acc.w0), "+l"(acc.w1), "+l"(acc.w2)
        : "l"(x.w0), "l"(x.w1), "l"(x.w2));
#else
    const unsigned __int128 a = (static_cast<unsigned __int128>(acc.w1) << 64) | acc.w0;
    const unsigned __int128 b = (static_cast<unsigned __int128>(x.w1) << 64) | x.w0;
    acc.w2 -= x.w2 + (a < b);
    acc.w0 = u64(a - b);
    acc.w1 = u64((a - b) >> 64);
#endif
}

// The floor division of a signed `value` with |value| < r 2^128 by r: returns the quotient (signed)
// and sets the digit to value - quotient r, in [0, r). A negative value is divided as its
// complement ~value = -value - 1 >= 0: value = -(q + 1) r + (r - 1 - remainder), so the quotient
// is ~q and the digit r - 1 - remainder.
CAS_HD inline Wide floor_divide(Wide value, const Radix& radix, u64& digit)
{
    const u64 negative = u64(0) - (value.w2 >> 63);
    value.w0 ^= negative;
    value.w1 ^= negative;
    value.w2 ^= negative;
    u64 rest;
    const u64 q1 = divide_by_radix(value.w2, value.w1, radix, rest);
    const u64 q0 = divide_by_radix(rest, value.w0, radix, rest);
    digit = negative ? radix.r - 1 - rest : rest;
    return {q0 ^ negative, q1 ^ negative, negative};
}

// The same for |value| < r 2^64 (one division): the quotient is small, returned as a signed word.
CAS_HD inline s64 floor_divide_small(Wide value, const Radix& radix, u64& digit)
{
    const u64 negative = u64(0) - (value.w2 >> 63);
    u64 rest;
    const u64 q = divide_by_radix(value.w1 ^ negative, value.w0 ^ negative, radix, rest);
    digit = negative ? radix.r - 1 - rest : rest;
    return s64(q ^ negative);
}

// ---------------------------------------------------------------- conversions
template <int k>
CAS_HD inline bool is_minus_one(const Digits<k>& x, u64 r)
{
    return x.d[k - 1] == r;
}

template <int k>
CAS_HD inline void set_minus_one(Digits<k>& x, u64 r)
{
    CAS_GF_UNROLL
    for (int i = 0; i < k - 1; i++) x.d[i] = 0;
    x.d[k - 1] = r;
}

template <int k>
CAS_HD inline Digits<k> small_digits(u64 value)
{
    Digits<k> x{};
    x.d[0] = value;
    return x;
}

// The canonical digits of x < p (binary words): k - 1 divisions by r of a shrinking number (after
// i divisions the rest is at most r^(k-i) and fits k - i words); the last quotient, at most r, is
// the top digit (r exactly when x = r^k).
template <int k>
CAS_HD inline Digits<k> to_digits(Words<k> x, const Radix& radix)
{
    Digits<k> out;
    CAS_GF_UNROLL
    for (int i = 0; i < k - 1; i++) {
        u64 rest = 0;
        CAS_GF_UNROLL
        for (int w = k - 1 - i; w >= 0; w--) x.w[w] = divide_by_radix(rest, x.w[w], radix, rest);
        out.d[i] = rest;
    }
    out.d[k - 1] = x.w[0];
    return out;
}

// The binary words of canonical digits, by Horner's rule (after digit i the value is below
// r^(k-i), k - i words); r^k comes out as p - 1.
template <int k>
CAS_HD inline Words<k> to_words(const Digits<k>& x, u64 r)
{
    Words<k> out{};
    out.w[0] = x.d[k - 1];
    CAS_GF_UNROLL
    for (int i = k - 2; i >= 0; i--) {
        u64 carry = x.d[i];
        CAS_GF_UNROLL
        for (int w = 0; w < k - 1 - i; w++) {
            u64 high;
            u64 low = multiply_wide(out.w[w], r, high);
            low += carry;
            out.w[w] = low;
            carry = high + (low < carry);
        }
        out.w[k - 1 - i] = carry;
    }
    return out;
}

// ---------------------------------------------------------------- small corrections
// x += delta r^position for digits below r and |delta| < r, carried upward; returns the carry out
// of the top digit, c in {-1, 0, 1}: the digits then hold x + delta r^position - c r^k.
template <int k>
CAS_HD inline int add_small_at(Digits<k>& x, int position, s64 delta, u64 r)
{
    s64 carry = delta;
    CAS_GF_UNROLL
    for (int i = 0; i < k; i++) {
        if (i < position || carry == 0) continue;
        const u64 digit = x.d[i];
        if (carry > 0) {
            const u64 room = r - digit;  // digit + carry >= r exactly when carry >= room
            const bool over = u64(carry) >= room;
            x.d[i] = over ? u64(carry) - room : digit + u64(carry);
            carry = over ? 1 : 0;
        } else {
            const u64 m = u64(-carry);
            const bool under = digit < m;
            x.d[i] = under ? digit + (r - m) : digit - m;
            carry = under ? -1 : 0;
        }
    }
    return int(carry);
}

// The canonical digits of y + delta (mod p) for digits y below r and |delta| < r. A carry c out of
// the top counts -c at position 0 (r^k = -1); folding it in can carry out again only when the
// value is r^k itself (y = 0 with c = 1, or y = r^k - 1 with c = -1), the one non-digit value.
template <int k>
CAS_HD inline void settle(Digits<k>& y, s64 delta, u64 r)
{
    const u64 low = y.d[0];
    if (delta >= 0 ? u64(delta) < r - low : u64(-delta) <= low) {  // the common case: digit 0 takes it
        y.d[0] = low + u64(delta);
        return;
    }
    const int carry = add_small_at(y, 0, delta, r);
    if (carry != 0 && add_small_at(y, 0, -carry, r) != 0) set_minus_one(y, r);
}

// ---------------------------------------------------------------- shifts and butterflies
// (a + b) r^exponent when `add`, (a - b) r^exponent otherwise, 0 <= exponent < 2k: the butterfly
// of the seed's DFT_K, sums and shifts only. The digit accessors a(i), b(i) (registers on the
// host, shared memory on the GPU) never return r: the value r^k = -1 is read as digits 0 with
// its minus_one flag set.
//
// With r^exponent = tau r^t (tau = -1 when exponent >= k), a term x enters with the sign
// eps = tau (a) or +-tau (b). Rotated t places, x r^t = M - r^t + 1, where M holds x_i at
// position i + t < k and the complement r - 1 - x_i at the wrapped positions i + t - k; and
// -x r^t = M' + r^t + 1 with M' the complement of every digit of M (-M = M' - (r^k - 1), and
// -(r^k - 1) = 2). So the result is the digit sum of two such vectors, plus 2 at position 0,
// plus -eps_a - eps_b at position t, minus the carry out of the sum; a term r^k = -1, read as
// digits 0, adds -eps at position t.
template <int k, class DigitA, class DigitB>
CAS_HD inline Digits<k> combine_digits(const DigitA& a, bool minus_one_a, const DigitB& b, bool minus_one_b, bool add,
                                       int exponent, u64 r)
{
    const bool negative_a = exponent >= k;
    const bool negative_b = negative_a != !add;
    const int t = negative_a ? exponent - k : exponent;
    Digits<k> y;
    u64 carry = 0;
    CAS_GF_UNROLL
    for (int p = 0; p < k; p++) {
        const int i = (p - t) & (k - 1);
        const bool wrapped = p < t;
        u64 x = a(i), z = b(i);
        if (wrapped != negative_a) x = r - 1 - x;
        if (wrapped != negative_b) z = r - 1 - z;
        const u64 room = r - z - carry;  // x + z + carry >= r exactly when x >= room
        const bool over = x >= room;
        y.d[p] = over ? x - room : x + z + carry;
        carry = over ? 1 : 0;
    }
    const s64 at_t = (negative_a ? 1 : -1) * (minus_one_a ? 2 : 1) + (negative_b ? 1 : -1) * (minus_one_b ? 2 : 1);
    const s64 at_0 = 2 - s64(carry);
    if (t == 0) {
        settle(y, at_0 + at_t, r);
    } else {
        // at_t is 0 for a difference of ordinary elements (eps_b = -eps_a).
        const int wrap = at_t == 0 ? 0 : add_small_at(y, t, at_t, r);
        settle(y, at_0 - wrap, r);
    }
    return y;
}

// The digits of a canonical element as combine_digits reads them: r^k's top digit r as 0.
template <class Digit>
struct BelowRadix {
    const Digit& digit;
    u64 r;
    CAS_HD u64 operator()(int i) const
    {
        const u64 d = digit(i);
        return d == r ? 0 : d;
    }
};

// combine_digits for canonical a and b.
template <int k, class DigitA, class DigitB>
CAS_HD inline Digits<k> combine(const DigitA& a, const DigitB& b, bool add, int exponent, u64 r)
{
    return combine_digits<k>(BelowRadix<DigitA>{a, r}, a(k - 1) == r, BelowRadix<DigitB>{b, r}, b(k - 1) == r, add,
                             exponent, r);
}

// Accessors of digits held in a Digits value, and of zero.
template <int k>
struct DigitsOf {
    const Digits<k>& x;
    CAS_HD u64 operator()(int i) const { return x.d[i]; }
};
struct ZeroDigits {
    CAS_HD u64 operator()(int) const { return 0; }
};

template <int k>
CAS_HD inline Digits<k> add(const Digits<k>& a, const Digits<k>& b, u64 r)
{
    return combine<k>(DigitsOf<k>{a}, DigitsOf<k>{b}, true, 0, r);
}

template <int k>
CAS_HD inline Digits<k> subtract(const Digits<k>& a, const Digits<k>& b, u64 r)
{
    return combine<k>(DigitsOf<k>{a}, DigitsOf<k>{b}, false, 0, r);
}

template <int k>
CAS_HD inline Digits<k> negate(const Digits<k>& a, u64 r)
{
    return combine<k>(DigitsOf<k>{a}, ZeroDigits{}, true, k, r);
}

// x r^exponent, 0 <= exponent < 2k.
template <int k>
CAS_HD inline Digits<k> shift(const Digits<k>& x, int exponent, u64 r)
{
    return combine<k>(DigitsOf<k>{x}, ZeroDigits{}, true, exponent, r);
}

// ---------------------------------------------------------------- products
// x y mod p for digits below r (neither is r^k): the negacyclic product of the digit vectors,
// column by column (column p: the sum of x_i y_j over i + j = p, minus those over i + j = p + k),
// each column with the carry of the one before divided by r (|column| < k r^2, so the carries
// stay below k r in size); the carry out of the top column counts negated at position 0.
template <int k>
CAS_HD inline Digits<k> multiply_digits(const Digits<k>& x, const Digits<k>& y, const Radix& radix)
{
    Digits<k> z;
    Wide carry{0, 0, 0};
    CAS_GF_UNROLL
    for (int p = 0; p < k; p++) {
        Wide plus{0, 0, 0}, minus{0, 0, 0};
        CAS_GF_UNROLL
        for (int i = 0; i <= p; i++) add_product(plus, x.d[i], y.d[p - i]);
        CAS_GF_UNROLL
        for (int i = p + 1; i < k; i++) add_product(minus, x.d[i], y.d[p + k - i]);
        add_wide(plus, carry);
        subtract_wide(plus, minus);
        carry = floor_divide(plus, radix, z.d[p]);
    }
    // z - carry: |z_0 - carry| < (k + 1) r, so one division leaves a carry of at most k + 2 in
    // size for digit 1, which it nearly always leaves without a carry.
    Wide low{z.d[0], 0, 0};
    subtract_wide(low, carry);
    const s64 rest = floor_divide_small(low, radix, z.d[0]);
    const u64 next = z.d[1];
    if (rest >= 0 ? u64(rest) < radix.r - next : u64(-rest) <= next) {
        z.d[1] = next + u64(rest);
    } else {
        const int wrap = add_small_at(z, 1, rest, radix.r);
        settle(z, -wrap, radix.r);
    }
    return z;
}

// x y mod p for canonical x and y.
template <int k>
CAS_HD inline Digits<k> multiply(const Digits<k>& x, const Digits<k>& y, const Radix& radix)
{
    if (is_minus_one(x, radix.r)) return negate(y, radix.r);
    if (is_minus_one(y, radix.r)) return negate(x, radix.r);
    return multiply_digits(x, y, radix);
}

// x^e mod p (host: the roots and constants of a transform).
template <int k>
inline Digits<k> power(Digits<k> x, u64 e, const Radix& radix)
{
    Digits<k> result = small_digits<k>(1);
    for (; e != 0; e >>= 1) {
        if (e & 1) result = multiply(result, x, radix);
        x = multiply(x, x, radix);
    }
    return result;
}

// The exponent e in [0, 2k) with r^e = x, or -1 when x is no power of r.
template <int k>
inline int exponent_of_radix(const Digits<k>& x, u64 r)
{
    const Digits<k> one = small_digits<k>(1);
    for (int e = 0; e < 2 * k; e++) {
        const Digits<k> power = shift(one, e, r);
        bool equal = true;
        for (int i = 0; i < k; i++) equal = equal && power.d[i] == x.d[i];
        if (equal) return e;
    }
    return -1;
}

// 1/2 = (p + 1) / 2 = (r / 2) r^(k-1) + 1 (r even).
template <int k>
CAS_HD inline Digits<k> one_half(u64 r)
{
    Digits<k> x = small_digits<k>(1);
    x.d[k - 1] = r / 2;
    return x;
}

}  // namespace cas::gpu::gf
