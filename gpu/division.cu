// Division with remainder and powers modulo a polynomial in Z/pZ[x] with every product on the
// device (ntt.hpp: divide_mod, power_modulo): Newton's iteration for the inverse of the reversed
// divisor, then the quotient and the remainder, without a round trip per product. The products are
// polymul.cu's (one NTT prime, or CRT primes and Garner for any other p; cyclic products, squares,
// kept transforms); the kernels here only reverse, negate, add, subtract and fold words.
#include "gpu/detail.cuh"
#include "gpu/power_of_two.hpp"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

namespace cas::gpu {
namespace detail {
namespace {

__global__ void reverse_words(const std::uint64_t* in, std::size_t n, std::uint64_t* out)
{
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x)
        out[i] = in[n - 1 - i];
}

// out[i] = -in[i] mod p (in[i] < p)
__global__ void negate_words(const std::uint64_t* in, std::size_t n, std::uint64_t p, std::uint64_t* out)
{
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x)
        out[i] = in[i] == 0 ? 0 : p - in[i];
}

// out[i] = a[i] - b[i] mod p (both below p)
__global__ void subtract_words(const std::uint64_t* a, const std::uint64_t* b, std::size_t n, std::uint64_t p,
                               std::uint64_t* out)
{
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x)
        out[i] = sub_mod(a[i], b[i], p);
}

// out[i] = out[i] + a[i] + b[i] mod p (all below p)
__global__ void add_two_words(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b, std::size_t n,
                              std::uint64_t p)
{
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x)
        out[i] = add_mod(add_mod(out[i], a[i], p), b[i], p);
}

// A Newton step's h i modulo x^L - 1 with K = L + 1: term L wrapped onto term 0, where h i has 1.
__global__ void unwrap_top(std::uint64_t* product, std::size_t L, std::uint64_t p)
{
    product[L] = product[0] == 0 ? p - 1 : product[0] - 1;
}

// out[i] = sum of in[i + j n] over j mod p, for i < n (words below p): in[0, count) modulo x^n - 1.
__global__ void fold_words(const std::uint64_t* in, std::size_t count, std::size_t n, std::uint64_t p,
                           std::uint64_t* out)
{
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x) {
        std::uint64_t sum = 0;
        for (std::size_t at = i; at < count; at += n) sum = add_mod(sum, in[at], p);
        out[i] = sum;
    }
}

void launch_reverse(const std::uint64_t* in, std::size_t n, std::uint64_t* out)
{
    reverse_words<<<grid_for(n, 256), 256, 0, stream()>>>(in, n, out);
    check_launch("reverse_words");
}

void launch_negate(const std::uint64_t* in, std::size_t n, std::uint64_t p, std::uint64_t* out)
{
    negate_words<<<grid_for(n, 256), 256, 0, stream()>>>(in, n, p, out);
    check_launch("negate_words");
}

void launch_subtract(const std::uint64_t* a, const std::uint64_t* b, std::size_t n, std::uint64_t p, std::uint64_t* out)
{
    subtract_words<<<grid_for(n, 256), 256, 0, stream()>>>(a, b, n, p, out);
    check_launch("subtract_words");
}

void launch_add_two(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b, std::size_t n, std::uint64_t p)
{
    add_two_words<<<grid_for(n, 256), 256, 0, stream()>>>(out, a, b, n, p);
    check_launch("add_two_words");
}

void launch_unwrap_top(std::uint64_t* product, std::size_t L, std::uint64_t p)
{
    unwrap_top<<<1, 1, 0, stream()>>>(product, L, p);
    check_launch("unwrap_top");
}

// Device words a[0, count) modulo x^n - 1: a itself when count <= n, else folded into `folded`
// (n words). Returns the words and their number.
std::pair<const std::uint64_t*, std::size_t> modulo_cyclic(const std::uint64_t* a, std::size_t count, std::size_t n,
                                                           std::uint64_t p, std::uint64_t* folded)
{
    if (count <= n) return {a, count};
    fold_words<<<grid_for(n, 256), 256, 0, stream()>>>(a, count, n, p, folded);
    check_launch("fold_words");
    return {folded, n};
}

