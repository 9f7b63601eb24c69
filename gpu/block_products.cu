// Every prime's product (or power) of short residue rows in one launch, one thread block a prime
// (block_products.cuh).
//
// Why: a product in Z[x] of 2^10 terms with 1000-bit coefficients needs 33 primes, and each
// prime's product through the fast transform is a handful of launches over 2^11 words, which
// keep a few SMs busy for a few microseconds each: the GPU waits on launches, not on work
// (twenty-fifth session: 3.5-6 ms for 2^10-2^12 terms in cas; queueing the primes on eight
// streams did not help). Here block j holds prime j's whole transform in shared memory: the n
// words and the n/2 twiddles (12 n bytes: n <= 2^14 in the H100's 227 KiB), built by the block
// itself. The transforms are the textbook ones: decimation in frequency forward (natural order
// in, bit-reversed out), the pointwise step in that order, decimation in time back (bit-reversed
// in, natural out), so no permutation is ever made. Products are Montgomery's (no companion
// tables to build); the twiddles are kept in Montgomery form, w^i 2^64 mod p, so that one
// reduction multiplies by w^i. The inverse needs no table of its own: w^-i = -w^(n/2 - i).
#include "gpu/block_products.cuh"
#include "gpu/power_of_two.hpp"
#include "gpu/recent_tables.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>

