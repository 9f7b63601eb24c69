// Transforms modulo a generalized Fermat prime p = r^k + 1 (big_prime_gf.hpp): the seed's FFT
// with radix K = 2k, whose K-th roots of unity are the powers of r (r has order 2k), so the
// DFT_K of every level is shifts and sums of base-r digits (gf_digits.hpp, combine_digits) and
// full products are left for the twiddles between levels.
//
// A transform of n = 2^m is ceil(m / log2 K) levels of Stockham's autosort form: the first level
// has the radix R = 2^(m mod log2 K) when that is not 0 (a smaller DFT, still shifts: its root is
// a power of r too), the others K. Before a level of radix R the array holds c interleaved
// sequences of length n / c (element j of sequence u at j c + u); for t = j c + u < n / R the
// level reads x_s = [t + s n / R] for s < R, computes the DFT_R at w^(n / R), multiplies output q
// by w^(c j q), and writes it to [(j R + q) c + u]: the output of the last level is in natural
// order, and the last level (j = 0) has no twiddles. One kernel a level, one thread an element:
// the R threads of one DFT exchange digits through shared memory for each of the log2 R radix-2
// butterfly stages (decimation in frequency, outputs in bit-reversed order), then reorder through
// shared memory again so that the stores are coalesced.
//
// Twiddles: w^e (e < n) = eta^(e / (n/K)) w^(e mod n/K) with eta = w^(n/K) = +-r^g, so a table of
// the n/K powers w^b holds every full factor, and the power of eta joins the shift of the last
// butterfly stage. The data travel digit-major between levels (digit d of element i at [d n + i],
// coalesced); the first level converts binary limbs to digits as it loads and the last converts
// back as it stores, so there is no separate pass, and the inverse's 1/n is one product in the
// last level.
//
// Cost against big_prime_transform's radix-2 passes: a level replaces log2 K of them, with one
// read and write of the array instead of log2 K, and one product an element (k^2 64-bit products
// and 2k + 1 divisions by r for the carries) instead of log2(K) / 2 Montgomery products (2k^2 + k
// 64-bit products each); its log2 K butterfly stages are digit sums, about as costly as that one
// product. At 2^20 modulo P3: 5 levels against 20 passes and a bit reversal.
#include "gpu/big_prime_gf.hpp"
#include "gpu/big_prime_gf.cuh"
#include "gpu/big_prime.hpp"  // big_prime_most_log_length
#include "gpu/detail.cuh"
#include "gpu/gf_digits.hpp"
#include "gpu/recent_tables.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace cas::gpu {

