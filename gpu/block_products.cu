// Every prime's product (or power) of short residue rows in one launch, one thread block a prime
// (block_products.cuh).
//
// Why: a product in Z[x] of 2^10 terms with 1000-bit coefficients needs 33 primes, and each
// prime's product through the fast transform is a handful of launches over 2^11 words, which
// keep a few SMs busy for a few microseconds each: the GPU waits on launches, not on work
// (products of 2^10-2^12 terms with 1000-bit coefficients take 3.5-6 ms in cas that way, and
// queueing the primes on eight streams does not help; docs/measurements.md, "Short multi-modular
// products", "Designs measured and not built"). Here block j holds prime j's whole transform in
// shared memory: the n words and the n/2 twiddles (12 n bytes: n <= 2^14 in the H100's 227 KiB),
// built by the block itself. The transforms are the textbook ones: decimation in frequency forward
// (natural order in, bit-reversed out), the pointwise step in that order, decimation in time back
// (bit-reversed in, natural out), so no permutation is ever made. Products are Montgomery's (no
// companion tables to build); the twiddles are kept in Montgomery form, w^i 2^64 mod p, so that
// one reduction multiplies by w^i. The inverse needs no table of its own: w^-i = -w^(n/2 - i).
// Longer products with many primes go through the same blocks in pieces of half a transform:
// every piece's spectrum in one launch, and for each piece of the result the sum of its pieces'
// pointwise products transformed back in one more (multiply_rows_in_pieces).
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

// Products longer than a block's transform, in pieces (multiply_rows_in_pieces): a = sum_i a_i x^(i h)
// with pieces a_i of h = n/2 coefficients, b likewise, so c = sum_t c_t x^(t h) with c_t = sum_{i+l=t}
// a_i b_l, each of length n - 1: transforms of length n hold it. Spectra of piece (x, of a's pieces
// then b's) of prime y: row y (pieces_a + pieces_b) + x, n words each, in bit-reversed order.
__global__ void __launch_bounds__(1024) piece_spectra(const std::uint64_t* a, std::size_t na, unsigned pieces_a,
                                                      const std::uint64_t* b, std::size_t nb, unsigned pieces_b,
                                                      const BlockPrime* primes, unsigned n, std::uint64_t* spectra)
{
    extern __shared__ std::uint64_t shared[];
    const unsigned piece = blockIdx.x, h = n / 2;
    const std::size_t j = blockIdx.y;
    const BlockPrime q = primes[j];
    std::uint64_t *s = shared, *tw = shared + n;
    build_twiddles(tw, h, q);
    const bool of_a = piece < pieces_a;
    const std::size_t count = of_a ? na : nb, first = std::size_t(of_a ? piece : piece - pieces_a) * h;
    load_row(s, n, (of_a ? a + j * na : b + j * nb) + first, std::min<std::size_t>(h, count - first));
    forward_dif(s, n, tw, q);
    std::uint64_t* spectrum = spectra + (j * (pieces_a + pieces_b) + piece) * n;
    for (unsigned i = threadIdx.x; i < n; i += blockDim.x) spectrum[i] = s[i];
}

// Block (t, y): c_t of prime y, the inverse of sum_{i+l=t} A_i B_l, into row y (pieces_a + pieces_b
// - 1) + t of `pieces` (n words).
__global__ void __launch_bounds__(1024) piece_products(const std::uint64_t* spectra, unsigned pieces_a,
                                                       unsigned pieces_b, const BlockPrime* primes, unsigned n,
                                                       std::uint64_t* pieces)
{
    extern __shared__ std::uint64_t shared[];
    const unsigned t = blockIdx.x;
    const std::size_t j = blockIdx.y;
    const BlockPrime q = primes[j];
    std::uint64_t *s = shared, *tw = shared + n;
    build_twiddles(tw, n / 2, q);
    const std::uint64_t* of_a = spectra + j * (pieces_a + pieces_b) * n;
    const std::uint64_t* of_b = of_a + std::size_t(pieces_a) * n;
    const unsigned first = t >= pieces_b ? t - (pieces_b - 1) : 0, last = min(t, pieces_a - 1);
    for (unsigned w = threadIdx.x; w < n; w += blockDim.x) {
        std::uint64_t sum = 0;  // of products a b / R; times R^2 / R below
        for (unsigned i = first; i <= last; ++i)
            sum = add_mod(sum, mont(of_a[std::size_t(i) * n + w], of_b[std::size_t(t - i) * n + w], q), q.p);
        s[w] = mont(sum, q.r2, q);
    }
    __syncthreads();
    inverse_to_row(s, n, tw, q, pieces + (j * (pieces_a + pieces_b - 1) + t) * n, n);
}

