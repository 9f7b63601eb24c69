// One pass of the fast transform on the device: the kernel radix_pass, its geometry and the
// phases it is made of. ntt_fast.cu plans the passes and picks the instantiation for each.
//
// One block owns C consecutive j (C columns) and the R-point DFTs of those columns:
//  * load: the R*C inputs are C-long runs (s >= C) or one contiguous region (s < C): the loads
//    are coalesced, then multiplied by omega_N^{rd} (ntt_fast_twiddles.cuh) and stored in shared
//    memory as an R x C tile;
//  * the R-point DFT of every column runs decimation in frequency in shared memory
//    (ntt_fast_dft.cuh), each thread taking 2^e entries into registers and doing e radix-2
//    stages there (e = 4 on 32-bit words, 3 on 64-bit ones), so a shared-memory round trip
//    covers several stages; the powers of omega_R sit in shared memory beside the tile; the
//    output is in bit-reversed order;
//  * store: c-th output of column jj goes to y[j0 + jj + c n/R], read from tile row bitrev(c),
//    again in C-long runs.
// The first pass has r = 0 (no inter-pass twiddles) and reads and writes the same places, so
// it runs in place; that keeps the final result in the caller's buffer for any pass count.
// Transforms that fit one tile (n <= 4096 words) take one pass, with the columns being whole
// vectors of the batch: many short transforms in one launch.
#pragma once

#include "gpu/detail.cuh"
#include "gpu/ntt_fast_arith.cuh"
#include "gpu/ntt_fast_dft.cuh"
#include "gpu/ntt_fast_twiddles.cuh"

#include <cstddef>
#include <cstdint>

