// The fast transform: a radix-2^b Stockham FFT, several radix-2 stages per pass in shared memory.
//
// The reference Stockham kernel (ntt_stockham.cu) reads and writes all of memory once per
// radix-2 stage: 24 round trips at n = 2^24. Here formula (12) of Moreno Maza & Pan is grouped
// into passes of radix R = 2^b (the four-step / six-step idea of the thesis slides, in its
// Stockham form): for the pass with stride s, N = n / s, j = r s + t (0 <= r < N/R, 0 <= t < s),
//   y[j + c n/R] = sum_{d<R} omega_R^{cd} (omega_N^{rd} x[(R r + d) s + t]),   c < R.
// Passes run with s = n/R_1, n/(R_1 R_2), ..., 1, so 2^24 takes three passes of radix 2^8 (each
// one read and one write of the whole array) instead of 24. Checked against the radix-2 form
// in a small host model before it was written here.
//
// One block owns C consecutive j (C columns) and the R-point DFTs of those columns:
//  * load: the R*C inputs are C-long runs (s >= C) or one contiguous region (s < C): the loads
//    are coalesced, then multiplied by omega_N^{rd} (two Shoup products, two-level table) and
//    stored in shared memory as an R x C tile;
//  * the R-point DFT of every column runs decimation in frequency in shared memory, each thread
//    taking 2^e entries into registers and doing e radix-2 stages there (e = 4 on 32-bit words,
//    3 on 64-bit ones), so a shared-memory round trip covers several stages; the powers of
//    omega_R sit in shared memory beside the tile; the output is in bit-reversed order;
//  * store: c-th output of column jj goes to y[j0 + jj + c n/R], read from tile row bitrev(c),
//    again in C-long runs.
// The first pass has r = 0 (no inter-pass twiddles) and reads and writes the same places, so
// it runs in place; that keeps the final result in the caller's buffer for any pass count.
// Transforms that fit one tile (n <= 4096 words) take one pass, with the columns being whole
// vectors of the batch: many short transforms in one launch.
// Inter-pass twiddles omega_N^{rd}: one Shoup product with (w, w') from a per-pass table when
// N <= 2^16 (every pass but the last at 2^24), two with the two-level table otherwise. Measured
// 2026-11-23 at 2^24: 62-bit 0.658 -> 0.628 ms, 31-bit 0.320 -> 0.317 ms (within noise). The last
// pass (and on 32-bit words every pass) now walks its twiddles instead (TwiddleWalk).
// Products fuse their extra sweeps into the passes (Fusion, detail.cuh): 2^24 product on the GPU
// 2.30 -> 1.95 ms (62-bit), 1.17 -> 1.03 ms (31-bit).
// Measured limit: both word sizes run each pass at the same ~1.3 TB/s (128 or 256 MiB moved per
// pass in 0.105 / 0.21 ms at 2^24) although 64-bit words cost about 3x the instructions, and
// trimming 32-bit butterfly instructions changed nothing measurable: the passes are bounded by
// how the block's load / compute / store phases overlap (3 blocks per SM then), not by arithmetic
// alone. Nsight Compute (earlier version): issue slots 65-75% busy, DRAM 20-30%. Later the same
// day, the passes with their DFT stages skipped (tune_fast_options bit 6, diagnostic) took 0.424 /
// 0.259 ms at 2^24 (62 / 31-bit) against 0.618 / 0.313: most of the time is the data movement of
// three passes with 128-byte runs itself. gpu/README.md.
#include "gpu/detail.cuh"
#include "gpu/goldilocks.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

