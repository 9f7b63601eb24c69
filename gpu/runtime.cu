// Device discovery, errors, the library stream, device arrays and pinned host transfers.
#include "gpu/detail.cuh"
#include "gpu/environment.hpp"
#include "gpu/host_memory.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

namespace cas::gpu {
namespace detail {

void check(cudaError_t status, const char* what)
{
    if (status == cudaSuccess) return;
    cudaGetLastError();  // clear a non-sticky error so the next call starts clean
    std::string message = std::string(what) + ": " + cudaGetErrorString(status);
    if (status == cudaErrorMemoryAllocation) throw OutOfMemory(message);
    if (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver)
        throw Unavailable(message);
    throw Error(message);
}

namespace {
// set_allocation_limit: 0 (none) unless CAS_GPU_ALLOCATION_LIMIT says otherwise.
std::size_t limit_from_environment()
{
    const char* env = std::getenv("CAS_GPU_ALLOCATION_LIMIT");
    if (!env || !*env) return 0;
    char* end = nullptr;
    unsigned long long bytes = std::strtoull(env, &end, 10);
    switch (*end) {
        case 'K': case 'k': bytes <<= 10; break;
        case 'M': case 'm': bytes <<= 20; break;
        case 'G': case 'g': bytes <<= 30; break;
        default: break;
    }
    return static_cast<std::size_t>(bytes);
}

std::atomic<std::size_t> allocation_limit{limit_from_environment()};
}  // namespace

void allocate(void** memory, std::size_t bytes, const char* what, bool stream_ordered)
{
    const std::size_t limit = allocation_limit.load(std::memory_order_relaxed);
    if (limit != 0 && bytes > limit)
        throw OutOfMemory(std::string(what) + ": " + std::to_string(bytes) +
                          " bytes exceed the allocation limit set for testing (CAS_GPU_ALLOCATION_LIMIT)");
    check(stream_ordered ? cudaMallocAsync(memory, bytes, stream()) : cudaMalloc(memory, bytes), what);
}

namespace {
// The devices CUDA shows, counted once; the library uses the first devices_used() of them.
struct Devices {
    int visible = 0;
    std::string reason;  // why there is none
};
const Devices& devices()
{
    static const Devices d = [] {
        Devices found;
        const cudaError_t status = cudaGetDeviceCount(&found.visible);
        if (status != cudaSuccess) {
            found.visible = 0;
            found.reason = cudaGetErrorString(status);
            cudaGetLastError();
        } else if (found.visible == 0) {
            found.reason = "no device";
        }
        found.visible = std::min(found.visible, most_devices);
        return found;
    }();
    return d;
}

// set_devices_used: 0 (every visible device) unless CAS_GPU_DEVICES says otherwise.
int devices_from_environment()
{
    const std::optional<long long> n = integer_from_environment("CAS_GPU_DEVICES");
    return n && *n > 0 ? int(*n) : 0;
}
std::atomic<int> devices_used{devices_from_environment()};

thread_local int this_thread_device = 0;

struct DeviceState {
    bool present = false;
    std::string reason;
    cudaStream_t stream = nullptr;
    cudaStream_t side = nullptr;  // uploads that overlap the kernels queued on `stream`
};

// The current device's streams and memory pool, made on its first use.
DeviceState& state()
{
    static PerDevice<DeviceState> states;
    return states.here([] {
        auto* d = new DeviceState;
        const int device = current_device();
        if (devices().visible == 0) {
            d->reason = devices().reason;
            return d;
        }
        if (cudaSetDevice(device) != cudaSuccess ||
            cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking) != cudaSuccess ||
            cudaStreamCreateWithFlags(&d->side, cudaStreamNonBlocking) != cudaSuccess) {
            d->reason = "cannot create a stream on device " + std::to_string(device);
            cudaGetLastError();
            return d;
        }
        cudaMemPool_t pool;  // keep freed scratch in the pool: no OS round trip per product
        if (cudaDeviceGetDefaultMemPool(&pool, device) == cudaSuccess) {
            std::uint64_t keep = ~std::uint64_t(0);
            cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
        }
        cudaGetLastError();
        d->present = true;
        return d;
    });
}
}  // namespace

int current_device() { return this_thread_device; }

void require_device()
{
    if (!state().present) throw Unavailable("no CUDA device (" + state().reason + ")");
}

cudaStream_t stream()
{
    require_device();
    return state().stream;
}

StreamMark::StreamMark()
{
    check(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming), "cudaEventCreate (mark)");
    cudaError_t status = cudaEventRecord(event_, stream());
    if (status != cudaSuccess) {
        cudaEventDestroy(event_);
        check(status, "cudaEventRecord (mark)");
    }
}
StreamMark::~StreamMark() { cudaEventDestroy(event_); }

