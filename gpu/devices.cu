// Threads a device and NCCL exchanges (gpu/devices.cuh).
#include "gpu/devices.cuh"
#include "gpu/environment.hpp"
#include "gpu/crt.hpp"
#include "gpu/kept_threads.hpp"
#include "gpu/ranks.cuh"

#if CAS_HAVE_NCCL
#include <nccl.h>
#endif

#include <dlfcn.h>

#include <algorithm>
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
    decltype(&ncclGetUniqueId) get_unique_id = nullptr;
    decltype(&ncclCommInitRank) comm_init_rank = nullptr;
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
        look_up(library, "ncclGetUniqueId", n.get_unique_id, n.missing);
        look_up(library, "ncclCommInitRank", n.comm_init_rank, n.missing);
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

#if CAS_HAVE_NCCL
// The communicator among every rank (member = rank), made when they join: every rank at once.
// Rank 0 makes NCCL's id and broadcasts it through MPI (gpu/ranks.cu).
ncclComm_t rank_communicator()
{
    static std::mutex lock;
    static ncclComm_t made = nullptr;
    std::lock_guard<std::mutex> guard(lock);
    if (made) return made;
    if (rank_count() < 2) throw Error("no communicator among ranks: not under mpirun");
    const Nccl& n = nccl();
    ncclUniqueId id{};
    if (this_rank() == 0) n.check(n.get_unique_id(&id), "ncclGetUniqueId");
    broadcast_from_rank0(&id, sizeof id);
    ncclComm_t comm = nullptr;
    n.check(n.comm_init_rank(&comm, rank_count(), id, this_rank()), "ncclCommInitRank");
    return made = comm;
}

ncclComm_t communicator(const Team& team, int member)
{
    return team.across_ranks ? rank_communicator() : communicators(team.size)[std::size_t(member)];
}
#endif

// One NCCL group of the moves' sends and receives whose ends are driven here; address(move,
// sending) is the move's source (sending) or target in this process.
template <class Address>
void move_pairs(const Team& team, const std::vector<Move>& moves, Address&& address)
{
#if CAS_HAVE_NCCL
    const Nccl& n = nccl();
    if (!n.missing.empty()) throw Error("exchange between devices: " + n.missing);
    for (int m : team.local) communicator(team, m);  // made before the group, not inside it
    agree_before_exchange(team);
    try {
        n.check(n.group_start(), "ncclGroupStart");
        for (const Move& m : moves) {
            if (m.bytes == 0) continue;
            if (team.drives(m.from)) {
                OnDevice on(team.device_of(m.from));
                n.check(n.send(address(m, true), m.bytes, ncclUint8, m.to, communicator(team, m.from), stream()), "ncclSend");
            }
            if (team.drives(m.to)) {
                OnDevice on(team.device_of(m.to));
                n.check(n.recv(address(m, false), m.bytes, ncclUint8, m.from, communicator(team, m.to), stream()), "ncclRecv");
            }
        }
        n.check(n.group_end(), "ncclGroupEnd");
    } catch (const std::exception& e) {
        if (team.across_ranks) abort_ranks(std::string(e.what()) + " inside an exchange among the ranks");  // they wait in it
        throw;
    }
#else
    (void)team;
    (void)address;
    if (!moves.empty()) throw Error("exchange between devices: built without NCCL");
#endif
}

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

bool Team::drives(int member) const { return std::find(local.begin(), local.end(), member) != local.end(); }

Team team_of_devices(int devices)
{
    Team team;
    team.size = devices;
    team.local.resize(std::size_t(devices));
    for (int d = 0; d < devices; ++d) team.local[std::size_t(d)] = d;
    team.speeds = device_speeds(devices);
    return team;
}

void on_each_member(const Team& team, const std::function<void(int)>& body)
{
    if (!team.across_ranks) return on_each_device(team.size, body);
    for (int m : team.local) {
        OnDevice on(team.device_of(m));
        body(m);
        check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize (member)");
    }
}

std::vector<DeviceWords> arrays_on_members(const Team& team, const std::function<std::size_t(int)>& words)
{
    std::vector<DeviceWords> arrays(std::size_t(team.size));
    for (int d : team.local) {
        OnDevice on(team.device_of(d));
        arrays[std::size_t(d)] = DeviceWords(words(d));
    }
    return arrays;
}

