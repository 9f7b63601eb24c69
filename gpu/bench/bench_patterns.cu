// cas-bench-patterns: what the memory system allows for the access patterns of an NTT pass.
//
// A radix-R pass of the fast transform (ntt_fast_pass.cuh) reads R runs of C words (at stride
// s, or one contiguous region on the last pass) and writes R runs of C words at stride n / R.
// This program copies 2^log_n words with exactly those patterns and nothing else (no shared
// memory, no arithmetic), so its rates are the ceiling of a pass of that shape; the contiguous
// copy and cuFFT's C2C of the same bytes are measured in the same run for scale. At 2^24 it also
// moves the words as two radix-4096 passes would through thread-block clusters (cluster_copies).
//
// Usage: cas-bench-patterns [--log-n 24] [--reps 21] [--fft-only] [--cluster-only]
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cufft.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

void check(cudaError_t status, const char* what)
{
    if (status != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
        std::exit(1);
    }
}

struct Pattern {
    int log_r;   // runs per tile
    int log_c;   // words per run
    int log_s;   // input stride of the runs; -1: the tile's input is one contiguous region
};

// Moves 16-byte vectors. Vector g of the whole array belongs to tile g / (R C / V), row d and
// column jj of it; rows are read at stride s (or contiguously) and written at stride n / R.
template <int K>
__global__ void __launch_bounds__(256) pattern_copy(const uint4* in, uint4* out, int log_n_v, int log_r, int log_c_v,
                                                    int log_s_v, std::uint32_t vectors)
{
    const std::uint32_t tile_mask = (1u << (log_r + log_c_v)) - 1, c_mask = (1u << log_c_v) - 1;
    for (std::uint32_t base = blockIdx.x * blockDim.x * K; base < vectors; base += gridDim.x * blockDim.x * K) {
        uint4 held[K];
        std::uint32_t to[K];
#pragma unroll
        for (int k = 0; k < K; ++k) {
            std::uint32_t g = base + k * blockDim.x + threadIdx.x;
            std::uint32_t tile = g >> (log_r + log_c_v), v = g & tile_mask;
            std::uint32_t d = v >> log_c_v, jj = v & c_mask;
            std::uint32_t j0 = tile << log_c_v;  // first column of the tile
            std::uint32_t from;
            if (log_s_v < 0) {
                from = g;
            } else {
                std::uint32_t r = j0 >> log_s_v, t = j0 & ((1u << log_s_v) - 1);
                from = (((r << log_r) + d) << log_s_v) + t + jj;
            }
            to[k] = j0 + jj + (d << (log_n_v - log_r));
            held[k] = in[from];
        }
#pragma unroll
        for (int k = 0; k < K; ++k) out[to[k]] = held[k];
    }
}

// A pass of radix 4096 (two passes at 2^24) whose tile is 4096 rows x G vb 16-byte vectors,
// split over G sibling blocks (consecutive block indices, or one thread-block cluster): block b
// owns column slice b % G of tile b / G, vb vectors wide, all 4096 rows, so its shared memory
// holds 4096 vb vectors (64 KiB for vb = 1) and three blocks fit an SM, while the siblings
// together read and write runs of 16 G vb bytes. Phases as in a transform: all loads into shared
// memory, barrier, all stores.
//   first: rows at stride n / 4096 in and out (the first pass runs in place);
//   last:  the block's 4096 vb vectors are one contiguous region in, rows at stride n / 4096 out.
__global__ void __launch_bounds__(256) slice_copy(const uint4* in, uint4* out, int log_n_v, int log_g, int vb,
                                                  bool last)
{
    extern __shared__ uint4 tile[];
    constexpr int log_rows = 12;
    const std::uint32_t g_mask = (1u << log_g) - 1, slice = blockIdx.x & g_mask, t = blockIdx.x >> log_g;
    const std::uint32_t row_stride = 1u << (log_n_v - log_rows), width = std::uint32_t(vb) << log_g;
    const std::uint32_t column = t * width + slice * vb, count = std::uint32_t(vb) << log_rows;
    constexpr int K = 16;
    for (std::uint32_t base = 0; base < count; base += K * blockDim.x) {
        uint4 held[K];
#pragma unroll
        for (int k = 0; k < K; ++k) {
            std::uint32_t i = base + k * blockDim.x + threadIdx.x;
            std::uint32_t from = last ? blockIdx.x * count + i : (i / vb) * row_stride + column + i % vb;
            held[k] = in[from];
        }
#pragma unroll
        for (int k = 0; k < K; ++k) tile[base + k * blockDim.x + threadIdx.x] = held[k];
    }
    __syncthreads();
    for (std::uint32_t i = threadIdx.x; i < count; i += blockDim.x) {
        std::uint32_t row = i / vb, to = last ? row * row_stride + (blockIdx.x % (row_stride / vb)) * vb + i % vb
                                              : row * row_stride + column + i % vb;
        out[to] = tile[i ^ (row & 7)];
    }
}

