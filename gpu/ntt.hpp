// Public host interface of the GPU engine: number-theoretic transforms over Z/pZ for word-size
// primes and dense products in Z/pZ[x] for every word-size modulus.
//
// Nothing here names a CUDA, FLINT or GMP type, so the algebra layer includes it freely. When the
// library was built without CUDA, or the machine has no usable device, available() is false and
// every other entry point throws Unavailable: the caller falls back to FLINT.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace cas::gpu {

// ---------------------------------------------------------------- failures
// Base of every failure of this library; a std::runtime_error with a readable message.
struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// No CUDA in this build, no driver, or no device.
struct Unavailable : Error {
    using Error::Error;
};
// A device allocation failed (cudaMalloc / cudaMallocAsync / pinned host memory).
struct OutOfMemory : Error {
    using Error::Error;
};

// ---------------------------------------------------------------- device
struct DeviceInfo {
    std::string name;            // "NVIDIA H100 80GB HBM3"
    std::size_t total_memory = 0;  // bytes
    std::size_t free_memory = 0;   // bytes, when asked
    int multiprocessors = 0;
    int major = 0, minor = 0;    // compute capability
};

bool available();                // never throws
DeviceInfo device_info();        // the current device (OnDevice); throws Unavailable
DeviceInfo device_info(int device);
std::string describe();          // one line; "no CUDA device (reason)" when unavailable
std::string describe(int device);  // the same for one device

// ---------------------------------------------------------------- several devices
// The library uses the first device_count() of the devices CUDA shows (CUDA_VISIBLE_DEVICES
// chooses and orders them). Each has its own stream, memory pool, pinned buffers and tables; a
// thread's operations run on its current device, 0 unless an OnDevice on that thread says
// otherwise. Device arrays remember their device and free themselves there.
int device_count();              // 0 without a usable device; never throws
int visible_devices();           // the devices CUDA shows, whatever set_devices_used says; never throws
// At most n devices (0: every visible one), as the environment variable CAS_GPU_DEVICES does at
// startup; returns the previous setting. For the one-GPU baselines of benchmarks, and for tests.
int set_devices_used(int n);
// Whether operations may be shared among device_count() > 1 devices (NCCL loaded); when not, why
// ("one device", "cannot load NCCL (...)", "built without NCCL ...").
bool devices_share_work(std::string* why = nullptr);
// Makes `device` the calling thread's current device for the guard's lifetime (CUDA's too).
class OnDevice {
public:
    explicit OnDevice(int device);
    ~OnDevice();
    OnDevice(const OnDevice&) = delete;
    OnDevice& operator=(const OnDevice&) = delete;

private:
    int previous_;
};
void synchronize();              // waits for all work queued by this library
// Creates the CUDA context and the pinned staging buffers now, which the first operation
// otherwise pays for (about 0.3 s on the H100 machine). Never throws; safe to run on another
// thread beside this library's other calls (the REPL runs it while its user types).
void warm_up();
// A failure-injection hook for the out-of-memory paths: every device allocation of more than
// `bytes` fails with OutOfMemory as if the device were full; 0 lifts the limit. The environment
// variable CAS_GPU_ALLOCATION_LIMIT (bytes, or with a K, M or G suffix) sets it at startup, so
// that the fallback to FLINT and its notice can be seen on a machine whose GPU has room.
void set_allocation_limit(std::size_t bytes);
// The cudaStream_t every operation is queued on (as void*, so that no CUDA header is needed):
// for timing with events, or for ordering the caller's own kernels.
void* stream_handle();

// ---------------------------------------------------------------- device buffers
// An owning array of words in device memory (move-only RAII). Data stays on the GPU between
// operations; upload/download go through pinned staging buffers on the library's stream.
// Memory comes from the stream-ordered pool of that stream (stream_handle()): work of your own
// on another stream must wait for it (synchronize()) before touching data().
template <class Word>
class DeviceArray {
public:
    DeviceArray() = default;
    explicit DeviceArray(std::size_t size);  // uninitialised; throws OutOfMemory
    DeviceArray(const Word* host, std::size_t size);
    explicit DeviceArray(const std::vector<Word>& host) : DeviceArray(host.data(), host.size()) {}
    ~DeviceArray();
    DeviceArray(DeviceArray&& other) noexcept;
    DeviceArray& operator=(DeviceArray&& other) noexcept;
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    Word* data() { return data_; }  // a device pointer
    const Word* data() const { return data_; }