template <class T>
Scratch<T>::Scratch(std::size_t count)
{
    if (count == 0) return;
    void* p = nullptr;
    allocate(&p, count * sizeof(T), "cudaMallocAsync (scratch)");
    data_ = static_cast<T*>(p);
}
template <class T>
Scratch<T>::~Scratch()
{
    if (data_) cudaFreeAsync(data_, stream());
}
template class Scratch<std::uint32_t>;
template class Scratch<std::uint64_t>;

// A single thread copies pageable memory at 6-8 GB/s (128 MiB in 23 ms on the H100 machine's
// host; docs/measurements.md, "Host transfers and copy workers"), a fifth of the PCIe rate or
// less: the host side of a staged transfer (a copy, or a copy that narrows or widens words) is
// split over a few persistent workers and the calling thread.
namespace {
// CAS_COPY_THREADS=n (a tuning knob, read once): n workers besides the caller; default
// min(15, cores - 1). Values above 64 or not a number keep the default. On the H100 machine's
// 16-core host a product of two 2^23-coefficient polynomials modulo a 31-bit prime takes 8.2-9.6
// ms in cas with 15 workers against 10.7-11.1 ms with 8 (same section).
unsigned copy_workers()
{
    unsigned fallback = std::min(15u, std::max(1u, std::thread::hardware_concurrency()) - 1);
    const std::optional<long long> n = integer_from_environment("CAS_COPY_THREADS");
    return n && *n >= 0 && *n <= 64 ? unsigned(*n) : fallback;
}

class CopyPool {
public:
    using Part = std::function<void(std::size_t begin, std::size_t end)>;
    CopyPool() : workers_(copy_workers()), parts_(workers_ + 1)
    {
        for (unsigned i = 0; i < workers_; ++i) std::thread([this] { work(); }).detach();
    }
    // Runs part(begin, end) over [0, count) split into one range per thread; each range but the
    // last starts and ends on a multiple of 64 elements (whole cache lines on both sides of a
    // copy). Below 1 MiB touched (element_bytes each) the caller does it alone: waking the
    // workers would cost more. One caller at a time (the staging lock).
    void split(std::size_t count, std::size_t element_bytes, const Part& part)
    {
        if (count * element_bytes < (std::size_t(1) << 20) || workers_ == 0) {
            part(0, count);
            return;
        }
        std::lock_guard<std::mutex> turn(caller_);  // devices' transfers take turns
        std::unique_lock<std::mutex> guard(lock_);
        count_ = count;
        part_ = &part;
        next_ = 0;
        remaining_ = parts_;
        ++generation_;
        guard.unlock();
        wake_.notify_all();
        run_parts();
        guard.lock();
        finished_.wait(guard, [this] { return remaining_ == 0; });
    }
    void copy(void* dst, const void* src, std::size_t bytes)
    {
        split(bytes, 1, [&](std::size_t begin, std::size_t end) {
            std::memcpy(static_cast<char*>(dst) + begin, static_cast<const char*>(src) + begin, end - begin);
        });
    }
private:
    void run_parts()
    {
        for (;;) {
            unsigned index = next_.fetch_add(1);
            if (index >= parts_) return;
            std::size_t piece = (count_ / parts_ + 63) & ~std::size_t(63);
            std::size_t begin = std::min(count_, index * piece), end = std::min(count_, begin + piece);
            if (index + 1 == parts_) end = count_;
            if (begin < end) (*part_)(begin, end);
            std::lock_guard<std::mutex> guard(lock_);
            if (--remaining_ == 0) finished_.notify_all();
        }
    }
    void work()
    {
        std::uint64_t seen = 0;
        for (;;) {
            {
                std::unique_lock<std::mutex> guard(lock_);
                wake_.wait(guard, [&] { return generation_ != seen; });
                seen = generation_;
            }
            run_parts();
        }
    }
    const unsigned workers_, parts_;
    std::mutex caller_, lock_;
    std::condition_variable wake_, finished_;
    std::atomic<unsigned> next_{0};
    unsigned remaining_ = 0;
    std::uint64_t generation_ = 0;
    std::size_t count_ = 0;
    const Part* part_ = nullptr;
};
CopyPool& copy_pool()
{
    static CopyPool* pool = new CopyPool;  // workers live as long as the process
    return *pool;
}
}  // namespace

