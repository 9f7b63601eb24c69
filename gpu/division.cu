// Division with remainder and powers modulo a polynomial in Z/pZ[x] with every product on the
// device (ntt.hpp: divide_mod, power_modulo): Newton's iteration for the inverse of the reversed
// divisor, then the quotient and the remainder, without a round trip per product. The products are
// multiply_mod's (one NTT prime, or CRT primes and Garner for any other p); the kernels here only
// reverse, negate and subtract words.
#include "gpu/detail.cuh"

#include <algorithm>
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

// out[i] = a[i] - b[i] mod p (both below p; out may be a)
__global__ void subtract_words(const std::uint64_t* a, const std::uint64_t* b, std::size_t n, std::uint64_t p,
                               std::uint64_t* out)
{
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x)
        out[i] = a[i] >= b[i] ? a[i] - b[i] : a[i] + (p - b[i]);
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

void launch_subtract(const std::uint64_t* a, const std::uint64_t* b, std::size_t n, std::uint64_t p,
                     std::uint64_t* out)
{
    subtract_words<<<grid_for(n, 256), 256, 0, stream()>>>(a, b, n, p, out);
    check_launch("subtract_words");
}

// A divisor on the device with the inverse of its reversal: what every division by it needs.
class Divisor {
public:
    // b[0, nb) from the host; the inverse of rev(b) to `precision` terms grown from the host's
    // first base_length terms of it.
    Divisor(const std::uint64_t* b, std::size_t nb, std::size_t precision, const std::uint64_t* base,
            std::size_t base_length, std::uint64_t p, Algorithm algorithm)
        : nb_(nb), precision_(precision), p_(p), algorithm_(algorithm), b_(nb), inverse_(precision),
          scratch_(2 * std::max(precision, nb))
    {
        b_.upload(b, nb);
        const std::size_t nh = std::min(nb, precision);
        Scratch<std::uint64_t> h(nh);
        launch_reverse(b_.data() + (nb - nh), nh, h.get());
        upload_bytes(inverse_.data(), base, base_length * sizeof(std::uint64_t));
        grow_inverse(h.get(), nh, base_length);
    }

    // q[0, nq) (device) = a div b for the device words a[0, na), na - nb + 1 = nq <= precision.
    void quotient(const std::uint64_t* a, std::size_t na, std::uint64_t* q)
    {
        const std::size_t nq = na - nb_ + 1;
        Scratch<std::uint64_t> top(nq);
        launch_reverse(a + (nb_ - 1), nq, top.get());
        multiply_device(top.get(), nq, inverse_.data(), nq, p_, algorithm_, scratch_.get());
        launch_reverse(scratch_.get(), nq, q);
    }

    // r[0, nb - 1) (device) = a - q b for the quotient q[0, nq) of a: only the low nb - 1 terms of
    // q b are needed, so both factors are cut there first.
    void remainder(const std::uint64_t* a, const std::uint64_t* q, std::size_t nq, std::uint64_t* r)
    {
        const std::size_t low = nb_ - 1;
        multiply_device(q, std::min(nq, low), b_.data(), low, p_, algorithm_, scratch_.get());
        launch_subtract(a, scratch_.get(), low, p_, r);
    }

private:
    // inverse_[0, k) -> inverse_[0, precision_): i - x^k (i e mod x^(K-k)) with h i = 1 + x^k e.
    void grow_inverse(const std::uint64_t* h, std::size_t nh, std::size_t k)
    {
        std::vector<std::size_t> precisions;
        for (std::size_t K = precision_; K > k; K = (K + 1) / 2) precisions.push_back(K);
        Scratch<std::uint64_t> correction(precision_);
        for (auto K = precisions.rbegin(); K != precisions.rend(); ++K) {
            const std::size_t m = *K - k, terms = std::min(nh, *K), product_length = terms + k - 1;
            multiply_device(h, terms, inverse_.data(), k, p_, algorithm_, scratch_.get());
            if (product_length < *K)  // a short divisor's h: the terms up to K are zeros
                check(cudaMemsetAsync(scratch_.get() + product_length, 0,
                                      (*K - product_length) * sizeof(std::uint64_t), stream()),
                      "cudaMemsetAsync (grow_inverse)");
            multiply_device(inverse_.data(), m, scratch_.get() + k, m, p_, algorithm_, correction.get());
            launch_negate(correction.get(), m, p_, inverse_.data() + k);
            k = *K;
        }
    }

    std::size_t nb_, precision_;
    std::uint64_t p_;
    Algorithm algorithm_;
    DeviceWords b_, inverse_;
    Scratch<std::uint64_t> scratch_;  // products: at most 2 max(precision, nb) - 1 words
};

void require_division_operands(std::size_t na, std::size_t nb, std::size_t base_length, std::uint64_t p)
{
    if (p < 2) throw Error("modulus must be at least 2");
    if (nb < 2 || na < nb) throw Error("divide_mod: needs na >= nb >= 2");
    if (base_length == 0 || base_length > na - nb + 1) throw Error("divide_mod: base_length out of range");
}

}  // namespace
}  // namespace detail

void divide_mod(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb, std::uint64_t p,
                const std::uint64_t* base, std::size_t base_length, std::uint64_t* q, std::uint64_t* r,
                Algorithm algorithm)
{
    detail::require_device();
    detail::require_division_operands(na, nb, base_length, p);
    const std::size_t nq = na - nb + 1;
    detail::Divisor divisor(b, nb, nq, base, base_length, p, algorithm);
    DeviceWords a_device(a, na), q_device(nq);
    divisor.quotient(a_device.data(), na, q_device.data());
    q_device.download(q, nq);
    if (!r) return;
    DeviceWords r_device(nb - 1);
    divisor.remainder(a_device.data(), q_device.data(), nq, r_device.data());
    r_device.download(r, nb - 1);
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
    DeviceWords x(nr), power(nr), product(np), quotient(nq);
    x.fill_zero();
    x.upload(f, nf);
    detail::check(cudaMemcpyAsync(power.data(), x.data(), nr * sizeof(std::uint64_t), cudaMemcpyDeviceToDevice,
                                  detail::stream()),
                  "cudaMemcpyAsync (power_modulo)");
    auto reduce_product = [&] {
        divisor.quotient(product.data(), np, quotient.data());
        divisor.remainder(product.data(), quotient.data(), nq, power.data());
    };
    for (std::size_t bit = bits - 1; bit-- > 0;) {
        detail::multiply_device(power.data(), nr, power.data(), nr, p, algorithm, product.data());
        reduce_product();
        if ((e[bit / 64] >> (bit % 64)) & 1) {
            detail::multiply_device(power.data(), nr, x.data(), nr, p, algorithm, product.data());
            reduce_product();
        }
    }
    power.download(out, nr);
}

}  // namespace cas::gpu
