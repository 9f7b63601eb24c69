// Numbers the engine reads from the environment at startup: CAS_GPU_DEVICES, CAS_COPY_THREADS,
// CAS_GPU_SPLIT_WORDS, and the ranks mpirun gives (gpu/launcher.cpp). Host code, no CUDA.
#pragma once

#include <cstdlib>
#include <optional>

namespace cas::gpu {

// The integer the environment variable `name` holds, read whole by strtoll; nothing when the
// variable is unset, empty, or not a number through to its end.
inline std::optional<long long> integer_from_environment(const char* name)
{
    const char* value = std::getenv(name);
    if (!value || !*value) return std::nullopt;
    char* end = nullptr;
    const long long n = std::strtoll(value, &end, 10);
    if (*end != '\0') return std::nullopt;
    return n;
}

}  // namespace cas::gpu
