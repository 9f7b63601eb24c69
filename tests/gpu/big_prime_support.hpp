// Shared pieces of the big-prime kernels' tests (test_big_prime.cpp, test_big_prime_gf.cpp):
// FLINT integers that clear themselves, random residues with the edge entries, the kernels'
// limb-major layout, roots of unity.
#pragma once

#include "support.hpp"

#include <flint/fmpz.h>

#include <cstdint>
#include <vector>

namespace cas::gpu::test {

// An fmpz that clears itself.
struct Integer {
    fmpz_t z;
    Integer() { fmpz_init(z); }
    Integer(const Integer& o) { fmpz_init_set(z, o.z); }
    Integer& operator=(const Integer& o)
    {
        fmpz_set(z, o.z);
        return *this;
    }
    ~Integer() { fmpz_clear(z); }
};
using Integers = std::vector<Integer>;

// n residues below p (of `limbs` words) from the tests' generator (CAS_TEST_SEED), 0 and p - 1
// among the first; with all_top every entry p - 1.
inline Integers random_residues(const fmpz_t p, std::size_t limbs, std::size_t n, bool all_top = false)
{
    Integers v(n);
    std::vector<std::uint64_t> words(limbs + 1);
    for (std::size_t i = 0; i < n; i++) {
        for (auto& w : words) w = rng()();
        fmpz_set_ui_array(v[i].z, words.data(), static_cast<slong>(words.size()));
        fmpz_mod(v[i].z, v[i].z, p);
        if (all_top || i == 2) fmpz_sub_ui(v[i].z, p, 1);
        if (!all_top && i == 1) fmpz_zero(v[i].z);
    }
    return v;
}

// Limb-major: word d of element i at words[d * count + i].
inline std::vector<std::uint64_t> to_words(const Integers& v, std::size_t limbs)
{
    std::vector<std::uint64_t> out(limbs * v.size()), element(limbs);
    for (std::size_t i = 0; i < v.size(); i++) {
        fmpz_get_ui_array(element.data(), static_cast<slong>(limbs), v[i].z);
        for (std::size_t d = 0; d < limbs; d++) out[d * v.size() + i] = element[d];
    }
    return out;
}

inline Integers from_words(const std::vector<std::uint64_t>& words, std::size_t count, std::size_t limbs)
{
    Integers v(count);
    std::vector<std::uint64_t> element(limbs);
    for (std::size_t i = 0; i < count; i++) {
        for (std::size_t d = 0; d < limbs; d++) element[d] = words[d * count + i];
        fmpz_set_ui_array(v[i].z, element.data(), static_cast<slong>(limbs));
    }
    return v;
}

// A primitive n-th root of unity modulo the prime p (n a power of two dividing p - 1):
// g^((p-1)/n) for the least g whose power has full order.
inline Integer root_of_unity(const fmpz_t p, std::size_t n)
{
    Integer root, e, half;
    fmpz_one(root.z);
    if (n == 1) return root;
    fmpz_sub_ui(e.z, p, 1);
    fmpz_divexact_ui(e.z, e.z, n);
    for (ulong g = 2;; g++) {
        Integer base;
        fmpz_set_ui(base.z, g);
        fmpz_powm(root.z, base.z, e.z, p);
        fmpz_powm_ui(half.z, root.z, n / 2, p);
        if (!fmpz_is_one(half.z)) return root;
    }
}

}  // namespace cas::gpu::test