// A divisor on the device with the inverse of its reversal: what every division by it needs.
// Its products are cyclic where the wrap lands on terms that are known or not wanted, and its
// fixed factors are kept transformed (KeptOperand):
//   - a Newton step from k to K terms: h i modulo x^L - 1 with L the power of two >= K - 1 (the
//     wrap lands below k, where h i = 1 + 0 x + ... is known, and term L = K - 1 on term 0), then
//     i times the correction, from L = 2^16 with the transform of i[0, k) kept: five transforms of
//     L words where full products would take three of 2L to 4L words and three of L;
//   - the quotient: the low terms of rev(a) times the inverse, whose transform is kept for every
//     division by b (powmod); split at a power of two P when the quotient is a little longer;
//   - the remainder r = a - q b modulo x^L - 1 with L the power of two >= nb - 1 (deg r < L), with
//     the transform of b mod x^L - 1 kept: transforms of L words instead of 2L.
class Divisor {
public:
    // b[0, nb) from the host; the inverse of rev(b) to `precision` terms grown from the host's
    // first base_length terms of it.
    Divisor(const std::uint64_t* b, std::size_t nb, std::size_t precision, const std::uint64_t* base,
            std::size_t base_length, std::uint64_t p, Algorithm algorithm)
        : nb_(nb), precision_(precision), split_(quotient_split(precision)),
          remainder_length_(next_power_of_two(nb - 1)), p_(p), algorithm_(algorithm), inverse_(precision)
    {
        ReducedUpload b_upload(nb, p);
        const DeviceWords& b_device = b_upload.from(b);
        const std::size_t nh = std::min(nb, precision);
        Scratch<std::uint64_t> h(nh);
        launch_reverse(b_device.data() + (nb - nh), nh, h.get());
        upload_bytes(inverse_.data(), base, base_length * sizeof(std::uint64_t));
        grow_inverse(h.get(), nh, base_length);
        if (split_ != 0) kept_inverse_.emplace(inverse_.data(), split_, split_, 2 * split_, p, algorithm);
        else kept_inverse_.emplace(inverse_.data(), precision, precision, next_power_of_two(2 * precision - 1), p,
                                   algorithm);
        Scratch<std::uint64_t> folded(remainder_length_);
        const auto [words, count] = modulo_cyclic(b_device.data(), nb, remainder_length_, p, folded.get());
        kept_divisor_.emplace(words, count, remainder_length_, remainder_length_, p, algorithm);
    }

    // q[0, nq) (device) = a div b for the device words a[0, na), nq = na - nb + 1 = precision.
    void quotient(const std::uint64_t* a, std::size_t na, std::uint64_t* q) const
    {
        const std::size_t nq = precision_;
        if (na - nb_ + 1 != nq) throw Error("Divisor::quotient: the dividend's length does not match");
        Scratch<std::uint64_t> top(nq), low(nq);
        launch_reverse(a + (nb_ - 1), nq, top.get());
        low_terms_times_inverse(top.get(), low.get());
        launch_reverse(low.get(), nq, q);
    }

    // r[0, nb - 1) (device) = a - q b for the device words a[0, na) and its quotient q[0, nq),
    // computed modulo x^L - 1 (L >= nb - 1 > deg r).
    void remainder(const std::uint64_t* a, std::size_t na, const std::uint64_t* q, std::size_t nq,
                   std::uint64_t* r) const
    {
        const std::size_t L = remainder_length_, low = nb_ - 1;
        Scratch<std::uint64_t> folded(2 * L), qb(low);
        const auto [q_words, q_count] = modulo_cyclic(q, nq, L, p_, folded.get());
        kept_divisor_->multiply(q_words, q_count, qb.get(), low);
        const std::uint64_t* a_words = modulo_cyclic(a, na, L, p_, folded.get() + L).first;  // >= low words
        launch_subtract(a_words, qb.get(), low, p_, r);
    }

private:
    // Where the quotient's product splits: P when nq = P + s with P a power of two, 2 s - 1 <= P / 2
    // (then t0 i0 modulo x^2P - 1 and two products of s terms transform fewer words than one of
    // 4P) and P >= 2^18 (below, the six more launches cost more than the words saved); else 0.
    static std::size_t quotient_split(std::size_t nq)
    {
        const std::size_t P = next_power_of_two(nq) / 2;
        return P >= (std::size_t(1) << 18) && nq > P && 2 * (nq - P) - 1 <= P / 2 ? P : 0;
    }

