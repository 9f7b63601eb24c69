// The launcher's environment (gpu/ranks.hpp): Open MPI's OMPI_COMM_WORLD_*, MPICH's PMI_*.
#include "gpu/ranks.hpp"

#include <cstdlib>

namespace cas::gpu::launcher {

namespace {
int first_number(const char* a, const char* b, int otherwise)
{
    for (const char* name : {a, b})
        if (const char* value = std::getenv(name); value && *value) {
            char* end = nullptr;
            const long n = std::strtol(value, &end, 10);
            if (*end == '\0' && n >= 0) return int(n);
        }
    return otherwise;
}
}  // namespace

int rank_from_environment() { return first_number("OMPI_COMM_WORLD_RANK", "PMI_RANK", 0); }
int size_from_environment() { return first_number("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", 1); }

}  // namespace cas::gpu::launcher
