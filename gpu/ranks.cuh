// cas under mpirun, inside gpu/ (gpu/ranks.hpp is the public side): a GPU a rank, rank 0 leading.
// Rank 0 announces each operation shared across ranks (the kind, the shapes, the primes); the
// other ranks, waiting in serve_rank_zero's loop, run the same steps (gpu/crt_split.cu) for their
// own member of the team.
#pragma once

#include "gpu/devices.cuh"

#include <cstddef>
#include <cstdint>
#include <exception>
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
// On the other ranks: the announced operation's steps (gpu/crt_split.cu). Ranks outside the team
// run them too, with no member of their own, so that they meet every agreement below.
void run_announced(const Team& team, const SharedCall& call, const std::vector<std::uint64_t>& primes);

// How each rank fared in the steps of a shared operation since the last agreement, and the
// outcome every rank agrees on: the worst state and the first rank in it.
enum class StepState : int { fine = 0, out_of_memory = 1, failed = 2 };
struct Agreement {
    StepState state = StepState::fine;
    int rank = 0;
};
// An MPI_Allreduce over every rank. Every rank of an operation shared across ranks calls it at
// the same points: before each NCCL exchange (move_between_members, exchange_blocks), before the
// broadcasts and the gather of resultants, at the end, and once after a failure of its own. A
// rank that fails between two points thus tells the others at the next one, instead of leaving
// them waiting in an exchange, and the operation ends on every rank with an exception on rank 0
// (the algebra falls back to the CPU, the session goes on).
Agreement agree(StepState mine);
// Thrown at an agreement point where another rank failed.
struct RankFailed : Error {
    Agreement agreement;
    explicit RankFailed(const Agreement& a);
};
// The agreement point before an exchange: throws RankFailed when some rank failed.
void agree_before_exchange(const Team& team);

// A failure inside an NCCL exchange leaves the other ranks waiting in it (and one outside the
// steps is unforeseen): the message goes to stderr and the whole job ends (MPI_Abort).
[[noreturn]] void abort_ranks(const std::string& what);

// After steps() failed on this rank (`failure`, null when another rank failed, told by `told`):
// on rank 0 the exception to throw, elsewhere nothing (the rank goes back to serving).
void end_failed_operation(std::exception_ptr failure, const Agreement& told);

// steps() of an operation shared by `team`: across ranks, announced first (on rank 0), and ended
// on every rank when any fails, rank 0 throwing.
template <class Steps>
void run_shared(const Team& team, const SharedCall& call, const std::vector<std::uint64_t>& primes, Steps&& steps)
{
    if (!team.across_ranks) return steps();
    announce(team, call, primes);
    try {
        steps();
    } catch (const RankFailed& other) {
        return end_failed_operation(nullptr, other.agreement);
    } catch (const OutOfMemory&) {
        return end_failed_operation(std::current_exception(), agree(StepState::out_of_memory));
    } catch (const std::exception&) {
        return end_failed_operation(std::current_exception(), agree(StepState::failed));
    }
    if (const Agreement end = agree(StepState::fine); end.state != StepState::fine) end_failed_operation(nullptr, end);
}

}  // namespace cas::gpu::detail