namespace cas::gpu::detail {

// 256 threads a block, and blocks an SM by word size: three on 32-bit words (at most 85
// registers, so that one block's arithmetic overlaps another's loads; one block of 512 threads
// an SM is slower), four on 64-bit words (64 registers, a few bytes of spills): their passes are
// bound by latency and issue, not by one pipe, so the fourth block's warps pay (forward NTT of
// 2^24 words, 62-bit: 0.495-0.500 ms against 0.522-0.541 with three blocks; docs/measurements.md,
// "Fast NTT blocks per SM"). The macros exist for such A/B builds.
constexpr int threads_per_block = 256;
#ifndef CAS_MIN_BLOCKS_32
#define CAS_MIN_BLOCKS_32 3
#endif
#ifndef CAS_MIN_BLOCKS_64
#define CAS_MIN_BLOCKS_64 4
#endif
template <class T>
constexpr int min_blocks_per_sm() { return sizeof(T) == 8 ? CAS_MIN_BLOCKS_64 : CAS_MIN_BLOCKS_32; }

struct PassGeometry {
    int log_n;
    int log_r;        // radix of this pass
    int log_s;        // stride
    int log_c;        // columns per block
    bool vectors_as_columns;  // single pass over short vectors: column jj is vector v0 + jj
    int pair_shift;   // >= 0: inter-pass twiddle omega_n^e = tw.pairs[e >> pair_shift]; -1: two-level
    bool walk_twiddles;  // contiguous pass with pair_shift < 0: TwiddleWalk where the geometry allows
    bool walk_strided;   // strided passes (other than the first) walk too
    std::size_t batch;
    std::size_t blocks_per_vector;
    int flags;        // flag_skip_dft (diagnostic)
};

// Global memory is moved in 16-byte vectors (V words) where the geometry allows, and every
// thread issues all its loads before it uses any: a pass is bounded by memory latency otherwise.
template <int V, class T>
__device__ inline void load_words(const T* from, T (&to)[V])
{
    if constexpr (V * sizeof(T) == 16) {
        uint4 q = *reinterpret_cast<const uint4*>(from);
        memcpy(to, &q, 16);
    } else {
#pragma unroll
        for (int k = 0; k < V; ++k) to[k] = from[k];
    }
}
template <int V, class T>
__device__ inline void store_words(T* to, const T (&from)[V])
{
    if constexpr (V * sizeof(T) == 16) {
        uint4 q;
        memcpy(&q, from, 16);
        *reinterpret_cast<uint4*>(to) = q;
    } else {
#pragma unroll
        for (int k = 0; k < V; ++k) to[k] = from[k];
    }
}

// 32 words of 32 bits or 8 of 64 bits in flight per thread: enough loads outstanding to cover
// the memory latency at three (32-bit) or four (64-bit) blocks per SM, within the register budget.
template <class T>
__host__ __device__ constexpr int vectors_in_flight() { return sizeof(T) == 4 ? 8 : 4; }

// Where a block's words come from (a compile-time choice: the index arithmetic is a large part of
// the integer pipeline's load; docs/measurements.md, "Fast NTT: what each design step adds at
// 2^24"):
//   whole_vectors  one pass, column jj is vector v0 + jj of the batch, words contiguous
//   strided        s >= C: C-long runs at stride s, one r for the whole block
//   contiguous     s < C: one contiguous region of R C words (the last passes)
enum Access { whole_vectors = 0, strided = 1, contiguous = 2 };

// Fused work (see Fusion in detail.cuh): which step the pass takes over.
enum Mode { mode_plain = 0, mode_load_u64 = 1, mode_pointwise = 2, mode_store_u64 = 3 };

// Layout variants of the common passes (radix 2^7 / 2^8, 128-byte runs), chosen at run time by
// tune_fast_options bits 4, 5 and 7 so one binary compares them (cas-bench --opts; 32-bit words,
// but for variant 2 on contiguous passes, which 64-bit words take too):
//   variant 0  tile rows padded to C + 1 words; the store phase walks outputs c in order and
//              reads tile row bitrev(c) (a warp's 4 rows then share banks: 4-way conflicts)
//   variant 1  the store phase walks tile rows in order (c = bitrev(row)): conflict-free; on
//              strided passes the tile is unpadded (stride C), so loads and stores move 16-byte
//              vectors through shared memory (a quarter / half of the shared instructions)
//   variant 2  variant 1, and on strided passes the first log_r - 5 DIF stages run in registers
//              straight after the global loads (a thread holds rows t, t + 32, ... of its columns:
//              exactly one radix-2^(log_r-5) DIF group), one shared-memory round trip fewer; on
//              contiguous passes the same stages run in load_columns_in_registers (bit 7).
enum Variant { variant_padded = 0, variant_rowstore = 1, variant_registers = 2 };
// PassGeometry::flags bit 0: skip the DFT stages (diagnostic only, wrong results: cas-bench
// --opts 127 measures what the default's loads and stores cost without the arithmetic).
constexpr int flag_skip_dft = 1;
// bit 1: the fused pointwise product (mode_pointwise) returns a b / R, one Montgomery reduction
// instead of two; ntt_fast has folded the missing factor R into the inverse's 1/n scale.
constexpr int flag_fold_montgomery = 2;
// bit 2: the pass's input is dead once read (an intermediate of the transform): each block drops
// its tile's 128-byte lines from L2 without writing them back (discard.global.L2).
constexpr int flag_discard_input = 4;

// Lines of L2 that held a block's input tile, invalidated without write-back once every thread
// of the block has read them (call after the barrier that follows the loads). Only whole,
// aligned 128-byte lines: rows of C words at stride s (strided) or one region of R C words.
template <class T, int ACCESS>
__device__ inline void discard_input_tile(const T* in, int log_r, int log_c, int log_s)
{
    constexpr int line_words = 128 / sizeof(T);
    const int row_words = ACCESS == strided ? 1 << log_c : (1 << log_r) << log_c;
    if (row_words % line_words != 0 || (reinterpret_cast<std::uintptr_t>(in) & 127) != 0) return;
    const int lines_per_row = row_words / line_words, rows = ACCESS == strided ? 1 << log_r : 1;
    for (int k = threadIdx.x; k < rows * lines_per_row; k += blockDim.x) {
        const T* line = in + (std::size_t(k / lines_per_row) << log_s) + (k % lines_per_row) * line_words;
#if __CUDA_ARCH__ >= 800
        asm volatile("discard.global.L2 [%0], 128;" ::"l"(line) : "memory");
#else
        (void)line;
#endif
    }
}

// The load phase of a contiguous (last, s = 1) pass with its first DIF stages in registers, the
// counterpart of the strided passes' register stages (R = 2^6..2^8; C = 32 32-bit words or 16
// 64-bit ones, so a warp takes 4 or 2 columns).
// Thread (warp w, lane l) takes columns jj = cols w + c (c < cols) and rows d = l + 32 i (i < R / 32):
// a warp's 32 loads of one (c, i) are 32 consecutive words (the input is column-major: word
// jj R + d), its rows pair exactly in the DIF stages of half sizes R/2 .. 32, and its tile
// stores of one (c, i) hit 32 banks (rows l + 32 i, stride C + 1).
// Twiddles omega_n^{(j0 + jj) d}, walked: along a row from column to column the step is
// omega^d (the low table, with its companion), and the row's first twiddle walks down the rows
// by omega^{32 (j0 + cols w)}; so a tile costs a thread two table powers, R / 32 steps and two
// products a word. Forward NTT of 2^24 words, 31-bit: 0.178 ms against 0.193 with every stage in
// shared memory; 64-bit words (three DIF stages in registers, then two shared-memory round trips
// instead of three) gain 1-3% at 2^21..2^23 (docs/measurements.md, "Fast NTT register DIF stages
// on the contiguous pass").
template <class T, int LOG_R, int LOG_C, int ARITH>
__device__ __forceinline__ void load_columns_in_registers(const T* in, T* tile, int stride, std::uint32_t j0, bool walking,
                                                          int pair_shift, const Twiddles<T>& tw, const Modulus<T>& m,
                                                          const T* roots, const T* roots_q, bool skip_dft)
{
    constexpr int R = 1 << LOG_R, rows = R / 32, cols = (1 << LOG_C) / (threads_per_block / 32);
    const int lane = int(threadIdx.x) & 31, first_column = (int(threadIdx.x) >> 5) * cols;
    T v[cols][rows];
#pragma unroll
    for (int c = 0; c < cols; ++c)
#pragma unroll
        for (int i = 0; i < rows; ++i) v[c][i] = in[(first_column + c) * R + lane + 32 * i];

    const std::uint32_t r0 = j0 + std::uint32_t(first_column);  // column index r of c = 0
    if (walking) {
        TwiddleWalk<ARITH, T> row_start;  // omega^{r0 d}, d = lane + 32 i
        row_start.start(r0 * std::uint32_t(lane), tw, m);
        WalkStep<ARITH, T> down = WalkStep<ARITH, T>::of(32 * r0, tw, m);
#pragma unroll
        for (int i = 0; i < rows; ++i) {
            const int d = lane + 32 * i;
            T across = tw.lo[d], across_q = tw.lo_q[d];  // omega^d: from column c to c + 1
            TwiddleWalk<ARITH, T> along = row_start;
#pragma unroll
            for (int c = 0; c < cols; ++c) {
                v[c][i] = along.apply(v[c][i], m);
                if (c + 1 < cols) along.advance(across, across_q, m);
            }
            row_start.advance(down.w, down.q, m);
        }
    } else {
#pragma unroll
        for (int c = 0; c < cols; ++c)
#pragma unroll
            for (int i = 0; i < rows; ++i) {
                std::uint32_t e = (r0 + c) * std::uint32_t(lane + 32 * i);
                if (e == 0) continue;
                if (pair_shift >= 0) {
                    T w, wq;
                    load_pair(tw.pairs, e >> pair_shift, w, wq);
                    v[c][i] = twiddle_product<ARITH>(v[c][i], w, wq, m);
                } else {
                    v[c][i] = mul_power32<ARITH>(v[c][i], e, tw, m);
                }
            }
    }

    if (!skip_dft)
        register_dif_stages<rows, cols, LOG_R - 5, ARITH>([&](int i, int c) -> T& { return v[c][i]; }, lane, roots,
                                                        roots_q, m);
#pragma unroll
    for (int c = 0; c < cols; ++c)
#pragma unroll
        for (int i = 0; i < rows; ++i) tile[(lane + 32 * i) * stride + first_column + c] = v[c][i];
}

// LOG_R, LOG_C >= 0: radix and column count fixed at compile time (the common passes), so
// that every shift is a constant and the DIF loops unroll; -1: read from g.
template <class T, int V, int ACCESS, int LOG_R, int LOG_C, int ARITH, int MODE, int VARIANT>
__global__ void __launch_bounds__(threads_per_block, min_blocks_per_sm<T>())
    radix_pass(const T* x, T* y, PassGeometry g, Modulus<T> m, Twiddles<T> tw, bool scale_output, T scale, T scale_q,
               Fusion<T> f)
{
    extern __shared__ unsigned char shared_bytes[];
    constexpr bool wide = V * sizeof(T) == 16;
    constexpr bool tight = VARIANT >= variant_rowstore && ACCESS == strided && wide && LOG_C >= 0;
    constexpr bool rowstore = VARIANT >= variant_rowstore && ACCESS != whole_vectors;
    constexpr bool registers =
        VARIANT == variant_registers && tight && MODE == mode_plain && LOG_R >= 6 && sizeof(T) == 4;
    // the same for contiguous (last) passes: load_columns_in_registers
    constexpr bool column_registers = VARIANT == variant_registers && ACCESS == contiguous && LOG_R >= 6 &&
                                      LOG_C == (sizeof(T) == 4 ? 5 : 4) && (MODE == mode_plain || MODE == mode_store_u64);
    // fused loads hold two words per input (64-bit source, or both factors): half as many in flight;
    // register stages need the whole tile in one round (R / 32 rows per thread)
    constexpr int max_iterations =
        registers ? ((1 << (LOG_R >= 0 ? LOG_R : 0)) << (LOG_C >= 0 ? LOG_C : 0)) / (threads_per_block * V)
        : MODE == mode_load_u64 || MODE == mode_pointwise ? vectors_in_flight<T>() / 2
                                                          : vectors_in_flight<T>();
    const int log_r = LOG_R >= 0 ? LOG_R : g.log_r, log_c = LOG_C >= 0 ? LOG_C : g.log_c;
    // the contiguous kernels of fixed radix run last passes only (s = 1, see run_pass_with): a
    // constant stride lets the compiler fold the per-word index arithmetic of the load phase
    const int log_s = ACCESS == contiguous && LOG_R >= 0 ? 0 : g.log_s;
    const int R = 1 << log_r, C = 1 << log_c;
    const int stride = tight ? C : C + 1;  // +1: rows start in other banks (column-wise accesses)
    const bool skip_dft = (g.flags & flag_skip_dft) != 0;
    // unit twiddles (dif_stages) only where the stage sizes are known at compile time, and not
    // behind a run-time option: a test per butterfly makes 32-bit kernels spill (ptxas)
    constexpr bool fixed_radix = LOG_R >= 0;
    // omega_R^k and companions for k < R/2 first, then the R x C tile.
    T* roots = reinterpret_cast<T*>(shared_bytes);
    T* roots_q = roots + R / 2;
    T* tile = roots + R;
    for (int k = threadIdx.x; k < R / 2; k += blockDim.x) {
        int at = k << (tw.log_radix_len - log_r);
        roots[k] = tw.radix[at];
        roots_q[k] = tw.radix_q[at];
    }
    // Contiguous passes load single words (LV = 1): consecutive threads take consecutive words,
    // which with s = 1 are consecutive rows d of one column, so the tile stores below hit 32
    // distinct banks (16-byte loads put a warp's stores on 8 rows' banks: 4-way conflicts, 1.6M
    // extra wavefronts a pass at 2^24; docs/measurements.md, "Fast NTT passes under Nsight
    // Compute, 31-bit") and a thread's d is the same in every iteration.
    constexpr int LV = ACCESS == contiguous ? 1 : V;
    constexpr int load_iterations = max_iterations * V / LV;
    // Twiddle walks (TwiddleWalk): word k of the thread's i-th load is L = i T LV + thread LV + k.
    //   contiguous (LV = 1), s R | T: d = (L >> log_s) mod R stays and r = j0 / s + (L >> (log_s +
    //     log_r)) grows by T / (s R) each iteration: the step omega^{(T / R) d} (exponent below
    //     T <= 2^10, in the low table) is the thread's own;
    //   strided (not the first pass, where r = 0): r = j0 / s for the block, d = L >> log_c grows
    //     by T V / C, and the vector's V words share the twiddle.
    // Invalid iterations come last for a thread (L grows with i), so skipping them is safe.
    constexpr int words_per_iteration = threads_per_block * LV;
    bool walking = false;
    if constexpr (ACCESS == contiguous) {
        walking = g.walk_twiddles && g.pair_shift < 0 && (words_per_iteration & ((1 << (log_s + log_r)) - 1)) == 0 &&
                  words_per_iteration <= (1 << tw.low_bits);
    } else if constexpr (ACCESS == strided) {
        walking = g.walk_strided && log_s + log_r < g.log_n;
    }
    if constexpr (registers || column_registers) __syncthreads();  // the register stages read the roots before the tile barrier
    const int tile_words = R << log_c;
    const std::uint32_t s = 1u << log_s;
    const std::size_t total_blocks =
        ACCESS == whole_vectors ? (g.batch + C - 1) >> log_c : g.blocks_per_vector * g.batch;

    for (std::size_t block = blockIdx.x; block < total_blocks; block += gridDim.x) {
        // in_base: where the tile's word 0 comes from (offset in x); the offset of word L is
        // 32-bit arithmetic. out_base: where output 0 of column 0 goes (offset in y).
        std::size_t in_base, out_base, first = 0;
        std::uint32_t j0 = 0;
        std::size_t vectors_left = 0;  // whole_vectors: columns past the batch's end are skipped
        if (ACCESS == whole_vectors) {
            first = (block << log_c) << g.log_n;
            in_base = out_base = first;
            vectors_left = g.batch - (block << log_c);
        } else {
            std::size_t vector = block / g.blocks_per_vector;
            j0 = std::uint32_t(block % g.blocks_per_vector) << log_c;
            first = vector << g.log_n;
            out_base = first + j0;
            if (ACCESS == strided)
                in_base = first + (std::size_t((j0 >> log_s) << log_r) << log_s) + (j0 & (s - 1));
            else
                in_base = first + (std::size_t((j0 >> log_s) << log_r) << log_s);
        }
        const T* in = x + in_base;
        T* out = y + out_base;
        auto in_offset = [&](int L) -> std::uint32_t {
            if (ACCESS == strided) return (std::uint32_t(L >> log_c) << log_s) + (L & (C - 1));
            return std::uint32_t(L);
        };
        auto word_valid = [&](int L) { return ACCESS != whole_vectors || std::size_t(L >> g.log_n) < vectors_left; };
        // mode_load_u64: this vector's source and its length (vector 0 or 1 of the batch)
        const std::uint64_t* src = nullptr;
        std::size_t src_count = 0, src_base = 0;
        // mode_pointwise: the tile of the other spectrum (vector 1 of x, or the caller's)
        const T* other_spectrum = MODE != mode_pointwise ? nullptr
                                  : f.second             ? f.second + in_base
                                                         : in + (std::size_t(1) << g.log_n);
        if constexpr (MODE == mode_load_u64) {
            bool second = first != 0;
            src = second ? f.src1 : f.src0;
            src_count = second ? f.count1 : f.count0;
            src_base = in_base - first;
        }

        TwiddleWalk<ARITH, T> walk;
        WalkStep<ARITH, T> step{};
        if (walking && !column_registers) {  // load_columns_in_registers walks its own way
            std::uint32_t L = threadIdx.x * LV, r, d, e_step;
            if constexpr (ACCESS == contiguous) {
                d = (L >> log_s) & (R - 1);
                r = (j0 >> log_s) + (L >> (log_s + log_r));
                e_step = ((std::uint32_t(words_per_iteration) >> (log_s + log_r)) * d) << log_s;
            } else {
                r = j0 >> log_s;
                d = L >> log_c;
                e_step = (r * (std::uint32_t(words_per_iteration) >> log_c)) << log_s;
            }
            walk.start((r * d) << log_s, tw, m);
            step = WalkStep<ARITH, T>::of(e_step, tw, m);
        }

        if constexpr (column_registers) {
            load_columns_in_registers<T, LOG_R, LOG_C, ARITH>(in, tile, stride, j0, walking, g.pair_shift, tw, m, roots, roots_q, skip_dft);
        } else {
            // ---- load, a round of load_iterations loads of LV words per thread in flight at once,
            //      then twiddle by omega_N^{rd} and place word L at (d, jj) of the tile
            for (int round = 0; round < tile_words; round += load_iterations * threads_per_block * LV) {
                T buffer[load_iterations][LV];
                T other[MODE == mode_pointwise ? load_iterations : 1][LV];
                std::uint64_t wide[MODE == mode_load_u64 ? load_iterations : 1][LV];
#pragma unroll
                for (int it = 0; it < load_iterations; ++it) {
                    int L = round + (it * threads_per_block + int(threadIdx.x)) * LV;
                    if (L < tile_words && word_valid(L)) {
                        if constexpr (MODE == mode_load_u64) {
                            std::size_t at = src_base + in_offset(L);
#pragma unroll
                            for (int k = 0; k < LV; ++k) wide[it][k] = at + k < src_count ? src[at + k] : 0;
                        } else if constexpr (MODE == mode_pointwise) {
                            load_words<LV>(in + in_offset(L), buffer[it]);
                            load_words<LV>(other_spectrum + in_offset(L), other[it]);
                        } else {
                            load_words<LV>(in + in_offset(L), buffer[it]);
                        }
                    }
                }
                if (ACCESS == contiguous && walking) {
                    // A loop of its own, so that nothing but the walk sits between a load and its
                    // tile store (in the general loop below, the lookup paths' branches and index
                    // arithmetic are half of this pass's instructions; docs/measurements.md, "Fast
                    // NTT passes under Nsight Compute, 31-bit")
#pragma unroll
                    for (int it = 0; it < load_iterations; ++it) {
                        int L = round + (it * threads_per_block + int(threadIdx.x)) * LV;
                        if (L >= tile_words) continue;
                        int d = (L >> log_s) & (R - 1), jj = ((L >> (log_s + log_r)) << log_s) + (L & int(s - 1));
                        tile[d * stride + jj] = walk.apply(buffer[it][0], m);
                        walk.advance(step.w, step.q, m);
                    }
                    continue;  // on to the next round
                }
#pragma unroll
                for (int it = 0; it < load_iterations; ++it) {
                    int L0 = round + (it * threads_per_block + int(threadIdx.x)) * LV;
                    if (L0 >= tile_words) continue;
                    if constexpr (MODE == mode_load_u64) {
#pragma unroll
                        for (int k = 0; k < LV; ++k) buffer[it][k] = reduce_word<ARITH>(wide[it][k], f, m);
                    } else if constexpr (MODE == mode_pointwise) {
                        if (g.flags & flag_fold_montgomery) {
#pragma unroll
                            for (int k = 0; k < LV; ++k) buffer[it][k] = mont_mul(buffer[it][k], other[it][k], m.p, m.p_inv);
                        } else {
#pragma unroll
                            for (int k = 0; k < LV; ++k) buffer[it][k] = general_product<ARITH>(buffer[it][k], other[it][k], m);
                        }
                    }
                    if constexpr (ACCESS == whole_vectors) {
                        bool valid = word_valid(L0);
#pragma unroll
                        for (int k = 0; k < V; ++k) {
                            int L = L0 + k;
                            tile[(L & (R - 1)) * stride + (L >> log_r)] = valid ? buffer[it][k] : T(0);
                        }
                    } else if constexpr (ACCESS == strided) {
                        // all V words share row d, and the block shares r: one exponent per vector
                        int d = L0 >> log_c, jj = L0 & (C - 1);
                        std::uint32_t e = ((j0 >> log_s) * std::uint32_t(d)) << log_s;
                        if (walking) {
#pragma unroll
                            for (int k = 0; k < V; ++k) buffer[it][k] = walk.apply(buffer[it][k], m);
                            walk.advance(step.w, step.q, m);
                        } else if (e != 0 && g.pair_shift >= 0) {
                            T w, wq;
                            load_pair(tw.pairs, e >> g.pair_shift, w, wq);
#pragma unroll
                            for (int k = 0; k < V; ++k) buffer[it][k] = twiddle_product<ARITH>(buffer[it][k], w, wq, m);
                        } else if (e != 0) {
#pragma unroll
                            for (int k = 0; k < V; ++k) buffer[it][k] = mul_power32<ARITH>(buffer[it][k], e, tw, m);
                        }
                        if constexpr (tight) {
                            if constexpr (!registers) store_words<V>(tile + d * stride + jj, buffer[it]);
                        } else {
#pragma unroll
                            for (int k = 0; k < V; ++k) tile[d * stride + jj + k] = buffer[it][k];
                        }
                    } else {
#pragma unroll
                        for (int k = 0; k < LV; ++k) {
                            int L = L0 + k;
                            int t = L & int(s - 1);
                            int d = (L >> log_s) & (R - 1);
                            int jj = ((L >> (log_s + log_r)) << log_s) + t;
                            std::uint32_t e = (((j0 + jj) >> log_s) * std::uint32_t(d)) << log_s;
                            T value = buffer[it][k];
                            if (e != 0) {
                                if (g.pair_shift >= 0) {
                                    T w, wq;
                                    load_pair(tw.pairs, e >> g.pair_shift, w, wq);
                                    value = twiddle_product<ARITH>(value, w, wq, m);
                                } else {
                                    value = mul_power32<ARITH>(value, e, tw, m);
                                }
                            }
                            tile[d * stride + jj] = value;
                        }
                    }
                }
                if constexpr (registers) {
                    // The thread holds rows r0 + 32 it (it < R / 32) of columns jj .. jj + V - 1: the
                    // first log_r - 5 DIF stages (half sizes R/2 .. 32) pair only these rows.
                    constexpr int rows = max_iterations, stages = LOG_R - 5;
                    const int r0 = (int(threadIdx.x) * V) >> LOG_C, jj = (int(threadIdx.x) * V) & (C - 1);
                    if (!skip_dft)
                        register_dif_stages<rows, V, stages, ARITH>([&](int it, int k) -> T& { return buffer[it][k]; },
                                                                   r0, roots, roots_q, m);
#pragma unroll
                    for (int it = 0; it < rows; ++it) store_words<V>(tile + (r0 + 32 * it) * stride + jj, buffer[it]);
                }
            }
        }
        __syncthreads();
        if (g.flags & flag_discard_input) {
            // a pass after the first reads an intermediate; the fused product's first pass reads
            // both transformed operands and overwrites the first in place (its lines stay; so do
            // a kept spectrum's)
            if constexpr (ACCESS != whole_vectors && (MODE == mode_plain || MODE == mode_store_u64))
                discard_input_tile<T, ACCESS>(in, log_r, log_c, log_s);
            if constexpr (ACCESS != whole_vectors && MODE == mode_pointwise)
                if (!f.second) discard_input_tile<T, ACCESS>(other_spectrum, log_r, log_c, log_s);
        }

        // ---- R-point DFTs down the columns, three stages per shared-memory round trip
        // (four stages per round trip on 32-bit words; 16 64-bit values would not fit the registers)
        if (skip_dft) {
        } else if constexpr ((registers || column_registers) && sizeof(T) == 4) {
            // stages with half sizes 16 .. 1 left: one round trip of 32 entries (32-bit words)
            dif_stages<32, ARITH>(tile, stride, log_r, 4, log_c, m, roots, roots_q, fixed_radix);
        } else if constexpr (column_registers) {
            // the same in two round trips on 64-bit words (32 of them would not fit the registers)
            dif_stages<8, ARITH>(tile, stride, log_r, 4, log_c, m, roots, roots_q, fixed_radix);
            dif_stages<4, ARITH>(tile, stride, log_r, 1, log_c, m, roots, roots_q, fixed_radix);
        } else {
            int log_h = log_r - 1;
            if constexpr (sizeof(T) == 4)
                for (; log_h >= 3; log_h -= 4) dif_stages<16, ARITH>(tile, stride, log_r, log_h, log_c, m, roots, roots_q, fixed_radix);
            for (; log_h >= 2; log_h -= 3) dif_stages<8, ARITH>(tile, stride, log_r, log_h, log_c, m, roots, roots_q, fixed_radix);
            if (log_h == 1) dif_stages<4, ARITH>(tile, stride, log_r, 1, log_c, m, roots, roots_q, fixed_radix);
            else if (log_h == 0) dif_stages<2, ARITH>(tile, stride, log_r, 0, log_c, m, roots, roots_q, fixed_radix);
        }

        // ---- store in natural order: output c of column jj is in tile row bitrev(c)
        for (int L0 = int(threadIdx.x) * V; L0 < tile_words; L0 += threads_per_block * V) {
            if (!word_valid(L0)) continue;
            T values[V];
            std::uint32_t at;
            if (ACCESS == whole_vectors) {
#pragma unroll
                for (int k = 0; k < V; ++k) {
                    int L = L0 + k;
                    values[k] = tile[bit_reverse(L & (R - 1), log_r) * stride + (L >> log_r)];
                }
                at = std::uint32_t(L0);
            } else {
                // rowstore: consecutive threads read consecutive tile rows (distinct banks) and
                // write output c = bitrev(row); otherwise consecutive c, rows bitrev(c)
                int jj = L0 & (C - 1);
                int row = rowstore ? L0 >> log_c : bit_reverse(L0 >> log_c, log_r);
                int c = rowstore ? bit_reverse(L0 >> log_c, log_r) : L0 >> log_c;
                const T* from = tile + row * stride + jj;
                if constexpr (tight) {
                    load_words<V>(from, values);
                } else {
#pragma unroll
                    for (int k = 0; k < V; ++k) values[k] = from[k];
                }
                at = std::uint32_t(jj) + (std::uint32_t(c) << (g.log_n - log_r));
            }
            if constexpr (ARITH == arith_lazy) {
#pragma unroll
                for (int k = 0; k < V; ++k) values[k] = values[k] >= m.p ? values[k] - m.p : values[k];
            }
            if (scale_output) {
#pragma unroll
                for (int k = 0; k < V; ++k) values[k] = twiddle_product<ARITH>(values[k], scale, scale_q, m);
            }
            if constexpr (MODE == mode_store_u64) {
                std::size_t to = out_base + at;  // batch 1: the index in the product
#pragma unroll
                for (int k = 0; k < V; ++k)
                    if (to + k < f.out_count) f.out[to + k] = std::uint64_t(values[k]);
            } else {
                store_words<V>(out + at, values);
            }
        }
        __syncthreads();  // the tile is reused by the next block of the loop
    }
}

}  // namespace cas::gpu::detail
