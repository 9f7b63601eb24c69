// Shared pieces of the GPU tests: the skip, the trial multiplier, random data, the oracles.
#pragma once

#include "gpu/ntt.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace cas::gpu::test {

// A test that finds no GPU says so and passes without checking anything.
#define CAS_REQUIRE_GPU()                                  \
    do {                                                   \
        if (!::cas::gpu::available()) {                    \
            WARN("SKIPPED: " << ::cas::gpu::describe());   \
            return;                                        \
        }                                                  \
    } while (0)

// CAS_TEST_MULTIPLIER scales the trial counts (default 1; 0.1 in a quick sanitizer run).
inline double multiplier()
{
    const char* env = std::getenv("CAS_TEST_MULTIPLIER");
    return env ? std::atof(env) : 1.0;
}
inline int trials(int base)
{
    int t = int(base * multiplier() + 0.5);
    return t < 1 ? 1 : t;
}

inline std::mt19937_64& rng()
{
    static std::mt19937_64 generator = [] {
        const char* env = std::getenv("CAS_TEST_SEED");
        std::uint64_t seed = env ? std::strtoull(env, nullptr, 10) : 20261123;
        return std::mt19937_64(seed);
    }();
    return generator;
}

inline std::vector<std::uint64_t> random_vector(std::size_t n, std::uint64_t p)
{
    std::vector<std::uint64_t> v(n);
    for (auto& x : v) x = rng()() % p;
    return v;
}

// a(x) at x, Horner: the oracle for single outputs of a transform, X_k = a(w^k).
inline std::uint64_t evaluate(const std::vector<std::uint64_t>& a, std::size_t offset, std::size_t n,
                              std::uint64_t x, std::uint64_t p)
{
    std::uint64_t acc = 0;
    for (std::size_t j = n; j-- > 0;) {
        acc = mul_mod(acc, x, p) + a[offset + j];
        if (acc >= p || acc < a[offset + j]) acc -= p;
    }
    return acc;
}

inline std::string hex(std::uint64_t x)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(x));
    return buffer;
}

inline const std::vector<Algorithm>& algorithms()
{
    static const std::vector<Algorithm> all = {Algorithm::radix2, Algorithm::stockham, Algorithm::fast};
    return all;
}

}  // namespace cas::gpu::test