// Pinned staging: the host side of every transfer goes through two pinned buffers, so that the
// copy into pinned memory of one chunk overlaps the DMA of the previous one. A second, larger
// pair is lent to the callers that fill or read pinned memory themselves (gpu/crt.cu's limb
// blocks). Both are allocated on first use and kept.
namespace {
struct PinnedBuffers {
    const std::size_t bytes;
    std::mutex lock;
    char* buffer[2] = {nullptr, nullptr};
    cudaEvent_t done[2] = {nullptr, nullptr};

    explicit PinnedBuffers(std::size_t size) : bytes(size) {}
    void ensure()  // with lock held
    {
        if (buffer[0]) return;
        for (int i = 0; i < 2; ++i) {
            check(cudaMallocHost(reinterpret_cast<void**>(&buffer[i]), bytes), "cudaMallocHost (staging)");
            check(cudaEventCreateWithFlags(&done[i], cudaEventDisableTiming), "cudaEventCreate");
        }
    }
};
constexpr std::size_t staging_bytes = std::size_t(16) << 20;
PinnedBuffers& staging()  // the current device's
{
    static PerDevice<PinnedBuffers> buffers;
    return buffers.here([] { return new PinnedBuffers(staging_bytes); });
}
}  // namespace

void with_block_staging(const std::function<void(const PinnedPair&)>& body)
{
    static PerDevice<PinnedBuffers> buffers;
    PinnedBuffers& s = buffers.here([] { return new PinnedBuffers(std::size_t(32) << 20); });
    std::lock_guard<std::mutex> guard(s.lock);
    s.ensure();
    body(PinnedPair{{s.buffer[0], s.buffer[1]}, {s.done[0], s.done[1]}, s.bytes});
}