namespace {

using u64 = std::uint64_t;
using detail::check_launch;
using detail::grid_for;
using detail::Scratch;
using detail::stream;
using gf::Digits;
using gf::Radix;
using gf::Words;

// Threads a block, one element each: k = 16 holds about twice the registers of k = 8 (a product
// keeps both factors and the result's digits).
template <int k>
constexpr int log_block_threads()
{
    return k <= 8 ? 8 : 7;
}

template <int k>
constexpr int log_radix_k()
{
    return k <= 8 ? 4 : 5;  // log2(2k)
}

// One level (see the top of the file). Sizes are logarithms.
struct Level {
    int log_radix;       // R
    int log_sequences;   // c, the product of the radices before
    int log_tile;        // a block does the DFTs of 2^log_tile consecutive t: R 2^log_tile threads
    int root_exponent;   // r^root_exponent = w^(n / R)
    const u64* twiddles; // table entry b: k digits at [b k]; null: no products
    bool unit_first;     // twiddles[0] = 1: no product where b = 0
    int log_table;       // w^e = eta^(e >> log_table) twiddles[e mod 2^log_table]
    int eta_exponent;    // r^eta_exponent = eta
};

// ---------------------------------------------------------------- device helpers
// Digit (or limb) d of element i of a digit-major array of n elements is at [d n + i].
template <int k, bool binary>
__device__ __forceinline__ Digits<k> load_element(const u64* __restrict__ data, std::size_t n, std::size_t i,
                                                  const Radix& radix)
{
    if constexpr (binary) {
        Words<k> x;
#pragma unroll
        for (int d = 0; d < k; d++) x.w[d] = data[d * n + i];
        return gf::to_digits(x, radix);
    } else {
        Digits<k> x;
#pragma unroll
        for (int d = 0; d < k; d++) x.d[d] = data[d * n + i];
        return x;
    }
}

template <int k, bool binary>
__device__ __forceinline__ void store_element(u64* __restrict__ data, std::size_t n, std::size_t i,
                                              const Digits<k>& x, u64 r)
{
    if constexpr (binary) {
        const Words<k> y = gf::to_words(x, r);
#pragma unroll
        for (int d = 0; d < k; d++) data[d * n + i] = y.w[d];
    } else {
#pragma unroll
        for (int d = 0; d < k; d++) data[d * n + i] = x.d[d];
    }
}

// Table entries are k consecutive words (a thread reads one whole entry: 64 or 128 bytes).
template <int k>
__device__ __forceinline__ Digits<k> load_entry(const u64* table, u64 entry)
{
    const ulonglong2* from = reinterpret_cast<const ulonglong2*>(table + entry * k);
    Digits<k> x;
#pragma unroll
    for (int d = 0; d < k / 2; d++) {
        const ulonglong2 v = __ldg(from + d);
        x.d[2 * d] = v.x;
        x.d[2 * d + 1] = v.y;
    }
    return x;
}

// The exchange buffer in shared memory: digit d of slot i at [d row + i].
template <int k>
__device__ __forceinline__ void store_slot(u64* exchange, int row, int slot, const Digits<k>& x)
{
#pragma unroll
    for (int d = 0; d < k; d++) exchange[d * row + slot] = x.d[d];
}

template <int k>
__device__ __forceinline__ Digits<k> load_slot(const u64* exchange, int row, int slot)
{
    Digits<k> x;
#pragma unroll
    for (int d = 0; d < k; d++) x.d[d] = exchange[d * row + slot];
    return x;
}

// For the butterflies, r^k = -1 goes in as digits 0 with a flag in row k, so that the digits
// read back (rotated, one at a time) are all below r.
template <int k>
__device__ __forceinline__ void store_butterfly_slot(u64* exchange, int row, int slot, const Digits<k>& x, u64 r)
{
    const bool minus_one = gf::is_minus_one(x, r);
#pragma unroll
    for (int d = 0; d < k - 1; d++) exchange[d * row + slot] = x.d[d];
    exchange[(k - 1) * row + slot] = minus_one ? 0 : x.d[k - 1];
    exchange[k * row + slot] = minus_one;
}

struct SlotDigits {
    const u64* exchange;
    int row, slot;
    __device__ u64 operator()(int d) const { return exchange[d * row + slot]; }
};

// The store reorder's slots, spread so that a warp's stride-R writes fall in different banks.
__device__ __forceinline__ int spread(int offset, int log_radix) { return offset + (offset >> log_radix); }

// One level of the transform, from `in` (binary limbs for the first level, digits after) to `out`
// (digits, or binary limbs from the last level).
template <int k, bool binary_in, bool binary_out>
__global__ void __launch_bounds__(1 << log_block_threads<k>())
    level_pass(const u64* __restrict__ in, u64* __restrict__ out, std::size_t n, Level level, Radix radix)
{
    constexpr int K = 2 * k;
    extern __shared__ u64 exchange[];
    const int row = blockDim.x + (blockDim.x >> 1) + 1;
    const int log_r = level.log_radix, log_tile = level.log_tile, log_c = level.log_sequences;
    const int l = threadIdx.x;
    const int s = l >> log_tile, tt = l & ((1 << log_tile) - 1);
    const std::size_t t0 = std::size_t(blockIdx.x) << log_tile, t = t0 + tt;
    Digits<k> x = load_element<k, binary_in>(in, n, t + std::size_t(s) * (n >> log_r), radix);

    // This thread ends with output q = bitrev(s) of its DFT, whose twiddle is w^(c j q).
    const int q = log_r == 0 ? 0 : int(__brev(unsigned(s)) >> (32 - log_r));
    const u64 e = (u64(t >> log_c) * u64(q)) << log_c;
    u64 entry = 0;
    int eta_shift = 0;
    bool product = false;
    if (level.twiddles) {
        entry = e & ((u64(1) << level.log_table) - 1);
        eta_shift = int(((e >> level.log_table) * u64(level.eta_exponent)) & (K - 1));
        product = entry != 0 || !level.unit_first;
    }

    // Radix-2 decimation in frequency over the R threads of the DFT: (a + b, (a - b) zeta^(s mod h))
    // with zeta = (w^(n/R))^(R/2h), a power of r; the last stage also applies eta's shift.
    for (int h = (1 << log_r) >> 1; h >= 1; h >>= 1) {
        store_butterfly_slot(exchange, row, l, x, radix.r);
        __syncthreads();
        const bool high = (s & h) != 0;
        const int lower = ((s & ~h) << log_tile) + tt, upper = lower + (h << log_tile);
        int exponent = high ? level.root_exponent * ((1 << log_r) / (2 * h)) * (s & (h - 1)) : 0;
        if (h == 1) exponent += eta_shift;
        x = gf::combine_digits<k>(SlotDigits{exchange, row, lower}, exchange[k * row + lower] != 0,
                                  SlotDigits{exchange, row, upper}, exchange[k * row + upper] != 0, !high,
                                  exponent & (K - 1), radix.r);
        __syncthreads();
    }
    if (product) x = gf::multiply(x, load_entry<k>(level.twiddles, entry), radix);

    // Output q of t goes to [(j R + q) c + u] (t = j c + u). With c >= T the block's t share j,
    // and each q is a run of T words; with c < T the block's outputs are one run of R T words.
    int offset;
    if (log_c >= log_tile) {
        offset = (q << log_tile) + tt;
    } else {
        const int jj = tt >> log_c, u = tt & ((1 << log_c) - 1);
        offset = (((jj << log_r) + q) << log_c) + u;
    }
    store_slot(exchange, row, spread(offset, log_r), x);
    __syncthreads();
    x = load_slot<k>(exchange, row, spread(l, log_r));
    std::size_t address;
    if (log_c >= log_tile) {
        const std::size_t t_out = t0 + (l & ((1 << log_tile) - 1));
        const std::size_t j = t_out >> log_c, u = t_out & ((std::size_t(1) << log_c) - 1);
        address = (((j << log_r) + std::size_t(l >> log_tile)) << log_c) + u;
    } else {
        address = (t0 << log_r) + l;
    }
    store_element<k, binary_out>(out, n, address, x, radix.r);
}

#define GF_FOR_EACH_INDEX(i, count) \
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < (count); i += std::size_t(gridDim.x) * blockDim.x)

