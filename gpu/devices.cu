// Threads a device and NCCL exchanges (gpu/devices.cuh).
#include "gpu/devices.cuh"
#include "gpu/crt.hpp"
#include "gpu/kept_threads.hpp"

#if CAS_HAVE_NCCL
#include <nccl.h>
#endif

#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>

namespace cas::gpu::detail {

namespace {

#if CAS_HAVE_NCCL
// The entry points of libnccl.so.2, looked up once.
struct Nccl {
    std::string missing;  // empty when loaded
    decltype(&ncclCommInitAll) comm_init_all = nullptr;
    decltype(&ncclSend) send = nullptr;
    decltype(&ncclRecv) recv = nullptr;
    decltype(&ncclGroupStart) group_start = nullptr;
    decltype(&ncclGroupEnd) group_end = nullptr;
    decltype(&ncclGetErrorString) error_string = nullptr;

    void check(ncclResult_t result, const char* what) const
    {
        if (result != ncclSuccess) throw Error(std::string("NCCL ") + what + ": " + error_string(result));
    }
};

template <class Function>
void look_up(void* library, const char* name, Function& f, std::string& missing)
{
    f = reinterpret_cast<Function>(dlsym(library, name));
    if (!f && missing.empty()) missing = std::string("libnccl.so.2 has no ") + name;
}

const Nccl& nccl()
{
    static const Nccl loaded = [] {
        Nccl n;
        void* library = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            const char* why = dlerror();
            n.missing = std::string("cannot load NCCL (") + (why ? why : "libnccl.so.2") + ")";
            return n;
        }
        look_up(library, "ncclCommInitAll", n.comm_init_all, n.missing);
        look_up(library, "ncclSend", n.send, n.missing);
        look_up(library, "ncclRecv", n.recv, n.missing);
        look_up(library, "ncclGroupStart", n.group_start, n.missing);
        look_up(library, "ncclGroupEnd", n.group_end, n.missing);
        look_up(library, "ncclGetErrorString", n.error_string, n.missing);
        return n;
    }();
    return loaded;
}

// One communicator a device for devices [0, count), made on first use and kept.
const std::vector<ncclComm_t>& communicators(int count)
{
    static std::mutex lock;
    static auto* made = new std::map<int, std::vector<ncclComm_t>>;
    std::lock_guard<std::mutex> guard(lock);
    auto it = made->find(count);
    if (it != made->end()) return it->second;
    std::vector<int> devices(static_cast<std::size_t>(count));
    for (int d = 0; d < count; ++d) devices[std::size_t(d)] = d;
    std::vector<ncclComm_t> comms(static_cast<std::size_t>(count));
    nccl().check(nccl().comm_init_all(comms.data(), count, devices.data()), "ncclCommInitAll");
    return made->emplace(count, std::move(comms)).first->second;
}
#endif

// A 2-D copy between device arrays on the current device's stream (rows of `columns` words).
void copy_rows(std::uint64_t* to, std::size_t to_pitch, const std::uint64_t* from, std::size_t from_pitch,
               std::size_t rows, std::size_t columns)
{
    if (rows == 0 || columns == 0) return;
    constexpr std::size_t word = sizeof(std::uint64_t);
    check(cudaMemcpy2DAsync(to, to_pitch * word, from, from_pitch * word, columns * word, rows,
                            cudaMemcpyDeviceToDevice, stream()),
          "cudaMemcpy2DAsync (exchange)");
}

}  // namespace

bool devices_can_exchange(std::string* why)
{
    auto fail = [why](const std::string& reason) {
        if (why) *why = reason;
        return false;
    };
    if (device_count() < 2) return fail("one device");
#if CAS_HAVE_NCCL
    if (!nccl().missing.empty()) return fail(nccl().missing);
    return true;
#else
    return fail("built without NCCL (no nccl.h at build time)");
#endif
}

void on_each_device(int devices, const std::function<void(int)>& body)
{
    static auto* threads = new KeptThreads;  // never destroyed: its threads outlive main
    threads->run(devices, [&body](int device) {
        OnDevice on(device);
        body(device);
        check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize (device thread)");
    });
}

std::vector<double> device_speeds(int devices)
{
    std::vector<double> speeds;
    for (int d = 0; d < devices; ++d) {
        int units = 1, clock = 1;
        if (cudaDeviceGetAttribute(&units, cudaDevAttrMultiProcessorCount, d) != cudaSuccess ||
            cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, d) != cudaSuccess) {
            cudaGetLastError();
            units = clock = 1;
        }
        speeds.push_back(double(units) * double(clock));
    }
    return speeds;
}