    void upload(const Word* host, std::size_t count, std::size_t offset = 0);
    void download(Word* host, std::size_t count, std::size_t offset = 0) const;
    std::vector<Word> to_host() const;
    void fill_zero();

    int device() const { return device_; }

private:
    Word* data_ = nullptr;
    std::size_t size_ = 0;
    int device_ = 0;  // where data_ lives
};
using DeviceWords = DeviceArray<std::uint64_t>;
using DeviceWords32 = DeviceArray<std::uint32_t>;  // for primes p < 2^31: half the bytes

// ---------------------------------------------------------------- transforms
// radix2 and stockham are the reference kernels of Moreno Maza & Pan (2010), formulas (10) and
// (12): one kernel launch per radix-2 stage. fast does several stages per pass in shared memory.
enum class Algorithm { radix2, stockham, fast };
const char* to_string(Algorithm a);

// In-place forward NTT of `batch` consecutive vectors of length n = 2^k (k <= 27 for one vector):
//   X_k = sum_j x_j w^(jk) mod p, natural order in and out.
// p is a prime, 3 <= p < 2^64 (any p when n == 1); w a primitive n-th root of unity mod p;
// entries in [0, p). A 32-bit array requires p < 2^31. inverse() takes the same forward root w,
// transforms with w^-1 and multiplies by 1/n, so inverse(forward(v)) == v.
void forward(DeviceWords& data, std::size_t n, std::size_t batch, std::uint64_t p, std::uint64_t w,
             Algorithm algorithm = Algorithm::fast);
void inverse(DeviceWords& data, std::size_t n, std::size_t batch, std::uint64_t p, std::uint64_t w,
             Algorithm algorithm = Algorithm::fast);
void forward(DeviceWords32& data, std::size_t n, std::size_t batch, std::uint32_t p, std::uint32_t w,
             Algorithm algorithm = Algorithm::fast);
void inverse(DeviceWords32& data, std::size_t n, std::size_t batch, std::uint32_t p, std::uint32_t w,
             Algorithm algorithm = Algorithm::fast);

// Host to host conveniences (values.size() must be n * batch).
std::vector<std::uint64_t> forward(const std::vector<std::uint64_t>& values, std::size_t n,
                                   std::uint64_t p, std::uint64_t w, Algorithm algorithm = Algorithm::fast);
std::vector<std::uint64_t> inverse(const std::vector<std::uint64_t>& values, std::size_t n,
                                   std::uint64_t p, std::uint64_t w, Algorithm algorithm = Algorithm::fast);
// The same from the caller's array `in` into the caller's array `out` (count = n * batch words
// each; out == in transforms in place): no std::vector to allocate and fill, and 32-bit words over
// PCIe and in the passes when p < 2^31 (half the bytes both ways). A fresh `out`, never touched
// (as cas's fft makes it), takes its page faults on the copy workers while the GPU computes.
// inverse_into includes 1/n, as inverse() does. One vector (count == n) longer than 2^30 words, or
// one that a device lacks the memory for, goes through the four-step decomposition: transforms of
// the columns and rows of an n1 x n2 matrix, shared among the devices that exchange data through
// NCCL (gpu/ntt_split.cu); set_prime_split_threshold (gpu/crt.hpp) lowers that length.
void forward_into(const std::uint64_t* in, std::uint64_t* out, std::size_t count, std::size_t n, std::uint64_t p,
                  std::uint64_t w, Algorithm algorithm = Algorithm::fast);
void inverse_into(const std::uint64_t* in, std::uint64_t* out, std::size_t count, std::size_t n, std::uint64_t p,
                  std::uint64_t w, Algorithm algorithm = Algorithm::fast);

