// Transforms and convolutions modulo a prime of 2 to 16 words (big_prime.hpp).
//
// A transform is log2(n) radix-2 passes over global memory, one thread a butterfly, each element's
// limbs in registers; the twiddles of a pass are a table of their own, read in the butterflies'
// order. The forward transform runs decimation in frequency (natural order in, bit-reversed out)
// and a permuting pass puts the result in natural order; a convolution skips the permutations:
// its pointwise products take the spectra in bit-reversed order and decimation in time brings the
// inverse back to natural order. Every product is a Montgomery product with R = 2^(64 L); the
// tables hold w^j R, so that a product by a twiddle leaves the data in their ordinary form.
#include "gpu/big_prime.hpp"
#include "gpu/big_prime_gf.cuh"
#include "gpu/big_prime_gf.hpp"
#include "gpu/detail.cuh"
#include "gpu/recent_tables.hpp"

#include <array>
#include <memory>
#include <utility>
#include <vector>

namespace cas::gpu {

namespace {

using u64 = std::uint64_t;
using u128 = unsigned __int128;
using detail::check_launch;
using detail::grid_for;
using detail::Scratch;
using detail::stream;

// ---------------------------------------------------------------- arithmetic modulo p
template <int L>
struct Element {
    u64 limb[L];
};

template <int L>
struct BigModulus {
    Element<L> p;
    u64 minus_p_inverse;  // -p^-1 mod 2^64
};

// a b + c + carry: the low word returned, the high word into carry (never overflows 128 bits).
__host__ __device__ __forceinline__ u64 multiply_add(u64 a, u64 b, u64 c, u64& carry)
{
    const u128 t = u128(a) * b + c + carry;
    carry = u64(t >> 64);
    return u64(t);
}

__host__ __device__ __forceinline__ u64 add_with_carry(u64 a, u64 b, u64& carry)
{
    const u128 t = u128(a) + b + carry;
    carry = u64(t >> 64);
    return u64(t);
}

__host__ __device__ __forceinline__ u64 subtract_with_borrow(u64 a, u64 b, u64& borrow)
{
    const u64 d = a - b - borrow;
    borrow = (a < b || a - b < borrow) ? 1 : 0;
    return d;
}

// x - p when `top` (a word above x's limbs) is set or x >= p, else x: for values below 2p.
template <int L>
__host__ __device__ __forceinline__ Element<L> reduce_once(const Element<L>& x, u64 top, const BigModulus<L>& m)
{
    Element<L> d;
    u64 borrow = 0;
#pragma unroll
    for (int k = 0; k < L; k++) d.limb[k] = subtract_with_borrow(x.limb[k], m.p.limb[k], borrow);
    return (top || !borrow) ? d : x;
}

template <int L>
__host__ __device__ __forceinline__ Element<L> add_mod(const Element<L>& x, const Element<L>& y, const BigModulus<L>& m)
{
    Element<L> s;
    u64 carry = 0;
#pragma unroll
    for (int k = 0; k < L; k++) s.limb[k] = add_with_carry(x.limb[k], y.limb[k], carry);
    return reduce_once(s, carry, m);
}

template <int L>
__host__ __device__ __forceinline__ Element<L> subtract_mod(const Element<L>& x, const Element<L>& y,
                                                             const BigModulus<L>& m)
{
    Element<L> d;
    u64 borrow = 0;
#pragma unroll
    for (int k = 0; k < L; k++) d.limb[k] = subtract_with_borrow(x.limb[k], y.limb[k], borrow);
    const u64 mask = u64(0) - borrow;  // add p back when x < y
    u64 carry = 0;
#pragma unroll
    for (int k = 0; k < L; k++) d.limb[k] = add_with_carry(d.limb[k], m.p.limb[k] & mask, carry);
    return d;
}

template <int L>
__host__ __device__ __forceinline__ Element<L> negate_mod(const Element<L>& x, const BigModulus<L>& m)
{
    Element<L> zero{};
    return subtract_mod(zero, x, m);
}

// a b R^-1 mod p for a, b < p: coarsely integrated operand scanning (one word of b a round: add
// a b_i, then the multiple of p that clears the low word, and shift by a word).
template <int L>
__host__ __device__ __forceinline__ Element<L> montgomery_product(const Element<L>& a, const Element<L>& b,
                                                                  const BigModulus<L>& m)
{
    u64 t[L + 1];
#pragma unroll
    for (int k = 0; k <= L; k++) t[k] = 0;
#pragma unroll
    for (int i = 0; i < L; i++) {
        u64 carry = 0;
#pragma unroll
        for (int k = 0; k < L; k++) t[k] = multiply_add(a.limb[k], b.limb[i], t[k], carry);
        u64 overflow = 0;
        t[L] = add_with_carry(t[L], carry, overflow);
        const u64 q = t[0] * m.minus_p_inverse;
        carry = 0;
        multiply_add(q, m.p.limb[0], t[0], carry);  // the low word becomes 0
#pragma unroll
        for (int k = 1; k < L; k++) t[k - 1] = multiply_add(q, m.p.limb[k], t[k], carry);
        u64 high = 0;
        t[L - 1] = add_with_carry(t[L], carry, high);
        t[L] = overflow + high;
    }
    Element<L> r;
#pragma unroll
    for (int k = 0; k < L; k++) r.limb[k] = t[k];
    return reduce_once(r, t[L], m);
}

// ---------------------------------------------------------------- host-side constants
template <int L>
Element<L> element_from(const u64* words)
{
    Element<L> x;
    for (int k = 0; k < L; k++) x.limb[k] = words[k];
    return x;
}

template <int L>
Element<L> small_element(u64 v)
{
    Element<L> x{};
    x.limb[0] = v;
    return x;
}

template <int L>
BigModulus<L> make_big_modulus(const u64* p)
{
    BigModulus<L> m;
    m.p = element_from<L>(p);
    u64 inverse = p[0];  // correct to 3 bits for odd p; Newton doubles the bits
    for (int i = 0; i < 5; i++) inverse *= 2 - p[0] * inverse;
    m.minus_p_inverse = u64(0) - inverse;
    return m;
}

// 2^e mod p by doublings.
template <int L>
Element<L> power_of_two_mod(int e, const BigModulus<L>& m)
{
    Element<L> x = small_element<L>(1);
    for (int i = 0; i < e; i++) x = add_mod(x, x, m);
    return x;
}

// The constants of one modulus: R mod p (1 in Montgomery form) and R^2 mod p (for conversions).
template <int L>
struct MontgomeryConstants {
    BigModulus<L> m;
    Element<L> one, r_squared;