void make_rank_communicator()
{
#if CAS_HAVE_NCCL
    rank_communicator();
#else
    throw Error("exchange between ranks: built without NCCL");
#endif
}

bool nccl_loaded(std::string* why)
{
#if CAS_HAVE_NCCL
    if (nccl().missing.empty()) return true;
    if (why) *why = nccl().missing;
#else
    if (why) *why = "built without NCCL (no nccl.h at build time)";
#endif
    return false;
}

bool devices_can_exchange(std::string* why)
{
    if (device_count() < 2) {
        if (why) *why = "one device";
        return false;
    }
    return nccl_loaded(why);
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

void exchange_blocks(const Team& team, const std::vector<DeviceWords*>& from, const std::vector<DeviceWords*>& to,
                     const std::function<split::Block(int, int)>& block)
{
    const std::size_t members = std::size_t(team.size);
    // packed[d][e]: d's block for e gathered into contiguous words; arriving[e][d]: e's arrival
    // from d before its 2-D copy into place.
    std::vector<std::vector<DeviceWords>> packed(members), arriving(members);
    for (int d : team.local) {
        OnDevice on(team.device_of(d));
        packed[std::size_t(d)].resize(members);
        arriving[std::size_t(d)].resize(members);
        const split::Block own = block(d, d);
        copy_rows(to[std::size_t(d)]->data() + own.to_offset, own.to_pitch, from[std::size_t(d)]->data() + own.from_offset,
                  own.from_pitch, own.rows, own.columns);
        for (int e = 0; e < team.size; ++e) {
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
    if (team.size > 1) {
        std::vector<Move> moves;
        for (int d = 0; d < team.size; ++d)
            for (int e = 0; e < team.size; ++e)
                if (e != d) moves.push_back({d, e, nullptr, block(d, e).words() * sizeof(std::uint64_t)});
        move_pairs(team, moves, [&](const Move& m, bool sending) -> void* {
            const split::Block b = block(m.from, m.to);
            if (sending) {
                DeviceWords& p = packed[std::size_t(m.from)][std::size_t(m.to)];
                return p.empty() ? from[std::size_t(m.from)]->data() + b.from_offset : p.data();
            }
            DeviceWords& a = arriving[std::size_t(m.to)][std::size_t(m.from)];
            return a.empty() ? to[std::size_t(m.to)]->data() + b.to_offset : a.data();
        });
    }
    for (int e : team.local) {
        OnDevice on(team.device_of(e));
        for (int d = 0; d < team.size; ++d) {
            const DeviceWords& a = arriving[std::size_t(e)][std::size_t(d)];
            if (a.empty()) continue;
            const split::Block b = block(d, e);
            copy_rows(to[std::size_t(e)]->data() + b.to_offset, b.to_pitch, a.data(), b.columns, b.rows, b.columns);
        }
        check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize (exchange)");
    }
    // packed and arriving free themselves on their own devices' streams, after the copies
}

void exchange_blocks(const std::vector<DeviceWords*>& from, const std::vector<DeviceWords*>& to,
                     const std::function<split::Block(int, int)>& block)
{
    exchange_blocks(team_of_devices(int(from.size())), from, to, block);
}

void move_between_members(const Team& team, const std::vector<Move>& moves)
{
    move_pairs(team, moves, [](const Move& m, bool) { return m.here; });
}

}  // namespace cas::gpu::detail

namespace cas::gpu {
namespace detail {
namespace {
// Work of at least 2^24 words (128 MiB of residues, or a transform of 2^24 words) is shared
// (docs/measurements.md, "Multi-modular products on two GPUs"), unless CAS_GPU_SPLIT_WORDS says
// otherwise at startup.
std::size_t threshold_from_environment()
{
    constexpr std::size_t measured = std::size_t(1) << 24;
    const std::optional<long long> words = integer_from_environment("CAS_GPU_SPLIT_WORDS");
    return words && *words >= 0 ? std::size_t(*words) : measured;
}
std::atomic<std::size_t> threshold{threshold_from_environment()};
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
