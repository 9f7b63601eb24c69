// Garner's reconstruction one warp a coefficient (garner_warps.cuh), in the dot-product form of
// crt::PrefixTables: digit j is (x_j - sum_{i<j} v_i (P_i mod p_j)) (P_j mod p_j)^-1 mod p_j,
// the lanes share the sum (one Shoup product per 32 terms a lane, then a butterfly of shuffles),
// and limb l of x = sum_j v_j P_j is summed by lane l mod 32 over all j in three words, the
// carries passed up the limbs by lane 0, which then makes the value symmetric.
//
// Why: with k = 130 primes and 255 coefficients (a product of two polynomials of 128 terms with
// 4000-bit coefficients), a thread a coefficient is one block of 255 threads, each walking 8385
// dependent products and 8450 limb updates in global memory: 2.3 ms on the H100 against 14 us
// for all 130 primes' products (Nsight Compute; docs/measurements.md, "Garner on the
// GPU: a thread or a warp a coefficient").
#include "gpu/garner_warps.cuh"

#include "gpu/crt_words.hpp"
#include "gpu/recent_tables.hpp"

#include <algorithm>
#include <atomic>

namespace cas::gpu {
namespace detail {

namespace {

struct PrefixView {
    const std::uint64_t *primes, *prefix, *prefix_shoup, *inverse, *inverse_shoup, *radix, *modulus, *half;
    std::size_t k, width;
};

constexpr unsigned warps_per_block = 4;
constexpr unsigned full_mask = 0xffffffffu;

// A warp's shared words: k digits, then three words of sums for every limb.
__host__ __device__ inline std::size_t words_per_warp(std::size_t k, std::size_t width) { return k + 3 * width; }

// The most terms a lane holds of a row of the prefix table: the warps take at most 32 times this
// many primes (warps_reconstruct).
constexpr unsigned most_terms_a_lane = 12;

// What digit j needs from memory, read a digit ahead: this lane's terms of row j of the prefix
// table (l = lane + 32 m < j), the residue x_j and the prime.
struct DigitRow {
    std::uint64_t prefix[most_terms_a_lane], prefix_shoup[most_terms_a_lane];
    std::uint64_t residue, p;
};

__device__ inline void load_row(DigitRow& row, const std::uint64_t* residues, std::size_t count, std::size_t i,
                                const PrefixView& t, std::size_t j, unsigned lane)
{
#pragma unroll
    for (unsigned m = 0; m < most_terms_a_lane; ++m) {
        const std::size_t l = lane + 32 * m;
        row.prefix[m] = l < j ? t.prefix[j * t.k + l] : 0;
        row.prefix_shoup[m] = l < j ? t.prefix_shoup[j * t.k + l] : 0;
    }
    row.residue = residues[j * count + i];
    row.p = t.primes[j];
}

// v_j for j < k into digits (lane 0 writes; every lane computes). Row j + 1's words are read
// while digit j is summed: with one warp a scheduler (a few hundred coefficients), waiting on
// them would be 59% of the stalls (Nsight Compute, 128 x 128 terms of 4000 bits: 173 us against
// 264; docs/measurements.md, "Garner on the GPU: a thread or a warp a coefficient").
__device__ void prefix_digits(const std::uint64_t* residues, std::size_t count, std::size_t i, const PrefixView& t,
                              std::uint64_t* digits)
{
    const unsigned lane = threadIdx.x & 31;
    DigitRow row, next;
    load_row(row, residues, count, i, t, 0, lane);
    for (std::size_t j = 0; j < t.k; ++j) {
        if (j + 1 < t.k) load_row(next, residues, count, i, t, j + 1, lane);
        const std::uint64_t p = row.p;
        std::uint64_t sum = 0;
#pragma unroll
        for (unsigned m = 0; m < most_terms_a_lane; ++m) {
            const std::size_t l = lane + 32 * m;
            if (l < j) sum = crt::add_mod(sum, crt::mul_shoup(digits[l], row.prefix[m], row.prefix_shoup[m], p), p);
        }
        for (unsigned offset = 16; offset != 0; offset >>= 1)
            sum = crt::add_mod(sum, __shfl_xor_sync(full_mask, sum, offset), p);
        const std::uint64_t digit = crt::mul_shoup(crt::sub_mod(row.residue, sum, p), t.inverse[j], t.inverse_shoup[j], p);
        if (lane == 0) digits[j] = digit;
        __syncwarp();
        row = next;
    }
}

// sums[3 l, 3 l + 3) = sum_j digits[j] (limb l of P_j), lane l mod 32 for limb l.
__device__ void limb_sums(const std::uint64_t* digits, const PrefixView& t, std::uint64_t* sums)
{
    for (std::size_t l = threadIdx.x & 31; l < t.width; l += 32) {
        std::uint64_t low = 0, high = 0, top = 0;
        for (std::size_t j = 0; j < t.k; ++j) {
            const std::uint64_t r = t.radix[j * t.width + l], v = digits[j];
            const std::uint64_t product_low = v * r, product_high = __umul64hi(v, r);
            low += product_low;
            const std::uint64_t up = product_high + (low < product_low ? 1 : 0);  // product_high <= 2^64 - 2
            high += up;
            top += high < up ? 1 : 0;
        }
        sums[3 * l] = low;
        sums[3 * l + 1] = high;
        sums[3 * l + 2] = top;
    }
    __syncwarp();
}

// Lane 0: limb l of x = sums of limb l plus the carry from below; then x made symmetric.
__device__ void carry_and_store(const std::uint64_t* sums, const PrefixView& t, std::size_t count, std::size_t i,
                                std::uint64_t* limbs, std::uint32_t* negative)
{
    if ((threadIdx.x & 31) == 0) {
        std::uint64_t carry_low = 0, carry_high = 0;
        for (std::size_t l = 0; l < t.width; ++l) {
            const std::uint64_t low = sums[3 * l] + carry_low;
            const std::uint64_t middle = sums[3 * l + 1] + carry_high;
            const std::uint64_t next_low = middle + (low < carry_low ? 1 : 0);
            carry_high = sums[3 * l + 2] + (middle < carry_high ? 1 : 0) + (next_low < middle ? 1 : 0);
            carry_low = next_low;
            limbs[l * count + i] = low;
        }
        negative[i] = crt::make_symmetric(limbs + i, count, t.width, t.modulus, t.half) ? 1 : 0;
    }
    __syncwarp();
}

__global__ void reconstruct_warps(const std::uint64_t* residues, std::size_t count, PrefixView t, std::uint64_t* limbs,
                                  std::uint32_t* negative)
{
    extern __shared__ std::uint64_t shared[];
    const unsigned warp = threadIdx.x >> 5;
    std::uint64_t* digits = shared + warp * words_per_warp(t.k, t.width);
    std::uint64_t* sums = digits + t.k;
    for (std::size_t i = std::size_t(blockIdx.x) * warps_per_block + warp; i < count;
         i += std::size_t(gridDim.x) * warps_per_block) {
        prefix_digits(residues, count, i, t, digits);
        limb_sums(digits, t, sums);
        carry_and_store(sums, t, count, i, limbs, negative);
    }
}

// The tables on the device.
struct DevicePrefixTables {
    DeviceWords primes, prefix, prefix_shoup, inverse, inverse_shoup, radix, modulus, half;
    std::size_t k, width;

