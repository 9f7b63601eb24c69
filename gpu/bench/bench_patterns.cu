// cas-bench-patterns: what the memory system allows for the access patterns of an NTT pass.
//
// A radix-R pass of the fast transform (ntt_fast.cu) reads R runs of C words (at stride s, or
// one contiguous region on the last pass) and writes R runs of C words at stride n / R. This
// program copies 2^log_n words with exactly those patterns and nothing else (no shared memory,
// no arithmetic), so its rates are the ceiling of a pass of that shape; the contiguous copy and
// cuFFT's C2C of the same bytes are measured in the same run for scale.
//
// Usage: cas-bench-patterns [--log-n 24] [--reps 21] [--fft-only]
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

}  // namespace

int main(int argc, char** argv)
{
    int log_n = 24, reps = 21;
    bool fft_only = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--log-n") && i + 1 < argc) log_n = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--fft-only")) fft_only = true;
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
    return 0;
}