namespace cas::gpu::detail {

struct FastConfig {
    int log_tile;        // words of shared memory per block
    int log_max_radix;   // largest radix of a multi-pass plan
    int log_columns;     // C: words per contiguous run of global memory
};
// 8 KiB words of 32 bits or 4 KiB of 64 bits: 32 KiB tiles; runs of 128 bytes. Measured
// 2026-11-23 (cas-bench --tune, 2^20..2^24, H100), all slower at 2^24 than these (0.621 / 0.314 ms):
// 256-byte runs (C = 64 / 32 words) 1.04 / 0.71 ms; 512-byte runs 1.05 / 0.43; 64-byte runs
// 0.70 / 0.35; radix 2^7 with 512-byte runs (4 passes) 0.73 / 0.38; two passes of radix 2^12
// with 16-byte runs 1.26 / 0.53 ms (with 32-byte runs the 2^15-word tiles did not run).
static FastConfig config32{13, 8, 5};
static FastConfig config64{12, 8, 4};

template <class T>
static FastConfig& config() { return sizeof(T) == 4 ? config32 : config64; }

namespace {

// 256 threads a block, and blocks an SM by word size: three on 32-bit words (at most 85
// registers, so that one block's arithmetic overlaps another's loads; one block of 512 threads
// per SM measured 30-40% slower), four on 64-bit words (64 registers, a few bytes of spills):
// their passes are bound by latency and issue, not by one pipe (Nsight Compute, 2^24 p62:
// issue slots 52-60% busy, the IMAD pipe 58-64%, the ALU pipe 47-52%), and a fourth block gave
// 0.522-0.541 -> 0.495-0.500 ms at 2^24 and 1.60-1.63 -> 1.53-1.54 ms for the 2 x 2^23 product
// (thirteenth session, gpu/README.md). The macros exist for such A/B builds.
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

__device__ inline unsigned bit_reverse(unsigned i, int bits)
{
    return bits == 0 ? 0 : __brev(i) >> (32 - bits);
}

// How a pass reduces, a compile-time choice per kernel made from p in run_pass:
//   arith_exact       every value in [0, p), Shoup products (32-bit words, and 64-bit p >= 2^62)
//   arith_lazy        64-bit words, p < 2^62: Harvey's butterflies, values in [0, 2p) (below)
//   arith_goldilocks  p = 2^64 - 2^32 + 1: products reduced by shifts and additions
//                     (gpu/goldilocks.hpp), no Shoup companions; otherwise p >= 2^63 would take
//                     the carry-aware Shoup product, three high multiplies and two low ones.
// Measured on the H100 (forward NTT 2^24, Goldilocks prime): 0.788 ms with the carry-aware Shoup
// products, 0.699 ms with arith_goldilocks (62-bit lazy Shoup: 0.546 ms). Multiplying the DFT
// stages of half size <= 32 by powers of two instead (every 64th root of unity is 2^k: shifts,
// selects and a reduction, no multiply) was slower, 0.868 ms: the passes are bound by issue
// slots, and a product by 2^k for a k that differs between threads costs more instructions than
// the four wide multiplies it saves.
enum Arith { arith_exact = 0, arith_lazy = 1, arith_goldilocks = 2 };
constexpr bool goldilocks_arith(int arith) { return arith == arith_goldilocks; }

// x w for a twiddle w with Shoup companion wq (unused modulo the Goldilocks prime).
template <int ARITH, class T>
__device__ __forceinline__ T twiddle_product(T x, T w, T wq, const Modulus<T>& m)
{
    if constexpr (goldilocks_arith(ARITH)) return goldilocks::mul(x, w);
    else return mul_twiddle(x, w, wq, m);
}

// a b mod p for a, b in [0, p), neither known in advance (pointwise products).
template <int ARITH, class T>
__device__ __forceinline__ T general_product(T a, T b, const Modulus<T>& m)
{
    if constexpr (goldilocks_arith(ARITH)) return goldilocks::mul(a, b);
    else return mul_mod(a, b, m);
}

// One DIF butterfly: (a, b) -> (a + b, (a - b) w), w = omega_R^idx with Shoup companion wq.
// arith_lazy (64-bit words, p < 2^62): Harvey's butterflies (modarith.cuh), entries in [0, 2p)
// instead of [0, p). Two of the three 64-bit compare-and-selects of a butterfly go; the store
// normalises.
template <int ARITH, class T>
__device__ __forceinline__ void dif_butterfly(T& a, T& b, T w, T wq, const Modulus<T>& m)
{
    T x = a, y = b;
    if constexpr (ARITH == arith_lazy) {
        lazy_dif_butterfly(a, b, w, wq, m.p);
    } else if constexpr (goldilocks_arith(ARITH)) {
        a = goldilocks::add(x, y);
        b = goldilocks::mul(goldilocks::sub(x, y), w);
    } else if constexpr (sizeof(T) == 4) {
        // a - b + p lies in [1, 2p) < 2^32 (p < 2^31), and a Shoup product accepts any
        // 32-bit input: the difference needs no reduction, one IADD3 instead of three
        // instructions. Kept because it is never slower; measured at 2^24 it did not
        // move the 31-bit time (0.313 ms before, 0.314-0.320 after).
        a = add_mod(x, y, m.p);
        b = mul_shoup(x - y + m.p, w, wq, m.p);
    } else {
        a = add_mod(x, y, m.p);
        b = mul_twiddle(sub_mod(x, y, m.p), w, wq, m);
    }
}

// The same butterfly with w = 1: no product. In the last round trip of a DFT the twiddle index
// of each butterfly is a compile-time constant, and many of them are 1: all of the h = 1 stage,
// half of h = 2, a quarter of h = 4, ... (3 of the 4 butterflies of the 64-bit kernels' last
// round trip, 31 of the 80 of the 32-bit ones').
template <int ARITH, class T>
__device__ __forceinline__ void dif_butterfly_unit(T& a, T& b, const Modulus<T>& m)
{
    T x = a, y = b;
    if constexpr (ARITH == arith_lazy) {
        const T two_p = m.p << 1;
        a = below_two_p(x + y, two_p);  // both in [0, 4p) before
        b = below_two_p(x - y + two_p, two_p);
    } else if constexpr (goldilocks_arith(ARITH)) {
        a = goldilocks::add(x, y);
        b = goldilocks::sub(x, y);
    } else {
        a = add_mod(x, y, m.p);
        b = sub_mod(x, y, m.p);
    }
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

// Where a block's words come from (a compile-time choice: the index arithmetic is the integer
// pipeline's main load, see gpu/NOTES.md):
//   whole_vectors  one pass, column jj is vector v0 + jj of the batch, words contiguous
//   strided        s >= C: C-long runs at stride s, one r for the whole block
//   contiguous     s < C: one contiguous region of R C words (the last passes)
enum Access { whole_vectors = 0, strided = 1, contiguous = 2 };

// x w^e for e < 2^32 (a transform of one vector is at most 2^30 long).
template <int ARITH, class T>
__device__ inline T mul_power32(T x, std::uint32_t e, const Twiddles<T>& tw, const Modulus<T>& m)
{
    std::uint32_t h = e >> tw.low_bits, l = e & ((1u << tw.low_bits) - 1);
    if (h != 0) x = twiddle_product<ARITH>(x, tw.hi[h], tw.hi_q[h], m);
    if (l != 0) x = twiddle_product<ARITH>(x, tw.lo[l], tw.lo_q[l], m);
    return x;
}

// omega^k and its Shoup companion from the interleaved per-pass table: one 8- or 16-byte load.
template <class T>
__device__ __forceinline__ void load_pair(const T* pairs, std::uint32_t k, T& w, T& wq)
{
    if constexpr (sizeof(T) == 4) {
        uint2 q = __ldg(reinterpret_cast<const uint2*>(pairs) + k);
        w = q.x;
        wq = q.y;
    } else {
        ulonglong2 q = __ldg(reinterpret_cast<const ulonglong2*>(pairs) + k);
        w = q.x;
        wq = q.y;
    }
}

// x mod p for any 64-bit word x (fused zero padding of products): Shoup products by 1 (and by
// 2^32 mod p for 32-bit words, x = hi 2^32 + lo); one conditional subtraction modulo the
// Goldilocks prime (x < 2^64 < 2p).
template <int ARITH, class T>
__device__ __forceinline__ T reduce_word(std::uint64_t x, const Fusion<T>& f, const Modulus<T>& m)
{
    if constexpr (goldilocks_arith(ARITH)) {
        return goldilocks::canonical(x);
    } else if constexpr (sizeof(T) == 4) {
        std::uint32_t hi = mul_shoup(std::uint32_t(x >> 32), f.two32, f.two32_q, m.p);
        std::uint32_t lo = mul_shoup(std::uint32_t(x), 1u, f.one_q, m.p);
        return add_mod(hi, lo, m.p);
    } else {
        return mul_twiddle(x, std::uint64_t(1), f.one_q, m);
    }
}

// Inter-pass twiddles by walking instead of looking up. On the last pass of n > 2^16 (contiguous,
// N > 2^log_pairs) every word has its own omega_n^{rd}; the two-level table costs it two Shoup
// products and four dependent table loads, and Nsight Compute showed that pass at twice the time
// of the first (2^24, 31-bit: 139 against 65 us, DRAM 24% busy: latency-bound). But a thread's
// word keeps its d in every iteration of a contiguous pass while r grows by a fixed step, and on
// strided passes the block shares r while a thread's d grows by a fixed step. Either way the
// thread's twiddle walks
//   w <- w omega^step,
// with w in Montgomery form (times 2^b), applied by one Montgomery product, which needs no Shoup
// companion. The step is one Shoup product when omega^step is in the low table (it has
// companions), a Montgomery product otherwise. Measured on the H100, forward NTT at 2^24: the
// last pass 139 -> 96 us (31-bit) and 271 -> 233 us (62-bit, Nsight Compute); whole transform
// 31-bit 0.318 -> 0.257 ms, and 0.241 ms with the strided passes walking too; 62-bit 0.616 ->
// 0.587 ms (strided walks are slower there: 32-bit words only).
template <int ARITH, class T>
__device__ inline T montgomery_power(std::uint32_t e, const Twiddles<T>& tw, const Modulus<T>& m)
{
    return mont_mul(mul_power32<ARITH>(T(1), e, tw, m), m.r2, m.p, m.p_inv);
}

// omega^e as a walk's step: from the low table with its Shoup companion when e is there (q != 0:
// a companion is never 0 for a power other than 1), in Montgomery form otherwise (q == 0).
template <int ARITH, class T>
struct WalkStep {
    T w, q;
    __device__ static WalkStep of(std::uint32_t e, const Twiddles<T>& tw, const Modulus<T>& m)
    {
        if constexpr (goldilocks_arith(ARITH)) return {mul_power32<ARITH>(T(1), e, tw, m), T(0)};
        else if (e != 0 && (e >> tw.low_bits) == 0) return {tw.lo[e], tw.lo_q[e]};
        else return {montgomery_power<ARITH>(e, tw, m), T(0)};
    }
};

// Modulo the Goldilocks prime the walk stays in plain form: its product needs no companion and
// is cheaper than a Montgomery one.
template <int ARITH, class T>
struct TwiddleWalk {
    T current;  // omega^e of this iteration, Montgomery form (plain modulo the Goldilocks prime)

    __device__ void start(std::uint32_t e, const Twiddles<T>& tw, const Modulus<T>& m)
    {
        if constexpr (goldilocks_arith(ARITH)) current = mul_power32<ARITH>(T(1), e, tw, m);
        else current = montgomery_power<ARITH>(e, tw, m);
    }
    __device__ T apply(T x, const Modulus<T>& m) const  // x < p
    {
        if constexpr (goldilocks_arith(ARITH)) return goldilocks::mul(x, current);
        else return mont_mul(x, current, m.p, m.p_inv);
    }
    __device__ void advance(T step, T step_q, const Modulus<T>& m)
    {
        if constexpr (goldilocks_arith(ARITH)) current = goldilocks::mul(current, step);
        else current = step_q != 0 ? mul_twiddle(current, step, step_q, m) : mont_mul(current, step, m.p, m.p_inv);
    }
};

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
// products a word. Measured on the H100, forward NTT at 2^24: 31-bit 0.193 -> 0.178 ms; 64-bit
// words (three DIF stages in registers, then two shared-memory round trips instead of three)
// 2^21..2^23 1-3% faster (62-bit 2^23 0.303 -> 0.294 ms), 2^24 within noise (0.554 -> 0.551).
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
    // behind a run-time option: a test per butterfly made 32-bit kernels spill (ptxas)
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
    // extra wavefronts a pass at 2^24, ncu) and a thread's d is the same in every iteration.
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
                    // arithmetic were half of this pass's instructions, ncu)
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

}  // namespace

// Radices of the passes, largest first, as even as possible.
template <class T>
static std::vector<int> plan_passes(int log_n)
{
    const FastConfig& cfg = config<T>();
    int single = std::min(cfg.log_tile, max_log_radix_table);
    if (log_n <= single) return {log_n};
    int passes = (log_n + cfg.log_max_radix - 1) / cfg.log_max_radix;
    std::vector<int> radices;
    for (int i = 0; i < passes; ++i) radices.push_back(log_n / passes + (i < log_n % passes ? 1 : 0));
    return radices;
}

// Shared memory of a pass: tile rows of C + 1 words and the pass's roots (R words with companions).
template <class T>
static std::size_t pass_shared_bytes(const PassGeometry& g)
{
    return (std::size_t(1) << g.log_r) * ((std::size_t(1) << g.log_c) + 2) * sizeof(T);
}
constexpr std::size_t max_pass_shared_bytes = 160 * 1024;

template <class T, int ARITH, int V, int ACCESS, int LOG_R, int LOG_C, int MODE, int VARIANT>
static void launch_pass(const T* in, T* out, const PassGeometry& g, std::size_t blocks, const Modulus<T>& m,
                        const Twiddles<T>& tw, bool scale_output, T scale, T scale_q, const Fusion<T>& f)
{
    std::size_t smem = pass_shared_bytes<T>(g);
    static bool attribute_set = false;  // tiles above 48 KiB need the opt-in, once per kernel
    if (!attribute_set && smem > 48 * 1024) {
        int optin = 0;
        check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0), "cudaDeviceGetAttribute");
        check(cudaFuncSetAttribute(radix_pass<T, V, ACCESS, LOG_R, LOG_C, ARITH, MODE, VARIANT>,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize, std::min<int>(optin, max_pass_shared_bytes)),
              "cudaFuncSetAttribute (radix_pass)");
        attribute_set = true;
    }
    radix_pass<T, V, ACCESS, LOG_R, LOG_C, ARITH, MODE, VARIANT>
        <<<unsigned(std::min<std::size_t>(blocks, 1u << 20)), threads_per_block, smem, stream()>>>(
            in, out, g, m, tw, scale_output, scale, scale_q, f);
    check_launch("radix_pass");
}