// Passes 2 and 3 of three radix-256 passes (n = 2^24, runs of 128 bytes) fused through the L2.
// Pass 2 (stride 256) reads tile (r, t-chunk) at x[(256 r + d) 256 + t] and writes rows d to
// y[256 r + t + d 2^16]; pass 3 (contiguous) reads 256 C consecutive words y[256 r' + d] for C
// consecutive r' and writes rows c to z[r' + c 2^16]. The pass-3 tiles whose r' mod 256 lie in
// [C q, C q + C) read exactly what the 256 pass-2 tiles with r in that range wrote: a group of
// 1/T of the array (8 MiB), which fits the L2 with room. One resident wave of blocks takes tiles by
// ticket in the order P2(0) .. P2(L-1), P3(0), P2(L), P3(1), P2(L+1), ... (L groups of look-ahead);
// a pass-3 tile waits until its group's 256 pass-2 tiles have stored. `discard`: after a pass-3 tile has
// read its 32 KiB, its lines leave the L2 without being written back (discard.global.L2), so the
// intermediate array never reaches DRAM. Data movement only, as the copies above.
__global__ void __launch_bounds__(256) group_fused_copy(const uint4* x, uint4* y, uint4* z, int word_bytes,
                                                        unsigned* counters, bool discard, unsigned lookahead)
{
    __shared__ uint4 tile[2048];  // 256 rows of 128 bytes
    __shared__ unsigned ticket_shared;
    const unsigned C = 128u / unsigned(word_bytes), T = 256u / C;  // words a row, groups
    const unsigned words_per_vector = 16u / unsigned(word_bytes);
    const unsigned phases = 2 * T, tickets = phases * 256;
    unsigned* next_ticket = counters;
    unsigned* done = counters + 1;
    for (;;) {
        __syncthreads();
        if (threadIdx.x == 0) ticket_shared = atomicAdd(next_ticket, 1u);
        __syncthreads();
        const unsigned ticket = ticket_shared;
        if (ticket >= tickets) return;
        // phase k: P2(0) .. P2(L-1), then P3(0) P2(L) P3(1) P2(L+1) ..., then the last P3s
        const unsigned k = ticket / 256, i = ticket % 256, L = lookahead < T ? lookahead : T;
        bool pass3;
        unsigned q;
        if (k < L) {
            pass3 = false;
            q = k;
        } else if (k - L < 2 * (T - L)) {
            pass3 = (k - L) % 2 == 0;
            q = pass3 ? (k - L) / 2 : (k - L) / 2 + L;
        } else {
            pass3 = true;
            q = T - L + (k - L - 2 * (T - L));
        }
        if (!pass3) {
            const unsigned r = q * C + i / T, tc = i % T;
#pragma unroll
            for (int j = 0; j < 8; ++j) {
                const unsigned v = threadIdx.x + 256 * j, d = v / 8, col = v % 8;
                const std::size_t word = (std::size_t(256 * r + d) << 8) + tc * C;
                tile[v] = x[word / words_per_vector + col];
            }
            __syncthreads();
#pragma unroll
            for (int j = 0; j < 8; ++j) {
                const unsigned v = threadIdx.x + 256 * j, d = v / 8, col = v % 8;
                const std::size_t word = std::size_t(256 * r + tc * C) + (std::size_t(d) << 16);
                y[word / words_per_vector + col] = tile[v];
            }
            __threadfence();
            __syncthreads();
            if (threadIdx.x == 0) atomicAdd(&done[q], 1u);
        } else {
            const unsigned m = q + T * i;
            if (threadIdx.x == 0)
                while (atomicAdd(&done[q], 0u) < 256u) __nanosleep(200);
            __syncthreads();
            __threadfence();
            const std::size_t base = std::size_t(256) * C * m / words_per_vector;
#pragma unroll
            for (int j = 0; j < 8; ++j) {
                const unsigned v = threadIdx.x + 256 * j;
                tile[v] = __ldcg(y + base + v);
            }
            __syncthreads();
            if (discard) {
                const char* line = reinterpret_cast<const char*>(y + base) + 128 * threadIdx.x;
                asm volatile("discard.global.L2 [%0], 128;" ::"l"(line) : "memory");
            }
#pragma unroll
            for (int j = 0; j < 8; ++j) {
                const unsigned v = threadIdx.x + 256 * j, c = v / 8, col = v % 8;
                const std::size_t word = std::size_t(C) * m + (std::size_t(c) << 16);
                z[word / words_per_vector + col] = tile[v];
            }
        }
    }
}


