// cas-bench: one table, every row measured in this run on this machine.
//   N          transform length; a product row multiplies two polynomials of N/2 coefficients
//   prime      p62: NTT-friendly 62-bit prime (64-bit words); p31: NTT-friendly 31-bit prime
//              (32-bit words); p63*: 63-bit prime with p-1 = 2*odd (CRT over 31-bit primes);
//              p64g: the Goldilocks prime 2^64 - 2^32 + 1 (64-bit words, reduced by shifts)
//   flint      FLINT nmod_poly_mul, one core (one run; "-" above --flint-max)
//   gpu dev    our product, operands and result already on the GPU (median, CUDA events)
//   gpu h2h    our product from host vectors to a host vector (median, wall clock)
//   h2h new    the same into a new result array (malloc'd, never touched: a new polynomial's
//              coefficients, what cas hands the GPU), so its page faults are counted
//   ntt        our forward NTT of N words in place (median, CUDA events)
//   GB/s       2 N wordsize / ntt time, and its share of the 2978 GB/s copy ceiling
//   c2c, z2z   cuFFT forward of N complex floats / doubles (median, CUDA events)
// Usage: cas-bench [--min LOG] [--max LOG] [--flint-max LOG] [--reps R] [--tune b,tile,radix,cols]...
//                  [--opts BITS] (options of the fast path, tune_fast_options: A/B comparisons)
//                  [--transfers 1] (host <-> device transfers of 2^max words only, see transfer_table)
//                  [--ntt-only 1 [--cufft 1]] (forward NTT times only; with cuFFT's C2C of N points)
#include "gpu/ntt.hpp"

#include <flint/nmod_poly.h>

#include <cuda_runtime.h>
#include <cufft.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace cas::gpu;

