// Every prime's resultant in one launch (resultant_blocks.cuh): block j copies the residue rows
// of prime j into shared memory, in Montgomery form, and runs the Euclidean algorithm there
// (gpu/euclid_words.hpp), its threads sharing each division step; the factors each division
// contributes go to a log in global memory and are multiplied at the end. A multi-modular resultant in
// Z[x] of two polynomials of 2048 terms with 64-bit coefficients needs about 4700 primes, each
// an O(n^2) Euclidean resultant of 2048 words: thousands of independent small problems, the
// shape a GPU runs well, where the quasi-linear half-gcd would be launch after launch of tiny
// products.
#include "gpu/resultant_blocks.cuh"
#include "gpu/euclid_words.hpp"

#include <algorithm>
#include <mutex>

namespace cas::gpu::detail {

namespace {

// The block as euclid_words.hpp's team; `slots` holds a word a warp for product().
struct BlockTeam {
    std::uint64_t* slots;

    __device__ unsigned rank() const { return threadIdx.x; }
    __device__ unsigned size() const { return blockDim.x; }
    __device__ void sync() { __syncthreads(); }
    __device__ std::uint64_t product(std::uint64_t x, const crt::MontgomeryPrime& q)
    {
        for (int offset = 16; offset > 0; offset /= 2)
            x = crt::montgomery_product(x, __shfl_down_sync(0xffffffffu, x, offset), q);
        if (threadIdx.x % 32 == 0) slots[threadIdx.x / 32] = x;
        __syncthreads();
        std::uint64_t all = q.one;
        for (unsigned w = 0; w < blockDim.x / 32; w++) all = crt::montgomery_product(all, slots[w], q);
        return all;
    }
};

// Shared memory: row a (capacity words), row b (capacity words), a word a warp for the product of
// the factors. log: resultant_log_words(capacity, capacity) words a block.
__global__ void block_resultants(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb,
                                 const crt::MontgomeryPrime* primes, std::size_t capacity, std::uint64_t* log,
                                 std::uint64_t* out)
{
    extern __shared__ std::uint64_t rows[];
    const crt::MontgomeryPrime q = primes[blockIdx.x];
    std::uint64_t* x = rows;
    std::uint64_t* y = rows + capacity;
    const std::uint64_t* a_row = a + blockIdx.x * na;
    const std::uint64_t* b_row = b + blockIdx.x * nb;
    for (std::size_t i = threadIdx.x; i < na; i += blockDim.x) x[i] = crt::to_montgomery(a_row[i], q);
    for (std::size_t i = threadIdx.x; i < nb; i += blockDim.x) y[i] = crt::to_montgomery(b_row[i], q);
    __syncthreads();
    BlockTeam team{rows + 2 * capacity};
    std::uint64_t* block_log = log + blockIdx.x * crt::resultant_log_words(capacity, capacity);
    const std::uint64_t r = crt::euclidean_resultant(team, x, na - 1, y, nb - 1, q, block_log);
    if (threadIdx.x == 0) out[blockIdx.x] = r;
}

constexpr std::size_t most_warps = 32;

std::size_t shared_bytes(std::size_t capacity) { return (2 * capacity + most_warps) * sizeof(std::uint64_t); }

// A division step updates one word a thread per 8 words of the divisor: enough work a step to
// cover its barrier, and at most 256 threads so that several blocks share an SM. Whole warps (the
// product's shuffles).
unsigned threads_for(std::size_t capacity)
{
    return unsigned(std::clamp<std::size_t>((capacity / 8 + 31) / 32 * 32, 32, 256));
}

void allow_shared_memory()
{
    static PerDevice<std::once_flag> once;
    std::call_once(once.here(), [] {
        check(cudaFuncSetAttribute(block_resultants, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   int(shared_memory_optin())),
              "cudaFuncSetAttribute (block_resultants)");
        // all of the SM's memory as shared memory: blocks of two 2048-word rows then share an SM
        // five at a time (their registers' limit) instead of four
        check(cudaFuncSetAttribute(block_resultants, cudaFuncAttributePreferredSharedMemoryCarveout,
                                   cudaSharedmemCarveoutMaxShared),
              "cudaFuncSetAttribute (block_resultants carveout)");
    });
}

DeviceWords upload_montgomery_primes(const std::vector<std::uint64_t>& primes)
{
    std::vector<crt::MontgomeryPrime> host;
    host.reserve(primes.size());
    for (std::uint64_t p : primes) host.push_back(crt::montgomery_prime(p));
    return upload_table(reinterpret_cast<const std::uint64_t*>(host.data()),
                        host.size() * sizeof(crt::MontgomeryPrime) / sizeof(std::uint64_t));
}

}  // namespace

std::size_t longest_resultant_row()
{
    return (shared_memory_optin() / sizeof(std::uint64_t) - most_warps) / 2;  // two rows and the warps' words
}

void resultants_of_rows(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb,
                        const std::vector<std::uint64_t>& primes, std::uint64_t* out)
{
    if (primes.empty()) return;
    const std::size_t capacity = std::max(na, nb);
    if (na == 0 || nb == 0 || capacity > longest_resultant_row())
        throw Error("resultants_of_rows: rows of " + std::to_string(na) + " and " + std::to_string(nb) +
                    " words (at most " + std::to_string(longest_resultant_row()) + ")");
    allow_shared_memory();
    const DeviceWords constants = upload_montgomery_primes(primes);
    const Scratch<std::uint64_t> log(primes.size() * crt::resultant_log_words(capacity, capacity));
    block_resultants<<<unsigned(primes.size()), threads_for(capacity), shared_bytes(capacity), stream()>>>(
        a, na, b, nb, reinterpret_cast<const crt::MontgomeryPrime*>(constants.data()), capacity, log.get(), out);
    check_launch("block_resultants");
}

}  // namespace cas::gpu::detail