// Two passes of radix 4096 through one thread-block cluster of G blocks, the tile (4096 rows of
// 128 bytes, 512 KiB) spread over the blocks' shared memory and exchanged through distributed
// shared memory, so that every block reads and writes whole 128-byte runs.
//   first (rows at stride n / 4096 in and out): block j loads rows u + (4096 / G) k of the u
//     in its share of [0, 4096 / G) and all k < G (the radix-G step of a DIF would run here, in
//     registers), writes row (u, k) into block k's shared memory at row u, cluster barrier, then
//     stores its 4096 / G rows u to rows k + G u.
//   last (4096 C words in, contiguous; rows at stride n / 4096 out): block j loads C / G whole
//     rows r of 4096 words into its shared memory (the row DFTs would run there), cluster
//     barrier, sends word d of its rows to block d / 512 (one 16-byte vector of C / G = 16 / w
//     consecutive r), cluster barrier, stores its 512 rows of 128 bytes.
namespace cg = cooperative_groups;
template <int G>
__global__ void __launch_bounds__(256) cluster_first_copy(const uint4* in, uint4* out, int log_n_v)
{
    extern __shared__ uint4 tile[];  // (4096 / G) rows of 8 vectors
    cg::cluster_group cluster = cg::this_cluster();
    constexpr unsigned U = 4096 / G, share = U / G, vectors = 4096 / G * 8;
    const unsigned j = cluster.block_rank(), t = blockIdx.x / G;
    const std::uint32_t row_stride = 1u << (log_n_v - 12);
    cluster.barrier_arrive();  // every block of the cluster has started before any remote store
    constexpr int K = vectors / 256;
    uint4 held[K];
#pragma unroll
    for (int i = 0; i < K; ++i) {
        unsigned q = threadIdx.x + 256 * i, col = q & 7, rho = q >> 3;
        unsigned u = j * share + rho % share, k = rho / share;
        held[i] = in[(u + U * k) * row_stride + t * 8 + col];
    }
    cluster.barrier_wait();
#pragma unroll
    for (int i = 0; i < K; ++i) {
        unsigned q = threadIdx.x + 256 * i, col = q & 7, rho = q >> 3;
        unsigned u = j * share + rho % share, k = rho / share;
        uint4* remote = cluster.map_shared_rank(tile, k);
        remote[u * 8 + col] = held[i];
    }
    cluster.sync();
#pragma unroll
    for (int i = 0; i < K; ++i) {
        unsigned q = threadIdx.x + 256 * i, col = q & 7, u = q >> 3;
        out[(j + G * u) * row_stride + t * 8 + col] = tile[q];
    }
}

// SHARED_ONCE: one 64 KiB buffer (three blocks an SM): the rows go through registers between a
// barrier that frees every block's buffer and the remote stores; otherwise a second buffer.
template <class W, bool SHARED_ONCE>
__global__ void __launch_bounds__(256) cluster_last_copy(const uint4* in, uint4* out, int log_n_v)
{
    extern __shared__ uint4 shared[];
    constexpr int G = 8, V = 16 / sizeof(W), C = 128 / sizeof(W), rows = C / G;  // rows == V
    uint4* own = shared;                                   // the block's rows r: rows x 4096 words
    uint4* received = SHARED_ONCE ? shared : shared + 4096;  // 512 rows c' of 8 vectors
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned j = cluster.block_rank(), t = blockIdx.x / G;
    const std::uint32_t row_stride = 1u << (log_n_v - 12);
    const uint4* from = in + std::size_t(t) * 32768 + j * 4096;
    for (int i = 0; i < 16; ++i) own[threadIdx.x + 256 * i] = from[threadIdx.x + 256 * i];
    if (SHARED_ONCE) __syncthreads();
    else cluster.sync();  // every block's received buffer is free, every block started
    const W* words = reinterpret_cast<const W*>(own);
    uint4 packed_all[16];
#pragma unroll
    for (int i = 0; i < 16; ++i) {
        unsigned d = threadIdx.x + 256 * i;
        W packed[V];
#pragma unroll
        for (int r = 0; r < rows; ++r) packed[r] = words[r * 4096 + d];
        memcpy(&packed_all[i], packed, 16);
        if (!SHARED_ONCE) {
            uint4* remote = cluster.map_shared_rank(received, d / 512);
            remote[(d % 512) * 8 + j] = packed_all[i];
        }
    }
    if (SHARED_ONCE) {
        cluster.sync();
#pragma unroll
        for (int i = 0; i < 16; ++i) {
            unsigned d = threadIdx.x + 256 * i;
            uint4* remote = cluster.map_shared_rank(received, d / 512);
            remote[(d % 512) * 8 + j] = packed_all[i];
        }
    }
    cluster.sync();
    for (int i = 0; i < 16; ++i) {
        unsigned q = threadIdx.x + 256 * i, col = q & 7, c = j * 512 + (q >> 3);
        out[c * row_stride + t * 8 + col] = received[q];
    }
}

