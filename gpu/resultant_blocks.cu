// Every prime's resultant in one launch (resultant_blocks.cuh): block j copies the residue rows
// of prime j into shared memory, in Montgomery form, and runs the Euclidean algorithm there
// (gpu/euclid_words.hpp), its threads sharing each division step. A multi-modular resultant in
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

struct BlockTeam {
    __device__ unsigned rank() const { return threadIdx.x; }
    __device__ unsigned size() const { return blockDim.x; }
    __device__ void sync() { __syncthreads(); }
};

// Shared memory: row a (capacity words), row b (capacity words), the slot for lc(b)^-1.
__global__ void block_resultants(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb,
                                 const crt::MontgomeryPrime* primes, std::size_t capacity, std::uint64_t* out)
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
    BlockTeam team;
    const std::uint64_t r = crt::euclidean_resultant(team, x, na - 1, y, nb - 1, q, rows + 2 * capacity);
    if (threadIdx.x == 0) out[blockIdx.x] = r;
}

std::size_t shared_bytes(std::size_t capacity) { return (2 * capacity + 1) * sizeof(std::uint64_t); }

// A division step updates one word a thread per 8 words of the divisor: enough work a step to
// cover its barrier, and at most 256 threads so that several blocks share an SM.
unsigned threads_for(std::size_t capacity)
{
    return unsigned(std::clamp<std::size_t>((capacity / 8 + 31) / 32 * 32, 32, 256));
}

void allow_shared_memory()
{
    static std::once_flag once;
    std::call_once(once, [] {
        check(cudaFuncSetAttribute(block_resultants, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   int(shared_memory_optin())),
              "cudaFuncSetAttribute (block_resultants)");
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
    return (shared_memory_optin() / sizeof(std::uint64_t) - 1) / 2;  // two rows and the slot
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
    block_resultants<<<unsigned(primes.size()), threads_for(capacity), shared_bytes(capacity), stream()>>>(
        a, na, b, nb, reinterpret_cast<const crt::MontgomeryPrime*>(constants.data()), capacity, out);
    check_launch("block_resultants");
}

}  // namespace cas::gpu::detail