// The fused modes exist for the wide-vector strided (first pass) and contiguous (last pass)
// kernels only; fast_fusable() promises the geometry. Variant 2 differs from 1 only on plain
// strided passes and on contiguous ones (plain or widening), and 1 from 0 only on strided /
// contiguous ones: no duplicate kernels.
template <class T, int ARITH, int V, int ACCESS, int LOG_R = -1, int LOG_C = -1, int VARIANT = 0>
static void launch_mode(int mode, const T* in, T* out, const PassGeometry& g, std::size_t blocks, const Modulus<T>& m,
                        const Twiddles<T>& tw, bool scale_output, T scale, T scale_q, const Fusion<T>& f)
{
    constexpr bool wide = V * sizeof(T) == 16;
    constexpr int fused_variant = VARIANT == 2 && ACCESS != contiguous ? 1 : VARIANT;
    if (mode == mode_plain) {
        constexpr int plain_variant = ACCESS == strided || ACCESS == contiguous ? VARIANT : fused_variant;
        launch_pass<T, ARITH, V, ACCESS, LOG_R, LOG_C, mode_plain, plain_variant>(in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
        return;
    }
    if constexpr (wide && ACCESS == strided) {
        if (mode == mode_load_u64) {
            launch_pass<T, ARITH, V, ACCESS, LOG_R, LOG_C, mode_load_u64, fused_variant>(in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
            return;
        }
        if (mode == mode_pointwise) {
            launch_pass<T, ARITH, V, ACCESS, LOG_R, LOG_C, mode_pointwise, fused_variant>(in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
            return;
        }
    }
    if constexpr (wide && ACCESS == contiguous) {
        if (mode == mode_store_u64) {
            launch_pass<T, ARITH, V, ACCESS, LOG_R, LOG_C, mode_store_u64, fused_variant>(in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
            return;
        }
    }
    throw Error("fast NTT: fused pass without a kernel for its geometry");
}

// The variant of the common passes (Variant above) from tune_fast_options: bit 5 puts the first
// DIF stages of strided passes in registers, bit 7 those of contiguous passes, bit 4 selects
// row-order stores (and unpadded tiles on strided passes) where neither applies. Measured 2026-11-23 on the H100
// (branch ntt-variants, before the twiddle walks), forward NTT ms at 2^20..2^24:
//   variants     31-bit                                   62-bit
//   none         .033-.034 .052 .083 .157-.160 .312-.314  .055 .087-.088 .167 .318-.321 .618-.620
//   rows         .033-.034 .051-.054 .080-.081 .156-.158 .306-.307  .056 .092 .172 .326 .624-.637
//   rows + regs  .033-.037 .044-.047 .073-.075 .145-.147 .289-.293  .053 .088-.089 .172-.175 .316-.317 .609-.612
// Register stages pay on 32-bit words (one shared-memory round trip of three saved); on 64-bit
// words they were mixed (3-5% slower at 2^22, where row-order stores spill): 64-bit words keep
// variant 0, and only 32-bit kernels are built in the other variants, but for the last pass's
// register stages (option bit 7), which 64-bit words take too.
static unsigned g_fast_options =
    option_pair_tables | option_fuse_product | option_twiddle_walk | option_strided_walk | option_row_stores |
    option_register_stages | option_column_registers | option_goldilocks | option_fold_pointwise |
    option_discard_consumed;
template <class T>
static int variant_of_options(int access)
{
    if (sizeof(T) != 4)
        return access == contiguous && (g_fast_options & option_column_registers) ? variant_registers : variant_padded;
    if (access == strided && (g_fast_options & option_register_stages)) return variant_registers;
    if (access == contiguous && (g_fast_options & option_column_registers)) return variant_registers;
    return (g_fast_options & option_row_stores) ? variant_rowstore : variant_padded;
}
template <class T, int ARITH, int ACCESS, int LOG_R, int LOG_C>
static void launch_variant(int mode, const T* in, T* out, const PassGeometry& g, std::size_t blocks, const Modulus<T>& m,
                           const Twiddles<T>& tw, bool scale_output, T scale, T scale_q, const Fusion<T>& f)
{
    constexpr int wide = int(16 / sizeof(T));
    if constexpr (sizeof(T) == 8 && ACCESS == contiguous) {
        if (variant_of_options<T>(ACCESS) == variant_registers) {
            launch_mode<T, ARITH, wide, ACCESS, LOG_R, LOG_C, variant_registers>(mode, in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
            return;
        }
    }
    if constexpr (sizeof(T) == 4) {
        switch (variant_of_options<T>(ACCESS)) {
        case variant_registers:
            launch_mode<T, ARITH, wide, ACCESS, LOG_R, LOG_C, variant_registers>(mode, in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
            return;
        case variant_rowstore:
            launch_mode<T, ARITH, wide, ACCESS, LOG_R, LOG_C, variant_rowstore>(mode, in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
            return;
        }
    }
    launch_mode<T, ARITH, wide, ACCESS, LOG_R, LOG_C, variant_padded>(mode, in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
}

template <class T>
static bool wide_vectors(const PassGeometry& g)
{
    constexpr int log_wide = sizeof(T) == 4 ? 2 : 1;
    return g.vectors_as_columns ? g.log_n >= log_wide : g.log_c >= log_wide && g.log_r + g.log_s >= log_wide;
}
static int access_of(const PassGeometry& g)
{
    return g.vectors_as_columns ? whole_vectors : g.log_s >= g.log_c ? strided : contiguous;
}

// 16-byte vectors when every vector stays inside one run of the tile and is aligned.
template <class T, int ARITH>
static void run_pass_with(int mode, const T* in, T* out, const PassGeometry& g, std::size_t blocks, const Modulus<T>& m,
                          const Twiddles<T>& tw, bool scale_output, T scale, T scale_q, const Fusion<T>& f)
{
    constexpr int wide = int(16 / sizeof(T));
    bool vectors = wide_vectors<T>(g);
    int access = access_of(g);
    if (pass_shared_bytes<T>(g) > max_pass_shared_bytes) {
        std::size_t tile_words = std::size_t(1) << (g.log_r + g.log_c);
        throw Error("fast NTT: tile of " + std::to_string(tile_words) + " words is too large for one block");
    }
    // The passes of 2^20..2^27 with the default tiles: radix 2^7 or 2^8, C = 32 or 16 words.
    constexpr int special_c = sizeof(T) == 4 ? 5 : 4;
    if (vectors && access != whole_vectors && g.log_c == special_c && (g.log_r == 7 || g.log_r == 8) &&
        (access == strided || g.log_s == 0)) {
        if (access == strided) {
            if (g.log_r == 8) launch_variant<T, ARITH, strided, 8, special_c>(mode, in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
            else launch_variant<T, ARITH, strided, 7, special_c>(mode, in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
        } else {
            if (g.log_r == 8) launch_variant<T, ARITH, contiguous, 8, special_c>(mode, in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
            else launch_variant<T, ARITH, contiguous, 7, special_c>(mode, in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
        }
        return;
    }
    if (vectors) {
        if (access == whole_vectors) launch_mode<T, ARITH, wide, whole_vectors>(mode, in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
        else if (access == strided) launch_mode<T, ARITH, wide, strided>(mode, in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
        else launch_mode<T, ARITH, wide, contiguous>(mode, in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
    } else {
        if (access == whole_vectors) launch_mode<T, ARITH, 1, whole_vectors>(mode, in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
        else if (access == strided) launch_mode<T, ARITH, 1, strided>(mode, in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
        else launch_mode<T, ARITH, 1, contiguous>(mode, in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
    }
}

// The arithmetic of p's kernels (Arith above).
template <class T>
static int arith_of(T p)
{
    if constexpr (sizeof(T) == 8) {
        if (p < (std::uint64_t(1) << 62)) return arith_lazy;  // 4p < 2^64: lazy butterflies
        if (p == goldilocks::prime && (g_fast_options & option_goldilocks)) return arith_goldilocks;
    }
    return arith_exact;
}

template <class T>
static void run_pass(int mode, const T* in, T* out, const PassGeometry& g, std::size_t blocks, const Modulus<T>& m,
                     const Twiddles<T>& tw, bool scale_output, T scale, T scale_q, const Fusion<T>& f)
{
    const int arith = arith_of<T>(m.p);
    if constexpr (sizeof(T) == 8) {  // 32-bit words are always exact
        if (arith == arith_lazy) {
            run_pass_with<T, arith_lazy>(mode, in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
            return;
        }
        if (arith == arith_goldilocks) {
            run_pass_with<T, arith_goldilocks>(mode, in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
            return;
        }
    }
    run_pass_with<T, arith_exact>(mode, in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
}

// x R mod p, R = 2^b the Montgomery radix of b-bit words.
template <class T>
static T times_montgomery_radix(T x, T p)
{
    constexpr int bits = 8 * sizeof(T);
    unsigned __int128 r = (unsigned __int128)1 << bits;
    return T((unsigned __int128)x * (r % p) % p);
}

static int pass_flags() { return (g_fast_options & option_skip_dft) ? flag_skip_dft : 0; }

// Geometry of pass i of a multi-pass plan.
template <class T>
static PassGeometry pass_geometry(int log_n, const std::vector<int>& radices, std::size_t i, std::size_t batch)
{
    const FastConfig& cfg = config<T>();
    PassGeometry g{};
    g.log_n = log_n;
    g.log_r = radices[i];
    int log_s = log_n;
    for (std::size_t k = 0; k <= i; ++k) log_s -= radices[k];
    g.log_s = log_s;
    g.log_c = std::max(0, std::min({cfg.log_columns, cfg.log_tile - g.log_r, log_n - g.log_r}));
    g.vectors_as_columns = false;
    g.pair_shift = -1;
    g.batch = batch;
    g.blocks_per_vector = (std::size_t(1) << (log_n - g.log_r)) >> g.log_c;
    g.flags = pass_flags();
    return g;
}

unsigned fast_options() { return g_fast_options; }

template <class T>
bool fast_fusable(int log_n)
{
    std::vector<int> radices = plan_passes<T>(log_n);
    if (radices.size() < 2) return false;
    PassGeometry first = pass_geometry<T>(log_n, radices, 0, 1), last = pass_geometry<T>(log_n, radices, radices.size() - 1, 1);
    return wide_vectors<T>(first) && access_of(first) == strided && wide_vectors<T>(last) &&
           access_of(last) == contiguous;
}

// Whether a pass should drop its dead input from L2 (option bit 11, flag_discard_input): it pays
// while the array is at most twice the L2 (2^23 31-bit words: 0.092 -> 0.086 ms; 2^22 62-bit:
// 0.147 -> 0.141 ms; products of 2^22 words 1.5-5% faster). Over that (2^24 products) the lines
// left the L2 long before and the discards cost 1%. H100, gpu/README.md (fourteenth session).
static bool discard_pays(std::size_t bytes_read)
{
    static const std::size_t l2_bytes = [] {
        int bytes = 0;
        check(cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, 0), "cudaDeviceGetAttribute (L2)");
        return std::size_t(bytes);
    }();
    return (g_fast_options & option_discard_consumed) && bytes_read <= 2 * l2_bytes;
}

template <class T>
void ntt_fast(T* data, int log_n, std::size_t batch, const Modulus<T>& m, const Twiddles<T>& tw, T scale, T scale_q,
              const Fusion<T>* fusion)
{
    const FastConfig& cfg = config<T>();
    std::vector<int> radices = plan_passes<T>(log_n);
    std::size_t n = std::size_t(1) << log_n, total = n * batch;
    Fusion<T> f = fusion ? *fusion : Fusion<T>{};
    const bool fold = f.first_mode == mode_pointwise && (g_fast_options & option_fold_pointwise) &&
                      !goldilocks_arith(arith_of<T>(m.p));
    if (fold) {
        scale = times_montgomery_radix(scale, m.p);
        scale_q = shoup_companion(scale, m.p);
    }
    bool scale_output = scale != T(1);
    if (fusion && !fast_fusable<T>(log_n)) throw Error("fast NTT: fused transform of a length that cannot fuse");
    if (f.first_mode == mode_load_u64 && batch > 2) throw Error("fast NTT: fused loads take one or two vectors");
    if (f.first_mode == mode_pointwise && batch != 1) throw Error("fast NTT: fused product needs one vector");
    if (f.widen_out && batch != 1) throw Error("fast NTT: widened output needs one vector");

    if (radices.size() == 1) {
        PassGeometry g{};
        g.log_n = g.log_r = log_n;
        g.log_s = 0;
        g.log_c = std::max(0, std::min(cfg.log_tile, 13) - log_n);
        while (g.log_c > 0 && (std::size_t(1) << (g.log_c - 1)) >= batch) --g.log_c;  // no empty columns
        g.vectors_as_columns = true;
        g.pair_shift = -1;
        g.batch = batch;
        g.flags = pass_flags();
        std::size_t blocks = (batch + (std::size_t(1) << g.log_c) - 1) >> g.log_c;
        run_pass(mode_plain, data, data, g, blocks, m, tw, scale_output, scale, scale_q, f);
        return;
    }

    // Pass 1 runs in place; the rest alternate so that the last one writes `data`.
    std::size_t remaining = radices.size() - 1;
    Scratch<T> other(total);
    T* buffers[2] = {data, other.get()};
    int where = remaining % 2 == 0 ? 0 : 1;  // where pass 1 leaves its output
    for (std::size_t i = 0; i < radices.size(); ++i) {
        PassGeometry g = pass_geometry<T>(log_n, radices, i, batch);
        // omega_N^e from the per-pass table when N = n / s fits it: one Shoup product, not two
        if ((g_fast_options & option_pair_tables) && log_n - g.log_s <= tw.log_pairs) g.pair_shift = log_n - tw.log_pairs;
        g.walk_twiddles = (g_fast_options & option_twiddle_walk) != 0;
        // On 64-bit words a Montgomery product costs more than the Shoup product and the load it
        // replaces: measured at 2^24, 62-bit 0.587 ms without, 0.603 ms with; 31-bit 0.257 -> 0.241.
        g.walk_strided = sizeof(T) == 4 && (g_fast_options & option_strided_walk) != 0;
        const T* in;
        T* out;
        if (i == 0) {
            in = data;
            out = buffers[where];  // in place when where == 0: pass 1 writes what it read
        } else {
            in = buffers[where];
            where ^= 1;
            out = buffers[where];
        }
        bool last = i + 1 == radices.size();
        int mode = i == 0 ? f.first_mode : last && f.widen_out ? int(mode_store_u64) : int(mode_plain);
        if (fold && i == 0) g.flags |= flag_fold_montgomery;
        if ((i > 0 || mode == mode_pointwise) && discard_pays((mode == mode_pointwise ? 2 : 1) * total * sizeof(T)))
            g.flags |= flag_discard_input;
        run_pass(mode, in, out, g, g.blocks_per_vector * batch, m, tw, last && scale_output, scale, scale_q, f);
    }
}

template void ntt_fast<std::uint32_t>(std::uint32_t*, int, std::size_t, const Modulus<std::uint32_t>&,
                                      const Twiddles<std::uint32_t>&, std::uint32_t, std::uint32_t,
                                      const Fusion<std::uint32_t>*);
template void ntt_fast<std::uint64_t>(std::uint64_t*, int, std::size_t, const Modulus<std::uint64_t>&,
                                      const Twiddles<std::uint64_t>&, std::uint64_t, std::uint64_t,
                                      const Fusion<std::uint64_t>*);
template bool fast_fusable<std::uint32_t>(int);
template bool fast_fusable<std::uint64_t>(int);

}  // namespace cas::gpu::detail

namespace cas::gpu {
void tune_fast(int word_bytes, int log_tile, int log_max_radix, int log_columns)
{
    auto& cfg = word_bytes == 4 ? detail::config32 : detail::config64;
    cfg = detail::FastConfig{log_tile, log_max_radix, log_columns};
}
unsigned tune_fast_options(unsigned options)
{
    unsigned previous = detail::g_fast_options;
    detail::g_fast_options = options;
    return previous;
}
}  // namespace cas::gpu
