// The resultant of two polynomials modulo a word-size prime by the Euclidean algorithm, written
// once for the host and the GPU: a GPU thread block runs it for one prime of a multi-modular
// resultant in Z[x] (gpu/resultant_blocks.cu), the whole block sharing each division step; the
// host runs the same code with a team of one (algebra/multimodular/zresultant.cpp, its tests
// against FLINT on every CI run).
//
// Values live in Montgomery form (x 2^64 mod p) so that a product is one REDC: the step
// a_(d-n+i) -= c b_i of a division then costs one Montgomery product a word.
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

// x^-1 = x^(p - 2) (Fermat; p prime, x nonzero), in Montgomery form.
CAS_HOST_DEVICE inline Word montgomery_inverse(Word x, const MontgomeryPrime& q) {
  return montgomery_power(x, q.p - 2, q);
}

// The threads that share a resultant: a team of one on the host (SerialTeam), a thread block on
// the GPU. A team has rank() in [0, size()) and sync(), a barrier for the whole team.
struct SerialTeam {
  unsigned rank() const { return 0; }
  unsigned size() const { return 1; }
  void sync() {}
};

// res(a, b) mod p for a of degree m (a[m] != 0) and b of degree n (b[n] != 0), both nonzero,
// coefficients in Montgomery form, p prime; a and b are destroyed. Each step takes the
// remainder r = a mod b of degree k (r = 0: the resultant is 0) and uses
//   res(a, b) = (-1)^(m n) lc(b)^(m - k) res(b, r),  res(a, b0) = b0^m for a constant b0,
// one barrier a quotient coefficient; rank 0 inverts lc(b) once a division and hands it over in
// *slot, a word every rank can read. Every rank returns the plain resultant.
template <class Team>
CAS_HOST_DEVICE Word euclidean_resultant(Team& team, Word* a, std::size_t m, Word* b, std::size_t n,
                                         const MontgomeryPrime& q, Word* slot) {
  Word result = q.one;
  if (m < n) {
    Word* t = a;
    a = b;
    b = t;
    const std::size_t d = m;
    m = n;
    n = d;
    if (m & n & 1) result = q.p - result;
  }
  while (n > 0) {
    if (team.rank() == 0) *slot = montgomery_inverse(b[n], q);
    team.sync();
    const Word inverse = *slot;
    for (std::size_t d = m + 1; d-- > n;) {
      const Word c = montgomery_product(a[d], inverse, q);
      for (std::size_t i = team.rank(); i < n; i += team.size())
        a[d - n + i] = sub_mod(a[d - n + i], montgomery_product(c, b[i], q), q.p);
      team.sync();
    }
    std::size_t k = n;  // the remainder's length
    while (k > 0 && a[k - 1] == 0) k--;
    if (k == 0) return 0;
    result = montgomery_product(result, montgomery_power(b[n], m - (k - 1), q), q);
    if (m & n & 1) result = q.p - result;
    Word* t = a;
    a = b;
    b = t;
    m = n;
    n = k - 1;
  }
  result = montgomery_product(result, montgomery_power(b[0], m, q), q);
  return from_montgomery(result, q);
}

}  // namespace cas::crt