void exchange_blocks(const std::vector<DeviceWords*>& from, const std::vector<DeviceWords*>& to,
                     const std::function<split::Block(int, int)>& block)
{
    const int devices = int(from.size());
    std::vector<cudaStream_t> streams;
    for (int d = 0; d < devices; ++d) {
        OnDevice on(d);
        streams.push_back(stream());
    }
    // packed[d][e]: d's block for e gathered into contiguous words; unpacked[e][d]: e's arrival
    // from d before its 2-D copy into place.
    std::vector<std::vector<DeviceWords>> packed(static_cast<std::size_t>(devices)), arriving(static_cast<std::size_t>(devices));
    for (int d = 0; d < devices; ++d) {
        OnDevice on(d);
        packed[std::size_t(d)].resize(static_cast<std::size_t>(devices));
        arriving[std::size_t(d)].resize(static_cast<std::size_t>(devices));
        const split::Block own = block(d, d);
        copy_rows(to[std::size_t(d)]->data() + own.to_offset, own.to_pitch, from[std::size_t(d)]->data() + own.from_offset,
                  own.from_pitch, own.rows, own.columns);
        for (int e = 0; e < devices; ++e) {
            if (e == d) continue;
            const split::Block out = block(d, e), in = block(e, d);
            if (out.words() != 0 && !out.reads_contiguous()) {
                DeviceWords& p = packed[std::size_t(d)][std::size_t(e)];
                p = DeviceWords(out.words());
                copy_rows(p.data(), out.columns, from[std::size_t(d)]->data() + out.from_offset, out.from_pitch,
                          out.rows, out.columns);
            }
            if (in.words() != 0 && !in.writes_contiguous())
                arriving[std::size_t(d)][std::size_t(e)] = DeviceWords(in.words());
        }
    }
#if CAS_HAVE_NCCL
    if (devices > 1) {
        const std::vector<ncclComm_t>& comms = communicators(devices);
        const Nccl& n = nccl();
        n.check(n.group_start(), "ncclGroupStart");
        for (int d = 0; d < devices; ++d)
            for (int e = 0; e < devices; ++e) {
                const split::Block b = block(d, e);
                if (e == d || b.words() == 0) continue;
                const DeviceWords& p = packed[std::size_t(d)][std::size_t(e)];
                const std::uint64_t* source = p.empty() ? from[std::size_t(d)]->data() + b.from_offset : p.data();
                DeviceWords& a = arriving[std::size_t(e)][std::size_t(d)];
                std::uint64_t* target = a.empty() ? to[std::size_t(e)]->data() + b.to_offset : a.data();
                n.check(n.send(source, b.words(), ncclUint64, e, comms[std::size_t(d)], streams[std::size_t(d)]), "ncclSend");
                n.check(n.recv(target, b.words(), ncclUint64, d, comms[std::size_t(e)], streams[std::size_t(e)]), "ncclRecv");
            }
        n.check(n.group_end(), "ncclGroupEnd");
    }
#else
    if (devices > 1) throw Error("exchange between devices: built without NCCL");
#endif
    for (int e = 0; e < devices; ++e) {
        OnDevice on(e);
        for (int d = 0; d < devices; ++d) {
            const DeviceWords& a = arriving[std::size_t(e)][std::size_t(d)];
            if (a.empty()) continue;
            const split::Block b = block(d, e);
            copy_rows(to[std::size_t(e)]->data() + b.to_offset, b.to_pitch, a.data(), b.columns, b.rows, b.columns);
        }
        check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize (exchange)");
    }
    // packed and arriving free themselves on their own devices' streams, after the copies
}

}  // namespace cas::gpu::detail

namespace cas::gpu {
namespace detail {
namespace {
// Work of at least 2^24 words (128 MiB of residues, or a transform of 2^24 words) is shared
// (docs/measurements.md, "Multi-modular products on two GPUs").
std::atomic<std::size_t> threshold{std::size_t(1) << 24};
std::atomic<std::size_t> prime_threshold{SIZE_MAX};
thread_local SplitRecord last_record;
}  // namespace

std::size_t split_threshold() { return threshold.load(std::memory_order_relaxed); }
std::size_t prime_split_threshold() { return prime_threshold.load(std::memory_order_relaxed); }
void record_split(const std::vector<std::size_t>& primes_per_device) { last_record.primes_per_device = primes_per_device; }
}  // namespace detail

bool devices_share_work(std::string* why) { return detail::devices_can_exchange(why); }
std::size_t set_split_threshold(std::size_t words) { return detail::threshold.exchange(words); }
std::size_t set_prime_split_threshold(std::size_t length) { return detail::prime_threshold.exchange(length); }
SplitRecord last_split() { return detail::last_record; }
}  // namespace cas::gpu