    explicit DevicePrefixTables(const crt::PrefixTables& t)
        : primes(upload_table(t.primes)), prefix(upload_table(t.prefix)), prefix_shoup(upload_table(t.prefix_shoup)),
          inverse(upload_table(t.inverse)), inverse_shoup(upload_table(t.inverse_shoup)), radix(upload_table(t.radix)),
          modulus(upload_table(t.modulus)), half(upload_table(t.half)), k(t.primes.size()), width(t.width())
    {
    }
    PrefixView view() const
    {
        return {primes.data(), prefix.data(), prefix_shoup.data(), inverse.data(),
                inverse_shoup.data(), radix.data(), modulus.data(), half.data(), k, width};
    }
};

// Limbs of the product of k primes below 2^63: at most k 63 / 64 + 1.
std::size_t width_at_most(std::size_t k) { return k * 63 / 64 + 1; }

std::size_t shared_bytes(std::size_t k, std::size_t width)
{
    return warps_per_block * words_per_warp(k, width) * sizeof(std::uint64_t);
}

constexpr std::size_t by_rule = ~std::size_t(0);
std::atomic<std::size_t> count_limit{by_rule};

// The rule, from cas-bench-crt --short 1 (end to end, against a thread a coefficient): with 3
// primes the warps lose at every length (most lanes idle), with 10 to 33 they win or tie within
// the host's noise, with 130 they win 1.08-2.4x up to 16383 coefficients (the longest measured; a
// thread a coefficient fills the GPU from about 2^15; docs/measurements.md, "Garner on the
// GPU: a thread or a warp a coefficient").
constexpr std::size_t least_primes = 16;
constexpr std::size_t most_coefficients = std::size_t(1) << 14;
bool rule_takes(std::size_t count, std::size_t primes) { return primes >= least_primes && count <= most_coefficients; }

}  // namespace

bool warps_reconstruct(std::size_t count, std::size_t primes)
{
    const std::size_t limit = count_limit.load(std::memory_order_relaxed);
    if (shared_bytes(primes, width_at_most(primes)) > 48 * 1024 || primes > 32 * most_terms_a_lane) return false;
    return limit == by_rule ? rule_takes(count, primes) : count <= limit;
}

void reconstruct_by_warps(const std::uint64_t* residues, std::size_t count, const std::vector<std::uint64_t>& primes,
                          DeviceWords& limbs, DeviceWords32& negative, std::size_t& width)
{
    const auto tables = kept_tables<DevicePrefixTables, crt::PrefixTables>(primes);
    width = tables->width;
    limbs = DeviceWords(width * count);
    negative = DeviceWords32(count);
    const unsigned blocks = grid_for(count, warps_per_block);
    reconstruct_warps<<<blocks, warps_per_block * 32, shared_bytes(tables->k, width), stream()>>>(
        residues, count, tables->view(), limbs.data(), negative.data());
    check_launch("reconstruct_warps");
}

}  // namespace detail

std::size_t set_warp_garner_limit(std::size_t count)
{
    return detail::count_limit.exchange(count, std::memory_order_relaxed);
}

}  // namespace cas::gpu