template <int k>
__global__ void first_entry(u64* table, Digits<k> value)
{
#pragma unroll
    for (int d = 0; d < k; d++) table[d] = value.d[d];
}

// table[j + m] = table[j] step for j < m: one doubling of a table of powers.
template <int k>
__global__ void extend_table(u64* table, std::size_t m, Digits<k> step, Radix radix)
{
    GF_FOR_EACH_INDEX(j, m)
    {
        const Digits<k> x = gf::multiply(load_entry<k>(table, j), step, radix);
#pragma unroll
        for (int d = 0; d < k; d++) table[(j + m) * k + d] = x.d[d];
    }
}

// ---------------------------------------------------------------- host side
int log2_exact(std::size_t n)
{
    int e = 0;
    while ((std::size_t(1) << e) < n) e++;
    return e;
}

// The exponent g with r^g = x, for x a root of unity of order dividing 2k.
template <int k>
int radix_exponent(const Digits<k>& x, u64 r)
{
    const int g = gf::exponent_of_radix(x, r);
    if (g < 0)
        throw Error("big_prime_transform_gf: a root of unity of order dividing 2k is no power of r (p not prime?)");
    return g;
}

// The table w^b for b < count (count a power of two), k words an entry, built on the device by
// doublings; the last few kept, since a loop of transforms of one length at one root would
// otherwise build them again each time.
template <int k>
std::shared_ptr<const DeviceWords> kept_twiddles(std::size_t count, const Digits<k>& w, const Radix& radix)
{
    const auto make = [&] {
        DeviceWords table(k * count);
        first_entry<k><<<1, 1, 0, stream()>>>(table.data(), gf::small_digits<k>(1));
        check_launch("first_entry");
        constexpr unsigned block = 1u << log_block_threads<k>();
        Digits<k> step = w;
        for (std::size_t m = 1; m < count; m *= 2) {
            extend_table<k><<<grid_for(m, block), block, 0, stream()>>>(table.data(), m, step, radix);
            check_launch("extend_table");
            step = gf::multiply(step, step, radix);
        }
        return table;
    };
    std::vector<u64> key{u64(k), radix.r, u64(count)};
    key.insert(key.end(), w.d, w.d + k);
    return detail::kept_or_made<struct DigitTables>(key, k * count * sizeof(u64), make);
}