// The chunk loops of every staged transfer. Chunk c is elements [c m, c m + m) of `unit` bytes
// each as the device holds them (m = staging_bytes / unit); host_side(pinned, first, count) moves
// one chunk between the caller's memory and a pinned buffer, in whatever form the caller keeps
// it (the same bytes, or 64-bit words for 32-bit device words).
namespace {
using HostSide = std::function<void(char* pinned, std::size_t first, std::size_t count)>;

// after == nullptr: the DMA runs on the library stream, after everything queued there. Otherwise
// on the side stream after `after` only, so that it overlaps the kernels queued since.
void staged_upload(void* device, std::size_t count, std::size_t unit, const HostSide& fill, const StreamMark* after)
{
    if (count == 0) return;
    PinnedBuffers& s = staging();
    std::lock_guard<std::mutex> guard(s.lock);
    s.ensure();
    cudaStream_t st = stream();
    if (after) {
        st = state().side;
        check(cudaStreamWaitEvent(st, after->event(), 0), "cudaStreamWaitEvent (upload)");
    }
    // If a chunk fails, the caller's unwinding frees the destination on the library stream: a
    // DMA still in flight beside it must not write into memory handed out again.
    struct DrainSide {
        cudaStream_t side;
        ~DrainSide()
        {
            if (side) cudaStreamSynchronize(side);
        }
    } drain{after ? st : nullptr};
    const std::size_t per_chunk = staging_bytes / unit;
    for (std::size_t first = 0, chunk = 0; first < count; first += per_chunk, ++chunk) {
        int b = int(chunk & 1);
        std::size_t n = std::min(per_chunk, count - first);
        check(cudaEventSynchronize(s.done[b]), "cudaEventSynchronize (upload)");
        fill(s.buffer[b], first, n);
        check(cudaMemcpyAsync(static_cast<char*>(device) + first * unit, s.buffer[b], n * unit,
                              cudaMemcpyHostToDevice, st),
              "cudaMemcpyAsync (upload)");
        check(cudaEventRecord(s.done[b], st), "cudaEventRecord");
    }
    check(cudaStreamSynchronize(st), "cudaStreamSynchronize (upload)");
}

// The destination of a download is often fresh memory (a new polynomial's coefficients, from
// mmap): its first touch costs one page fault per 4 KiB page. On the H100 machine's host, copying
// 128 MiB into fresh memory on 8 threads takes 12.6-38 ms, and 5.2-6.6 ms with transparent huge
// pages asked for (MADV_HUGEPAGE; docs/measurements.md, "Downloads into fresh memory: page faults
// and huge pages"). So a download asks for huge pages on the destination's 2 MiB-aligned
// interior (gpu/host_memory.hpp) and takes its page faults on the copy workers, one write per
// page, while the GPU still computes and the first chunks cross PCIe. Every byte written here is
// overwritten by the download; on memory touched before it costs one store per page.
struct HostRange {
    char* begin;
    std::size_t bytes;
};
void fault_in(const HostRange& range)
{
    if (range.bytes < huge_pages_worth_it) return;
    advise_huge_pages(range.begin, range.bytes);
    static const std::size_t page = std::size_t(sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096);
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(range.begin);
    const std::size_t first_page = (base + page - 1) / page, end_page = (base + range.bytes) / page;
    if (first_page >= end_page) return;
    copy_pool().split(end_page - first_page, page, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) *reinterpret_cast<volatile char*>((first_page + i) * page) = 0;
    });
}

void staged_download(const void* device, std::size_t count, std::size_t unit, const HostRange& destination,
                     const HostSide& drain)
{
    if (count == 0) return;
    PinnedBuffers& s = staging();
    std::lock_guard<std::mutex> guard(s.lock);
    s.ensure();
    cudaStream_t st = stream();
    const std::size_t per_chunk = staging_bytes / unit, chunks = (count + per_chunk - 1) / per_chunk;
    auto issue = [&](std::size_t chunk) {
        int b = int(chunk & 1);
        std::size_t first = chunk * per_chunk, n = std::min(per_chunk, count - first);
        check(cudaMemcpyAsync(s.buffer[b], static_cast<const char*>(device) + first * unit, n * unit,
                              cudaMemcpyDeviceToHost, st),
              "cudaMemcpyAsync (download)");
        check(cudaEventRecord(s.done[b], st), "cudaEventRecord");
    };
    issue(0);
    fault_in(destination);  // while the queued work and the first chunk run
    for (std::size_t chunk = 0; chunk < chunks; ++chunk) {
        if (chunk + 1 < chunks) issue(chunk + 1);  // the next DMA runs while this chunk is copied out
        int b = int(chunk & 1);
        std::size_t first = chunk * per_chunk, n = std::min(per_chunk, count - first);
        check(cudaEventSynchronize(s.done[b]), "cudaEventSynchronize (download)");
        drain(s.buffer[b], first, n);
    }
}
}  // namespace

