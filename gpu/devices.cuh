// Work shared among GPUs (internal to gpu/): the GPUs of the host, a thread per device, or those of
// several MPI ranks (gpu/ranks.cu), a GPU per rank; blocks of residue matrices moved between them
// (gpu/split_plan.hpp's geometry) through NCCL.
//
// NCCL is loaded when first needed (dlopen of libnccl.so.2), so that the library and cas start
// on machines without it; a build without nccl.h, or a machine without the library, has one GPU.
#pragma once

#include "gpu/detail.cuh"
#include "gpu/split_plan.hpp"

#include <functional>
#include <string>
#include <vector>

namespace cas::gpu::detail {

// The GPUs that share one operation, members 0 .. size - 1, and those this process drives: every
// member in one process (member d on device d), or across MPI ranks each rank's own member (its
// rank) on its one device. Member 0 is driven by the process that holds the operands and takes the
// result (rank 0). A shared operation runs the same steps in every process, each for the members it
// drives and in the same order, so that their NCCL exchanges meet.
struct Team {
    int size = 1;
    std::vector<int> local{0};  // the members driven here, ascending
    bool across_ranks = false;
    std::vector<double> speeds{1.0};  // relative, a member each

    bool drives(int member) const;
    bool leads() const { return drives(0); }
    int device_of(int member) const { return across_ranks ? 0 : member; }
};
// Devices [0, devices) of this process.
Team team_of_devices(int devices);

// body(m) for each member m driven here, with OnDevice(team.device_of(m)), as on_each_device does.
void on_each_member(const Team& team, const std::function<void(int member)>& body);

// Arrays of `words(m)` words (uninitialised) on the members m driven here, each on its device;
// empty for the others.
std::vector<DeviceWords> arrays_on_members(const Team& team, const std::function<std::size_t(int member)>& words);

// The NCCL communicator among every rank (member = rank), made by all ranks at once as they join
// (gpu/ranks.cu).
void make_rank_communicator();

// Whether libnccl.so.2 is loaded (and this build has nccl.h); when not, why.
bool nccl_loaded(std::string* why = nullptr);

// Whether device_count() > 1 devices can exchange data here; when not, why (for gpuinfo()).
bool devices_can_exchange(std::string* why = nullptr);

// body(d) for d in [0, devices) at once with OnDevice(d): device 0 on the calling thread, the
// others on kept threads (gpu/kept_threads.hpp); waits for every device's stream, then rethrows the
// first failure. One call at a time.
void on_each_device(int devices, const std::function<void(int device)>& body);

// The relative speed of devices [0, devices) for dividing work among them: multiprocessors
// times clock rate (identical cards share work evenly).
std::vector<double> device_speeds(int devices);

// For every ordered pair (from, to) of members, block(from, to) moved from arrays[from] to
// arrays[to] (each array on its member's device; only the driven members' are read), then every
// driven member's stream synchronised. Blocks between different members go through NCCL, packed
// and unpacked by 2-D copies where their rows are not contiguous; a member's block to itself is
// one 2-D copy. Pass `to` == `from` arrays for in-place gathers only when the blocks cannot overlap.
void exchange_blocks(const Team& team, const std::vector<DeviceWords*>& from, const std::vector<DeviceWords*>& to,
                     const std::function<split::Block(int from, int to)>& block);
// The same among devices [0, from.size()) of this process.
void exchange_blocks(const std::vector<DeviceWords*>& from, const std::vector<DeviceWords*>& to,
                     const std::function<split::Block(int from, int to)>& block);
// Each of `arrays`, as exchange_blocks takes them.
inline std::vector<DeviceWords*> pointers(std::vector<DeviceWords>& arrays)
{
    std::vector<DeviceWords*> p;
    for (DeviceWords& a : arrays) p.push_back(&a);
    return p;
}

// Whole arrays sent from one member to another (one NCCL group): `here` is the source in the
// process driving `from` and the target, already sized, in the process driving `to`.
struct Move {
    int from = 0, to = 0;
    void* here = nullptr;
    std::size_t bytes = 0;
};
void move_between_members(const Team& team, const std::vector<Move>& moves);

// Operations whose work reaches this many words (residue words of every prime; a single prime's
// transform length) are shared among the devices: set_split_threshold.
std::size_t split_threshold();
// The same for a product modulo one prime (its transform length; set_prime_split_threshold): by
// default none, so that such a product is shared only when one device lacks the memory for it
// (docs/measurements.md, "Multi-modular products on two GPUs": the host's copies bound it, not the
// devices).
std::size_t prime_split_threshold();
// Records how the calling thread's last operation on the GPU was shared (last_split()).
void record_split(const std::vector<std::size_t>& primes_per_device);

// One transform of length n (a power of two >= 4) modulo p at w, host `in` to host `out` (which
// may be `in`), by the four-step decomposition over the team's devices (gpu/ntt_split.cu); the
// inverse includes 1/n.
void four_step_transform(const Team& team, const std::uint64_t* in, std::uint64_t* out, std::size_t n,
                         std::uint64_t p, std::uint64_t w, bool inverse);

// A product modulo p shared between two devices (gpu/polymul_split.cu): whether it applies (one
// prime, transform length n >= threshold, both operands at most n / 2, two devices that
// exchange), and the product itself into out[0, na + nb - 1).
bool multiplies_on_two_devices(std::size_t na, std::size_t nb, std::uint64_t p, std::size_t threshold);
void multiply_on_two_devices(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb,
                             std::uint64_t p, std::uint64_t* out);

}  // namespace cas::gpu::detail
