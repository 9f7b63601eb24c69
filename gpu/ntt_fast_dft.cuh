// The R-point DFTs of a tile's columns in the fast transform's passes (ntt_fast_pass.cuh):
// decimation in frequency, natural order in and bit-reversed order out. dif_stages runs a few
// radix-2 stages per shared-memory round trip, each thread taking 2^e entries of a column into
// registers; register_dif_stages runs the first stages on rows a thread already holds after its
// global loads, with no shared memory at all. The powers of omega_R (roots, roots_q) sit in
// shared memory beside the tile.
#pragma once

#include "gpu/ntt_fast_arith.cuh"

namespace cas::gpu::detail {

// The low `bits` bits of i in reverse order: the tile row that holds output i of a DFT.
__device__ inline unsigned bit_reverse(unsigned i, int bits)
{
    return bits == 0 ? 0 : __brev(i) >> (32 - bits);
}

// e radix-2 DIF stages (half sizes h, h/2, ..., h/2^(e-1)) on every column, 2^e entries per task.
// fixed_radix (the kernels whose stage sizes are compile-time constants): in the last round trip
// (h = 2^(e-1), so log_q = 0) a butterfly's twiddle index depends on k alone, and those with
// index 0 skip their product (dif_butterfly_unit).
template <int E, int ARITH, class T>
__device__ __forceinline__ void dif_stages(T* tile, int stride, int log_r, int log_h, int log_c, const Modulus<T>& m,
                                           const T* roots, const T* roots_q, bool fixed_radix)
{
    constexpr int e = E == 2 ? 1 : E == 4 ? 2 : E == 8 ? 3 : E == 16 ? 4 : 5;
    const int log_q = log_h + 1 - e;  // distance between a task's entries
    const int tasks = (1 << (log_r - e)) << log_c;
    for (int task = threadIdx.x; task < tasks; task += blockDim.x) {
        int jj = task & ((1 << log_c) - 1), b = task >> log_c;
        int g = b >> log_q, jg = b & ((1 << log_q) - 1);
        int base = (g << (log_h + 1)) + jg;
        T* at = tile + base * stride + jj;
        const int step = stride << log_q;
        T v[E];
#pragma unroll
        for (int k = 0; k < E; ++k) v[k] = at[k * step];
#pragma unroll
        for (int level = 0; level < e; ++level) {
            const int span = E >> (level + 1);
            const int log_hl = log_h - level;
#pragma unroll
            for (int k = 0; k < E; ++k) {
                if ((k & span) != 0) continue;
                int i = jg + ((k & (2 * span - 1)) << log_q);  // position in its group of 2 h_l
                int idx = i << (log_r - 1 - log_hl);  // omega_{2h_l}^i = omega_R^idx
                if (fixed_radix && log_q == 0 && (k & (2 * span - 1)) == 0)
                    dif_butterfly_unit<ARITH>(v[k], v[k + span], m);
                else
                    dif_butterfly<ARITH>(v[k], v[k + span], roots[idx], roots_q[idx], m);
            }
        }
#pragma unroll
        for (int k = 0; k < E; ++k) at[k * step] = v[k];
    }
    __syncthreads();
}

// The first STAGES radix-2 DIF stages (half sizes R/2 .. 32) on the rows a thread holds in
// registers: rows first_row + 32 i (i < ROWS) of WIDTH columns, at(i, c) the value of row i in
// column c. Rows 32 apart are exactly the pairs of those stages, so they need no shared memory.
template <int ROWS, int WIDTH, int STAGES, int ARITH, class T, class At>
__device__ __forceinline__ void register_dif_stages(At at, int first_row, const T* roots, const T* roots_q,
                                                    const Modulus<T>& m)
{
#pragma unroll
    for (int level = 0; level < STAGES; ++level) {
        const int span = ROWS >> (level + 1);
#pragma unroll
        for (int i = 0; i < ROWS; ++i) {
            if ((i & span) != 0) continue;
            int idx = (first_row + 32 * (i & (span - 1))) << level;  // omega_{2h}^i = omega_R^idx
            T w = roots[idx], wq = roots_q[idx];
#pragma unroll
            for (int c = 0; c < WIDTH; ++c) dif_butterfly<ARITH>(at(i, c), at(i + span, c), w, wq, m);
        }
    }
}

}  // namespace cas::gpu::detail