// The last pass in the first one's shape: a tile is C consecutive rows r of 4096 words; block j
// takes the words u + 512 k of every row for the u in its share (64 u, all k < 8: runs of
// 64 words), in registers (the radix-8 step and the inter-pass twiddles would run there), and
// writes word (r, u, k) into block k's shared memory at row u, column r; cluster barrier; then
// block k stores row u (C words r, 128 bytes) to y[r0 + r + (k + 8 u) 4096].
template <class W>
__global__ void __launch_bounds__(256) cluster_last_split_copy(const uint4* in, uint4* out, int log_n_v)
{
    extern __shared__ uint4 shared[];
    constexpr int G = 8, C = 128 / sizeof(W), words_per_thread = 512 * C / 256;
    W* tile = reinterpret_cast<W*>(shared);  // 512 rows u of C words r (and one of padding)
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned j = cluster.block_rank(), t = blockIdx.x / G;
    const W* from = reinterpret_cast<const W*>(in) + std::size_t(t) * C * 4096;
    W* to = reinterpret_cast<W*>(out) + std::size_t(t) * C;
    cluster.barrier_arrive();
    W held[words_per_thread];
    // word i of the thread: r = (thread / 64) + 4 (i / 8), k = i % 8, u = 64 j + thread % 64
    const unsigned lane_u = threadIdx.x % 64, r_base = threadIdx.x / 64;
#pragma unroll
    for (int i = 0; i < words_per_thread; ++i) {
        unsigned r = r_base + 4 * (i / 8), k = i % 8, u = 64 * j + lane_u;
        held[i] = from[r * 4096 + u + 512 * k];
    }
    cluster.barrier_wait();
#pragma unroll
    for (int i = 0; i < words_per_thread; ++i) {
        unsigned r = r_base + 4 * (i / 8), k = i % 8, u = 64 * j + lane_u;
        W* remote = cluster.map_shared_rank(tile, k);
        remote[u * (C + 1) + r] = held[i];  // rows padded: a warp's 32 u hit 32 banks
    }
    cluster.sync();
    (void)log_n_v;
    for (int i = 0; i < words_per_thread; ++i) {
        unsigned q = threadIdx.x + 256 * i, u = q / C, r = q % C;
        to[std::size_t(j + 8 * u) * 4096 + r] = tile[u * (C + 1) + r];
    }
}

__global__ void plain_copy(const uint4* in, uint4* out, std::uint32_t vectors)
{
    for (std::uint32_t g = blockIdx.x * blockDim.x + threadIdx.x; g < vectors; g += gridDim.x * blockDim.x)
        out[g] = in[g];
}

template <class F>
float median_ms(int reps, F&& run)
{
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "event");
    check(cudaEventCreate(&stop), "event");
    run();  // warm-up
    check(cudaDeviceSynchronize(), "warm-up");
    std::vector<float> times;
    for (int i = 0; i < reps; ++i) {
        check(cudaEventRecord(start), "record");
        run();
        check(cudaEventRecord(stop), "record");
        check(cudaEventSynchronize(stop), "sync");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
        times.push_back(ms);
    }
    check(cudaGetLastError(), "launch");
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

int log2_exact(std::size_t x)
{
    int k = 0;
    while ((std::size_t(1) << k) < x) ++k;
    return k;
}


// Three radix-256 passes at 2^24 (128-byte runs) as copies of words of `word` bytes, as the
// engine runs them: the first in place on a, then a -> b (stride 256), then b -> a (contiguous).
void radix256_first_pass(int sms, uint4* a, int log_n_v, int word)
{
    const int wl = log2_exact(std::size_t(16 / word)), log_c_v = log2_exact(std::size_t(128 / word)) - wl;
    pattern_copy<8><<<unsigned(sms * 8), 256>>>(a, a, log_n_v, 8, log_c_v, 16 - wl, 1u << log_n_v);
}
void radix256_later_passes(int sms, uint4* a, uint4* b, int log_n_v, int word)
{
    const int wl = log2_exact(std::size_t(16 / word)), log_c_v = log2_exact(std::size_t(128 / word)) - wl;
    pattern_copy<8><<<unsigned(sms * 8), 256>>>(a, b, log_n_v, 8, log_c_v, 8 - wl, 1u << log_n_v);
    pattern_copy<8><<<unsigned(sms * 8), 256>>>(b, a, log_n_v, 8, log_c_v, -1, 1u << log_n_v);
}

