// Reference kernel 1: the radix-2 Cooley-Tukey FFT of Moreno Maza & Pan (2010), formula (10)
// with base case m = 1:
//   DFT_{2^k} = prod_{i=1..k} Delta(2^{i-1}, 2, 2^{k-i}) (I_{2^{i-1}} (x) D_{2,2^{k-i}})  .  S_1
// where S_1, the product of the stride permutations (I_{2^{i-1}} (x) L_2^{2^{k-i+1}}), is the
// bit-reversal permutation. So: one permutation kernel, then k butterfly kernels
// ("list_butterfly_kernel", section 3.2) with q = 1, 2, 4, ..., n/2:
//   Y[i] = X[i] + X[q+i] W[i],  Y[q+i] = X[i] - X[q+i] W[i],  W[i] = theta^i, theta a 2q-th root.
// Written for reading, not for speed: one launch and one pass over memory per stage.
#include "gpu/detail.cuh"

namespace cas::gpu::detail {
namespace {

__device__ inline std::size_t bit_reverse(std::size_t i, int bits)
{
    return bits == 0 ? 0 : std::size_t(__brevll(i) >> (64 - bits));
}

// out[bitrev(i)] = in[i] within each vector of the batch (S_1).
template <class T>
__global__ void bit_reverse_permutation(const T* in, T* out, int log_n, std::size_t total)
{
    std::size_t n = std::size_t(1) << log_n;
    for (std::size_t g = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; g < total;
         g += std::size_t(gridDim.x) * blockDim.x) {
        std::size_t vector = g >> log_n, i = g & (n - 1);
        out[vector * n + bit_reverse(i, log_n)] = in[g];
    }
}

// One stage: butterflies of span q on every block of 2q entries; theta = w^(n / 2q), so
// theta^j = w^(j n / 2q).
template <class T>
__global__ void list_butterfly(T* x, int log_n, int log_q, std::size_t butterflies, Modulus<T> m, Twiddles<T> tw)
{
    std::size_t n = std::size_t(1) << log_n, q = std::size_t(1) << log_q;
    for (std::size_t g = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; g < butterflies;
         g += std::size_t(gridDim.x) * blockDim.x) {
        std::size_t vector = g >> (log_n - 1), b = g & (n / 2 - 1);
        std::size_t j = b & (q - 1), block = b >> log_q;
        T* base = x + vector * n + block * 2 * q;
        T u = base[j];
        T v = mul_power(base[j + q], std::uint64_t(j) << (log_n - 1 - log_q), tw, m);
        base[j] = add_mod(u, v, m.p);
        base[j + q] = sub_mod(u, v, m.p);
    }
}

}  // namespace

template <class T>
void ntt_radix2(T* data, int log_n, std::size_t batch, const Modulus<T>& m, const Twiddles<T>& tw)
{
    std::size_t n = std::size_t(1) << log_n, total = n * batch;
    Scratch<T> permuted(total);
    bit_reverse_permutation<<<grid_for(total, 256), 256, 0, stream()>>>(data, permuted.get(), log_n, total);
    check_launch("bit_reverse_permutation");
    check(cudaMemcpyAsync(data, permuted.get(), total * sizeof(T), cudaMemcpyDeviceToDevice, stream()),
          "cudaMemcpyAsync (radix2)");
    std::size_t butterflies = total / 2;
    for (int log_q = 0; log_q < log_n; ++log_q) {
        list_butterfly<<<grid_for(butterflies, 256), 256, 0, stream()>>>(data, log_n, log_q, butterflies, m, tw);
        check_launch("list_butterfly");
    }
}

template void ntt_radix2<std::uint32_t>(std::uint32_t*, int, std::size_t, const Modulus<std::uint32_t>&,
                                        const Twiddles<std::uint32_t>&);
template void ntt_radix2<std::uint64_t>(std::uint64_t*, int, std::size_t, const Modulus<std::uint64_t>&,
                                        const Twiddles<std::uint64_t>&);

}  // namespace cas::gpu::detail