// Row y of out (length words) = sum_t c_t x^(t n/2): word i = c_t[r] + c_(t-1)[r + n/2] for
// i = t n/2 + r, from the pieces of piece_products.
__global__ void join_pieces(const std::uint64_t* pieces, unsigned count, const BlockPrime* primes, unsigned n,
                            std::uint64_t* out, std::size_t length)
{
    const std::size_t j = blockIdx.y;
    const std::uint64_t p = primes[j].p;
    const unsigned h = n / 2;
    const std::uint64_t* row = pieces + j * count * n;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < length;
         i += std::size_t(gridDim.x) * blockDim.x) {
        const std::size_t t = i / h, r = i % h;
        const std::uint64_t low = t < count ? row[t * n + r] : 0, high = t >= 1 ? row[(t - 1) * n + r + h] : 0;
        out[j * length + i] = add_mod(low, high, p);
    }
}

std::size_t shared_bytes(std::size_t n) { return (n + n / 2) * sizeof(std::uint64_t); }

unsigned threads_for(std::size_t n) { return unsigned(std::clamp<std::size_t>(n / 2, 32, 1024)); }

// The longest transform a block holds.
std::size_t longest_block_transform()
{
    std::size_t n = 1;
    while (shared_bytes(2 * n) <= shared_memory_optin()) n *= 2;
    return n;
}

constexpr std::size_t unset = ~std::size_t(0);
std::atomic<std::size_t> limit_asked{unset}, piece_limit_asked{unset};

// With few primes the blocks occupy few SMs, and a long transform in one block takes longer than
// the passes spread over the GPU: with 3 primes the blocks win up to n = 2^13 and lose at 2^14
// (0.92x end to end), with 33 primes they win at 2^14 too (docs/measurements.md, "Short
// multi-modular products").
constexpr std::size_t few_primes = 8;
constexpr std::size_t longest_for_few_primes = std::size_t(1) << 13;