// Once per kernel, before it is timed: its shared memory and (past 8) cluster size.
template <class Kernel>
void allow_cluster(Kernel kernel, int cluster_blocks, std::size_t smem)
{
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)), "smem attribute");
    if (cluster_blocks > 8)
        check(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1), "cluster attribute");
}

// A kernel that allow_cluster has prepared, over clusters of cluster_blocks blocks.
template <class Kernel>
void launch_cluster(Kernel kernel, int cluster_blocks, std::size_t blocks, std::size_t smem, const void* in, void* out,
                    int log_n_v, bool report = false)
{
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(unsigned(blocks));
    config.blockDim = dim3(256);
    config.dynamicSmemBytes = smem;
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = unsigned(cluster_blocks);
    attribute.val.clusterDim.y = attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    if (report) {
        int clusters = 0;
        check(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config), "cudaOccupancyMaxActiveClusters");
        std::printf(" %4d resident ", clusters);
    }
    check(cudaLaunchKernelEx(&config, kernel, static_cast<const uint4*>(in), static_cast<uint4*>(out), log_n_v),
          "cluster copy");
}

template <class Kernel>
float cluster_launch_ms(Kernel kernel, int cluster_blocks, std::size_t blocks, std::size_t smem, int reps, const void* in,
                        void* out, int log_n_v)
{
    allow_cluster(kernel, cluster_blocks, smem);
    launch_cluster(kernel, cluster_blocks, blocks, smem, in, out, log_n_v, true);
    return median_ms(reps, [&] { launch_cluster(kernel, cluster_blocks, blocks, smem, in, out, log_n_v); });
}