    // out[0, nq) = the low nq = precision terms of t i for the device words t[0, nq) (i the
    // inverse): split, t0 i0 (the first P terms of each) plus x^P times the low s terms of
    // t1 i0 + t0 i1.
    void low_terms_times_inverse(const std::uint64_t* t, std::uint64_t* out) const
    {
        const std::size_t nq = precision_;
        if (split_ == 0) {
            kept_inverse_->multiply(t, nq, out, nq);
            return;
        }
        const std::size_t P = split_, s = nq - P, n = next_power_of_two(2 * s - 1);
        kept_inverse_->multiply(t, P, out, nq);  // degree 2P - 2: exact modulo x^2P - 1
        Scratch<std::uint64_t> cross(2 * n);
        multiply_cyclic_device(t + P, s, inverse_.data(), s, n, p_, algorithm_, cross.get());
        multiply_cyclic_device(t, s, inverse_.data() + P, s, n, p_, algorithm_, cross.get() + n);
        launch_add_two(out + P, cross.get(), cross.get() + n, s, p_);
    }

    // inverse_[0, k) -> inverse_[0, precision_): i - x^k (i e mod x^(K-k)) with h i = 1 + x^k e.
    void grow_inverse(const std::uint64_t* h, std::size_t nh, std::size_t k)
    {
        // From 2^16 words the transform of i[0, k) is kept for both products (five transforms, not
        // six); below, where a transform costs its launches more than its words, the two products
        // batch their operands (four launches of transforms, not five).
        constexpr std::size_t kept_from = std::size_t(1) << 16;
        std::vector<std::size_t> precisions;
        for (std::size_t K = precision_; K > k; K = (K + 1) / 2) precisions.push_back(K);
        const std::size_t most = next_power_of_two(precision_);
        Scratch<std::uint64_t> product(most + 1), correction(precision_), folded(most);
        for (auto K = precisions.rbegin(); K != precisions.rend(); ++K) {
            const std::size_t m = *K - k, terms = std::min(nh, *K), L = next_power_of_two(*K - 1);
            const auto [h_words, h_count] = modulo_cyclic(h, terms, L, p_, folded.get());  // terms <= L + 1
            const bool wraps = terms + k - 1 > L;
            const std::size_t product_length = std::min(terms + k - 1, L);
            std::optional<KeptOperand> kept;
            if (L >= kept_from) kept.emplace(inverse_.data(), k, L, L, p_, algorithm_);
            // a[0, na) i[0, k) modulo x^L - 1 into out: min(na + k - 1, L) words
            auto times_inverse = [&](const std::uint64_t* a, std::size_t na, std::uint64_t* out) {
                if (kept) kept->multiply(a, na, out, std::min(na + k - 1, L));
                else multiply_cyclic_device(a, na, inverse_.data(), k, L, p_, algorithm_, out);
            };
            times_inverse(h_words, h_count, product.get());  // [k, min(K, L)) as h i
            if (product_length < *K)  // a short divisor's h: zeros up to K; or K = L + 1
                check(cudaMemsetAsync(product.get() + product_length, 0,
                                      (*K - product_length) * sizeof(std::uint64_t), stream()),
                      "cudaMemsetAsync (grow_inverse)");
            if (*K == L + 1 && wraps) launch_unwrap_top(product.get(), L, p_);
            times_inverse(product.get() + k, m, correction.get());  // degree k + m - 2 < L: no wrap
            launch_negate(correction.get(), m, p_, inverse_.data() + k);
            k = *K;
        }
    }

    std::size_t nb_, precision_, split_, remainder_length_;
    std::uint64_t p_;
    Algorithm algorithm_;
    DeviceWords inverse_;
    std::optional<KeptOperand> kept_inverse_, kept_divisor_;
};

void require_division_operands(std::size_t na, std::size_t nb, std::size_t base_length, std::uint64_t p)
{
    if (p < 2) throw Error("modulus must be at least 2");
    if (nb < 2 || na < nb) throw Error("divide_mod: needs na >= nb >= 2");
    if (base_length == 0 || base_length > na - nb + 1) throw Error("divide_mod: base_length out of range");
}

}  // namespace
}  // namespace detail