// Tuning of the fast kernel, for the benchmark: shared-memory tile of 2^log_tile words, passes of
// radix at most 2^log_max_radix, global-memory runs of 2^log_columns words. word_bytes is 4 or 8.
void tune_fast(int word_bytes, int log_tile, int log_max_radix, int log_columns);
// Optional steps of the fast path, for A/B measurements and tests (all but bit 6 on by default: 3775):
// bit 0 per-pass twiddle tables (one product per inter-pass twiddle), bit 1 products fused into
// the transform passes (zero padding, pointwise product, widening), bit 2 twiddles of the last
// pass walked by Montgomery products instead of looked up, bit 3 the strided passes' twiddles
// walked too, bit 4 row-order stores and unpadded strided tiles, bit 5 the first DIF stages of
// strided passes in registers (bits 3-5: 32-bit words only), bit 7 the same on the last pass,
// bit 9 the Goldilocks prime 2^64 - 2^32 + 1 reduced by shifts and additions instead of Shoup products,
// bit 10 the fused pointwise product with one Montgomery reduction, its factor R folded into 1/n,
// bit 11 passes drop their dead input (intermediates, a product's spectra) from L2 without
// write-back, on arrays up to twice the L2,
// bit 6 (benchmark diagnostic only, wrong results) no DFT stages. Returns the previous value.
unsigned tune_fast_options(unsigned options);

// Drops the cached twiddle tables (they are built on the GPU once per (p, n, w) and kept up to
// 256 MiB a word size, least recently used out first).
void clear_twiddle_cache();
// How many twiddle table sets this process has built (diagnostic: the tests check that repeated
// work finds its tables cached).
std::size_t twiddle_tables_built();

// ---------------------------------------------------------------- products in Z/pZ[x]
// c = a * b mod p for any modulus 2 <= p < 2^64 (prime or not), coefficients in [0, p), lowest
// degree first. Result length na + nb - 1 (empty when na == 0 or nb == 0). When p is prime and
// 2^ceil(log2(na+nb-1)) divides p - 1, one NTT modulo p; otherwise NTTs modulo several
// NTT-friendly primes and an exact CRT (Garner) back to Z/pZ.
std::vector<std::uint64_t> multiply_mod(const std::uint64_t* a, std::size_t na, const std::uint64_t* b,
                                        std::size_t nb, std::uint64_t p, Algorithm algorithm = Algorithm::fast);
std::vector<std::uint64_t> multiply_mod(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b,
                                        std::uint64_t p, Algorithm algorithm = Algorithm::fast);
// Same into the caller's buffer of na + nb - 1 words (no allocation: the fastest host path).
void multiply_mod(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb, std::uint64_t p,
                  std::uint64_t* out, Algorithm algorithm = Algorithm::fast);
// Same with the operands and the result on the device (result size na + nb - 1); one array
// passed as both operands is squared (two transforms, not three).
DeviceWords multiply_mod(const DeviceWords& a, const DeviceWords& b, std::uint64_t p,
                         Algorithm algorithm = Algorithm::fast);
// Into an existing device array of at least na + nb - 1 words; returns without waiting.
void multiply_mod(const DeviceWords& a, const DeviceWords& b, std::uint64_t p, DeviceWords& out,
                  Algorithm algorithm = Algorithm::fast);

// The cyclic convolution of length n of a[0, na) and b[0, nb) (their product modulo x^n - 1), or
// with negacyclic the negacyclic one (modulo x^n + 1), modulo p, into out[0, n): multiply_mod's
// product on the device, folded there, so that n words come back, not na + nb - 1. na, nb <= n.
void convolve_mod(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb, std::size_t n,
                  bool negacyclic, std::uint64_t p, std::uint64_t* out, Algorithm algorithm = Algorithm::fast);

// a^e mod p with one forward and one inverse transform: a zero-padded to the power of two
// n >= e (na - 1) + 1, transformed, every value raised to the e-th power, transformed back (the
// squarings of square-and-multiply would transform log2(e) growing intermediate results, each
// twice). Needs power_in_one_transform(na, e, p): p prime, 3 <= p < 2^64, n | p - 1. out receives
// e (na - 1) + 1 words; na >= 1, e >= 1.
bool power_in_one_transform(std::size_t na, std::uint64_t e, std::uint64_t p);
void power_mod(const std::uint64_t* a, std::size_t na, std::uint64_t e, std::uint64_t p, std::uint64_t* out,
               Algorithm algorithm = Algorithm::fast);
