// cas-bench-butterfly: the 64-bit lazy butterfly of the fast transform, alone, in registers.
//
// Each thread holds 8 words and runs rounds of three radix-2 DIF stages on them (12 butterflies a
// round, twiddles in registers), so nothing but the butterfly's arithmetic is timed. Two
// formulations of the same butterfly (p < 2^62, entries in [0, 2p)):
//   engine     lazy_dif_butterfly of modarith.cuh (what the transforms run)
//   reference  the plain C++ form: a 64-bit unsigned compare for the sum and
//              (a - b + 2p) w - umulhi(a - b + 2p, w') p for the product
// Both results must agree modulo p with each other and, for a few threads, with the host.
// Prints a table: each time (median, CUDA events), butterflies per second, and the ratio.
//
// Usage: cas-bench-butterfly [--reps 21]
#include "gpu/modarith.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using cas::gpu::detail::lazy_dif_butterfly;
using cas::gpu::detail::shoup_companion;
using u64 = std::uint64_t;

namespace {

void check(cudaError_t status, const char* what)
{
    if (status != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
        std::exit(1);
    }
}

__device__ __forceinline__ void reference_butterfly(u64& a, u64& b, u64 w, u64 w_shoup, u64 p)
{
    const u64 x = a, y = b, two_p = p << 1;
    const u64 sum = x + y;
    a = sum >= two_p ? sum - two_p : sum;
    const u64 diff = x - y + two_p;
    b = diff * w - __umul64hi(diff, w_shoup) * p;
}

constexpr int words_per_thread = 8;

// The stages of one round: spans 4, 2, 1 over the thread's 8 words; butterfly (k, k + span)
// takes twiddle (k + span) % 4 of the thread's four.
template <bool ENGINE>
__global__ void __launch_bounds__(256) butterfly_rounds(u64* data, const u64* twiddles, u64 p, int rounds)
{
    const std::size_t base = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) * words_per_thread;
    u64 v[words_per_thread], w[4], wq[4];
#pragma unroll
    for (int k = 0; k < words_per_thread; ++k) v[k] = data[base + k];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        w[k] = twiddles[2 * k + (threadIdx.x & 1)];
        wq[k] = twiddles[8 + 2 * k + (threadIdx.x & 1)];
    }
    for (int round = 0; round < rounds; ++round) {
#pragma unroll
        for (int span = 4; span >= 1; span >>= 1)
#pragma unroll
            for (int k = 0; k < words_per_thread; ++k) {
                if (k & span) continue;
                const int j = (k + span) & 3;
                if constexpr (ENGINE) lazy_dif_butterfly(v[k], v[k + span], w[j], wq[j], p);
                else reference_butterfly(v[k], v[k + span], w[j], wq[j], p);
            }
    }
#pragma unroll
    for (int k = 0; k < words_per_thread; ++k) data[base + k] = v[k] % p;
}

u64 mul_mod_host(u64 a, u64 b, u64 p) { return u64((unsigned __int128)a * b % p); }

// The same rounds on the host, entries kept in [0, p), for thread t.
std::vector<u64> host_rounds(const std::vector<u64>& input, const std::vector<u64>& twiddles, int t, u64 p,
                             int rounds)
{
    std::vector<u64> v(words_per_thread);
    for (int k = 0; k < words_per_thread; ++k) v[k] = input[t * words_per_thread + k] % p;
    for (int round = 0; round < rounds; ++round)
        for (int span = 4; span >= 1; span >>= 1)
            for (int k = 0; k < words_per_thread; ++k) {
                if (k & span) continue;
                const u64 w = twiddles[2 * ((k + span) & 3) + (t & 1)], x = v[k], y = v[k + span];
                v[k] = (x + y) % p;
                v[k + span] = mul_mod_host((x + p - y) % p, w, p);
            }
    return v;
}

struct Run {
    float ms;
    std::vector<u64> result;
};

template <bool ENGINE>
Run time_rounds(const std::vector<u64>& input, u64* d_data, const u64* d_twiddles, u64 p, int blocks, int rounds,
                int reps)
{
    std::vector<float> times;
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    for (int rep = 0; rep < reps; ++rep) {
        check(cudaMemcpy(d_data, input.data(), input.size() * 8, cudaMemcpyHostToDevice), "upload");
        check(cudaEventRecord(start), "cudaEventRecord");
        butterfly_rounds<ENGINE><<<blocks, 256>>>(d_data, d_twiddles, p, rounds);
        check(cudaGetLastError(), "launch");
        check(cudaEventRecord(stop), "cudaEventRecord");
        check(cudaEventSynchronize(stop), "cudaEventSynchronize");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        times.push_back(ms);
    }
    std::sort(times.begin(), times.end());
    Run run{times[times.size() / 2], std::vector<u64>(input.size())};
    check(cudaMemcpy(run.result.data(), d_data, input.size() * 8, cudaMemcpyDeviceToHost), "download");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return run;
}

}  // namespace

int main(int argc, char** argv)
{
    int reps = 21;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
        else {
            std::fprintf(stderr, "usage: cas-bench-butterfly [--reps R]\n");
            return 2;
        }
    }
    int sms = 0;
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "cudaDeviceGetAttribute");
    const u64 p = 4611686018326724609ull;  // 2^62 - 3 2^25 + 1, prime, in the lazy range (< 2^62)
    const int blocks = sms * 8, rounds = 64;
    const std::size_t words = std::size_t(blocks) * 256 * words_per_thread;

    std::vector<u64> input(words), twiddles(16);
    u64 state = 88172645463325252ull;
    auto next = [&] {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    };
    for (u64& x : input) x = next() % (2 * p);
    for (int k = 0; k < 8; ++k) {
        twiddles[k] = next() % p;
        twiddles[8 + k] = shoup_companion(twiddles[k], p);
    }
    u64 *d_data = nullptr, *d_twiddles = nullptr;
    check(cudaMalloc(&d_data, words * 8), "cudaMalloc");
    check(cudaMalloc(&d_twiddles, twiddles.size() * 8), "cudaMalloc");
    check(cudaMemcpy(d_twiddles, twiddles.data(), twiddles.size() * 8, cudaMemcpyHostToDevice), "upload");

    Run engine = time_rounds<true>(input, d_data, d_twiddles, p, blocks, rounds, reps);
    Run reference = time_rounds<false>(input, d_data, d_twiddles, p, blocks, rounds, reps);
    bool agree = engine.result == reference.result;
    for (int t = 0; t < 4; ++t) {
        std::vector<u64> expected = host_rounds(input, twiddles, t, p, rounds);
        agree = agree && std::equal(expected.begin(), expected.end(), engine.result.begin() + t * words_per_thread);
    }

    const double butterflies = double(words / 2) * 3 * rounds;
    std::printf("64-bit lazy DIF butterflies in registers, p = %llu, %.3g butterflies, median of %d\n",
                (unsigned long long)p, butterflies, reps);
    std::printf("%-10s %10s %18s\n", "", "ms", "G butterflies/s");
    std::printf("%-10s %10.4f %18.1f\n", "engine", engine.ms, butterflies / engine.ms / 1e6);
    std::printf("%-10s %10.4f %18.1f\n", "reference", reference.ms, butterflies / reference.ms / 1e6);
    std::printf("reference / engine: %.2f; results %s\n", reference.ms / engine.ms, agree ? "agree" : "DIFFER");
    cudaFree(d_data);
    cudaFree(d_twiddles);
    return agree ? 0 : 1;
}
