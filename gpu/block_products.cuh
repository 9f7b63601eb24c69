// Multi-modular products and powers of short operands, every prime in one launch, one thread
// block a prime holding its whole transform in shared memory (block_products.cu). crt.cu takes
// them where the transforms of ntt_fast.cu would be launch after launch of tiny grids.
#pragma once

#include "gpu/detail.cuh"

#include <cstdint>
#include <vector>

namespace cas::gpu::detail {

// The longest transform (a power of two) the blocks take: what a block's shared memory holds
// (12 bytes a word: the words and half as many twiddles), lowered by set_block_products_limit.
std::size_t block_transform_limit();
// Whether rows whose product (or power) has `length` coefficients go through the blocks for
// these primes: the power of two n >= length within the limit, every prime odd, below 2^63, and
// n | p - 1 (so that p, a prime, has a primitive n-th root of unity).
bool block_products_take(std::size_t length, const std::vector<std::uint64_t>& primes);
// out[j length + i] = (a_j b_j)_i mod primes[j], where a_j = a[j na, j na + na) and b_j likewise
// are device rows of words in [0, primes[j]), length = na + nb - 1; block_products_take(length,
// primes) must hold.
void multiply_rows_in_blocks(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb,
                             const std::vector<std::uint64_t>& primes, std::uint64_t* out);
// Whether rows too long for block_products_take go through the blocks in pieces
// (multiply_rows_in_pieces) for these primes: by rule with many primes and few pieces, or up to
// set_piece_products_limit's length.
bool piece_products_take(std::size_t na, std::size_t nb, const std::vector<std::uint64_t>& primes);
// The same product as multiply_rows_in_blocks in pieces of h = n/2 coefficients, n the block's
// transform length: every piece's spectrum in one launch (block (piece, prime)), every c_t = sum
// a_i b_(t-i) in one more (its spectrum summed, then its inverse), and one launch to add the
// halves where c_t and c_(t+1) overlap. piece_products_take(na, nb, primes) must hold.
void multiply_rows_in_pieces(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb,
                             const std::vector<std::uint64_t>& primes, std::uint64_t* out);
// out[j length + i] = (f_j^e)_i mod primes[j] for the rows f_j = f[j nf, j nf + nf), length =
// e (nf - 1) + 1, e >= 1; block_products_take(length, primes) must hold.
void power_rows_in_blocks(const std::uint64_t* f, std::size_t nf, std::uint64_t e,
                          const std::vector<std::uint64_t>& primes, std::uint64_t* out);

}  // namespace cas::gpu::detail