    explicit MontgomeryConstants(const u64* p)
        : m(make_big_modulus<L>(p)), one(power_of_two_mod<L>(64 * L, m)), r_squared(power_of_two_mod<L>(128 * L, m))
    {
    }
    Element<L> to_montgomery(const Element<L>& x) const { return montgomery_product(x, r_squared, m); }
    // base^e for base in Montgomery form, in Montgomery form.
    Element<L> power(const Element<L>& base, u64 e) const
    {
        Element<L> result = one, square = base;
        for (; e; e >>= 1) {
            if (e & 1) result = montgomery_product(result, square, m);
            square = montgomery_product(square, square, m);
        }
        return result;
    }
    // 1/n for n = 2^log_n, ordinary form: 1 halved log_n times ((x + p) / 2 for odd x).
    Element<L> inverse_power_of_two(int log_n) const
    {
        Element<L> x = small_element<L>(1);
        for (int i = 0; i < log_n; i++) {
            u64 carry = 0;
            Element<L> y;
            const u64 mask = u64(0) - (x.limb[0] & 1);
            for (int k = 0; k < L; k++) y.limb[k] = add_with_carry(x.limb[k], m.p.limb[k] & mask, carry);
            for (int k = 0; k < L; k++) x.limb[k] = (y.limb[k] >> 1) | (k + 1 < L ? y.limb[k + 1] << 63 : carry << 63);
        }
        return x;
    }
};

// ---------------------------------------------------------------- limb-major arrays
template <int L>
__device__ __forceinline__ Element<L> load(const u64* data, std::size_t stride, std::size_t i)
{
    Element<L> x;
#pragma unroll
    for (int k = 0; k < L; k++) x.limb[k] = data[k * stride + i];
    return x;
}

template <int L>
__device__ __forceinline__ void store(u64* data, std::size_t stride, std::size_t i, const Element<L>& x)
{
#pragma unroll
    for (int k = 0; k < L; k++) data[k * stride + i] = x.limb[k];
}

#define FOR_EACH_INDEX(i, count) \
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < (count); i += std::size_t(gridDim.x) * blockDim.x)

template <int L>
__global__ void store_first(u64* table, std::size_t stride, Element<L> x)
{
    store(table, stride, 0, x);
}

// table[j + m] = table[j] * step for j < m: one doubling of a table of powers (stride `stride`).
template <int L>
__global__ void extend_powers(u64* table, std::size_t stride, std::size_t m, Element<L> step, BigModulus<L> mod)
{
    FOR_EACH_INDEX(j, m) store(table, stride, j + m, montgomery_product(load<L>(table, stride, j), step, mod));
}

// to[j] = from[2 j]: the twiddles of the next pass from those of this one.
template <int L>
__global__ void every_other(const u64* from, std::size_t from_stride, u64* to, std::size_t count)
{
    FOR_EACH_INDEX(j, count) store(to, count, j, load<L>(from, from_stride, 2 * j));
}

// One pass of decimation in frequency: butterflies of span h, (x, y) -> (x + y, (x - y) w_j).
template <int L>
__global__ void frequency_pass(u64* data, std::size_t n, std::size_t h, const u64* twiddles, BigModulus<L> m)
{
    FOR_EACH_INDEX(t, n / 2)
    {
        const std::size_t j = t & (h - 1), i0 = ((t - j) << 1) + j, i1 = i0 + h;
        const Element<L> x = load<L>(data, n, i0), y = load<L>(data, n, i1);
        store(data, n, i0, add_mod(x, y, m));
        const Element<L> d = subtract_mod(x, y, m);
        store(data, n, i1, h == 1 ? d : montgomery_product(d, load<L>(twiddles, h, j), m));
    }
}

// One pass of decimation in time: (x, y) -> (x + y w_j, x - y w_j).
template <int L>
__global__ void time_pass(u64* data, std::size_t n, std::size_t h, const u64* twiddles, BigModulus<L> m)
{
    FOR_EACH_INDEX(t, n / 2)
    {
        const std::size_t j = t & (h - 1), i0 = ((t - j) << 1) + j, i1 = i0 + h;
        const Element<L> x = load<L>(data, n, i0), y0 = load<L>(data, n, i1);
        const Element<L> y = h == 1 ? y0 : montgomery_product(y0, load<L>(twiddles, h, j), m);
        store(data, n, i0, add_mod(x, y, m));
        store(data, n, i1, subtract_mod(x, y, m));
    }
}

// out[i] = in[bit_reverse(i)] times `scale` (a Montgomery factor) when scaled.
template <int L>
__global__ void bit_reverse_copy(const u64* in, u64* out, std::size_t n, int log_n, bool scaled, Element<L> scale,
                                 BigModulus<L> m)
{
    FOR_EACH_INDEX(i, n)
    {
        const std::size_t from = log_n == 0 ? 0 : __brevll(i) >> (64 - log_n);
        const Element<L> x = load<L>(in, n, from);
        store(out, n, i, scaled ? montgomery_product(x, scale, m) : x);
    }
}

// out[i] = in[i] psi^i (weights: psi^i R, or null for none) for i < count, 0 up to n.
template <int L>
__global__ void pad_and_weight(const u64* in, std::size_t count, u64* out, std::size_t n, const u64* weights,
                               BigModulus<L> m)
{
    FOR_EACH_INDEX(i, n)
    {
        Element<L> x{};
        if (i < count) {
            x = load<L>(in, count, i);
            if (weights) x = montgomery_product(x, load<L>(weights, n, i), m);
        }
        store(out, n, i, x);
    }
}

// a[i] = a[i] b[i] scale R^-2.
template <int L>
__global__ void pointwise_product(u64* a, const u64* b, std::size_t n, Element<L> scale, BigModulus<L> m)
{
    FOR_EACH_INDEX(i, n)
    store(a, n, i, montgomery_product(montgomery_product(load<L>(a, n, i), load<L>(b, n, i), m), scale, m));
}

// out[i] = c[i] psi^-i for i < count (weights: psi^i R for i < n; psi^-i = -psi^(n-i) as psi^n = -1),
// or c[i] without weights.
template <int L>
__global__ void unweight(const u64* c, std::size_t n, u64* out, std::size_t count, const u64* weights,
                         BigModulus<L> m)
{
    FOR_EACH_INDEX(i, count)
    {
        Element<L> x = load<L>(c, n, i);
        if (weights && i != 0) x = negate_mod(montgomery_product(x, load<L>(weights, n, n - i), m), m);
        store(out, count, i, x);
    }
}

// ---------------------------------------------------------------- host side
constexpr unsigned threads_per_block(int limbs) { return limbs <= 8 ? 256 : 128; }

int log2_exact(std::size_t n)
{
    int k = 0;
    while ((std::size_t(1) << k) < n) k++;
    return k;
}

// table[0, count) = base^j R (limb-major, stride count) for a power of two count: doublings.
template <int L>
void build_powers(u64* table, std::size_t count, const Element<L>& base, const MontgomeryConstants<L>& c)
{
    constexpr unsigned block = threads_per_block(L);
    store_first<L><<<1, 1, 0, stream()>>>(table, count, c.one);
    check_launch("store_first");
    Element<L> step = base;
    for (std::size_t m = 1; m < count; m *= 2) {
        extend_powers<L><<<grid_for(m, block), block, 0, stream()>>>(table, count, m, step, c.m);
        check_launch("extend_powers");
        step = montgomery_product(step, step, c.m);
    }
}

// The twiddles of every pass of a transform of length n >= 2 at root w (Montgomery form): the
// pass of span h reads w^(j n / 2h) R for j < h at words L (n - 2h), limb-major with stride h.
template <int L>
void build_twiddles(u64* tables, std::size_t n, const Element<L>& w, const MontgomeryConstants<L>& c)
{
    build_powers(tables, n / 2, w, c);
    constexpr unsigned block = threads_per_block(L);
    for (std::size_t h = n / 4; h >= 1; h /= 2) {
        every_other<L><<<grid_for(h, block), block, 0, stream()>>>(tables + L * (n - 4 * h), 2 * h,
                                                                   tables + L * (n - 2 * h), h);
        check_launch("every_other");
    }
}

template <int L>
const u64* twiddles_of_span(const u64* tables, std::size_t n, std::size_t h)
{
    return tables + L * (n - 2 * h);
}

// The tables of one (p, n, root) on the device: build_twiddles' tables (weights false) or the n
// powers root^i R (weights true, for a negacyclic convolution), the last few kept, since a loop
// of transforms of one length at one root would otherwise build them again each time (n/2
// products and log2 n launches of each kind).
template <int L>
std::shared_ptr<const DeviceWords> kept_tables(std::size_t n, const Element<L>& root, bool weights,
                                               const MontgomeryConstants<L>& c)
{
    const auto make = [&] {
        DeviceWords tables(weights ? L * n : L * (n - 1));
        if (weights)
            build_powers(tables.data(), n, root, c);
        else
            build_twiddles(tables.data(), n, root, c);
        return tables;
    };
    std::vector<u64> key{u64(L), u64(n), u64(weights)};
    key.insert(key.end(), c.m.p.limb, c.m.p.limb + L);
    key.insert(key.end(), root.limb, root.limb + L);
    return detail::kept_or_made<struct MontgomeryTables>(key, L * n * sizeof(u64), make);
}

template <int L>
void frequency_passes(u64* data, std::size_t n, const u64* tables, const BigModulus<L>& m)
{
    constexpr unsigned block = threads_per_block(L);
    for (std::size_t h = n / 2; h >= 1; h /= 2) {
        frequency_pass<L><<<grid_for(n / 2, block), block, 0, stream()>>>(data, n, h, twiddles_of_span<L>(tables, n, h), m);
        check_launch("frequency_pass");
    }
}

template <int L>
void time_passes(u64* data, std::size_t n, const u64* tables, const BigModulus<L>& m)
{
    constexpr unsigned block = threads_per_block(L);
    for (std::size_t h = 1; h < n; h *= 2) {
        time_pass<L><<<grid_for(n / 2, block), block, 0, stream()>>>(data, n, h, twiddles_of_span<L>(tables, n, h), m);
        check_launch("time_pass");
    }
}

template <int L>
void transform_limbs(const u64* in, u64* out, std::size_t n, const u64* p, const u64* w_words, bool inverse)
{
    const MontgomeryConstants<L> c(p);
    const int log_n = log2_exact(n);
    Element<L> w = c.to_montgomery(element_from<L>(w_words));
    if (inverse) w = c.power(w, n - 1);  // w^-1, as w^n = 1
    Scratch<u64> data(L * n), result(L * n);
    const detail::StreamMark allocated;
    std::shared_ptr<const DeviceWords> tables;
    if (n >= 2) tables = kept_tables(n, w, false, c);  // built while the data go up
    detail::upload_bytes(data.get(), in, L * n * sizeof(u64), &allocated);
    if (n >= 2) frequency_passes(data.get(), n, tables->data(), c.m);
    const Element<L> scale = c.to_montgomery(c.inverse_power_of_two(log_n));  // x (1/n) R R^-1
    constexpr unsigned block = threads_per_block(L);
    bit_reverse_copy<L><<<grid_for(n, block), block, 0, stream()>>>(data.get(), result.get(), n, log_n, inverse,
                                                                     scale, c.m);
    check_launch("bit_reverse_copy");
    detail::download_bytes(out, result.get(), L * n * sizeof(u64));
}

// The convolution's transforms: this file's radix-2 passes (spectra in bit-reversed order, the
// inverse by decimation in time, 1/n left to the pointwise products), or with shift_radix the
// generalized Fermat transform of big_prime_gf.cu (natural order, 1/n in its inverse), faster at
// every length measured modulo P3 and P4. forward and inverse return where their result is.
template <int L>
class ConvolutionTransforms {
public:
    ConvolutionTransforms(std::size_t n, const u64* w_words, u64 shift_radix, const MontgomeryConstants<L>& c)
        : n_(n), w_words_(w_words), shift_radix_(shift_radix), c_(c)
    {
        if (shift_radix_) return;
        const Element<L> w = c.to_montgomery(element_from<L>(w_words));
        forward_tables_ = kept_tables(n, w, false, c);
        inverse_tables_ = kept_tables(n, c.power(w, n - 1), false, c);
    }
    u64* forward(u64* data, u64* scratch) const
    {
        if (shift_radix_) return detail::transform_gf_device(data, scratch, n_, shift_radix_, L, w_words_, false);
        frequency_passes(data, n_, forward_tables_->data(), c_.m);
        return data;
    }
    u64* inverse(u64* data, u64* scratch) const
    {
        if (shift_radix_) return detail::transform_gf_device(data, scratch, n_, shift_radix_, L, w_words_, true);
        time_passes(data, n_, inverse_tables_->data(), c_.m);
        return data;
    }
    // The pointwise products' factor, so that a b R^-1 times it R^-1 is a b, times 1/n where the
    // inverse leaves it out.
    Element<L> pointwise_scale() const
    {
        if (shift_radix_) return c_.r_squared;
        return c_.to_montgomery(c_.to_montgomery(c_.inverse_power_of_two(log2_exact(n_))));
    }

private:
    std::size_t n_;
    const u64* w_words_;
    u64 shift_radix_;
    const MontgomeryConstants<L>& c_;
    std::shared_ptr<const DeviceWords> forward_tables_, inverse_tables_;
};

template <int L>
void convolve_limbs(const u64* a, std::size_t na, const u64* b, std::size_t nb, std::size_t n, const u64* p,
                    const u64* w_words, const u64* psi_words, u64 shift_radix, u64* out, std::size_t out_count)
{
    const MontgomeryConstants<L> c(p);
    constexpr unsigned block = threads_per_block(L);
    Scratch<u64> fa(L * n), fb(L * n), staging_a(L * na), staging_b(L * nb), spare_a(shift_radix ? L * n : 0),
        spare_b(shift_radix ? L * n : 0), result(L * out_count);
    const detail::StreamMark allocated;
    // The tables are built, and a's spectrum computed, while b goes up.
    std::shared_ptr<const DeviceWords> weights;
    if (psi_words) weights = kept_tables(n, c.to_montgomery(element_from<L>(psi_words)), true, c);
    const u64* weight_table = weights ? weights->data() : nullptr;
    const auto spread = [&](const u64* staging, std::size_t count, u64* to) {
        pad_and_weight<L><<<grid_for(n, block), block, 0, stream()>>>(staging, count, to, n, weight_table, c.m);
        check_launch("pad_and_weight");
    };
    detail::upload_bytes(staging_a.get(), a, L * na * sizeof(u64), &allocated);
    const detail::StreamMark a_uploaded;
    const ConvolutionTransforms<L> transforms(n, w_words, shift_radix, c);
    spread(staging_a.get(), na, fa.get());
    u64* spectrum_a = transforms.forward(fa.get(), spare_a.get());
    detail::upload_bytes(staging_b.get(), b, L * nb * sizeof(u64), &a_uploaded);
    spread(staging_b.get(), nb, fb.get());
    u64* spectrum_b = transforms.forward(fb.get(), spare_b.get());
    pointwise_product<L><<<grid_for(n, block), block, 0, stream()>>>(spectrum_a, spectrum_b, n,
                                                                      transforms.pointwise_scale(), c.m);
    check_launch("pointwise_product");
    const u64* c_words = transforms.inverse(spectrum_a, spectrum_b);
    unweight<L><<<grid_for(out_count, block), block, 0, stream()>>>(c_words, n, result.get(), out_count, weight_table,
                                                                     c.m);
    check_launch("unweight");
    detail::download_bytes(out, result.get(), L * out_count * sizeof(u64));
}

// Entry points by number of limbs.
using TransformFunction = void (*)(const u64*, u64*, std::size_t, const u64*, const u64*, bool);
using ConvolveFunction = void (*)(const u64*, std::size_t, const u64*, std::size_t, std::size_t, const u64*,
                                  const u64*, const u64*, u64, u64*, std::size_t);

template <std::size_t... I>
constexpr std::array<TransformFunction, sizeof...(I)> transform_functions(std::index_sequence<I...>)
{
    return {&transform_limbs<int(I + big_prime_least_limbs)>...};
}
template <std::size_t... I>
constexpr std::array<ConvolveFunction, sizeof...(I)> convolve_functions(std::index_sequence<I...>)
{
    return {&convolve_limbs<int(I + big_prime_least_limbs)>...};
}
using LimbCounts = std::make_index_sequence<big_prime_most_limbs - big_prime_least_limbs + 1>;

void require_limbs(std::size_t limbs, const u64* p, const char* what)
{
    if (limbs < big_prime_least_limbs || limbs > big_prime_most_limbs || p[limbs - 1] == 0 || (p[0] & 1) == 0)
        throw Error(std::string(what) + ": p must be odd, of " + std::to_string(big_prime_least_limbs) + " to " +
                    std::to_string(big_prime_most_limbs) + " words with a nonzero top word");
}

void require_length(std::size_t n, const char* what)
{
    if (n == 0 || (n & (n - 1)) != 0 || n > (std::size_t(1) << big_prime_most_log_length))
        throw Error(std::string(what) + ": the length must be a power of two up to 2^" +
                    std::to_string(big_prime_most_log_length));
}

}  // namespace