template <int k, bool binary_in, bool binary_out>
void launch_level(const Level& level, const u64* in, u64* out, std::size_t n, const Radix& radix)
{
    const int log_threads = level.log_radix + level.log_tile;
    const unsigned threads = 1u << log_threads;
    const std::size_t blocks = n >> log_threads;
    const std::size_t shared = (k + 1) * (threads + threads / 2 + 1) * sizeof(u64);  // k digit rows, a flag row
    level_pass<k, binary_in, binary_out><<<unsigned(blocks), threads, shared, stream()>>>(in, out, n, level, radix);
    check_launch("level_pass");
}

template <int k>
void run_level(const Level& level, bool first, bool last, const u64* in, u64* out, std::size_t n, const Radix& radix)
{
    if (first && last)
        launch_level<k, true, true>(level, in, out, n, radix);
    else if (first)
        launch_level<k, true, false>(level, in, out, n, radix);
    else if (last)
        launch_level<k, false, true>(level, in, out, n, radix);
    else
        launch_level<k, false, false>(level, in, out, n, radix);
}

// The levels of a transform of 2^log_n: radices, tiles and the roots' exponents; squarings[i] =
// w^(2^i).
template <int k>
std::vector<Level> plan_levels(int log_n, const std::vector<Digits<k>>& squarings, u64 r)
{
    constexpr int log_K = log_radix_k<k>();
    const int count = log_n == 0 ? 1 : (log_n + log_K - 1) / log_K;
    std::vector<Level> levels(count);
    int done = 0;
    for (int i = 0; i < count; i++) {
        Level& level = levels[i];
        level = Level{};
        level.log_radix = i == 0 ? log_n - (count - 1) * log_K : log_K;
        level.log_sequences = done;
        level.log_tile = std::min(log_block_threads<k>(), log_n) - level.log_radix;
        level.root_exponent = radix_exponent(squarings[log_n - level.log_radix], r);  // w^(n/R)
        done += level.log_radix;
    }
    return levels;
}