namespace cas::gpu {
namespace detail {

namespace {

// A prime's constants for the block, Montgomery form with R = 2^64: one = R mod p, root = w R mod p
// for the primitive n-th root w, r2 = R^2 mod p (mont_mul(x, r2) = x R), scale = n^-1 R mod p
// (mont_mul(x, scale) = x / n).
struct BlockPrime {
    std::uint64_t p, p_inv, one, root, r2, scale;
};
constexpr std::size_t block_prime_words = sizeof(BlockPrime) / sizeof(std::uint64_t);

__device__ inline std::uint64_t mont(std::uint64_t a, std::uint64_t b, const BlockPrime& q)
{
    return mont_mul(a, b, q.p, q.p_inv);
}

// x^e R for x_mont = x R: square and multiply in Montgomery form.
__device__ std::uint64_t montgomery_power(std::uint64_t x_mont, std::uint64_t e, const BlockPrime& q)
{
    std::uint64_t result = q.one;
    for (; e != 0; e >>= 1) {
        if (e & 1) result = mont(result, x_mont, q);
        x_mont = mont(x_mont, x_mont, q);
    }
    return result;
}

// tw[i] = w^i R mod p for i < half: each thread one power by squaring, then steps of w^blockDim.
__device__ void build_twiddles(std::uint64_t* tw, unsigned half, const BlockPrime& q)
{
    std::uint64_t power = montgomery_power(q.root, threadIdx.x, q);
    const std::uint64_t step = montgomery_power(q.root, blockDim.x, q);
    for (unsigned i = threadIdx.x; i < half; i += blockDim.x) {
        tw[i] = power;
        power = mont(power, step, q);
    }
}

// s[0, n) = row[0, count) and zeros after it.
__device__ void load_row(std::uint64_t* s, unsigned n, const std::uint64_t* row, std::size_t count)
{
    for (unsigned i = threadIdx.x; i < n; i += blockDim.x) s[i] = i < count ? row[i] : 0;
    __syncthreads();
}

// The butterfly b < n/2 of the stage whose pairs lie len apart: its upper index, and i = its
// place in the group (the twiddle's exponent in units of the stage's stride). Indices are 32-bit
// words throughout (n <= 2^14): 64-bit index arithmetic takes two instructions a step on the GPU.
__device__ inline unsigned upper_index(unsigned b, unsigned len, unsigned& i)
{
    i = b & (len - 1);
    return ((b - i) << 1) + i;
}

// Decimation in frequency: natural order in, bit-reversed order out.
__device__ void forward_dif(std::uint64_t* s, unsigned n, const std::uint64_t* tw, const BlockPrime& q)
{
    const unsigned half = n / 2;
    for (unsigned len = half, stride = 1; len >= 1; len >>= 1, stride <<= 1) {
        for (unsigned b = threadIdx.x; b < half; b += blockDim.x) {
            unsigned i;
            const unsigned u = upper_index(b, len, i);
            const std::uint64_t x = s[u], y = s[u + len], d = sub_mod(x, y, q.p);
            s[u] = add_mod(x, y, q.p);
            s[u + len] = i == 0 ? d : mont(d, tw[i * stride], q);
        }
        __syncthreads();
    }
}

// Decimation in time with w^-1: bit-reversed order in, n times the inverse transform out in
// natural order. w^(-i stride) = -w^((len - i) stride), since w^(n/2) = -1 and len stride = n/2:
// the product by it is subtracted where w^i's would be added.
__device__ void inverse_dit(std::uint64_t* s, unsigned n, const std::uint64_t* tw, const BlockPrime& q)
{
    const unsigned half = n / 2;
    for (unsigned len = 1, stride = half; len <= half; len <<= 1, stride >>= 1) {
        for (unsigned b = threadIdx.x; b < half; b += blockDim.x) {
            unsigned i;
            const unsigned u = upper_index(b, len, i);
            const std::uint64_t x = s[u], y = s[u + len];
            if (i == 0) {
                s[u] = add_mod(x, y, q.p);
                s[u + len] = sub_mod(x, y, q.p);
            } else {
                const std::uint64_t t = mont(y, tw[(len - i) * stride], q);
                s[u] = sub_mod(x, t, q.p);
                s[u + len] = add_mod(x, t, q.p);
            }
        }
        __syncthreads();
    }
}

// out[0, count) = the inverse transform of s divided by n (s holds a spectrum in bit-reversed order).
__device__ void inverse_to_row(std::uint64_t* s, unsigned n, const std::uint64_t* tw, const BlockPrime& q,
                               std::uint64_t* out, unsigned count)
{
    inverse_dit(s, n, tw, q);
    for (unsigned i = threadIdx.x; i < count; i += blockDim.x) out[i] = mont(s[i], q.scale, q);
}

// Block j: out row j (length words) = a row j (na words) times b row j (nb words) mod primes[j];
// b's spectrum waits in spectra row j (n words) while a is transformed. Shared memory: n words,
// then n/2 twiddles.
__global__ void __launch_bounds__(1024) block_products(const std::uint64_t* a, std::size_t na, const std::uint64_t* b,
                                                       std::size_t nb, const BlockPrime* primes, unsigned n,
                                                       std::uint64_t* spectra, std::uint64_t* out, std::size_t length)
{
    extern __shared__ std::uint64_t shared[];
    const std::size_t j = blockIdx.x;
    const BlockPrime q = primes[j];
    std::uint64_t *s = shared, *tw = shared + n, *spectrum = spectra + j * n;
    build_twiddles(tw, n / 2, q);
    load_row(s, n, b + j * nb, nb);  // its barrier also orders the twiddles before their use
    forward_dif(s, n, tw, q);
    for (unsigned i = threadIdx.x; i < n; i += blockDim.x) spectrum[i] = s[i];
    __syncthreads();
    load_row(s, n, a + j * na, na);
    forward_dif(s, n, tw, q);
    // each thread reads back the spectrum words it wrote: no fence needed
    for (unsigned i = threadIdx.x; i < n; i += blockDim.x) s[i] = mont(mont(s[i], spectrum[i], q), q.r2, q);
    __syncthreads();
    inverse_to_row(s, n, tw, q, out + j * length, length);
}

// Block j: out row j (length words) = f row j (nf words) to the e-th power mod primes[j].
__global__ void __launch_bounds__(1024) block_powers(const std::uint64_t* f, std::size_t nf, std::uint64_t e,
                                                     const BlockPrime* primes, unsigned n, std::uint64_t* out,
                                                     std::size_t length)
{
    extern __shared__ std::uint64_t shared[];
    const std::size_t j = blockIdx.x;
    const BlockPrime q = primes[j];
    std::uint64_t *s = shared, *tw = shared + n;
    build_twiddles(tw, n / 2, q);
    load_row(s, n, f + j * nf, nf);
    forward_dif(s, n, tw, q);
    // x R (by r2), its power x^e R in Montgomery form, then x^e out of it
    for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
        s[i] = mont(montgomery_power(mont(s[i], q.r2, q), e, q), 1, q);
    __syncthreads();
    inverse_to_row(s, n, tw, q, out + j * length, length);
}

std::size_t shared_bytes(std::size_t n) { return (n + n / 2) * sizeof(std::uint64_t); }

unsigned threads_for(std::size_t n) { return unsigned(std::clamp<std::size_t>(n / 2, 32, 1024)); }

// The most shared memory a block may ask for on this device.
std::size_t shared_memory_optin()
{
    static const std::size_t bytes = [] {
        int device = 0, value = 0;
        check(cudaGetDevice(&device), "cudaGetDevice");
        check(cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
              "cudaDeviceGetAttribute (shared memory)");
        return std::size_t(value);
    }();
    return bytes;
}

// The longest transform a block holds.
std::size_t longest_block_transform()
{
    std::size_t n = 1;
    while (shared_bytes(2 * n) <= shared_memory_optin()) n *= 2;
    return n;
}

constexpr std::size_t unset = ~std::size_t(0);
std::atomic<std::size_t> limit_asked{unset};

// With few primes the blocks occupy few SMs, and a long transform in one block takes longer than
// the passes spread over the GPU: with 3 primes (H100, c153) the blocks won up to n = 2^13
// (1.04-2.05x end to end, 2^8..2^13 terms of 64 bits) and lost at 2^14 (0.92x; integers of 2^19
// bits 0.79x); with 33 primes they won at 2^14 too (1.17x).
constexpr std::size_t few_primes = 8;
constexpr std::size_t longest_for_few_primes = std::size_t(1) << 13;

// Both kernels may use all the shared memory a block can have (asked once).
void allow_shared_memory()
{
    static std::once_flag once;
    std::call_once(once, [] {
        const int bytes = int(shared_memory_optin());
        check(cudaFuncSetAttribute(block_products, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
              "cudaFuncSetAttribute (block_products)");
        check(cudaFuncSetAttribute(block_powers, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
              "cudaFuncSetAttribute (block_powers)");
    });
}

// The primes' constants, in stream order.
DeviceWords upload_block_primes(const std::vector<std::uint64_t>& primes, std::size_t n)
{
    std::vector<std::uint64_t> words;
    words.reserve(primes.size() * block_prime_words);
    for (std::uint64_t p : primes) {
        const Modulus<std::uint64_t> m = make_modulus<std::uint64_t>(p);
        const std::uint64_t radix = (std::uint64_t(0) - p) % p;  // 2^64 mod p
        const std::uint64_t inverse_n = p - (p - 1) / n;           // n | p - 1
        const BlockPrime q{p, m.p_inv, radix, gpu::mul_mod(gpu::root_of_unity(p, n), radix, p), m.r2,
                           gpu::mul_mod(inverse_n, radix, p)};
        const std::uint64_t* as_words = &q.p;
        words.insert(words.end(), as_words, as_words + block_prime_words);
    }
    return upload_table(words);
}

// The same, kept for the last eight (primes, n): a root of unity costs two exponentiations on the
// host, 0.3 ms for 130 primes.
std::shared_ptr<const DeviceWords> block_primes(const std::vector<std::uint64_t>& primes, std::size_t n)
{
    static auto* recent = new RecentTables<DeviceWords>(8);  // never destroyed: no frees after the runtime
    std::vector<std::uint64_t> key = primes;
    key.push_back(n);
    return recent->get(key, [&primes, n](const std::vector<std::uint64_t>&) { return upload_block_primes(primes, n); });
}

const BlockPrime* as_primes(const std::shared_ptr<const DeviceWords>& words)
{
    return reinterpret_cast<const BlockPrime*>(words->data());
}

}  // namespace

std::size_t block_transform_limit()
{
    const std::size_t asked = limit_asked.load(std::memory_order_relaxed);
    const std::size_t most = longest_block_transform();
    return asked == unset ? most : std::min(asked, most);
}

bool block_products_take(std::size_t length, const std::vector<std::uint64_t>& primes)
{
    const std::size_t n = next_power_of_two(length);
    if (primes.empty() || n > block_transform_limit()) return false;
    const bool by_rule = limit_asked.load(std::memory_order_relaxed) == unset;
    if (by_rule && primes.size() < few_primes && n > longest_for_few_primes) return false;
    return std::all_of(primes.begin(), primes.end(), [n](std::uint64_t p) {
        return p % 2 == 1 && p < (std::uint64_t(1) << 63) && (p - 1) % n == 0;
    });
}

void multiply_rows_in_blocks(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb,
                             const std::vector<std::uint64_t>& primes, std::uint64_t* out)
{
    const std::size_t length = na + nb - 1;
    const std::size_t n = next_power_of_two(length);
    allow_shared_memory();
    const auto constants = block_primes(primes, n);
    const Scratch<std::uint64_t> spectra(primes.size() * n);
    block_products<<<unsigned(primes.size()), threads_for(n), shared_bytes(n), stream()>>>(
        a, na, b, nb, as_primes(constants), unsigned(n), spectra.get(), out, length);
    check_launch("block_products");
}

void power_rows_in_blocks(const std::uint64_t* f, std::size_t nf, std::uint64_t e,
                          const std::vector<std::uint64_t>& primes, std::uint64_t* out)
{
    const std::size_t length = std::size_t(e) * (nf - 1) + 1;
    const std::size_t n = next_power_of_two(length);
    allow_shared_memory();
    const auto constants = block_primes(primes, n);
    block_powers<<<unsigned(primes.size()), threads_for(n), shared_bytes(n), stream()>>>(
        f, nf, e, as_primes(constants), unsigned(n), out, length);
    check_launch("block_powers");
}

}  // namespace detail

std::size_t set_block_products_limit(std::size_t n)
{
    return detail::limit_asked.exchange(n, std::memory_order_relaxed);
}

}  // namespace cas::gpu