namespace {
// q (and r unless null) of the device dividend a[0, na) by the divisor's b.
void divide_device_dividend(const std::uint64_t* a, std::size_t na, const detail::Divisor& divisor, std::size_t nb,
                            std::uint64_t p, std::uint64_t* q, std::uint64_t* r)
{
    const std::size_t nq = na - nb + 1;
    DeviceWords q_device(nq), r_device(r ? nb - 1 : 0);
    divisor.quotient(a, na, q_device.data());
    // r queued before q comes down: q's pages fault in on the host while the GPU computes r
    if (r) divisor.remainder(a, na, q_device.data(), nq, r_device.data());
    detail::download_reduced(q, q_device.data(), nq, p);
    if (r) detail::download_reduced(r, r_device.data(), nb - 1, p);
}
}  // namespace

void divide_mod(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb, std::uint64_t p,
                const std::uint64_t* base, std::size_t base_length, std::uint64_t* q, std::uint64_t* r,
                Algorithm algorithm)
{
    detail::require_device();
    detail::require_division_operands(na, nb, base_length, p);
    detail::ReducedUpload a_upload(na, p);  // allocated first: a goes up beside the inverse's growth
    const detail::Divisor divisor(b, nb, na - nb + 1, base, base_length, p, algorithm);
    divide_device_dividend(a_upload.from(a, true).data(), na, divisor, nb, p, q, r);
}

void divide_mod(const DeviceWords& a, const std::uint64_t* b, std::size_t nb, std::uint64_t p,
                const std::uint64_t* base, std::size_t base_length, std::uint64_t* q, std::uint64_t* r,
                Algorithm algorithm)
{
    detail::require_device();
    const std::size_t na = a.size();
    detail::require_division_operands(na, nb, base_length, p);
    const detail::Divisor divisor(b, nb, na - nb + 1, base, base_length, p, algorithm);
    divide_device_dividend(a.data(), na, divisor, nb, p, q, r);
}

void power_modulo(const std::uint64_t* f, std::size_t nf, const std::uint64_t* e, std::size_t e_words,
                  const std::uint64_t* m, std::size_t nm, std::uint64_t p, const std::uint64_t* base,
                  std::size_t base_length, std::uint64_t* out, Algorithm algorithm)
{
    detail::require_device();
    if (nm < 3 || nf == 0 || nf >= nm) throw Error("power_modulo: needs 1 <= len f < len m, len m >= 3");
    detail::require_division_operands(2 * nm - 3, nm, base_length, p);
    std::size_t bits = 64 * e_words;
    while (bits > 0 && !((e[(bits - 1) / 64] >> ((bits - 1) % 64)) & 1)) --bits;
    if (bits == 0) throw Error("power_modulo: needs e >= 1");
    // Every power is kept as nm - 1 words (leading zeros allowed): its products have 2 nm - 3
    // words, their quotients nm - 2.
    const std::size_t nr = nm - 1, np = 2 * nm - 3, nq = nm - 2;
    detail::Divisor divisor(m, nm, nq, base, base_length, p, algorithm);
    detail::ReducedUpload f_upload(nf, p);
    const DeviceWords& x = f_upload.from(f);
    DeviceWords power(nr), product(np), quotient(nq);
    power.fill_zero();
    detail::check(cudaMemcpyAsync(power.data(), x.data(), nf * sizeof(std::uint64_t), cudaMemcpyDeviceToDevice,
                                  detail::stream()),
                  "cudaMemcpyAsync (power_modulo)");
    // the base's transform is kept for the multiplications of square and multiply
    std::optional<detail::KeptOperand> base_kept;
    auto reduce_product = [&] {
        divisor.quotient(product.data(), np, quotient.data());
        divisor.remainder(product.data(), np, quotient.data(), nq, power.data());
    };
    for (std::size_t bit = bits - 1; bit-- > 0;) {
        detail::square_device(power.data(), nr, p, algorithm, product.data());
        reduce_product();
        if ((e[bit / 64] >> (bit % 64)) & 1) {
            if (!base_kept) base_kept.emplace(x.data(), nf, nr, detail::next_power_of_two(np), p, algorithm);
            base_kept->multiply(power.data(), nr, product.data(), np);
            reduce_product();
        }
    }
    detail::download_reduced(out, power.data(), nr, p);
}

}  // namespace cas::gpu