// The transform of the k n words at `data` (limb-major binary, on the device); `scratch` as large.
// Returns where the result is: data or scratch (the levels alternate between them).
template <int k>
u64* transform_gf_on_device(u64* data, u64* scratch, std::size_t n, u64 r, const u64* w_words, bool inverse)
{
    constexpr int log_K = log_radix_k<k>();
    const Radix radix = gf::make_radix(r);
    const int log_n = log2_exact(n);
    Words<k> w_binary;
    for (int d = 0; d < k; d++) w_binary.w[d] = w_words[d];
    Digits<k> w = gf::to_digits(w_binary, radix);
    if (inverse) w = gf::power(w, n - 1, radix);  // w^-1, as w^n = 1
    std::vector<Digits<k>> squarings(log_n + 1, w);
    for (int i = 1; i <= log_n; i++) squarings[i] = gf::multiply(squarings[i - 1], squarings[i - 1], radix);
    if (n >= 2 && !gf::is_minus_one(squarings[log_n - 1], r))
        throw Error("big_prime_transform_gf: w is not a primitive n-th root of unity modulo r^k + 1");

    std::vector<Level> levels = plan_levels<k>(log_n, squarings, r);
    std::shared_ptr<const DeviceWords> twiddles;
    if (levels.size() >= 2) {
        twiddles = kept_twiddles<k>(n >> log_K, w, radix);
        const int eta_exponent = radix_exponent(squarings[log_n - log_K], r);
        for (std::size_t i = 0; i + 1 < levels.size(); i++) {
            levels[i].twiddles = twiddles->data();
            levels[i].unit_first = true;
            levels[i].log_table = log_n - log_K;
            levels[i].eta_exponent = eta_exponent;
        }
    }
    DeviceWords scale;
    if (inverse && n >= 2) {
        const Digits<k> inverse_n = gf::power(gf::one_half<k>(r), u64(log_n), radix);
        scale = detail::upload_table(inverse_n.d, k);
        levels.back().twiddles = scale.data();  // the last level's twiddles are 1: only 1/n
        levels.back().unit_first = false;
    }
    u64 *from = data, *to = scratch;
    for (std::size_t i = 0; i < levels.size(); i++) {
        run_level<k>(levels[i], i == 0, i + 1 == levels.size(), from, to, n, radix);
        std::swap(from, to);
    }
    return from;
}

template <int k>
void transform_gf(const u64* in, u64* out, std::size_t n, u64 r, const u64* w_words, bool inverse)
{
    Scratch<u64> a(k * n), b(k * n);
    detail::upload_bytes(a.get(), in, k * n * sizeof(u64));
    const u64* result = transform_gf_on_device<k>(a.get(), b.get(), n, r, w_words, inverse);
    detail::download_bytes(out, result, k * n * sizeof(u64));
}

}  // namespace

bool generalized_fermat_transform_takes(std::uint64_t r, std::size_t k, std::size_t n)
{
    if (k != 8 && k != 16) return false;
    if (r % 2 != 0 || r < (std::uint64_t(1) << 32)) return false;
    if (n == 0 || (n & (n - 1)) != 0 || n > (std::size_t(1) << big_prime_most_log_length)) return false;
    const int twos = __builtin_ctzll(r);  // r^k = p - 1 holds 2^(k twos)
    return std::size_t(twos) * k >= std::size_t(log2_exact(n));
}

std::uint64_t* detail::transform_gf_device(std::uint64_t* data, std::uint64_t* scratch, std::size_t n,
                                           std::uint64_t r, std::size_t k, const std::uint64_t* w, bool inverse)
{
    if (!generalized_fermat_transform_takes(r, k, n)) throw Error("transform_gf_device: a length or form it does not take");
    return k == 8 ? transform_gf_on_device<8>(data, scratch, n, r, w, inverse)
                  : transform_gf_on_device<16>(data, scratch, n, r, w, inverse);
}

void big_prime_transform_gf(const std::uint64_t* in, std::uint64_t* out, std::size_t n, std::uint64_t r,
                            std::size_t k, const std::uint64_t* w, bool inverse)
{
    if (!generalized_fermat_transform_takes(r, k, n))
        throw Error("big_prime_transform_gf: needs k = 8 or 16, an even r with 2^32 <= r < 2^64, and n a power of "
                    "two up to 2^26 dividing r^k");
    detail::require_device();
    if (k == 8)
        transform_gf<8>(in, out, n, r, w, inverse);
    else
        transform_gf<16>(in, out, n, r, w, inverse);
}

}  // namespace cas::gpu
