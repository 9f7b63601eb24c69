// cas under mpirun (gpu/ranks.hpp, gpu/ranks.cuh): joining the ranks, rank 0's announcements and
// the other ranks' loop that runs them.
#include "gpu/ranks.cuh"
#include "gpu/ranks.hpp"

#if CAS_HAVE_MPI
#include <mpi.h>
#endif

#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <sstream>

namespace cas::gpu {
namespace detail {

namespace {
struct Ranks {
    int rank = 0, count = 1, sharing = 1;
    std::string why = "not under mpirun";
    std::vector<double> speeds{1.0};  // each rank's GPU
};
Ranks& state()
{
    static Ranks ranks;
    return ranks;
}

#if CAS_HAVE_MPI
void check_mpi(int result, const char* what)
{
    if (result == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(result, text, &length);
    throw Error(std::string(what) + ": " + std::string(text, std::size_t(length)));
}

// CUDA shows this process one GPU: entry `local_rank` (modulo their number) of the devices
// CUDA_VISIBLE_DEVICES lists, or device `local_rank` when it lists none. Before CUDA starts.
void keep_one_device(int local_rank)
{
    std::vector<std::string> listed;
    if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES"); visible && *visible) {
        std::stringstream entries(visible);
        for (std::string entry; std::getline(entries, entry, ',');) listed.push_back(entry);
    }
    const std::string mine =
        listed.empty() ? std::to_string(local_rank) : listed[std::size_t(local_rank) % listed.size()];
    setenv("CUDA_VISIBLE_DEVICES", mine.c_str(), 1);
}

// mpirun binds each rank to one core by default, but rank 0 does the host's share of every
// operation (conversions between FLINT's integers and limbs, on every core) while the other
// ranks mostly wait on their GPUs: every rank may run on every core of its host. Bound to one
// core, a 2^22 x 1000-bit Z[x] product took 2.9 s instead of 0.44-0.46 s (docs/measurements.md,
// "Multi-modular products over MPI ranks").
void use_every_core()
{
    cpu_set_t every;
    CPU_ZERO(&every);
    const long cpus = sysconf(_SC_NPROCESSORS_CONF);
    for (long c = 0; c < cpus && c < CPU_SETSIZE; ++c) CPU_SET(int(c), &every);
    sched_setaffinity(0, sizeof every, &every);  // the kernel keeps to the cores a cpuset allows
}

int local_rank()
{
    MPI_Comm host;
    check_mpi(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host), "MPI_Comm_split_type");
    int rank = 0;
    MPI_Comm_rank(host, &rank);
    MPI_Comm_free(&host);
    return rank;
}

// Whether every rank can share work, each rank's speed, and the communicator among them.
void agree_on_sharing(Ranks& r)
{
    std::string why;
    double mine = 0;
    if (!available())
        why = "rank " + std::to_string(r.rank) + " has no GPU: " + describe();
    else if (nccl_loaded(&why))
        mine = device_speeds(1)[0];
    r.speeds.assign(std::size_t(r.count), 0.0);
    check_mpi(MPI_Allgather(&mine, 1, MPI_DOUBLE, r.speeds.data(), 1, MPI_DOUBLE, MPI_COMM_WORLD), "MPI_Allgather");
    for (int k = 0; k < r.count; ++k)
        if (r.speeds[std::size_t(k)] <= 0) {
            // the reason as the rank without a GPU gave it: one line from it to every rank
            char text[256] = {};
            if (r.rank == k) std::snprintf(text, sizeof text, "%s", why.c_str());
            check_mpi(MPI_Bcast(text, sizeof text, MPI_CHAR, k, MPI_COMM_WORLD), "MPI_Bcast");
            r.why = text;
            return;
        }
    make_rank_communicator();
    r.sharing = r.count;
    r.why.clear();
}

void send_call(SharedCall call, const std::vector<std::uint64_t>& primes)
{
    broadcast_from_rank0(&call, sizeof call);
    std::uint64_t k = primes.size();
    broadcast_from_rank0(&k, sizeof k);
    if (k != 0) broadcast_from_rank0(const_cast<std::uint64_t*>(primes.data()), k * sizeof(std::uint64_t));
}

// Rank 0's exit: the other ranks leave their loop.
void release_ranks()
{
    try {
        send_call(SharedCall{}, {});
    } catch (...) {
    }
    MPI_Finalize();
}

// The other ranks: each announced operation until rank 0 ends.
void serve_rank_zero()
{
    for (;;) {
        SharedCall call;
        broadcast_from_rank0(&call, sizeof call);
        std::uint64_t k = 0;
        broadcast_from_rank0(&k, sizeof k);
        std::vector<std::uint64_t> primes(k);
        if (k != 0) broadcast_from_rank0(primes.data(), k * sizeof(std::uint64_t));
        if (call.kind == SharedKind::stop) return;
        try {
            run_announced(team_of_ranks(int(call.members)), call, primes);
        } catch (const std::exception& e) {  // run_shared ends failed steps; anything else is unforeseen
            abort_ranks(e.what());
        }
    }
}
#endif
}  // namespace

int this_rank() { return state().rank; }
int rank_count() { return state().count; }
int sharing_rank_count() { return state().sharing; }

Team team_of_ranks(int size)
{
    Team team;
    team.size = size;
    team.across_ranks = true;
    team.local.clear();
    if (this_rank() < size) team.local.push_back(this_rank());
    team.speeds.assign(state().speeds.begin(), state().speeds.begin() + size);
    return team;
}

#if CAS_HAVE_MPI
void broadcast_from_rank0(void* data, std::size_t bytes)
{
    constexpr std::size_t most = std::size_t(1) << 30;  // MPI counts are ints
    auto* p = static_cast<char*>(data);
    for (std::size_t done = 0; done < bytes; done += most)
        check_mpi(MPI_Bcast(p + done, int(std::min(most, bytes - done)), MPI_BYTE, 0, MPI_COMM_WORLD), "MPI_Bcast");
}

std::vector<std::uint64_t> gather_to_rank0(const std::vector<std::uint64_t>& mine, const std::vector<std::size_t>& counts)
{
    std::vector<int> sizes, offsets;
    std::size_t total = 0;
    for (std::size_t c : counts) {
        sizes.push_back(int(c));
        offsets.push_back(int(total));
        total += c;
    }
    std::vector<std::uint64_t> all(this_rank() == 0 ? total : 0);
    check_mpi(MPI_Gatherv(mine.data(), int(mine.size()), MPI_UINT64_T, all.data(), sizes.data(), offsets.data(),
                          MPI_UINT64_T, 0, MPI_COMM_WORLD),
              "MPI_Gatherv");
    return all;
}

void announce(const Team& team, const SharedCall& call, const std::vector<std::uint64_t>& primes)
{
    if (!team.across_ranks || this_rank() != 0) return;
    SharedCall told = call;
    told.members = std::uint32_t(team.size);
    send_call(told, primes);
}

Agreement agree(StepState mine)
{
    // the worst state first, then the first rank in it: one maximum of state * 2^20 - rank
    const long long key = (long long)mine * (1 << 20) - this_rank();
    long long worst = 0;
    check_mpi(MPI_Allreduce(&key, &worst, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
    if (worst <= 0) return {};
    const long long state = (worst + (1 << 20) - 1) >> 20;
    return {StepState(state), int(state * (1 << 20) - worst)};
}

void abort_ranks(const std::string& what)
{
    std::cerr << "cas: rank " << this_rank() << ": " << what << "; every rank ends" << std::endl;
    MPI_Abort(MPI_COMM_WORLD, 1);
    std::abort();
}
#else
void broadcast_from_rank0(void*, std::size_t) {}
std::vector<std::uint64_t> gather_to_rank0(const std::vector<std::uint64_t>& mine, const std::vector<std::size_t>&)
{
    return mine;
}
void announce(const Team&, const SharedCall&, const std::vector<std::uint64_t>&) {}
Agreement agree(StepState mine) { return {mine, 0}; }
void abort_ranks(const std::string& what)
{
    std::cerr << "cas: " << what << std::endl;
    std::abort();
}
#endif

RankFailed::RankFailed(const Agreement& a)
    : Error("rank " + std::to_string(a.rank) + (a.state == StepState::out_of_memory ? "'s GPU lacks the memory for its share"
                                                                                      : " failed in its share")),
      agreement(a)
{
}

void agree_before_exchange(const Team& team)
{
    if (!team.across_ranks) return;
    if (const Agreement a = agree(StepState::fine); a.state != StepState::fine) throw RankFailed(a);
}

void end_failed_operation(std::exception_ptr failure, const Agreement& told)
{
    if (this_rank() == 0) {
        if (failure) std::rethrow_exception(failure);
        if (told.state == StepState::out_of_memory) throw OutOfMemory(RankFailed(told).what());
        throw RankFailed(told);
    }
    if (!failure) return;
    try {
        std::rethrow_exception(failure);
    } catch (const std::exception& e) {
        std::cerr << "cas: rank " << this_rank() << ": " << e.what() << std::endl;  // rank 0 says which rank
    }
}

}  // namespace detail

bool join_ranks(int* argc, char*** argv)
{
    detail::Ranks& r = detail::state();
    r.count = launcher::size_from_environment();
    r.rank = launcher::rank_from_environment();
    if (r.count <= 1) return true;
#if CAS_HAVE_MPI
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
        std::cerr << "cas: MPI_Init failed: rank " << r.rank << " works alone" << std::endl;
        r.count = 1;
        return r.rank == 0;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &r.count);
    detail::keep_one_device(detail::local_rank());
    detail::use_every_core();
    try {
        detail::agree_on_sharing(r);
    } catch (const std::exception& e) {
        detail::abort_ranks(e.what());
    }
    if (r.rank == 0) {
        std::atexit(detail::release_ranks);
        return true;
    }
    detail::serve_rank_zero();
    MPI_Finalize();
    return false;
#else
    (void)argc;
    (void)argv;
    r.why = "built without MPI";
    if (r.rank != 0) return false;
    std::cerr << "cas: built without MPI: rank 0 works alone and the other " << r.count - 1 << " ranks end"
              << std::endl;
    r.count = 1;
    return true;
#endif
}

int ranks() { return detail::state().count; }

int sharing_ranks(std::string* why)
{
    const detail::Ranks& r = detail::state();
    if (why && r.sharing <= 1) *why = r.why;
    return r.sharing;
}

}  // namespace cas::gpu
