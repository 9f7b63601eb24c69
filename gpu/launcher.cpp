// The launcher's environment (gpu/ranks.hpp): Open MPI's OMPI_COMM_WORLD_*, MPICH's PMI_*.
#include "gpu/environment.hpp"
#include "gpu/ranks.hpp"

namespace cas::gpu::launcher {

namespace {
int first_number(const char* a, const char* b, int otherwise)
{
    for (const char* name : {a, b})
        if (const std::optional<long long> n = integer_from_environment(name); n && *n >= 0) return int(*n);
    return otherwise;
}
}  // namespace

int rank_from_environment() { return first_number("OMPI_COMM_WORLD_RANK", "PMI_RANK", 0); }
int size_from_environment() { return first_number("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", 1); }

}  // namespace cas::gpu::launcher