void big_prime_transform(const std::uint64_t* in, std::uint64_t* out, std::size_t n, const std::uint64_t* p,
                         std::size_t limbs, const std::uint64_t* w, bool inverse)
{
    require_limbs(limbs, p, "big_prime_transform");
    require_length(n, "big_prime_transform");
    detail::require_device();
    static constexpr auto functions = transform_functions(LimbCounts{});
    functions[limbs - big_prime_least_limbs](in, out, n, p, w, inverse);
}

void big_prime_convolve(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb, std::size_t n,
                        const std::uint64_t* p, std::size_t limbs, const std::uint64_t* w, const std::uint64_t* psi,
                        std::uint64_t* out, std::size_t out_count, std::uint64_t shift_radix)
{
    require_limbs(limbs, p, "big_prime_convolve");
    if (shift_radix && !generalized_fermat_transform_takes(shift_radix, limbs, n))
        throw Error("big_prime_convolve: the digit-shift transform does not take r^k + 1 for this r, k and n");
    require_length(n, "big_prime_convolve");
    if (n < 2 || na > n || nb > n || out_count > n || na == 0 || nb == 0)
        throw Error("big_prime_convolve: needs 1 <= na, nb <= n, out_count <= n and n >= 2");
    if (out_count == 0) return;
    detail::require_device();
    static constexpr auto functions = convolve_functions(LimbCounts{});
    functions[limbs - big_prime_least_limbs](a, na, b, nb, n, p, w, psi, shift_radix, out, out_count);
}

}  // namespace cas::gpu
