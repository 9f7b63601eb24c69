// The fast transform: a radix-2^b Stockham FFT, several radix-2 stages per pass in shared memory.
// This file is its host side: the tile shapes, the plan of passes, the kernel instantiation for
// each pass, the options, and the entry point ntt_fast. The pass kernel is ntt_fast_pass.cuh.
//
// The reference Stockham kernel (ntt_stockham.cu) reads and writes all of memory once per
// radix-2 stage: 24 round trips at n = 2^24. Here formula (12) of Moreno Maza & Pan is grouped
// into passes of radix R = 2^b (the four-step / six-step idea of the thesis slides, in its
// Stockham form): for the pass with stride s, N = n / s, j = r s + t (0 <= r < N/R, 0 <= t < s),
//   y[j + c n/R] = sum_{d<R} omega_R^{cd} (omega_N^{rd} x[(R r + d) s + t]),   c < R.
// Passes run with s = n/R_1, n/(R_1 R_2), ..., 1, so 2^24 takes three passes of radix 2^8 (each
// one read and one write of the whole array) instead of 24.
// Products fuse their extra sweeps into the passes (Fusion, detail.cuh): with the fusion and the
// per-pass twiddle tables the 62-bit 2^24 product on the GPU takes 1.95 ms against 2.30 with
// neither (docs/measurements.md, "Fast NTT per-pass twiddle tables and fused products against
// neither").
// What bounds the passes: with their DFT stages skipped (option bit 6, diagnostic) they still
// take 94% of the 31-bit transform's time at 2^24 (67% of the 62-bit one's): the 31-bit transform
// is the data movement of three passes with 128-byte runs, the 62-bit one also its instructions
// (docs/measurements.md, "What bounds the passes at 2^24").
#include "gpu/detail.cuh"
#include "gpu/goldilocks.hpp"
#include "gpu/ntt_fast_pass.cuh"

#include <algorithm>
#include <type_traits>
#include <vector>

namespace cas::gpu::detail {

struct FastConfig {
    int log_tile;        // words of shared memory per block
    int log_max_radix;   // largest radix of a multi-pass plan
    int log_columns;     // C: words per contiguous run of global memory
};
// 8 KiB words of 32 bits or 4 KiB of 64 bits: 32 KiB tiles; runs of 128 bytes; radix up to 2^8.
// Every other shape measured at 2^20..2^24 is slower at 2^24 (the nearest, 64-byte runs: 0.70 /
// 0.35 ms against 0.621 / 0.314 on 62- / 31-bit words; docs/measurements.md, "Fast NTT tile and
// run shapes").
static FastConfig config32{13, 8, 5};
static FastConfig config64{12, 8, 4};

template <class T>
static FastConfig& config() { return sizeof(T) == 4 ? config32 : config64; }

// The fast path's options (tune_fast_options, FastOption in detail.cuh); the kernel variants they
// pick: variant_of_options.
static unsigned g_fast_options =
    option_pair_tables | option_fuse_product | option_twiddle_walk | option_strided_walk | option_row_stores |
    option_register_stages | option_column_registers | option_goldilocks | option_fold_pointwise |
    option_discard_consumed | option_long_radix;

// Radices of the passes, largest first, as even as possible. Just past three passes of the
// largest radix (2^25 and 2^26 words with radix 2^8), three passes with strided passes of one
// radix more (option_long_radix, tiles twice as large: pass_geometry) instead of a fourth sweep
// over the array: forward NTT of 2^25 words 0.99 against 1.50 ms (62-bit), 0.36 against 0.80 ms
// (31-bit). At 2^27 the last pass would take radix 2^9 too, where it neither walks nor keeps its
// register stages: 6.49 against 5.70 ms (docs/measurements.md, "Fast NTT past 2^24: three
// passes of radix up to 2^9").
template <class T>
static std::vector<int> plan_passes(int log_n)
{
    const FastConfig& cfg = config<T>();
    int single = std::min(cfg.log_tile, max_log_radix_table);
    if (log_n <= single) return {log_n};
    int passes = (log_n + cfg.log_max_radix - 1) / cfg.log_max_radix;
    if ((g_fast_options & option_long_radix) && passes == 4 && log_n < 3 * (cfg.log_max_radix + 1)) passes = 3;
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
    static bool attribute_set[most_devices] = {};  // tiles above 48 KiB need the opt-in, once per kernel and device
    if (!attribute_set[current_device()] && smem > 48 * 1024) {
        int optin = 0;
        check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, current_device()),
              "cudaDeviceGetAttribute");
        check(cudaFuncSetAttribute(radix_pass<T, V, ACCESS, LOG_R, LOG_C, ARITH, MODE, VARIANT>,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize, std::min<int>(optin, max_pass_shared_bytes)),
              "cudaFuncSetAttribute (radix_pass)");
        attribute_set[current_device()] = true;
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

// The variant of the common passes (Variant, ntt_fast_pass.cuh) from tune_fast_options: bit 5
// puts the first DIF stages of strided passes in registers, bit 7 those of contiguous passes,
// bit 4 selects row-order stores (and unpadded tiles on strided passes) where neither applies.
// Register stages pay on 32-bit words (one shared-memory round trip of three saved: forward NTT
// of 2^24 words 0.289-0.293 against 0.312-0.314 ms); on 64-bit words they are mixed (3-5% slower
// at 2^22, where row-order stores spill; docs/measurements.md, "Fast NTT layout variants of the
// common passes"): 64-bit words keep variant 0, and only 32-bit kernels are built in the other
// variants, but for the last pass's register stages (option bit 7), which 64-bit words take too.
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
    // The strided passes of radix 2^9 (2^25 and 2^26, plan_passes): no register stages (a thread
    // would hold R / 32 = 16 rows), row-order stores on 32-bit words as the other passes.
    if (vectors && access == strided && g.log_c == special_c && g.log_r == 9) {
        if (sizeof(T) == 4 && (g_fast_options & option_row_stores))
            launch_mode<T, ARITH, wide, strided, 9, special_c, variant_rowstore>(mode, in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
        else
            launch_mode<T, ARITH, wide, strided, 9, special_c, variant_padded>(mode, in, out, g, blocks, m, tw, scale_output, scale, scale_q, f);
        return;
    }
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

// The arithmetic of p's kernels (Arith, ntt_fast_arith.cuh).
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
    // a pass above the largest radix (plan_passes) keeps its runs: the tile grows with the radix
    int log_tile = cfg.log_tile + std::max(0, g.log_r - cfg.log_max_radix);
    g.log_c = std::max(0, std::min({cfg.log_columns, log_tile - g.log_r, log_n - g.log_r}));
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
// while the array is at most twice the L2 (forward NTT of 2^23 31-bit words: 0.084-0.087 against
// 0.091-0.095 ms); over that the lines have left the L2 long before, and the discards cost about
// 1% (docs/measurements.md, "Fast NTT with dead pass inputs dropped from L2").
static bool discard_pays(std::size_t bytes_read)
{
    static const std::size_t l2_bytes = [] {
        int bytes = 0;
        check(cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, current_device()),
              "cudaDeviceGetAttribute (L2)");
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
        // replaces (forward NTT of 2^24 words, 62-bit: 0.603 ms walking, 0.587 not;
        // docs/measurements.md, "Fast NTT twiddle walks against table lookups").
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
