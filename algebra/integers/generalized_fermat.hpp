#pragma once
// Generalized Fermat numbers p = r^k + 1 (k a power of two, r a machine word): the primes of
// the seed's big prime field FFT ("Computing modulo generalized Fermat numbers"), where r is a
// primitive 2k-th root of unity (r^k = -1) and multiplying by a power of r is a digit shift in
// base r with the digits that pass the top coming back negated.
#include "algebra/support/flint_util.hpp"

#include <optional>

namespace cas {

// p = r^k + 1.
struct GeneralizedFermat {
  ulong r;  // 2 <= r < 2^64
  ulong k;  // a power of two, >= 2
};

// The form r^k + 1 of p with k a power of two >= 2 and 2 <= r < 2^64, choosing the largest such k
// (65537 = 2^16 + 1, not 16^4 + 1; P3 = (2^63 + 2^34)^8 + 1 stays at k = 8, since r^2 no longer
// fits a word); none when p has no such form. p need not be prime: the caller checks primality.
// The bit size of p - 1 bounds k on both sides (2 <= r < 2^64), so a multi-word p takes a few
// exact k-th roots at most.
std::optional<GeneralizedFermat> generalized_fermat_form(const Fmpz& p);

// Whether w^k + 1 = p as integers for some k >= 2 (w taken as the integer 0 < w < p): then w is
// the base r of p = r^k + 1 and multiplying by w^j is a shift of j digits in base w. Sets k.
bool is_shift_root(const Fmpz& p, const Fmpz& w, ulong& k);

}  // namespace cas