// The block kernels may use all the shared memory a block can have (asked once a device).
void allow_shared_memory()
{
    static PerDevice<std::once_flag> once;
    std::call_once(once.here(), [] {
        const int bytes = int(shared_memory_optin());
        check(cudaFuncSetAttribute(block_products, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
              "cudaFuncSetAttribute (block_products)");
        check(cudaFuncSetAttribute(block_powers, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
              "cudaFuncSetAttribute (block_powers)");
        check(cudaFuncSetAttribute(piece_spectra, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
              "cudaFuncSetAttribute (piece_spectra)");
        check(cudaFuncSetAttribute(piece_products, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
              "cudaFuncSetAttribute (piece_products)");
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
// host, 0.3 ms for 130 primes (docs/measurements.md, "Host-built tables of 130 primes").
std::shared_ptr<const DeviceWords> block_primes(const std::vector<std::uint64_t>& primes, std::size_t n)
{
    static PerDevice<RecentTables<DeviceWords>> caches;  // never destroyed: no frees after the runtime
    RecentTables<DeviceWords>* recent = &caches.here([] { return new RecentTables<DeviceWords>(8); });
    std::vector<std::uint64_t> key = primes;
    key.push_back(n);
    return recent->get(key, [&primes, n](const std::vector<std::uint64_t>&) { return upload_block_primes(primes, n); });
}

const BlockPrime* as_primes(const std::shared_ptr<const DeviceWords>& words)
{
    return reinterpret_cast<const BlockPrime*>(words->data());
}

// Pieces of products longer than a block's transform: transforms of at most this length (two
// blocks an SM on the H100), and by rule with this many primes at least (few_primes) and at most
// this many piece products a prime (the pointwise sums grow with their product) and this many bytes
// of spectra and pieces. The GPU's share of Z[x] products with 10 to 130 primes through the
// pieces: 1.1-2.9x the passes' speed up to 16 x 16 pieces, 0.90-0.96x with 32 x 32; pieces of
// 2^12 words are as fast or slower (docs/measurements.md, "Multi-modular products in pieces
// through the blocks").
constexpr std::size_t longest_piece_transform = std::size_t(1) << 13;
constexpr std::size_t most_piece_products = 256;
constexpr std::size_t most_piece_bytes = std::size_t(1) << 30;

std::size_t piece_transform_length() { return std::min(longest_piece_transform, block_transform_limit()); }

std::size_t pieces_of(std::size_t count, std::size_t n) { return (count + n / 2 - 1) / (n / 2); }

}  // namespace

// The most shared memory a block may ask for on this device.
std::size_t shared_memory_optin()
{
    static PerDevice<std::size_t> asked;
    return asked.here([] {
        int device = 0, value = 0;
        check(cudaGetDevice(&device), "cudaGetDevice");
        check(cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
              "cudaDeviceGetAttribute (shared memory)");
        return new std::size_t(value);
    });
}

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

bool piece_products_take(std::size_t na, std::size_t nb, const std::vector<std::uint64_t>& primes)
{
    const std::size_t length = na + nb - 1, n = piece_transform_length();
    const std::size_t asked = piece_limit_asked.load(std::memory_order_relaxed);
    if (primes.empty() || n < 2 || length <= n || asked == 0 || block_products_take(length, primes)) return false;
    if (asked != unset) {
        if (length > asked) return false;
    } else {
        const std::size_t pieces_a = pieces_of(na, n), pieces_b = pieces_of(nb, n);
        const std::size_t bytes = primes.size() * (2 * (pieces_a + pieces_b) - 1) * n * sizeof(std::uint64_t);
        if (primes.size() < few_primes || pieces_a * pieces_b > most_piece_products || bytes > most_piece_bytes)
            return false;
    }
    return std::all_of(primes.begin(), primes.end(), [n](std::uint64_t p) {
        return p % 2 == 1 && p < (std::uint64_t(1) << 63) && (p - 1) % n == 0;
    });
}

void multiply_rows_in_pieces(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb,
                             const std::vector<std::uint64_t>& primes, std::uint64_t* out)
{
    const std::size_t n = piece_transform_length(), length = na + nb - 1, k = primes.size();
    const unsigned pieces_a = unsigned(pieces_of(na, n)), pieces_b = unsigned(pieces_of(nb, n));
    const unsigned count = pieces_a + pieces_b - 1;
    allow_shared_memory();
    const auto constants = block_primes(primes, n);
    const Scratch<std::uint64_t> spectra(k * (pieces_a + pieces_b) * n), pieces(k * count * n);
    const dim3 spectra_grid(pieces_a + pieces_b, unsigned(k)), products_grid(count, unsigned(k));
    piece_spectra<<<spectra_grid, threads_for(n), shared_bytes(n), stream()>>>(
        a, na, pieces_a, b, nb, pieces_b, as_primes(constants), unsigned(n), spectra.get());
    check_launch("piece_spectra");
    piece_products<<<products_grid, threads_for(n), shared_bytes(n), stream()>>>(
        spectra.get(), pieces_a, pieces_b, as_primes(constants), unsigned(n), pieces.get());
    check_launch("piece_products");
    const dim3 join_grid(unsigned(grid_for(length, 256)), unsigned(k));
    join_pieces<<<join_grid, 256, 0, stream()>>>(pieces.get(), count, as_primes(constants), unsigned(n), out, length);
    check_launch("join_pieces");
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

std::size_t set_piece_products_limit(std::size_t length)
{
    return detail::piece_limit_asked.exchange(length, std::memory_order_relaxed);
}

}  // namespace cas::gpu