namespace {

constexpr double copy_ceiling_gbs = 2978.0;

void cuda_check(cudaError_t e, const char* what)
{
    if (e != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}
void cufft_check(cufftResult r, const char* what)
{
    if (r != CUFFT_SUCCESS) {
        std::fprintf(stderr, "%s: cufft error %d\n", what, int(r));
        std::exit(1);
    }
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Median of `reps` runs of f on `stream`, timed with events; one warm-up first.
double time_events(cudaStream_t stream, int reps, const std::function<void()>& f)
{
    cudaEvent_t start, stop;
    cuda_check(cudaEventCreate(&start), "cudaEventCreate");
    cuda_check(cudaEventCreate(&stop), "cudaEventCreate");
    f();
    cuda_check(cudaStreamSynchronize(stream), "sync");
    std::vector<double> ms;
    for (int i = 0; i < reps; ++i) {
        cuda_check(cudaEventRecord(start, stream), "record");
        f();
        cuda_check(cudaEventRecord(stop, stream), "record");
        cuda_check(cudaEventSynchronize(stop), "sync");
        float t = 0;
        cuda_check(cudaEventElapsedTime(&t, start, stop), "elapsed");
        ms.push_back(t);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return median(ms);
}

double time_wall(int reps, const std::function<void()>& f)
{
    f();
    std::vector<double> ms;
    for (int i = 0; i < reps; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        f();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    return median(ms);
}

// Median of `reps` runs of f(result) into a new, untouched array of `bytes` each time (timed from
// its malloc to f's return; freed untimed), as a new polynomial's coefficients are.
double time_into_new_array(int reps, std::size_t bytes, const std::function<void(void*)>& f)
{
    std::vector<double> ms;
    for (int i = 0; i < reps; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        void* result = std::malloc(bytes);
        if (!result) std::exit(1);
        f(result);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        std::free(result);
    }
    return median(ms);
}

// Where host-to-host time goes: the transfers of a product's operands and result, staged through
// pinned buffers by the copy pool (DeviceArray::upload / download), against plain DMA from and
// to pinned memory (the PCIe ceiling) and a single-threaded host memcpy of the same bytes.
void transfer_table(std::size_t n, int reps)
{
    auto row = [&](const char* what, std::size_t bytes, double ms) {
        std::printf("%-44s %8.3f ms %7.1f GB/s\n", what, ms, bytes / (ms * 1e-3) / 1e9);
    };
    std::printf("transfers of 2^%d words, medians of %d (wall clock)\n", int(std::log2(double(n))), reps);
    const std::size_t bytes = n * 8;
    void* pinned = nullptr;
    cuda_check(cudaMallocHost(&pinned, bytes), "cudaMallocHost");
    std::memset(pinned, 1, bytes);
    DeviceWords device(n);
    row("DMA host -> device, pinned, 8-byte words", bytes, time_wall(reps, [&] {
            cuda_check(cudaMemcpy(device.data(), pinned, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
        }));
    row("DMA device -> host, pinned, 8-byte words", bytes, time_wall(reps, [&] {
            cuda_check(cudaMemcpy(pinned, device.data(), bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
        }));
    cudaFreeHost(pinned);
    std::vector<std::uint64_t> host(n, 1), other(n, 2);
    row("memcpy host -> host, one thread", bytes, time_wall(reps, [&] { std::memcpy(other.data(), host.data(), bytes); }));
    row("upload, staged, 8-byte words", bytes, time_wall(reps, [&] { device.upload(host.data(), n); }));
    row("download, staged, 8-byte words", bytes, time_wall(reps, [&] { device.download(host.data(), n); }));
    row("download, staged, 8-byte words, new array", bytes, time_into_new_array(reps, bytes, [&](void* result) {
            device.download(static_cast<std::uint64_t*>(result), n);
        }));
    // The caller's own (already faulted) pages pinned for the transfer and unpinned after it:
    // what a DMA straight from a polynomial's coefficients would cost instead of the staging.
    row("cudaHostRegister + unregister, 8-byte words", bytes, time_wall(reps, [&] {
            cuda_check(cudaHostRegister(host.data(), bytes, cudaHostRegisterDefault), "cudaHostRegister");
            cuda_check(cudaHostUnregister(host.data()), "cudaHostUnregister");
        }));
    row("register + DMA host -> device + unregister", bytes, time_wall(reps, [&] {
            cuda_check(cudaHostRegister(host.data(), bytes, cudaHostRegisterDefault), "cudaHostRegister");
            cuda_check(cudaMemcpy(device.data(), host.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
            cuda_check(cudaHostUnregister(host.data()), "cudaHostUnregister");
        }));
    row("register + DMA device -> host + unregister", bytes, time_wall(reps, [&] {
            cuda_check(cudaHostRegister(host.data(), bytes, cudaHostRegisterDefault), "cudaHostRegister");
            cuda_check(cudaMemcpy(host.data(), device.data(), bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
            cuda_check(cudaHostUnregister(host.data()), "cudaHostUnregister");
        }));
    std::vector<std::uint32_t> host32(n, 1);
    DeviceWords32 device32(n);
    row("upload, staged, 4-byte words", bytes / 2, time_wall(reps, [&] { device32.upload(host32.data(), n); }));
    row("download, staged, 4-byte words", bytes / 2, time_wall(reps, [&] { device32.download(host32.data(), n); }));
}

std::mt19937_64 rng(12345);
std::vector<std::uint64_t> random_vector(std::size_t n, std::uint64_t p)
{
    std::vector<std::uint64_t> v(n);
    for (auto& x : v) x = rng() % p;
    return v;
}

// Median of `reps` forward NTTs of n random words mod p, in place on the device: on 32-bit words
// for p < 2^31, as the library's products take them.
double forward_ms(cudaStream_t stream, std::size_t n, std::uint64_t p, int reps)
{
    auto words = random_vector(n, p);
    if (p < (std::uint64_t(1) << 31)) {
        DeviceWords32 x(std::vector<std::uint32_t>(words.begin(), words.end()));
        std::uint32_t w = std::uint32_t(root_of_unity(p, n));
        return time_events(stream, reps, [&] { forward(x, n, 1, std::uint32_t(p), w); });
    }
    DeviceWords x(words);
    std::uint64_t w = root_of_unity(p, n);
    return time_events(stream, reps, [&] { forward(x, n, 1, p, w); });
}

double flint_ms(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b, std::uint64_t p,
                std::vector<std::uint64_t>* check)
{
    nmod_poly_t fa, fb, fc;
    nmod_poly_init2(fa, p, a.size());
    nmod_poly_init2(fb, p, b.size());
    nmod_poly_init(fc, p);
    for (std::size_t i = 0; i < a.size(); ++i) nmod_poly_set_coeff_ui(fa, i, a[i]);
    for (std::size_t i = 0; i < b.size(); ++i) nmod_poly_set_coeff_ui(fb, i, b[i]);
    auto t0 = std::chrono::steady_clock::now();
    nmod_poly_mul(fc, fa, fb);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (check) {
        check->assign(a.size() + b.size() - 1, 0);
        for (slong i = 0; i < nmod_poly_length(fc); ++i) (*check)[i] = nmod_poly_get_coeff_ui(fc, i);
    }
    nmod_poly_clear(fa);
    nmod_poly_clear(fb);
    nmod_poly_clear(fc);
    return ms;
}

struct CufftTimes { double c2c, z2z; };
CufftTimes cufft_times(std::size_t n, int reps)
{
    cudaStream_t stream;
    cuda_check(cudaStreamCreate(&stream), "stream");
    CufftTimes t{};
    {
        cufftComplex* data;
        cuda_check(cudaMalloc(&data, n * sizeof(cufftComplex)), "cudaMalloc c2c");
        std::vector<float> host(2 * n);
        for (auto& x : host) x = float(rng() % 1000) / 1000.0f;
        cuda_check(cudaMemcpy(data, host.data(), n * sizeof(cufftComplex), cudaMemcpyHostToDevice), "copy");
        cufftHandle plan;
        cufft_check(cufftPlan1d(&plan, int(n), CUFFT_C2C, 1), "plan c2c");
        cufft_check(cufftSetStream(plan, stream), "stream");
        t.c2c = time_events(stream, reps, [&] { cufft_check(cufftExecC2C(plan, data, data, CUFFT_FORWARD), "c2c"); });
        cufftDestroy(plan);
        cudaFree(data);
    }
    {
        cufftDoubleComplex* data;
        cuda_check(cudaMalloc(&data, n * sizeof(cufftDoubleComplex)), "cudaMalloc z2z");
        std::vector<double> host(2 * n);
        for (auto& x : host) x = double(rng() % 1000) / 1000.0;
        cuda_check(cudaMemcpy(data, host.data(), n * sizeof(cufftDoubleComplex), cudaMemcpyHostToDevice), "copy");
        cufftHandle plan;
        cufft_check(cufftPlan1d(&plan, int(n), CUFFT_Z2Z, 1), "plan z2z");
        cufft_check(cufftSetStream(plan, stream), "stream");
        t.z2z = time_events(stream, reps, [&] { cufft_check(cufftExecZ2Z(plan, data, data, CUFFT_FORWARD), "z2z"); });
        cufftDestroy(plan);
        cudaFree(data);
    }
    cudaStreamDestroy(stream);
    return t;
}

std::uint64_t odd_heavy_prime(int bits)
{
    std::uint64_t p = (std::uint64_t(1) << bits) - 1;
    while (!(p % 4 == 3 && is_prime(p))) p -= 2;
    return p;
}

}  // namespace

int main(int argc, char** argv)
{
    int min_log = 16, max_log = 24, flint_max = 22, reps = 21;
    bool ntt_only = false, transfers = false, with_cufft = false;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string opt = argv[i];
        if (opt == "--min") min_log = std::atoi(argv[i + 1]);
        else if (opt == "--max") max_log = std::atoi(argv[i + 1]);
        else if (opt == "--flint-max") flint_max = std::atoi(argv[i + 1]);
        else if (opt == "--reps") reps = std::atoi(argv[i + 1]);
        else if (opt == "--ntt-only") ntt_only = std::atoi(argv[i + 1]) != 0;
        else if (opt == "--cufft") with_cufft = std::atoi(argv[i + 1]) != 0;
        else if (opt == "--transfers") transfers = std::atoi(argv[i + 1]) != 0;
        else if (opt == "--opts") tune_fast_options(unsigned(std::atoi(argv[i + 1])));
        else if (opt == "--tune") {
            int b, tile, radix, cols;
            if (std::sscanf(argv[i + 1], "%d,%d,%d,%d", &b, &tile, &radix, &cols) == 4) tune_fast(b, tile, radix, cols);
        }
    }
    if (!available()) {
        std::printf("cas-bench: %s\n", describe().c_str());
        return 1;
    }
    std::printf("device: %s\n", describe().c_str());
    std::printf("flint: %s (nmod_poly_mul, one core)\n", FLINT_VERSION);
    cudaStream_t stream = static_cast<cudaStream_t>(stream_handle());
    if (transfers) {
        transfer_table(std::size_t(1) << max_log, reps);
        return 0;
    }

    std::uint64_t p62 = ntt_primes(62, 27, 1).at(0);
    std::uint64_t p31 = ntt_primes(31, 27, 1).at(0);
    std::uint64_t p63 = odd_heavy_prime(63);
    const std::uint64_t p64g = 0xFFFFFFFF00000001ull;
    std::printf("p62 = %llu, p31 = %llu, p63* = %llu, p64g = %llu\n\n", (unsigned long long)p62,
                (unsigned long long)p31, (unsigned long long)p63, (unsigned long long)p64g);
    if (ntt_only) {  // tuning mode: forward NTT times only, one line per length
        for (int log_n = min_log; log_n <= max_log; ++log_n) {
            std::size_t n = std::size_t(1) << log_n;
            double t62 = forward_ms(stream, n, p62, reps), t31 = forward_ms(stream, n, p31, reps),
                   t64g = forward_ms(stream, n, p64g, reps);
            std::printf("ntt 2^%d  p62 %.4f ms (%.0f GB/s)  p31 %.4f ms (%.0f GB/s)  p64g %.4f ms (%.0f GB/s)", log_n,
                        t62, 16.0 * n / t62 / 1e6, t31, 8.0 * n / t31 / 1e6, t64g, 16.0 * n / t64g / 1e6);
            if (with_cufft) std::printf("  c2c %.4f ms", cufft_times(n, reps).c2c);  // the bytes of p62
            std::printf("\n");
        }
        return 0;
    }
    std::printf("%-5s %-5s %10s %9s %9s %9s %9s %8s %6s %9s %9s %9s %9s %9s\n", "N", "prime", "flint ms", "gpu dev",
                "gpu h2h", "h2h new", "ntt ms", "GB/s", "%copy", "c2c ms", "z2z ms", "flint/h2h", "flint/dev",
                "ntt/c2c");
    for (int log_n = min_log; log_n <= max_log; ++log_n) {
        std::size_t n = std::size_t(1) << log_n, half = n / 2;
        CufftTimes fft = cufft_times(n, reps);
        for (int kind = 0; kind < 4; ++kind) {
            const std::uint64_t primes[] = {p62, p31, p63, p64g};
            const char* names[] = {"p62", "p31", "p63*", "p64g"};
            const std::uint64_t p = primes[kind];
            const char* name = names[kind];
            const bool words64 = p >= (std::uint64_t(1) << 31);  // forward_ms's rule
            auto a = random_vector(half, p), b = random_vector(half, p);
            std::vector<std::uint64_t> out(n - 1, 1);
            bool verified = true;
            double flint = -1;
            if (log_n <= flint_max) {
                std::vector<std::uint64_t> expected;
                flint = flint_ms(a, b, p, &expected);
                multiply_mod(a.data(), half, b.data(), half, p, out.data());
                verified = out == expected;
            }
            double h2h = time_wall(reps, [&] { multiply_mod(a.data(), half, b.data(), half, p, out.data()); });
            double h2h_new = time_into_new_array(reps, (n - 1) * sizeof(std::uint64_t), [&](void* result) {
                multiply_mod(a.data(), half, b.data(), half, p, static_cast<std::uint64_t*>(result));
            });
            DeviceWords da(a), db(b), dc(n - 1);
            double dev = time_events(stream, reps, [&] { multiply_mod(da, db, p, dc); });
            double ntt = -1, bytes = 0;
            if (kind != 2) {  // p63* has no transform of this length
                ntt = forward_ms(stream, n, p, reps);
                bytes = 2.0 * n * (words64 ? 8 : 4);
            }
            char flint_s[32], ntt_s[32], gbs_s[32], pct_s[32], r1[32], r2[32], r3[32];
            std::snprintf(flint_s, sizeof flint_s, flint < 0 ? "-" : "%.1f", flint);
            std::snprintf(ntt_s, sizeof ntt_s, ntt < 0 ? "-" : "%.4f", ntt);
            double gbs = ntt > 0 ? bytes / (ntt * 1e-3) / 1e9 : 0;
            std::snprintf(gbs_s, sizeof gbs_s, ntt < 0 ? "-" : "%.0f", gbs);
            std::snprintf(pct_s, sizeof pct_s, ntt < 0 ? "-" : "%.0f%%", 100 * gbs / copy_ceiling_gbs);
            std::snprintf(r1, sizeof r1, flint < 0 ? "-" : "%.0fx", flint / h2h);
            std::snprintf(r2, sizeof r2, flint < 0 ? "-" : "%.0fx", flint / dev);
            std::snprintf(r3, sizeof r3, ntt < 0 ? "-" : "%.2f", ntt / (words64 ? fft.c2c : fft.c2c / 2));
            std::printf("2^%-3d %-5s %10s %9.3f %9.3f %9.3f %9s %8s %6s %9.4f %9.4f %9s %9s %9s%s\n", log_n, name,
                        flint_s, dev, h2h, h2h_new, ntt_s, gbs_s, pct_s, fft.c2c, fft.z2z, r1, r2, r3,
                        verified ? "" : "  MISMATCH vs FLINT");
            std::fflush(stdout);
        }
    }
    std::printf("\nntt/c2c compares equal bytes: p62 and p64g (8-byte words) with C2C (8-byte complex floats); p31 (4-byte words)\n"
                "with half the C2C time. Copy ceiling 2978 GB/s (device-to-device copy, shared/device/README.md).\n");
    return 0;
}
