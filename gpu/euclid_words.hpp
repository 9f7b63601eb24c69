// The resultant of two polynomials modulo a word-size prime by the Euclidean algorithm, written
// once for the host and the GPU: a GPU thread block runs it for one prime of a multi-modular
// resultant in Z[x] (gpu/resultant_blocks.cu), the whole block sharing each division step; the
// host runs the same code with a team of one (algebra/multimodular/zresultant.cpp, its tests
// against FLINT on every CI run).
//
// Values live in Montgomery form (x 2^64 mod p) so that a product is one REDC. The divisions are
// pseudo-divisions (no inverse of a leading coefficient, which one thread would compute while the
// others wait), their factors collected and raised at the end.
#pragma once

#include "gpu/crt_words.hpp"  // Word, mul_high, add_mod, sub_mod, CAS_HOST_DEVICE

#include <cstddef>
#include <cstdint>

namespace cas::crt {

// What a Montgomery product modulo an odd p < 2^63 needs.
struct MontgomeryPrime {
  Word p = 0;
  Word p_inverse = 0;  // p^-1 mod 2^64
  Word one = 0;        // 2^64 mod p: 1 in Montgomery form
  Word square = 0;     // 2^128 mod p: montgomery_product(x, square) = x in Montgomery form
};

inline MontgomeryPrime montgomery_prime(Word p) {
  MontgomeryPrime q;
  q.p = p;
  Word inverse = p;  // p p = 1 mod 8; each Newton step doubles the bits that are right
  for (int i = 0; i < 5; i++) inverse *= 2 - p * inverse;
  q.p_inverse = inverse;
  q.one = static_cast<Word>((static_cast<unsigned __int128>(1) << 64) % p);
  q.square = static_cast<Word>((static_cast<unsigned __int128>(q.one) << 64) % p);
  return q;
}

// a b 2^-64 mod p for a, b in [0, p): REDC in its subtractive form, where (t - m p) / 2^64 =
// hi(t) - hi(m p) lies in (-p, p) for m = lo(t) p^-1 mod 2^64.
CAS_HOST_DEVICE inline Word montgomery_product(Word a, Word b, const MontgomeryPrime& q) {
  const Word low = a * b, high = mul_high(a, b);
  const Word m = low * q.p_inverse;
  const Word mp = mul_high(m, q.p);
  return high >= mp ? high - mp : high - mp + q.p;
}

CAS_HOST_DEVICE inline Word to_montgomery(Word x, const MontgomeryPrime& q) {
  return montgomery_product(x, q.square, q);
}
CAS_HOST_DEVICE inline Word from_montgomery(Word x, const MontgomeryPrime& q) { return montgomery_product(x, 1, q); }

// x^e in Montgomery form for x in Montgomery form.
CAS_HOST_DEVICE inline Word montgomery_power(Word x, std::uint64_t e, const MontgomeryPrime& q) {
  Word result = q.one;
  for (; e != 0; e >>= 1) {
    if (e & 1) result = montgomery_product(result, x, q);
    x = montgomery_product(x, x, q);
  }
  return result;
}

// The threads that share a resultant: a team of one on the host (SerialTeam), a thread block on
// the GPU. A team has rank() in [0, size()), sync(), a barrier for the whole team, and
// product(x, q), the Montgomery product of every rank's x, returned to every rank.
struct SerialTeam {
  unsigned rank() const { return 0; }
  unsigned size() const { return 1; }
  void sync() {}
  Word product(Word x, const MontgomeryPrime&) { return x; }
};

// The words of euclidean_resultant's log for operands of degrees m and n: two a factor, at most
// min(m, n) + 2 factors.
constexpr std::size_t resultant_log_words(std::size_t m, std::size_t n) { return 2 * ((m < n ? m : n) + 2); }

// (m - k) - e n as an exponent of a nonzero residue: reduced modulo p - 1 (Fermat).
CAS_HOST_DEVICE inline std::uint64_t factor_exponent(std::size_t m, std::size_t k, std::size_t e, std::size_t n,
                                                     Word p) {
  const std::uint64_t order = p - 1, taken = (static_cast<std::uint64_t>(e) * n) % order;
  return (static_cast<std::uint64_t>(m - k) % order + order - taken) % order;
}

// One division step of a by b without a quotient's inverse, c = a[d], s = d - n: a[j] = lc a[j] -
// c b[j - s] for j < d (the pseudo-remainder's step: after all m - n + 1 of them a holds
// lc(b)^(m - n + 1) (a mod b)).
template <class Team>
CAS_HOST_DEVICE void pseudo_division_step(Team& team, Word* a, const Word* b, std::size_t d, std::size_t n, Word lc,
                                          const MontgomeryPrime& q) {
  const Word c = a[d];
  const std::size_t s = d - n;
  for (std::size_t j = team.rank(); j < d; j += team.size()) {
    const Word scaled = montgomery_product(lc, a[j], q);
    a[j] = j < s ? scaled : sub_mod(scaled, montgomery_product(c, b[j - s], q), q.p);
  }
}

// The two steps of a division with m = n + 1 in one pass over a: with c1 = a[n + 1] and c0 = lc a[n]
// - c1 b[n - 1] (a[n] after the first step), a[j] = lc^2 a[j] - lc c1 b[j - 1] - c0 b[j] for j < n.
template <class Team>
CAS_HOST_DEVICE void pseudo_division_by_two_steps(Team& team, Word* a, const Word* b, std::size_t n, Word lc,
                                                  const MontgomeryPrime& q) {
  const Word c1 = a[n + 1];
  const Word c0 = sub_mod(montgomery_product(lc, a[n], q), montgomery_product(c1, b[n - 1], q), q.p);
  const Word lc2 = montgomery_product(lc, lc, q), lc_c1 = montgomery_product(lc, c1, q);
  for (std::size_t j = team.rank(); j < n; j += team.size()) {
    Word t = sub_mod(montgomery_product(lc2, a[j], q), montgomery_product(c0, b[j], q), q.p);
    if (j > 0) t = sub_mod(t, montgomery_product(lc_c1, b[j - 1], q), q.p);
    a[j] = t;
  }
}

// res(a, b) mod p for a of degree m (a[m] != 0) and b of degree n (b[n] != 0), both nonzero,
// coefficients in Montgomery form, p prime; a and b are destroyed. Each division leaves the
// pseudo-remainder r' = lc(b)^e r (e = m - n + 1, r = a mod b of degree k; r = 0: the resultant is
// 0), and
//   res(a, b) = (-1)^(m n) lc(b)^(m - k) res(b, r) = (-1)^(m n) lc(b)^(m - k - e n) res(b, r'),
//   res(a, b0) = b0^m for a constant b0.
// No step waits on an inverse or a power: rank 0 writes each division's lc(b) and exponent to
// `log` (resultant_log_words(m, n) words the whole team can read after a sync), and the factors are
// raised and multiplied at the end, side by side. A division takes one barrier a step, or one for
// both steps of the usual m = n + 1. Every rank returns the plain resultant.
template <class Team>
CAS_HOST_DEVICE Word euclidean_resultant(Team& team, Word* a, std::size_t m, Word* b, std::size_t n,
                                         const MontgomeryPrime& q, Word* log) {
  bool negate = false;
  if (m < n) {
    Word* t = a;
    a = b;
    b = t;
    const std::size_t d = m;
    m = n;
    n = d;
    negate = (m & n & 1) != 0;
  }
  std::size_t factors = 0;
  while (n > 0) {
    const Word lc = b[n];
    if (m == n + 1) {
      pseudo_division_by_two_steps(team, a, b, n, lc, q);
      team.sync();
    } else {
      for (std::size_t d = m + 1; d-- > n;) {
        pseudo_division_step(team, a, b, d, n, lc, q);
        team.sync();
      }
    }
    std::size_t k = n;  // the remainder's length
    while (k > 0 && a[k - 1] == 0) k--;
    if (k == 0) return 0;
    if (team.rank() == 0) {
      log[2 * factors] = lc;
      log[2 * factors + 1] = factor_exponent(m, k - 1, m - n + 1, n, q.p);
    }
    factors++;
    if (m & n & 1) negate = !negate;
    Word* t = a;
    a = b;
    b = t;
    m = n;
    n = k - 1;
  }
  if (team.rank() == 0) {
    log[2 * factors] = b[0];
    log[2 * factors + 1] = m;
  }
  factors++;
  team.sync();
  Word product = q.one;
  for (std::size_t i = team.rank(); i < factors; i += team.size())
    product = montgomery_product(product, montgomery_power(log[2 * i], log[2 * i + 1], q), q);
  const Word result = from_montgomery(team.product(product, q), q);
  return negate && result != 0 ? q.p - result : result;
}

}  // namespace cas::crt