// The same with the operand and the result on the device (returns without waiting).
DeviceWords power_mod(const DeviceWords& a, std::uint64_t e, std::uint64_t p, Algorithm algorithm = Algorithm::fast);

// ---------------------------------------------------------------- division in Z/pZ[x]
// a = q b + r modulo p (any 2 <= p < 2^64; b's leading coefficient invertible) by Newton's
// iteration with every product on the device (division.cu): the inverse of rev(b) = x^(nb-1) b(1/x)
// modulo x^(na - nb + 1) grown from its first base_length terms (the caller's, e.g. FLINT's
// inverse series), the precision doubled with two products a step; then rev(q) = rev(a) inv and
// r = a - q b. Only a, b, the base and the results cross the bus (as 32-bit words for p < 2^32;
// a goes up while the inverse grows). q receives na - nb + 1 words, r (unless null) nb - 1. Needs
// na >= nb >= 2, words in [0, p), 1 <= base_length <= na - nb + 1.
void divide_mod(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb, std::uint64_t p,
                const std::uint64_t* base, std::size_t base_length, std::uint64_t* q, std::uint64_t* r,
                Algorithm algorithm = Algorithm::fast);
// The same with the dividend on the device (a.size() words in [0, p)).
void divide_mod(const DeviceWords& a, const std::uint64_t* b, std::size_t nb, std::uint64_t p,
                const std::uint64_t* base, std::size_t base_length, std::uint64_t* q, std::uint64_t* r,
                Algorithm algorithm = Algorithm::fast);
// out[0, nm - 1) = f^e mod m modulo p (zero-padded), square and multiply on the device, every
// product reduced through the inverse of rev(m) to nm - 2 terms grown as divide_mod grows it
// (base: its first base_length terms). e: e_words little-endian 64-bit words, e >= 1. Needs
// nm >= 3, 1 <= nf < nm, words in [0, p), m's leading coefficient invertible.
void power_modulo(const std::uint64_t* f, std::size_t nf, const std::uint64_t* e, std::size_t e_words,
                  const std::uint64_t* m, std::size_t nm, std::uint64_t p, const std::uint64_t* base,
                  std::size_t base_length, std::uint64_t* out, Algorithm algorithm = Algorithm::fast);

// How multiply_mod would compute a product of `length` coefficients mod p (for tests, the
// benchmark and the dispatcher): 1 prime (the modulus itself) or the number of CRT primes.
struct ProductPlan {
    bool single_prime = false;
    std::vector<std::uint64_t> primes;  // the transform primes
    std::size_t transform_length = 0;    // power of two >= length
};
ProductPlan plan_product(std::size_t na, std::size_t nb, std::uint64_t p);
// The same for the cyclic product modulo x^n - 1 of transform length n (a power of two >= na, nb):
// what convolve_mod and the division's Newton steps use when their length allows.
ProductPlan plan_cyclic_product(std::size_t na, std::size_t nb, std::size_t n, std::uint64_t p);
// Whether convolve_mod takes that cyclic product (transforms of n words, planned by
// plan_cyclic_product) rather than the whole product folded: a cyclic convolution whose length n
// is a power of two and whose product wraps (na + nb - 1 > n).
bool convolves_by_cyclic_product(std::size_t na, std::size_t nb, std::size_t n, bool negacyclic);

// ---------------------------------------------------------------- number theory (host, no GPU needed)
bool is_prime(std::uint64_t n);                                 // deterministic for 64-bit n
std::uint64_t pow_mod(std::uint64_t a, std::uint64_t e, std::uint64_t p);
std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b, std::uint64_t p);
// A primitive n-th root of unity mod the prime p (n a power of two dividing p - 1), else 0.
std::uint64_t root_of_unity(std::uint64_t p, std::size_t n);
// The largest primes q < 2^bits with 2^log2_length dividing q - 1, largest first.
std::vector<std::uint64_t> ntt_primes(int bits, int log2_length, std::size_t count);

}  // namespace cas::gpu
