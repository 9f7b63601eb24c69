// Multi-modular products on the GPU: Z[x] (coefficients as limb matrices) and huge integers
// (magnitudes as limbs), through word-size NTT primes, reduced and reconstructed on the device.
// Every step is a grid-stride loop around a body of gpu/crt_words.hpp, the code the CPU's unit
// tests run against FLINT (ProductEngine::HostKernels); the products are multiply_mod's.
//
// Like ntt.hpp, nothing here names a CUDA, FLINT or GMP type; without CUDA or a device every
// function throws Unavailable.
#pragma once

#include "gpu/crt_words.hpp"
#include "gpu/limb_blocks.hpp"
#include "gpu/ntt.hpp"

#include <cstdint>
#include <vector>

namespace cas::gpu {

// a * b in Z[x] modulo M = the primes' product, in symmetric representation (exact when
// M > 2 max |c_k|): both operands pulled block by block into device limb matrices, reduced modulo
// every prime on the GPU, one product per prime, Garner's digits and the limbs of every
// coefficient on the GPU; the a.count + b.count - 1 coefficients (of width
// crt::GarnerTables(primes).width()) handed to `result` block by block. Primes pairwise coprime,
// each below 2^63; a.count and b.count at least 1. Throws OutOfMemory when the residues do not fit.
void multiply_limb_sources(const LimbSource& a, const LimbSource& b, const std::vector<std::uint64_t>& primes,
                           const LimbSink& result);

// The cyclic convolution of length n of a and b (their product modulo x^n - 1), or with negacyclic
// the negacyclic one (modulo x^n + 1), modulo M in symmetric representation, as
// multiply_limb_sources: each prime's product folded on the device before Garner, so that n
// coefficients, not a.count + b.count - 1, are rebuilt and handed to `result`. a.count, b.count
// at least 1 and at most n.
void convolve_limb_sources(const LimbSource& a, const LimbSource& b, std::size_t n, bool negacyclic,
                           const std::vector<std::uint64_t>& primes, const LimbSink& result);

// f^e in Z[x] modulo M, in symmetric representation, as multiply_limb_sources: f reduced modulo
// every prime, each prime's power in one transform (every prime must satisfy
// power_in_one_transform(f.count, e, p)), Garner on the GPU; e (f.count - 1) + 1 coefficients
// handed to `result`. e >= 1.
void power_limb_source(const LimbSource& f, std::uint64_t e, const std::vector<std::uint64_t>& primes,
                       const LimbSink& result);

// |a| |b| for magnitudes given as limbs, as polynomials in t = 2^chunk_bits (chunks_a and
// chunks_b chunks of chunk_bits <= 128 bits): the product's coefficients c_i, which must be below
// 2^(3 chunk_bits) and below M / 2, come back evaluated at t word by word: `words` sums followed by
// crt::summed_groups(words) words of 2-bit carries (crt::summed_words_entry), written to `summed`;
// the host adds the carries (finish_summed_words in algebra/multimodular/multimodular.hpp). The
// caller owns `summed`, so that it can hand over memory it has touched before (a reused block:
// fresh memory costs a page fault a page on its first touch).
void multiply_magnitudes_summed(const std::uint64_t* a, std::size_t limbs_a, std::size_t chunks_a,
                                const std::uint64_t* b, std::size_t limbs_b, std::size_t chunks_b, unsigned chunk_bits,
                                const std::vector<std::uint64_t>& primes, std::size_t words, std::uint64_t* summed);

// The longest operand (in coefficients) resultants_of_limb_sources takes on this device: both
// residue rows of a prime in one block's shared memory (13,000 words and more on the H100).
std::size_t longest_resultant_operand();
// res(a, b) mod primes[j] for every j: a and b, of count <= longest_resultant_operand()
// coefficients with nonzero leading ones, reduced modulo every prime on the GPU, then one
// Euclidean resultant a prime (gpu/euclid_words.hpp), every prime of a group in one launch. Each
// prime odd, below 2^63, and dividing neither leading coefficient (the degrees must survive the
// reduction); any count of primes.
std::vector<std::uint64_t> resultants_of_limb_sources(const LimbSource& a, const LimbSource& b,
                                                      const std::vector<std::uint64_t>& primes);

// Products and powers whose transform length n (the power of two >= the result's length) is at
// most this limit run every prime in one launch, one thread block a prime holding its transform in
// shared memory (gpu/block_products.cu); longer ones one prime after the other through the fast
// transforms. By default (SIZE_MAX) a measured rule decides, up to the longest transform a block
// holds (2^14 words on the H100); 0 sends everything through the fast transforms, any other value
// every transform up to it (and up to what a block holds) through the blocks. For A/B
// measurements and tests; returns the previous setting.
std::size_t set_block_products_limit(std::size_t n);
// Products longer than the blocks' transforms, with many primes, in pieces through the blocks
// (gpu/block_products.cu: every prime's pieces' spectra in one launch, their products summed and
// transformed back in one more): by default (SIZE_MAX) a measured rule decides; 0 never takes
// the pieces, any other value takes them for every product of at most that many coefficients the
// blocks do not take whole (none when the blocks are off). For A/B measurements and tests;
// returns the previous setting.
std::size_t set_piece_products_limit(std::size_t length);
// Garner's reconstruction one warp a coefficient (gpu/garner_warps.cu) or one thread a
// coefficient: by default (SIZE_MAX) a measured rule decides; 0 never takes the warps, any other
// value takes them for every reconstruction of at most that many coefficients. For A/B
// measurements and tests; returns the previous setting.
std::size_t set_warp_garner_limit(std::size_t count);

// ---------------------------------------------------------------- several GPUs
// With several devices (device_count() > 1) and NCCL, a multi-modular product, convolution or
// power whose residue products hold at least set_split_threshold() words is shared among them:
// the primes divided in proportion to the devices' speeds, each device reducing a range of the
// operands' coefficients modulo every prime, the residues exchanged so that each device has whole
// rows for its primes, its products, and a second exchange so that each device reconstructs (and
// hands to the sink) a range of the result's coefficients (gpu/split_plan.hpp). Resultants give
// each device a share of the primes. The sink may then be called from several threads, one call
// at a time, each device's blocks in order of first. Under mpirun the ranks' GPUs share the same
// operations the same way (gpu/ranks.hpp).
//
// The threshold in residue words (CAS_GPU_SPLIT_WORDS sets it at startup); returns the previous
// one. 0 splits every operation with at least two primes (for tests).
std::size_t set_split_threshold(std::size_t words);
// A product modulo one prime (gpu::multiply_mod from host arrays) is shared between two devices
// when one lacks the memory for it, and from this transform length (by default SIZE_MAX: never
// otherwise); so is one host-to-host transform (forward_into, inverse_into), by the four-step
// decomposition over every device that exchanges data (one device alone when none does). Returns
// the previous setting. For tests and benchmarks.
std::size_t set_prime_split_threshold(std::size_t length);
// How the calling thread's last product on the GPU was shared: its primes on each device used
// (one entry when it ran on one device). A product modulo one prime (gpu::multiply_mod) shared
// between two devices, one computing it modulo x^M - 1 and the other modulo x^M + 1
// (gpu/polymul_split.cu), records {1, 1}.
struct SplitRecord {
    std::vector<std::size_t> primes_per_device;
    int devices() const { return int(primes_per_device.size()); }
};
SplitRecord last_split();

}  // namespace cas::gpu
