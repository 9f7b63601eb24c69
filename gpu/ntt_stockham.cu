// Reference kernel 2: the Stockham FFT of Moreno Maza & Pan (2010), formula (12):
//   DFT_{2^k} = prod_{i=0..k-1} (DFT_2 (x) I_{2^{k-1}}) (D_{2,2^{k-i-1}} (x) I_{2^i}) (L_2^{2^{k-i}} (x) I_{2^i})
// The rightmost factor (i = k-1) is applied first. Stage i, with s = 2^i and N = n / s, fuses the
// three steps A_1 (stride permutation), A_2 (twiddles) and A_3 (butterflies of span n/2) of
// section 4 into one kernel. Working the permutation and the diagonal through by hand gives,
// for j = r s + t (0 <= r < N/2, 0 <= t < s) and omega_N = w^s:
//   y[j]       = x[2rs + t] + omega_N^r x[(2r+1)s + t]
//   y[j + n/2] = x[2rs + t] - omega_N^r x[(2r+1)s + t]
// Out of place (double buffered), natural order in and out, no bit reversal: "autosort".
// Reads of x come in runs of s and writes in runs of n/2, and threads of a block share their
// twiddle w^(s r) when s is large: the broadcast the paper credits for its speed.
#include "gpu/detail.cuh"

#include <utility>

namespace cas::gpu::detail {
namespace {

template <class T>
__global__ void stockham_stage(const T* x, T* y, int log_n, int log_s, std::size_t butterflies, Modulus<T> m,
                               Twiddles<T> tw)
{
    std::size_t n = std::size_t(1) << log_n, s = std::size_t(1) << log_s;
    for (std::size_t g = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; g < butterflies;
         g += std::size_t(gridDim.x) * blockDim.x) {
        std::size_t vector = g >> (log_n - 1), j = g & (n / 2 - 1);
        std::size_t r = j >> log_s, t = j & (s - 1);
        const T* in = x + vector * n;
        T* out = y + vector * n;
        T a = in[2 * r * s + t];
        T b = mul_power(in[(2 * r + 1) * s + t], std::uint64_t(r) << log_s, tw, m);
        out[j] = add_mod(a, b, m.p);
        out[j + n / 2] = sub_mod(a, b, m.p);
    }
}

}  // namespace

template <class T>
void ntt_stockham(T* data, int log_n, std::size_t batch, const Modulus<T>& m, const Twiddles<T>& tw)
{
    std::size_t total = (std::size_t(1) << log_n) * batch, butterflies = total / 2;
    Scratch<T> other(total);
    T* x = data;
    T* y = other.get();
    for (int i = log_n - 1; i >= 0; --i) {
        stockham_stage<<<grid_for(butterflies, 256), 256, 0, stream()>>>(x, y, log_n, i, butterflies, m, tw);
        check_launch("stockham_stage");
        std::swap(x, y);
    }
    if (x != data)
        check(cudaMemcpyAsync(data, x, total * sizeof(T), cudaMemcpyDeviceToDevice, stream()),
              "cudaMemcpyAsync (stockham)");
}

template void ntt_stockham<std::uint32_t>(std::uint32_t*, int, std::size_t, const Modulus<std::uint32_t>&,
                                          const Twiddles<std::uint32_t>&);
template void ntt_stockham<std::uint64_t>(std::uint64_t*, int, std::size_t, const Modulus<std::uint64_t>&,
                                          const Twiddles<std::uint64_t>&);

}  // namespace cas::gpu::detail
