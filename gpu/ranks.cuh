// cas under mpirun, inside gpu/ (gpu/ranks.hpp is the public side): a GPU a rank, rank 0 leading.
// Rank 0 announces each operation shared across ranks (the kind, the shapes, the primes); the
// other ranks, waiting in serve_rank_zero's loop, run the same steps (gpu/crt_split.cu) for their
// own member of the team.
#pragma once

#include "gpu/devices.cuh"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cas::gpu::detail {

// This process's rank and the number of ranks: 0 and 1 when not under mpirun, or built without MPI.
int this_rank();
int rank_count();
// The ranks whose GPUs share work: rank_count() when every rank has a GPU and NCCL, else 1.
int sharing_rank_count();
// Members [0, size) on ranks [0, size), this process driving its own rank's member (none when
// its rank is size or above).
Team team_of_ranks(int size);

// MPI_Bcast of `bytes` bytes from rank 0.
void broadcast_from_rank0(void* data, std::size_t bytes);
// Rank 0 receives every rank's `mine` (counts[r] words from rank r), in rank order; the others
// get an empty vector.
std::vector<std::uint64_t> gather_to_rank0(const std::vector<std::uint64_t>& mine, const std::vector<std::size_t>& counts);

// What rank 0 tells the others of a shared operation: its kind and shapes (Z[x] operands: count
// and width; magnitudes: chunks as count and limbs as width).
enum class SharedKind : std::uint32_t { stop, multiply, convolve, power, magnitudes, resultants };
struct SharedCall {
    SharedKind kind = SharedKind::stop;
    std::uint32_t members = 0;
    std::uint64_t count_a = 0, width_a = 0, count_b = 0, width_b = 0;
    std::uint64_t n = 0, e = 0, words = 0;
    std::uint32_t chunk_bits = 0, negacyclic = 0;
};

// On rank 0, for a team across ranks: announces the call and its primes to every other rank.
// Nothing elsewhere.
void announce(const Team& team, const SharedCall& call, const std::vector<std::uint64_t>& primes);
// On the other ranks: the announced operation's steps (gpu/crt_split.cu).
void run_announced(const Team& team, const SharedCall& call, const std::vector<std::uint64_t>& primes);
// A failure inside an operation shared across ranks leaves the other ranks waiting for its
// exchanges: the message goes to stderr and the whole job ends (MPI_Abort).
[[noreturn]] void abort_ranks(const std::string& what);

// steps() of an operation shared by `team`: across ranks, announced first (on rank 0), and a
// failure ends the job.
template <class Steps>
void run_shared(const Team& team, const SharedCall& call, const std::vector<std::uint64_t>& primes, Steps&& steps)
{
    if (!team.across_ranks) return steps();
    announce(team, call, primes);
    try {
        steps();
    } catch (const std::exception& e) {
        abort_ranks(e.what());
    }
}

}  // namespace cas::gpu::detail