// The two cluster passes at 2^24 (cluster_first_copy, cluster_last_copy), checked once as the
// permutations they are, against the plain copy and three radix-256 passes of the same words.
void cluster_copies(int sms, void* a, void* b, int reps)
{
    constexpr int log_n = 24;
    std::printf("\n%-5s %-44s %9s %8s\n", "word", "radix-4096 passes through a cluster", "ms", "GB/s");
    for (int word : {4, 8}) {
        const std::size_t bytes = std::size_t(word) << log_n, vectors = bytes / 16;
        const int log_n_v = log2_exact(vectors);
        auto rate = [&](float ms, double sweeps) { return 2.0 * sweeps * double(bytes) / (ms * 1e6); };
        uint4 *A = static_cast<uint4*>(a), *B = static_cast<uint4*>(b);
        float copy_ms = median_ms(reps, [&] { plain_copy<<<unsigned(sms * 8), 256>>>(A, B, std::uint32_t(vectors)); });
        std::printf("%-5d %-44s %9.4f %8.0f\n", word, "plain copy", copy_ms, rate(copy_ms, 1));
        float three = median_ms(reps, [&] {
            radix256_first_pass(sms, A, log_n_v, word);
            radix256_later_passes(sms, A, B, log_n_v, word);
        });
        std::printf("%-5d %-44s %9.4f %8.0f\n", word, "three radix-256 passes, 128-byte runs", three, rate(three, 3));
        const std::size_t tiles = (std::size_t(1) << log_n) / (std::size_t(4096) * (128 / word));
        for (int g : {8, 16}) {
            std::printf("%-5d first pass, cluster of %-2d", word, g);
            float ms = g == 8 ? cluster_launch_ms(cluster_first_copy<8>, 8, tiles * 8, 65536, reps, A, B, log_n_v)
                              : cluster_launch_ms(cluster_first_copy<16>, 16, tiles * 16, 32768, reps, A, B, log_n_v);
            std::printf("%9.4f %8.0f\n", ms, rate(ms, 1));
        }
        std::printf("%-5d last pass, cluster of 8, 128 KiB", word);
        float last = word == 4 ? cluster_launch_ms(cluster_last_copy<std::uint32_t, false>, 8, tiles * 8, 131072, reps, A, B, log_n_v)
                               : cluster_launch_ms(cluster_last_copy<std::uint64_t, false>, 8, tiles * 8, 131072, reps, A, B, log_n_v);
        std::printf("%9.4f %8.0f\n", last, rate(last, 1));
        std::printf("%-5d last pass, cluster of 8, 64 KiB ", word);
        last = word == 4 ? cluster_launch_ms(cluster_last_copy<std::uint32_t, true>, 8, tiles * 8, 65536, reps, A, B, log_n_v)
                         : cluster_launch_ms(cluster_last_copy<std::uint64_t, true>, 8, tiles * 8, 65536, reps, A, B, log_n_v);
        std::printf("%9.4f %8.0f\n", last, rate(last, 1));
        std::printf("%-5d last pass, split like the first  ", word);
        last = word == 4 ? cluster_launch_ms(cluster_last_split_copy<std::uint32_t>, 8, tiles * 8, 67584, reps, A, B, log_n_v)
                         : cluster_launch_ms(cluster_last_split_copy<std::uint64_t>, 8, tiles * 8, 69632, reps, A, B, log_n_v);
        std::printf("%9.4f %8.0f\n", last, rate(last, 1));
        float split = median_ms(reps, [&] {
            launch_cluster(cluster_first_copy<8>, 8, tiles * 8, 65536, A, A, log_n_v);
            if (word == 4) launch_cluster(cluster_last_split_copy<std::uint32_t>, 8, tiles * 8, 67584, A, B, log_n_v);
            else launch_cluster(cluster_last_split_copy<std::uint64_t>, 8, tiles * 8, 69632, A, B, log_n_v);
        });
        std::printf("%-5d %-44s %9.4f %8.0f\n", word, "both passes, last one split", split, rate(split, 2));
        float both = median_ms(reps, [&] {
            launch_cluster(cluster_first_copy<8>, 8, tiles * 8, 65536, A, A, log_n_v);
            if (word == 4) launch_cluster(cluster_last_copy<std::uint32_t, true>, 8, tiles * 8, 65536, A, B, log_n_v);
            else launch_cluster(cluster_last_copy<std::uint64_t, true>, 8, tiles * 8, 65536, A, B, log_n_v);
        });
        std::printf("%-5d %-44s %9.4f %8.0f\n", word, "both passes (cluster of 8)", both, rate(both, 2));
    }
    // what the two copies do: the first moves row u + 512 k to row k + 8 u, the last transposes
    const std::size_t n = std::size_t(1) << log_n;
    std::vector<std::uint32_t> h(n), got(n);
    for (std::size_t i = 0; i < n; ++i) h[i] = std::uint32_t(i * 2654435761u + 12345u);
    const int log_n_v = log_n - 2;
    auto run = [&](auto kernel, std::size_t smem) {
        check(cudaMemcpy(a, h.data(), n * 4, cudaMemcpyHostToDevice), "upload");
        allow_cluster(kernel, 8, smem);
        launch_cluster(kernel, 8, (n / (4096 * 32)) * 8, smem, a, b, log_n_v);
        check(cudaMemcpy(got.data(), b, n * 4, cudaMemcpyDeviceToHost), "download");
    };
    run(cluster_first_copy<8>, 65536);
    bool first_ok = true;
    for (std::size_t u = 0; u < 512; ++u)
        for (std::size_t k = 0; k < 8; ++k)
            for (std::size_t col = 0; col < 4096; ++col)
                first_ok &= got[(k + 8 * u) * 4096 + col] == h[(u + 512 * k) * 4096 + col];
    run(cluster_last_copy<std::uint32_t, true>, 65536);
    bool last_ok = true;
    for (std::size_t r = 0; r < 4096; ++r)
        for (std::size_t c = 0; c < 4096; ++c) last_ok &= got[c * 4096 + r] == h[r * 4096 + c];
    std::vector<std::uint32_t> split_got = got;
    run(cluster_last_split_copy<std::uint32_t>, 67584);
    bool split_ok = true;
    for (std::size_t r = 0; r < 4096; ++r)
        for (std::size_t u = 0; u < 512; ++u)
            for (std::size_t k = 0; k < 8; ++k) split_ok &= got[r + (k + 8 * u) * 4096] == h[r * 4096 + u + 512 * k];
    std::printf("\ncluster copies move every word where they should: first %s, last %s, last split %s\n",
                first_ok ? "yes" : "NO", last_ok ? "yes" : "NO", split_ok ? "yes" : "NO");
}

}  // namespace

