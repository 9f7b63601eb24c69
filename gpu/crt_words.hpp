// Word-level arithmetic of the multi-modular layer (algebra/multimodular/multimodular.cpp), written once for
// the host and the GPU: the residues of a multi-limb coefficient modulo a prime, Garner's
// mixed-radix digits, the Horner loop that turns the digits into limbs, and the symmetric
// representative. The CPU path of the product runs exactly this code, so the unit tests that
// compare it with FLINT on every CI run check the arithmetic the GPU kernels execute.
//
// Numbers are little-endian arrays of 64-bit limbs read with a stride: stride 1 for one number
// in one array (the host), stride n for n numbers stored limb-major, x_i's limb l at [l n + i],
// so that neighbouring GPU threads read neighbouring words (coalesced).
//
// Every prime is below 2^63, the bound of the 64-bit Shoup product below.
#pragma once

#include "gpu/ntt.hpp"  // pow_mod, for the tables

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__CUDACC__)
#define CAS_HOST_DEVICE __host__ __device__
#else
#define CAS_HOST_DEVICE
#endif
#if defined(__CUDA_ARCH__)
#define CAS_UNROLL _Pragma("unroll")
#else
#define CAS_UNROLL
#endif

namespace cas::crt {

using Word = std::uint64_t;

CAS_HOST_DEVICE inline Word mul_high(Word a, Word b) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(a, b);
#else
  return static_cast<Word>((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
}

// floor(w 2^64 / p) for w < p < 2^63: the companion of w in Shoup's product. Host only (the
// tables are built once per prime set).
inline Word shoup_companion(Word w, Word p) {
  return static_cast<Word>((static_cast<unsigned __int128>(w) << 64) / p);
}

// a w mod p for any a < 2^64, w < p < 2^63, w_shoup = shoup_companion(w, p): the quotient
// estimate floor(a w_shoup / 2^64) is at most one below floor(a w / p), so the remainder
// lies in [0, 2p) and is exact modulo 2^64.
CAS_HOST_DEVICE inline Word mul_shoup(Word a, Word w, Word w_shoup, Word p) {
  const Word r = a * w - mul_high(a, w_shoup) * p;
  return r >= p ? r - p : r;
}

CAS_HOST_DEVICE inline Word add_mod(Word a, Word b, Word p) {  // a, b < p < 2^63: no wrap
  const Word s = a + b;
  return s >= p ? s - p : s;
}

CAS_HOST_DEVICE inline Word sub_mod(Word a, Word b, Word p) { return a >= b ? a - b : a + (p - b); }

// What residue_of_limbs needs of a prime: 1 and 2^64 mod p with their Shoup companions.
struct ReductionPrime {
  Word p = 0;
  Word one_shoup = 0;    // shoup_companion(1, p): mul_shoup(a, 1, ...) = a mod p for any word a
  Word radix = 0;        // 2^64 mod p
  Word radix_shoup = 0;
};

inline ReductionPrime reduction_prime(Word p) {
  ReductionPrime r;
  r.p = p;
  r.one_shoup = shoup_companion(1, p);
  r.radix = static_cast<Word>((static_cast<unsigned __int128>(1) << 64) % p);
  r.radix_shoup = shoup_companion(r.radix, p);
  return r;
}

// (-1)^negative x mod p, x = sum limbs[l stride] 2^(64 l), l < count: Horner from the top limb,
// r = r 2^64 + limb, with 2^64 mod p as a fixed Shoup factor.
CAS_HOST_DEVICE inline Word residue_of_limbs(const Word* limbs, std::size_t count, std::size_t stride, bool negative,
                                             const ReductionPrime& q) {
  Word r = 0;
  for (std::size_t l = count; l-- > 0;) {
    const Word limb = mul_shoup(limbs[l * stride], 1, q.one_shoup, q.p);
    r = add_mod(mul_shoup(r, q.radix, q.radix_shoup, q.p), limb, q.p);
  }
  return negative && r != 0 ? q.p - r : r;
}

// One step of Garner's digit j (below): (t - v) p_i^-1 mod p_j for v = v_i < p_i.
CAS_HOST_DEVICE inline Word digit_step(Word t, Word v, std::size_t j, std::size_t i, std::size_t k, const Word* primes,
                                       const Word* inverse, const Word* inverse_shoup) {
  const Word p = primes[j];
  // v < p_i, and p_i may exceed p_j: one subtraction when p_i < 2 p_j (always, for the transform
  // primes of one bit size), a division otherwise.
  const Word v_mod_p = v < p ? v : v - p < p ? v - p : v % p;
  return mul_shoup(sub_mod(t, v_mod_p, p), inverse[j * k + i], inverse_shoup[j * k + i], p);
}

// Garner's digits are computed this many at a time (mixed_radix_digits).
constexpr std::size_t digit_group = 4;

// Garner's mixed-radix digits, in place: on entry values[j stride] = x mod p_j for j < k; on
// exit the digits v_j with x = v_0 + p_0 (v_1 + p_1 (v_2 + ...)), 0 <= v_j < p_j. Digit j is
// (x_j - v_0 - p_0 v_1 - ...) / (p_0 ... p_{j-1}) mod p_j, computed as t = x_j, then
// t = (t - v_i) p_i^-1 mod p_j for i < j. inverse[j k + i] = p_i^-1 mod p_j (i < j), and
// inverse_shoup its Shoup companions. A group of digit_group digits takes its steps over the
// digits below it side by side (independent chains, each v_i read once), then over its own
// digits in order: the same steps in the same order for each digit as one digit at a time, where
// a GPU thread a coefficient waits on every step's latency in turn (the GPU's share of a product
// of 32768 x 32768 terms with 130 primes: 8.9 ms against 10.6 one digit at a time;
// docs/measurements.md, "Garner on the GPU: a thread or a warp a coefficient").
CAS_HOST_DEVICE inline void mixed_radix_digits(Word* values, std::size_t stride, std::size_t k, const Word* primes,
                                               const Word* inverse, const Word* inverse_shoup) {
  for (std::size_t first = 1; first < k; first += digit_group) {
    const std::size_t count = k - first < digit_group ? k - first : digit_group;
    Word t[digit_group];
    CAS_UNROLL
    for (std::size_t r = 0; r < digit_group; r++) t[r] = r < count ? values[(first + r) * stride] : 0;
    for (std::size_t i = 0; i < first; i++) {
      const Word v = values[i * stride];
      CAS_UNROLL
      for (std::size_t r = 0; r < digit_group; r++)
        if (r < count) t[r] = digit_step(t[r], v, first + r, i, k, primes, inverse, inverse_shoup);
    }
    CAS_UNROLL
    for (std::size_t r = 1; r < digit_group; r++)
      CAS_UNROLL
      for (std::size_t s = 0; s < r; s++)
        if (r < count) t[r] = digit_step(t[r], t[s], first + r, first + s, k, primes, inverse, inverse_shoup);
    CAS_UNROLL
    for (std::size_t r = 0; r < digit_group; r++)
      if (r < count) values[(first + r) * stride] = t[r];
  }
}

// x = x m + c over x's `used` limbs (stride x_stride) for a two-word m and carry c (c < 2^128):
// each limb times m plus the carry is below 2^192, and leaves the next carry below 2^128. The
// carry out goes to the limbs above, `used` grows with them (never past width).
CAS_HOST_DEVICE inline void multiply_add_two_words(Word* x, std::size_t x_stride, std::size_t width, std::size_t& used,
                                                   Word m0, Word m1, Word c0, Word c1) {
  for (std::size_t l = 0; l < used; l++) {
    const Word limb = x[l * x_stride];
    const Word low0 = limb * m0, high0 = mul_high(limb, m0), low1 = limb * m1, high1 = mul_high(limb, m1);
    const Word w0 = low0 + c0;
    Word w1 = high0 + low1;
    Word k1 = w1 < high0 ? 1 : 0;
    w1 += c1;
    k1 += w1 < c1 ? 1 : 0;
    w1 += w0 < low0 ? 1 : 0;
    k1 += w1 == 0 && w0 < low0 ? 1 : 0;
    x[l * x_stride] = w0;
    c0 = w1;
    c1 = high1 + k1;
  }
  if (c1 != 0) {
    if (used < width) x[used++ * x_stride] = c0;
    if (used < width) x[used++ * x_stride] = c1;
  } else if (c0 != 0 && used < width) {
    x[used++ * x_stride] = c0;
  }
}

// x = v_0 + p_0 (v_1 + ... + p_{k-2} v_{k-1}) into `width` limbs of x (stride x_stride), zero
// above the used limbs; width must hold the primes' product. digits[j digit_stride] = v_j.
// Horner from the top digit, two digits a pass over the limbs: x = x p_(j-1) p_(j-2) +
// (v_(j-1) p_(j-2) + v_(j-2)), half the passes (reads and writes of every limb) of one a pass.
CAS_HOST_DEVICE inline void digits_to_limbs(Word* x, std::size_t x_stride, std::size_t width, const Word* digits,
                                            std::size_t digit_stride, std::size_t k, const Word* primes) {
  for (std::size_t l = 0; l < width; l++) x[l * x_stride] = 0;
  std::size_t used = 0;  // limbs that may be nonzero
  std::size_t j = k - 1;  // x = v_(k-1) .. v_j's value so far
  if (digits[j * digit_stride] != 0 && width > 0) x[used++ * x_stride] = digits[j * digit_stride];
  for (; j >= 2; j -= 2) {
    const Word p_high = primes[j - 1], p_low = primes[j - 2];
    const Word v_high = digits[(j - 1) * digit_stride], v_low = digits[(j - 2) * digit_stride];
    const Word a0 = v_high * p_low + v_low;  // v_high p_low + v_low < 2^126: two words
    const Word a1 = mul_high(v_high, p_low) + (a0 < v_low ? 1 : 0);
    multiply_add_two_words(x, x_stride, width, used, p_high * p_low, mul_high(p_high, p_low), a0, a1);
  }
  if (j == 1) multiply_add_two_words(x, x_stride, width, used, primes[0], 0, digits[0], 0);
}

// a > b for numbers of `width` limbs (a with stride, b contiguous).
CAS_HOST_DEVICE inline bool greater_than(const Word* a, std::size_t stride, const Word* b, std::size_t width) {
  for (std::size_t l = width; l-- > 0;) {
    const Word al = a[l * stride];
    if (al != b[l]) return al > b[l];
  }
  return false;
}

// The symmetric representative of x in [0, M) (M = modulus, `width` limbs, half = floor(M / 2)):
// when x > M / 2, x becomes M - x in place and the result is true (the value is -(M - x)).
CAS_HOST_DEVICE inline bool make_symmetric(Word* x, std::size_t stride, std::size_t width, const Word* modulus,
                                           const Word* half) {
  if (!greater_than(x, stride, half, width)) return false;
  Word borrow = 0;
  for (std::size_t l = 0; l < width; l++) {
    const Word xl = x[l * stride];
    const Word d = modulus[l] - xl;
    const Word out = d - borrow;
    borrow = (modulus[l] < xl || d < borrow) ? 1 : 0;
    x[l * stride] = out;
  }
  return true;
}

// ---------------------------------------------------------------- integers as polynomials
// A huge integer x >= 0 (limbs, little-endian) is the polynomial sum x_i t^i at t = 2^b, x_i its
// b-bit chunks; the product's coefficients c_i come back at t = 2^b with carries. Only bit
// extraction here: no arithmetic crosses a word.

// The 64 bits of x starting at bit `bit` (zero beyond its `count` limbs).
CAS_HOST_DEVICE inline Word bits_at(const Word* limbs, std::size_t count, std::size_t stride, std::size_t bit) {
  const std::size_t w = bit / 64;
  const unsigned shift = static_cast<unsigned>(bit % 64);
  const Word low = w < count ? limbs[w * stride] : 0;
  if (shift == 0) return low;
  const Word high = w + 1 < count ? limbs[(w + 1) * stride] : 0;
  return (low >> shift) | (high << (64 - shift));
}

CAS_HOST_DEVICE inline Word low_bits(Word x, unsigned bits) { return bits >= 64 ? x : x & ((Word{1} << bits) - 1); }

// Chunk i of x in chunks of b bits, 1 <= b <= 128: chunk[0] its low word, chunk[1] its high one.
CAS_HOST_DEVICE inline void chunk_at(const Word* limbs, std::size_t count, std::size_t i, unsigned b, Word* chunk) {
  const std::size_t start = i * b;
  chunk[0] = low_bits(bits_at(limbs, count, 1, start), b);
  chunk[1] = b > 64 ? low_bits(bits_at(limbs, count, 1, start + 64), b - 64) : 0;
}

// out[i] = chunk i of x (b-bit chunks) mod q.p.
CAS_HOST_DEVICE inline void chunk_residue_entry(std::size_t i, const Word* limbs, std::size_t count, unsigned b,
                                                const ReductionPrime& q, Word* out) {
  Word chunk[2];
  chunk_at(limbs, count, i, b, chunk);
  out[i] = residue_of_limbs(chunk, 2, 1, false, q);
}

// Word w of P_r = sum over i = r mod 3 of c_i 2^(b i), c_i >= 0 the `count` >= 1 entries of a
// limb-major matrix of `width` limbs. Requires c_i < 2^(3 b): then the terms of P_r occupy
// disjoint bit ranges [b i, b i + 3 b), so a word of P_r is the OR of the (at most two) pieces
// that meet it, and x = P_0 + P_1 + P_2 is a word-by-word sum plus carries (summed_words_entry).
CAS_HOST_DEVICE inline Word packed_word(std::size_t w, unsigned r, const Word* c, std::size_t count, std::size_t width,
                                        unsigned b) {
  const std::size_t word_start = 64 * w;
  std::size_t i = (word_start + 63) / b;  // the last term starting inside or before this word
  if (i >= count) i = count - 1;
  while (i % 3 != r) {
    if (i == 0) return 0;
    i--;
  }
  Word out = 0;
  for (;; i -= 3) {
    const std::size_t term_start = b * i;
    if (term_start + 3 * static_cast<std::size_t>(b) <= word_start) break;  // ends below the word
    if (term_start >= word_start)
      out |= bits_at(c + i, width, count, 0) << (term_start - word_start);  // starts inside the word
    else
      out |= bits_at(c + i, width, count, word_start - term_start);
    if (i < 3) break;
  }
  return out;
}

// Words 32 g .. 32 g + 31 (below `words`) of P_0 + P_1 + P_2 before the carries between words:
// sums[w] = the low word of P_0[w] + P_1[w] + P_2[w], and its carry (0, 1 or 2) into word w + 1 in
// bits 2 (w - 32 g) of carry_bits[g]. The caller adds the carries (finish_summed_words on the host),
// so only one number and a 2-bit carry per word leave the GPU instead of three numbers.
constexpr std::size_t summed_group = 32;

CAS_HOST_DEVICE inline void summed_words_entry(std::size_t g, const Word* c, std::size_t count, std::size_t width,
                                               unsigned b, std::size_t words, Word* sums, Word* carry_bits) {
  Word bits = 0;
  const std::size_t first = g * summed_group;
  for (std::size_t w = first; w < first + summed_group && w < words; w++) {
    const Word p0 = packed_word(w, 0, c, count, width, b);
    const Word s1 = p0 + packed_word(w, 1, c, count, width, b);
    const Word s2 = s1 + packed_word(w, 2, c, count, width, b);
    const Word carry = (s1 < p0 ? 1 : 0) + (s2 < s1 ? 1 : 0);
    sums[w] = s2;
    bits |= carry << (2 * (w - first));
  }
  carry_bits[g] = bits;
}

CAS_HOST_DEVICE inline std::size_t summed_groups(std::size_t words) { return (words + summed_group - 1) / summed_group; }

// The carry summed_words_entry left for word w + 1.
CAS_HOST_DEVICE inline Word carry_out_of(const Word* carry_bits, std::size_t w) {
  return (carry_bits[w / summed_group] >> (2 * (w % summed_group))) & 3;
}

// ---------------------------------------------------------------- one thread's work
// The bodies of the GPU kernels (gpu/crt.cu), one coefficient i each, on limb-major matrices of
// `count` numbers: a kernel is a grid-stride loop over i around them, and the unit tests run the
// same bodies over every i on the host.

// out[i] = x_i mod q.p for the signed numbers x_i: `width` limbs at limbs[l count + i], sign
// negative[i] != 0.
CAS_HOST_DEVICE inline void reduce_entry(std::size_t i, const Word* limbs, const std::uint32_t* negative,
                                         std::size_t count, std::size_t width, const ReductionPrime& q, Word* out) {
  out[i] = residue_of_limbs(limbs + i, width, count, negative[i] != 0, q);
}

// out[i] = c_i + c_(i+n) (negacyclic: minus) mod p for i < n, from the residues c of a product of
// `length` <= 2n - 1 coefficients (those beyond it zero): the product folded modulo x^n -+ 1. Any
// p < 2^64 (gpu::convolve_mod folds modulo the user's p): a sum that wraps past 2^64 is above p.
CAS_HOST_DEVICE inline void fold_entry(std::size_t i, const Word* c, std::size_t length, std::size_t n,
                                       bool negacyclic, Word p, Word* out) {
  const Word low = i < length ? c[i] : 0, high = i + n < length ? c[i + n] : 0;
  if (negacyclic) {
    out[i] = sub_mod(low, high, p);
    return;
  }
  const Word sum = low + high;
  out[i] = sum < low || sum >= p ? sum - p : sum;
}

// Pointers to a GarnerTables' arrays (host or device copies).
struct GarnerView {
  const Word* primes;
  const Word* inverse;
  const Word* inverse_shoup;
  const Word* modulus;
  const Word* half;
  std::size_t k, width;
};

// Coefficient i of `count` from its residues residues[j count + i] (overwritten by Garner's
// digits): its symmetric value as limbs[l count + i], l < t.width, and negative[i].
CAS_HOST_DEVICE inline void reconstruct_entry(std::size_t i, Word* residues, std::size_t count, const GarnerView& t,
                                              Word* limbs, std::uint32_t* negative) {
  mixed_radix_digits(residues + i, count, t.k, t.primes, t.inverse, t.inverse_shoup);
  digits_to_limbs(limbs + i, count, t.width, residues + i, count, t.k, t.primes);
  negative[i] = make_symmetric(limbs + i, count, t.width, t.modulus, t.half) ? 1 : 0;
}

// ---------------------------------------------------------------- tables (host)

// x *= w in place (little-endian limbs), one limb longer when the product carries out.
inline void multiply_by_word(std::vector<Word>& x, Word w) {
  Word carry = 0;
  for (Word& limb : x) {
    const unsigned __int128 t = static_cast<unsigned __int128>(limb) * w + carry;
    limb = static_cast<Word>(t);
    carry = static_cast<Word>(t >> 64);
  }
  if (carry != 0) x.push_back(carry);
}

// floor(x / 2), as many limbs as x.
inline std::vector<Word> halved(const std::vector<Word>& x) {
  std::vector<Word> half(x.size(), 0);
  for (std::size_t l = 0; l < x.size(); l++) half[l] = (x[l] >> 1) | (l + 1 < x.size() ? x[l + 1] << 63 : 0);
  return half;
}

// Everything the reconstruction needs for a fixed list of distinct primes, each below 2^63, in the
// order of the residues.
struct GarnerTables {
  std::vector<Word> primes;
  std::vector<Word> inverse, inverse_shoup;  // [j k + i] = p_i^-1 mod p_j for i < j, 0 elsewhere
  std::vector<Word> modulus, half;           // M = p_0 ... p_{k-1} and floor(M / 2), `width` limbs

  explicit GarnerTables(const std::vector<Word>& primes_in) : primes(primes_in) {
    const std::size_t k = primes.size();
    inverse.assign(k * k, 0);
    inverse_shoup.assign(k * k, 0);
    for (std::size_t j = 1; j < k; j++) {
      Word* row = inverse.data() + j * k;
      invert_all(primes.data(), j, primes[j], row);
      for (std::size_t i = 0; i < j; i++) inverse_shoup[j * k + i] = shoup_companion(row[i], primes[j]);
    }
    modulus.assign(1, 1);
    for (Word p : primes) multiply_by_word(modulus, p);
    half = halved(modulus);
  }

  std::size_t width() const { return modulus.size(); }  // limbs of every reconstructed value
  GarnerView view() const {
    return {primes.data(), inverse.data(), inverse_shoup.data(), modulus.data(), half.data(), primes.size(), width()};
  }

 private:
  // out[i] = x[i]^-1 mod p for i < count (each x[i] coprime to p): Montgomery's batch inversion,
  // one exponentiation for the product of all of them and three products an entry, where an
  // exponentiation an entry would make the tables of 130 primes cost 4.1 ms instead of 0.3,
  // longer than a short product's work on the GPU (docs/measurements.md, "Host-built tables of
  // 130 primes").
  static void invert_all(const Word* x, std::size_t count, Word p, Word* out) {
    auto times = [p](Word a, Word b) { return static_cast<Word>(static_cast<unsigned __int128>(a) * b % p); };
    Word running = 1;
    for (std::size_t i = 0; i < count; i++) {  // out[i] = x[0] ... x[i-1] mod p for now
      out[i] = running;
      running = times(running, x[i] % p);
    }
    Word inverse_of_rest = cas::gpu::pow_mod(running, p - 2, p);  // Fermat: (x[0] ... x[i])^-1 at step i
    for (std::size_t i = count; i-- > 0;) {
      out[i] = times(out[i], inverse_of_rest);
      inverse_of_rest = times(inverse_of_rest, x[i] % p);
    }
  }
};

// The same reconstruction written as dot products, for a warp a coefficient on the GPU (crt.cu):
// with P_j = p_0 ... p_{j-1}, x = v_0 + v_1 P_1 + ... + v_{k-1} P_{k-1} and
//   v_j = (x_j - sum_{i<j} v_i (P_i mod p_j)) (P_j mod p_j)^-1 mod p_j,
// whose sum the lanes share; the limbs of x are then sum_j v_j (limbs of P_j), limb by limb.
// prefix[j k + i] = P_i mod p_j (i < j) and its Shoup companion, inverse[j] = (P_j mod p_j)^-1 and
// its companion, radix[j width + l] = limb l of P_j, modulus = P_k and half = floor(P_k / 2).
struct PrefixTables {
  std::vector<Word> primes;
  std::vector<Word> prefix, prefix_shoup, inverse, inverse_shoup;
  std::vector<Word> radix, modulus, half;

  explicit PrefixTables(const std::vector<Word>& primes_in) : primes(primes_in) {
    const std::size_t k = primes.size();
    prefix.assign(k * k, 0);
    prefix_shoup.assign(k * k, 0);
    inverse.assign(k, 0);
    inverse_shoup.assign(k, 0);
    for (std::size_t j = 0; j < k; j++) {
      const Word p = primes[j];
      Word running = 1 % p;
      for (std::size_t i = 0; i < j; i++) {
        prefix[j * k + i] = running;
        prefix_shoup[j * k + i] = shoup_companion(running, p);
        running = static_cast<Word>(static_cast<unsigned __int128>(running) * (primes[i] % p) % p);
      }
      inverse[j] = cas::gpu::pow_mod(running, p - 2, p);  // Fermat; p = 2: running = 1, and so is the inverse
      inverse_shoup[j] = shoup_companion(inverse[j], p);
    }
    std::vector<std::vector<Word>> rows{{1}};
    for (Word p : primes) {
      rows.push_back(rows.back());
      multiply_by_word(rows.back(), p);
    }
    modulus = rows.back();
    half = halved(modulus);
    radix.assign(k * modulus.size(), 0);
    for (std::size_t j = 0; j < k; j++) std::copy(rows[j].begin(), rows[j].end(), radix.begin() + j * modulus.size());
  }

  std::size_t width() const { return modulus.size(); }
};

// `count` signed numbers of `width` limbs, limb-major (limb l of x_i at limbs[l count + i]): the
// layout the kernels read and write.
struct LimbMatrix {
  std::size_t count = 0, width = 0;
  std::vector<Word> limbs;               // width * count
  std::vector<std::uint32_t> negative;   // count; 1 for x_i < 0
};

}  // namespace cas::crt
