// cas under mpirun: a GPU a rank. Rank 0 runs the interpreter and the other ranks serve its
// engine: the multi-modular operations that the GPUs of one host share (gpu/README.md, "Several
// GPUs") are shared the same way among the ranks' GPUs, over NCCL, whether the ranks are on one
// host or several.
#pragma once

#include <string>

namespace cas::gpu {

// The first call in main, before anything touches the GPU. Not under mpirun, or with one rank:
// does nothing and returns true. Under mpirun with several ranks, in a build with MPI: joins
// them, each rank keeping one GPU of its host (its index among the host's ranks, among those
// CUDA_VISIBLE_DEVICES shows); ranks other than 0 serve rank 0's engine until rank 0 ends and
// then return false, and the caller exits. Built without MPI, ranks other than 0 return false at
// once and rank 0 works alone, saying so on stderr.
bool join_ranks(int* argc, char*** argv);
// The number of ranks (1 when not under mpirun).
int ranks();
// The ranks whose GPUs share work: ranks() when every rank holds a GPU and NCCL is loaded, else
// 1, and why.
int sharing_ranks(std::string* why = nullptr);

namespace launcher {
// What mpirun (Open MPI, or an MPICH-style launcher) tells each process it starts: its rank and
// the number of ranks; 0 and 1 for a process it did not start.
int rank_from_environment();
int size_from_environment();
}  // namespace launcher

}  // namespace cas::gpu
