// Resultants modulo many primes in one launch, one thread block a prime holding both residue
// rows in shared memory and running gpu/euclid_words.hpp's Euclidean resultant on them
// (resultant_blocks.cu). crt.cu reduces the operands to those rows and hands the resultants back
// for the CRT.
#pragma once

#include "gpu/detail.cuh"

#include <cstdint>
#include <vector>

namespace cas::gpu::detail {

// The longest operand the blocks take: both rows of that length fit a block's shared memory.
std::size_t longest_resultant_row();
// out[j] = res(a_j, b_j) mod primes[j], where a_j = a[j na, j na + na) and b_j likewise are
// device rows of words in [0, primes[j]) with nonzero last words (the leading coefficients);
// na, nb at least 1 and at most longest_resultant_row(); every prime odd, below 2^63. out is a
// device array of primes.size() words.
void resultants_of_rows(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb,
                        const std::vector<std::uint64_t>& primes, std::uint64_t* out);

}  // namespace cas::gpu::detail
