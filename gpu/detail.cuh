// Internal to gpu/: error checking, the library's stream, twiddle tables, and the kernels'
// host-side launchers. Included by the .cu files only.
#pragma once

#include "gpu/modarith.cuh"
#include "gpu/ntt.hpp"

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace cas::gpu::detail {

// The calling thread's device (OnDevice), 0 unless set; the library's per-device state is indexed
// by it.
int current_device();
constexpr int most_devices = 16;

// One T for each device, made by make() on first use on that device and never destroyed (its
// device memory must not be freed after the CUDA runtime has shut down).
template <class T>
class PerDevice {
public:
    template <class Make>
    T& here(Make&& make)
    {
        const int d = current_device();
        std::call_once(made_[d], [&] { items_[d] = make(); });
        return *items_[d];
    }
    T& here()
    {
        return here([] { return new T(); });
    }

private:
    std::once_flag made_[most_devices];
    T* items_[most_devices] = {};
};

// Throws OutOfMemory for allocation failures, Error for anything else.
void check(cudaError_t status, const char* what);
// cudaMallocAsync (on the library stream) or cudaMalloc (stream-less: `stream_ordered` false),
// subject to set_allocation_limit; throws OutOfMemory or Error.
void allocate(void** memory, std::size_t bytes, const char* what, bool stream_ordered = true);
// After every kernel launch: the launch error, if any.
inline void check_launch(const char* kernel) { check(cudaGetLastError(), kernel); }
// The stream every operation of the library is queued on.
cudaStream_t stream();
// An event recorded on stream() when constructed: the point of the stream an upload beside it
// waits for.
class StreamMark {
public:
    StreamMark();
    ~StreamMark();
    StreamMark(const StreamMark&) = delete;
    StreamMark& operator=(const StreamMark&) = delete;
    cudaEvent_t event() const { return event_; }
private:
    cudaEvent_t event_ = nullptr;
};
// Host <-> device copies through the pinned staging buffers (synchronous for the caller). An
// upload runs after everything queued on stream(), or, given `after`, beside it: after that mark
// only (the destination's allocation), overlapping the kernels queued since (products upload
// their second operand while the first one is transformed). Kernels that read the destination
// must be queued after the upload returns.
void upload_bytes(void* device, const void* host, std::size_t bytes, const StreamMark* after = nullptr);
void download_bytes(void* host, const void* device, std::size_t bytes);
// A table of a few KiB (a kernel's constants) into a new device array, queued on stream() after
// everything before it, without the host waiting for that work: cudaMemcpyAsync from pageable
// memory, which the driver copies into its own staging memory before it returns.
DeviceWords upload_table(const std::uint64_t* host, std::size_t count);
inline DeviceWords upload_table(const std::vector<std::uint64_t>& host)
{
    return upload_table(host.data(), host.size());
}
// The same for 64-bit host words that fit 32 bits, moved as 32-bit words (half the PCIe bytes):
// upload_narrowed writes device[i] = host[i] mod 2^32 and returns whether every host[i] < 2^32
// (when false, device holds no meaning); download_widened writes host[i] = device[i].
bool upload_narrowed(std::uint32_t* device, const std::uint64_t* host, std::size_t count,
                     const StreamMark* after = nullptr);
void download_widened(std::uint64_t* host, const std::uint32_t* device, std::size_t count);
// Two pinned host buffers of `bytes` each, and an event per buffer recorded after the last copy
// that used it: wait on done[i] before writing or reading buffer[i].
struct PinnedPair {
    char* buffer[2];
    cudaEvent_t done[2];
    std::size_t bytes;
};
// Runs body with the block staging buffers (held for the call; other callers wait).
void with_block_staging(const std::function<void(const PinnedPair&)>& body);
// Throws Unavailable when there is no device.
void require_device();
// The most shared memory a block may ask for on this device (asked once).
std::size_t shared_memory_optin();

// Stream-ordered scratch memory (cudaMallocAsync), freed when the owner goes.
template <class T>
class Scratch {
public:
    explicit Scratch(std::size_t count);
    ~Scratch();
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
    T* get() const { return data_; }
private:
    T* data_ = nullptr;
};

// Host words in [0, p) into a device array allocated at construction: for p < 2^32 as 32-bit
// words on the bus (half the bytes), widened on the device (polymul.cu). from(host, beside) with
// beside true runs the DMA beside the kernels queued since construction (upload_bytes' `after`),
// so construct it before queuing the work it should overlap. A word >= 2^32 (outside the
// contract) goes again as a 64-bit word.
class ReducedUpload {
public:
    ReducedUpload(std::size_t count, std::uint64_t p);
    DeviceWords& from(const std::uint64_t* host, bool beside = false);

private:
    DeviceWords words_;
    Scratch<std::uint32_t> narrow_;
    std::size_t count_;
    StreamMark allocated_;  // after both allocations
};
// host[0, count) = device words in [0, p): for p < 2^32 narrowed on the device and widened on the
// way out (download_widened).
void download_reduced(std::uint64_t* host, const std::uint64_t* device, std::size_t count, std::uint64_t p);

template <class T>
Modulus<T> make_modulus(std::uint64_t p);

// Powers of w for a transform of length n, split in two levels so that the tables stay small
// (2 sqrt(n) entries) and w^e for any e < n costs two Shoup products:
//   w^e = hi[e >> low_bits] * lo[e & (2^low_bits - 1)].
// `radix` holds the powers of omega = w^(n / radix_len), the root used inside one pass of the
// fast kernel, so that its twiddles need one product.
template <class T>
struct Twiddles {
    const T* lo;
    const T* lo_q;
    const T* hi;
    const T* hi_q;
    const T* radix;
    const T* radix_q;
    int low_bits;
    int log_radix_len;
    // pairs[2k], pairs[2k+1] = omega^k and its Shoup companion, omega = w^(n / 2^log_pairs),
    // k < 2^log_pairs: one 8- or 16-byte load and ONE Shoup product for the inter-pass twiddle
    // omega_N^{rd} of every pass with N <= 2^log_pairs (the two-level form costs two products
    // and four loads). Interleaved so that w and w' arrive in one load.
    const T* pairs;
    int log_pairs;
};
constexpr int max_log_pairs = 16;
// The same for n > 2^24, whose three-pass plans (option_long_radix) have N = 2^17 or 2^18 on their
// second pass: 2^18 pairs, 2 / 4 MiB.
constexpr int max_log_pairs_long = 18;
constexpr int min_low_bits = 10;  // lo holds w^e for every e < 2^10 (n >= 2^10)
constexpr int max_log_radix_table = 12;

// x w^e mod p, e < n.
template <class T>
__device__ inline T mul_power(T x, std::uint64_t e, const Twiddles<T>& tw, const Modulus<T>& m)
{
    std::uint64_t h = e >> tw.low_bits, l = e & ((std::uint64_t(1) << tw.low_bits) - 1);
    if (h != 0) x = mul_twiddle(x, tw.hi[h], tw.hi_q[h], m);
    if (l != 0) x = mul_twiddle(x, tw.lo[l], tw.lo_q[l], m);
    return x;
}

// Built on the GPU once per (word size, p, n, w) and cached; see twiddles.cu.
template <class T>
Twiddles<T> twiddles(std::uint64_t p, std::size_t n, std::uint64_t w);

// One transform of `batch` vectors of length n = 2^log_n with root w (forward direction; the
// inverse runs these with w^-1 and then scales). Each queues its kernels on stream().
template <class T>
void ntt_radix2(T* data, int log_n, std::size_t batch, const Modulus<T>& m, const Twiddles<T>& tw);
template <class T>
void ntt_stockham(T* data, int log_n, std::size_t batch, const Modulus<T>& m, const Twiddles<T>& tw);
// Work fused into the first and last passes of the fast transform (products, polymul.cu): each
// fused step saves one read and write of the whole array (a memory sweep).
//   first_mode 1: the input of vector v (v < 2) is src[v][0, count[v]) as 64-bit words, reduced
//                 mod p (any word) and zero-padded to n: replaces to_residues.
//   first_mode 2: the input is data[i] * data[n + i] mod p (vectors 0 and 1 of data), or
//                 data[i] * second[i] when `second` is set (a kept spectrum, left in L2, or data
//                 itself: a square), a transform of batch 1: replaces the pointwise product.
//   widen_out:    the last pass writes out[i] = y[i] as 64-bit words for i < out_count instead of
//                 data: replaces the widen / copy of the result.
template <class T>
struct Fusion {
    int first_mode = 0;
    bool widen_out = false;
    const std::uint64_t* src0 = nullptr;
    const std::uint64_t* src1 = nullptr;
    std::size_t count0 = 0, count1 = 0;
    const T* second = nullptr;
    std::uint64_t* out = nullptr;
    std::size_t out_count = 0;
    T one_q = 0, two32 = 0, two32_q = 0;  // x mod p for 64-bit x (Shoup by 1 and by 2^32 mod p)
};
// Options of the fast transform (bits), for A/B measurements in one binary (cas-bench --opts).
// The variants of the common passes (Variant in ntt_fast_pass.cuh) apply to 32-bit words, but
// for the last pass's register stages (both word sizes); bit 6 skips the DFT stages (diagnostic
// for cas-bench: wrong results, loads and stores only).
enum FastOption : unsigned {
    option_pair_tables = 1,      // per-pass (w, w') tables for N <= 2^16: one product per twiddle
    option_fuse_product = 2,     // products fused into the passes
    option_twiddle_walk = 4,     // contiguous passes past the pair table walk their twiddles
    option_strided_walk = 8,     // strided passes walk their twiddles too (32-bit words)
    option_row_stores = 16,      // row-order stores and unpadded strided tiles (32-bit words)
    option_register_stages = 32, // first DIF stages of strided passes in registers (32-bit words)
    option_skip_dft = 64,
    option_column_registers = 128,  // contiguous passes: first DIF stages in registers
    option_goldilocks = 512,        // p = 2^64 - 2^32 + 1: products by shifts and additions
    option_fold_pointwise = 1024,   // fused pointwise product: one Montgomery reduction, R into 1/n
    option_discard_consumed = 2048, // passes after the first drop their input's lines from L2
    option_long_radix = 4096,       // 2^25 and 2^26 in three passes of radix up to 2^9, not four
};
unsigned fast_options();
// Whether ntt_fast can fuse work into the passes of a transform of 2^log_n words (multi-pass).
template <class T>
bool fast_fusable(int log_n);
// scale != 1 multiplies every output by scale (the 1/n of the inverse), fused into the last pass.
template <class T>
void ntt_fast(T* data, int log_n, std::size_t batch, const Modulus<T>& m, const Twiddles<T>& tw, T scale,
              T scale_q, const Fusion<T>* fusion = nullptr);

// data[i] *= scale for i < count.
template <class T>
void scale_vector(T* data, std::size_t count, T scale, T scale_q, const Modulus<T>& m);

// The full transform (dispatch on the algorithm, inverse = transform with w^-1, then 1/n).
template <class T>
void transform(T* data, std::size_t n, std::size_t batch, std::uint64_t p, std::uint64_t w, bool inverse,
               Algorithm algorithm, const Fusion<T>* fusion = nullptr);

// Host side of a product whose second operand is still on its way: run once the work on the
// first operand is queued, it makes b's device words valid (an upload beside the stream, so that
// it overlaps that work), before anything that reads them is queued. Empty: b is there already.
using SecondOperand = std::function<void()>;
// c = a * b mod p (polymul.cu) for device words a and b (any 64-bit words), into out[0, na + nb - 1).
void multiply_device(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb, std::uint64_t p,
                     Algorithm algorithm, std::uint64_t* out, const SecondOperand& bring_second = {});

// The same modulo x^n - 1 (n a power of two >= na, nb) into out[0, min(na + nb - 1, n)): transforms
// of n words, not of the power of two >= na + nb - 1.
void multiply_cyclic_device(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb,
                            std::size_t n, std::uint64_t p, Algorithm algorithm, std::uint64_t* out,
                            const SecondOperand& bring_second = {});
// out[0, 2 na - 1) = a^2 mod p: one forward transform a prime instead of two.
void square_device(const std::uint64_t* a, std::size_t na, std::uint64_t p, Algorithm algorithm, std::uint64_t* out);

// A fixed operand's transforms, kept on the device for cyclic products of length n with it (one
// spectrum a transform prime: the modulus's own, or the CRT primes'): each product transforms only
// its other operand, two transforms instead of three. The division's inverse and divisor, the
// base of a power modulo m (division.cu).
class KeptOperand {
public:
    // b[0, nb): device words in [0, p), nb <= n (a power of two); products with operands of at
    // most `partner` words in [0, p).
    KeptOperand(const std::uint64_t* b, std::size_t nb, std::size_t partner, std::size_t n, std::uint64_t p,
                Algorithm algorithm);
    // out[0, count) = (a b mod (x^n - 1)) mod p for device words a[0, na) in [0, p), na <= partner,
    // count <= n.
    void multiply(const std::uint64_t* a, std::size_t na, std::uint64_t* out, std::size_t count) const;

private:
    template <class T>
    void transform_rows(const std::uint64_t* b, std::size_t nb);
    template <class T>
    void multiply_rows(const std::uint64_t* a, std::size_t na, std::uint64_t* out, std::size_t count) const;

    ProductPlan plan_;
    std::uint64_t p_;
    std::size_t partner_;
    Algorithm algorithm_;
    Scratch<std::uint64_t> spectra_;  // row i: n words of T (32 or 64 bits) for prime i
};

// out[i] = c[i] + c[i + n] (negacyclic: minus) mod p for i < n (crt.cu): the device words
// c[0, length) of a product (length <= 2n - 1) folded modulo x^n -+ 1.
void launch_fold(const std::uint64_t* c, std::size_t length, std::size_t n, bool negacyclic, std::uint64_t p,
                 std::uint64_t* out);

// out[0, e (na - 1) + 1) = a^e mod p (polymul.cu) for device words in [0, p), through one
// transform of length n (the power of two >= e (na - 1) + 1; power_in_one_transform must hold).
void power_device(const std::uint64_t* a, std::size_t na, std::uint64_t e, std::uint64_t p, std::size_t n,
                  Algorithm algorithm, std::uint64_t* out);

// Grid sizes: at most this many blocks in x; kernels loop over the rest.
inline unsigned grid_for(std::size_t threads_needed, unsigned block)
{
    std::size_t blocks = (threads_needed + block - 1) / block;
    return unsigned(blocks < 65535u * 16u ? (blocks == 0 ? 1 : blocks) : 65535u * 16u);
}

}  // namespace cas::gpu::detail
