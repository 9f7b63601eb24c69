#pragma once
// The CPU's number-theoretic transform of machine words modulo a word-size p (the GPU's is in
// gpu/): in place, natural order in and out, a[i] <- sum_j a[j] w^(ij) mod p for n a power of two
// and w of order n. FLINT 2.9 has no such transform for nmod vectors, so it is written here:
// radix-2 Cooley-Tukey after a bit reversal, with Shoup products and, for p < 2^62, Harvey's lazy
// butterflies (values in [0, 4p) until the end); sub-transforms that fit the cache run one after
// the other, and large transforms spread over the cores.
#include <flint/nmod_vec.h>

#include <cstddef>

namespace cas {

// Entries of `a` must be below p.
void ntt_words_cpu(ulong* a, std::size_t n, ulong w, const nmod_t& mod);

}  // namespace cas