void upload_bytes(void* device, const void* host, std::size_t bytes, const StreamMark* after)
{
    staged_upload(device, bytes, 1, [&](char* pinned, std::size_t first, std::size_t count) {
        copy_pool().copy(pinned, static_cast<const char*>(host) + first, count);
    }, after);
}

DeviceWords upload_table(const std::uint64_t* host, std::size_t count)
{
    DeviceWords device(count);
    if (count != 0)
        check(cudaMemcpyAsync(device.data(), host, count * sizeof(std::uint64_t), cudaMemcpyHostToDevice, stream()),
              "cudaMemcpyAsync (table)");
    return device;
}

void download_bytes(void* host, const void* device, std::size_t bytes)
{
    HostRange destination{static_cast<char*>(host), bytes};
    staged_download(device, bytes, 1, destination, [&](char* pinned, std::size_t first, std::size_t count) {
        copy_pool().copy(static_cast<char*>(host) + first, pinned, count);
    });
}

bool upload_narrowed(std::uint32_t* device, const std::uint64_t* host, std::size_t count, const StreamMark* after)
{
    std::atomic<std::uint64_t> high{0};  // the OR of every word's top half
    staged_upload(device, count, sizeof(std::uint32_t), [&](char* pinned, std::size_t first, std::size_t n) {
        auto* to = reinterpret_cast<std::uint32_t*>(pinned);
        const std::uint64_t* from = host + first;
        copy_pool().split(n, sizeof(std::uint64_t), [&](std::size_t begin, std::size_t end) {
            std::uint64_t any = 0;
            for (std::size_t i = begin; i < end; ++i) {
                to[i] = std::uint32_t(from[i]);
                any |= from[i];
            }
            high.fetch_or(any >> 32, std::memory_order_relaxed);
        });
    }, after);
    return high.load(std::memory_order_relaxed) == 0;
}

void download_widened(std::uint64_t* host, const std::uint32_t* device, std::size_t count)
{
    HostRange destination{reinterpret_cast<char*>(host), count * sizeof(std::uint64_t)};
    staged_download(device, count, sizeof(std::uint32_t), destination,
                    [&](char* pinned, std::size_t first, std::size_t n) {
        const auto* from = reinterpret_cast<const std::uint32_t*>(pinned);
        std::uint64_t* to = host + first;
        copy_pool().split(n, sizeof(std::uint64_t), [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) to[i] = from[i];
        });
    });
}

}  // namespace detail

bool available()
{
    try {
        detail::require_device();
        return true;
    } catch (const Error&) {
        return false;
    }
}

DeviceInfo device_info() { return device_info(detail::current_device()); }

DeviceInfo device_info(int device)
{
    detail::require_device();
    if (device < 0 || device >= device_count())
        throw Unavailable("no CUDA device " + std::to_string(device) + " (" + std::to_string(device_count()) +
                          " in use)");
    OnDevice on(device);
    cudaDeviceProp prop{};
    detail::check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    DeviceInfo info;
    info.name = prop.name;
    info.total_memory = prop.totalGlobalMem;
    info.multiprocessors = prop.multiProcessorCount;
    info.major = prop.major;
    info.minor = prop.minor;
    std::size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) info.free_memory = free_bytes;
    return info;
}

int device_count()
{
    if (!available()) return 0;
    const int visible = detail::devices().visible, used = detail::devices_used.load();
    return used > 0 ? std::min(used, visible) : visible;
}

int visible_devices() { return available() ? detail::devices().visible : 0; }

int set_devices_used(int n) { return detail::devices_used.exchange(std::max(n, 0)); }

OnDevice::OnDevice(int device) : previous_(detail::this_thread_device)
{
    if (device < 0 || device >= detail::most_devices) throw Error("OnDevice: no device " + std::to_string(device));
    detail::check(cudaSetDevice(device), "cudaSetDevice");
    detail::this_thread_device = device;
}

OnDevice::~OnDevice()
{
    cudaSetDevice(previous_);
    detail::this_thread_device = previous_;
}