int main(int argc, char** argv)
{
    int log_n = 24, reps = 21;
    bool fft_only = false, cluster_only = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--log-n") && i + 1 < argc) log_n = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--fft-only")) fft_only = true;
        else if (!std::strcmp(argv[i], "--cluster-only")) cluster_only = true;
    }
    int sms = 0;
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "attribute");

    const std::size_t max_bytes = std::size_t(8) << log_n;
    void *a = nullptr, *b = nullptr;
    check(cudaMalloc(&a, max_bytes), "cudaMalloc");
    check(cudaMalloc(&b, max_bytes), "cudaMalloc");
    check(cudaMemset(a, 0x5a, max_bytes), "memset");

    cufftHandle c2c;
    if (cufftPlan1d(&c2c, 1 << log_n, CUFFT_C2C, 1) != CUFFT_SUCCESS) return 1;
    float fft_ms = median_ms(reps, [&] {
        cufftExecC2C(c2c, static_cast<cufftComplex*>(a), static_cast<cufftComplex*>(b), CUFFT_FORWARD);
    });
    std::printf("cuFFT C2C 2^%d (%zu MiB): %.4f ms\n", log_n, (std::size_t(8) << log_n) >> 20, fft_ms);
    if (fft_only) return 0;
    if (log_n == 24) cluster_copies(sms, a, b, reps);
    if (cluster_only) return 0;

    std::printf("%-5s %-9s %-6s %-6s %-7s %-8s %9s %8s\n", "word", "pattern", "R", "run B", "stride", "grid", "ms", "GB/s");
    for (int word : {4, 8}) {
        const std::size_t bytes = std::size_t(word) << log_n, vectors = bytes / 16;
        const int log_n_v = log2_exact(vectors), words_per_vector = 16 / word;
        auto rate = [&](float ms) { return 2.0 * double(bytes) / (ms * 1e6); };
        float copy_ms = median_ms(reps, [&] {
            plain_copy<<<unsigned(sms * 8), 256>>>(static_cast<uint4*>(a), static_cast<uint4*>(b), std::uint32_t(vectors));
        });
        std::printf("%-5d %-9s %-6s %-6s %-7s %-8s %9.4f %8.0f\n", word, "copy", "-", "-", "-", "-", copy_ms, rate(copy_ms));
        std::vector<Pattern> patterns;
        for (int log_r : {8, 12})
            for (int run_bytes : {16, 32, 64, 128, 256, 512}) {
                int log_c = log2_exact(std::size_t(run_bytes / word));
                if (run_bytes < 16 || (std::size_t(1) << (log_r + log_c)) * word > (std::size_t(256) << 10)) continue;
                int log_first_s = log_n - log_r;  // first pass: s = n / R
                patterns.push_back({log_r, log_c, log_first_s});
                patterns.push_back({log_r, log_c, -1});
            }
        for (const Pattern& p : patterns) {
            int log_c_v = p.log_c - log2_exact(std::size_t(words_per_vector));
            int log_s_v = p.log_s < 0 ? -1 : p.log_s - log2_exact(std::size_t(words_per_vector));
            for (int blocks_per_sm : {4, 8}) {
                unsigned grid = unsigned(sms * blocks_per_sm);
                float ms = median_ms(reps, [&] {
                    pattern_copy<8><<<grid, 256>>>(static_cast<uint4*>(a), static_cast<uint4*>(b), log_n_v, p.log_r,
                                                   log_c_v, log_s_v, std::uint32_t(vectors));
                });
                char stride[16];
                std::snprintf(stride, sizeof stride, p.log_s < 0 ? "contig" : "2^%d", p.log_s);
                std::printf("%-5d %-9s 2^%-4d %-6d %-7s %-8u %9.4f %8.0f\n", word, p.log_s < 0 ? "last" : "first",
                            p.log_r, word << p.log_c, stride, grid, ms, rate(ms));
            }
        }
    }
    // Two passes of radix 4096: column slices of sibling blocks (slice_copy above).
    std::printf("\n%-5s %-6s %-7s %-8s %-8s %-8s %9s %8s\n", "word", "pass", "block B", "siblings", "run B", "cluster",
                "ms", "GB/s");
    for (int word : {4, 8}) {
        const std::size_t bytes = std::size_t(word) << log_n, vectors = bytes / 16;
        const int log_n_v = log2_exact(vectors);
        auto rate = [&](float ms) { return 2.0 * double(bytes) / (ms * 1e6); };
        for (int vb : {1, 2})
            for (int log_g : {0, 1, 2, 3})
                for (bool last : {false, true})
                    for (bool cluster : {false, true}) {
                        if (cluster && log_g == 0) continue;
                        const std::size_t smem = std::size_t(vb) << (12 + 4);
                        check(cudaFuncSetAttribute(slice_copy, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)),
                              "smem attribute");
                        cudaLaunchConfig_t config{};
                        config.gridDim = dim3(unsigned(vectors / (std::size_t(vb) << 12)));
                        config.blockDim = dim3(256);
                        config.dynamicSmemBytes = smem;
                        cudaLaunchAttribute attribute{};
                        attribute.id = cudaLaunchAttributeClusterDimension;
                        attribute.val.clusterDim.x = 1u << log_g;
                        attribute.val.clusterDim.y = attribute.val.clusterDim.z = 1;
                        config.attrs = &attribute;
                        config.numAttrs = cluster ? 1 : 0;
                        float ms = median_ms(reps, [&] {
                            check(cudaLaunchKernelEx(&config, slice_copy, static_cast<const uint4*>(a),
                                                     static_cast<uint4*>(b), log_n_v, log_g, vb, last),
                                  "slice_copy");
                        });
                        std::printf("%-5d %-6s %-7d %-8d %-8d %-8s %9.4f %8.0f\n", word, last ? "last" : "first", vb * 16,
                                    1 << log_g, (vb * 16) << log_g, cluster ? "yes" : "no", ms, rate(ms));
                    }
    }
    // Three radix-256 passes at 2^24: separately (three launches, as the engine runs them) and
    // with passes 2 and 3 fused through the L2 (group_fused_copy), with and without discarding
    // the intermediate's lines.
    if (log_n == 24) {
        unsigned* counters = nullptr;
        check(cudaMalloc(&counters, 64 * sizeof(unsigned)), "cudaMalloc");
        void* c = nullptr;
        check(cudaMalloc(&c, max_bytes), "cudaMalloc");
        int resident = 0;
        check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, group_fused_copy, 256, 0), "occupancy");
        std::printf("\n%-5s %-40s %9s %8s   (group_fused_copy: %d blocks an SM)\n", "word", "three radix-256 passes", "ms",
                    "GB/s", resident);
        for (int word : {4, 8}) {
            const std::size_t bytes = std::size_t(word) << log_n, vectors = bytes / 16;
            const int log_n_v = log2_exact(vectors);
            auto rate = [&](float ms) { return 6.0 * double(bytes) / (ms * 1e6); };  // three reads and writes
            uint4 *A = static_cast<uint4*>(a), *B = static_cast<uint4*>(b);
            auto first_pass = [&] { radix256_first_pass(sms, A, log_n_v, word); };
            float separate = median_ms(reps, [&] {
                first_pass();
                radix256_later_passes(sms, A, B, log_n_v, word);
            });
            std::printf("%-5d %-40s %9.4f %8.0f\n", word, "separate (3 launches)", separate, rate(separate));
            for (int per_sm : {resident, 4})
                for (unsigned lookahead : {1u, 2u, 4u, 6u})
                for (bool discard : {false, true}) {
                    if (per_sm > resident) continue;
                    float fused = median_ms(reps, [&] {
                        first_pass();
                        cudaMemsetAsync(counters, 0, 64 * sizeof(unsigned));
                        group_fused_copy<<<unsigned(sms * per_sm), 256>>>(A, B, A, word, counters, discard, lookahead);
                    });
                    char label[64];
                    std::snprintf(label, sizeof label, "pass 1 + fused 2-3, %d an SM, L %u%s", per_sm, lookahead,
                                  discard ? ", discard" : "");
                    std::printf("%-5d %-40s %9.4f %8.0f\n", word, label, fused, rate(fused));
                }
            float one = median_ms(reps, [&] { first_pass(); });
            std::printf("%-5d %-40s %9.4f %8.0f\n", word, "pass 1 alone", one, 2.0 * double(bytes) / (one * 1e6));
        }
        // the fused copy is a permutation: check it against the separate passes once
        std::vector<std::uint32_t> h(std::size_t(1) << log_n), expected(std::size_t(1) << log_n);
        for (std::size_t i = 0; i < h.size(); ++i) h[i] = std::uint32_t(i * 2654435761u);
        uint4 *A = static_cast<uint4*>(a), *B = static_cast<uint4*>(b);
        const int log_n_v = log_n - 2;
        check(cudaMemcpy(A, h.data(), h.size() * 4, cudaMemcpyHostToDevice), "upload");
        pattern_copy<8><<<unsigned(sms * 8), 256>>>(A, B, log_n_v, 8, 3, 6, std::uint32_t(h.size() / 4));
        pattern_copy<8><<<unsigned(sms * 8), 256>>>(B, static_cast<uint4*>(c), log_n_v, 8, 3, -1, std::uint32_t(h.size() / 4));
        check(cudaMemcpy(expected.data(), c, h.size() * 4, cudaMemcpyDeviceToHost), "download");
        check(cudaMemcpy(A, h.data(), h.size() * 4, cudaMemcpyHostToDevice), "upload");
        cudaMemset(counters, 0, 64 * sizeof(unsigned));
        group_fused_copy<<<unsigned(sms * 2), 256>>>(A, B, static_cast<uint4*>(c), 4, counters, true, 2);
        check(cudaDeviceSynchronize(), "fused");
        check(cudaMemcpy(h.data(), c, h.size() * 4, cudaMemcpyDeviceToHost), "download");
        std::printf("fused passes 2-3 move every word where passes 2 and 3 do: %s\n", h == expected ? "yes" : "NO");
    }
    return 0;
}