std::string describe() { return describe(detail::current_device()); }

std::string describe(int device)
{
    if (!available()) {
        try {
            detail::require_device();
        } catch (const Error& e) {
            return e.what();
        }
    }
    DeviceInfo info;
    try {
        info = device_info(device);
    } catch (const Error& e) {
        return e.what();
    }
    return info.name + ", " + std::to_string(info.total_memory >> 20) + " MiB (" +
           std::to_string(info.free_memory >> 20) + " MiB free), " + std::to_string(info.multiprocessors) +
           " SMs, sm_" + std::to_string(info.major) + std::to_string(info.minor);
}

void* stream_handle() { return detail::stream(); }

void warm_up()
{
    if (!available()) return;  // the context: the device state's one-time initialisation
    try {
        detail::PinnedBuffers& s = detail::staging();
        std::lock_guard<std::mutex> guard(s.lock);
        s.ensure();
    } catch (const Error&) {
        // the first transfer meets the same failure again and reports it
    }
}

void set_allocation_limit(std::size_t bytes) { detail::allocation_limit = bytes; }

void synchronize()
{
    detail::check(cudaStreamSynchronize(detail::stream()), "cudaStreamSynchronize");
}

// ---------------------------------------------------------------- DeviceArray
template <class Word>
DeviceArray<Word>::DeviceArray(std::size_t size) : size_(size), device_(detail::current_device())
{
    detail::require_device();
    if (size == 0) return;
    // From the stream-ordered pool: after the first use of a size, no OS round trip and no
    // device-wide synchronisation (cudaMalloc/cudaFree of 128 MiB cost milliseconds).
    detail::allocate(reinterpret_cast<void**>(&data_), size * sizeof(Word), "cudaMallocAsync");
}

template <class Word>
DeviceArray<Word>::DeviceArray(const Word* host, std::size_t size) : DeviceArray(size)
{
    upload(host, size);
}

template <class Word>
DeviceArray<Word>::~DeviceArray()
{
    if (!data_) return;
    if (device_ == detail::current_device()) {
        cudaFreeAsync(data_, detail::stream());  // after the work queued on it
        return;
    }
    try {
        OnDevice on(device_);
        cudaFreeAsync(data_, detail::stream());
    } catch (const Error&) {
        // the device is gone: its memory went with it
    }
}

template <class Word>
DeviceArray<Word>::DeviceArray(DeviceArray&& other) noexcept
    : data_(other.data_), size_(other.size_), device_(other.device_)
{
    other.data_ = nullptr;
    other.size_ = 0;
}

template <class Word>
DeviceArray<Word>& DeviceArray<Word>::operator=(DeviceArray&& other) noexcept
{
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(device_, other.device_);
    return *this;
}

template <class Word>
void DeviceArray<Word>::upload(const Word* host, std::size_t count, std::size_t offset)
{
    if (offset + count > size_) throw Error("DeviceArray::upload past the end");
    OnDevice on(device_);
    detail::upload_bytes(data_ + offset, host, count * sizeof(Word));
}

template <class Word>
void DeviceArray<Word>::download(Word* host, std::size_t count, std::size_t offset) const
{
    if (offset + count > size_) throw Error("DeviceArray::download past the end");
    OnDevice on(device_);
    detail::download_bytes(host, data_ + offset, count * sizeof(Word));
}

template <class Word>
std::vector<Word> DeviceArray<Word>::to_host() const
{
    std::vector<Word> out(size_);
    download(out.data(), size_);
    return out;
}

template <class Word>
void DeviceArray<Word>::fill_zero()
{
    if (size_ == 0) return;
    OnDevice on(device_);
    detail::check(cudaMemsetAsync(data_, 0, size_ * sizeof(Word), detail::stream()), "cudaMemsetAsync");
}

template class DeviceArray<std::uint32_t>;
template class DeviceArray<std::uint64_t>;

}  // namespace cas::gpu
