// Arithmetic modulo the Goldilocks prime (gpu/goldilocks.hpp), host and device alike, against
// FLINT on fresh random inputs and on the words where the reductions borrow or carry.
#include "flint_support.hpp"

#include "gpu/goldilocks.hpp"
#include "gpu/ntt.hpp"

#include <catch2/catch.hpp>
#include <flint/ulong_extras.h>

#include <vector>

namespace {

namespace gl = cas::gpu::goldilocks;
using cas::test::FreshRandom;

// Words at the edges of the reductions: 0, 1, 2^32 - 1, 2^32, p - 1, p, 2^64 - 1 and neighbours.
std::vector<std::uint64_t> edge_words()
{
    const std::uint64_t p = gl::prime;
    return {0, 1, 2, gl::epsilon - 1, gl::epsilon, gl::epsilon + 1, std::uint64_t(1) << 63, p - 2, p - 1, p, p + 1,
            ~std::uint64_t(0) - 1, ~std::uint64_t(0)};
}

std::vector<std::uint64_t> random_words(FreshRandom& r, std::size_t count, std::uint64_t below)
{
    std::vector<std::uint64_t> words(count);
    for (auto& w : words) w = below == 0 ? n_randtest(r.state()) : n_randint(r.state(), below);
    return words;
}

}  // namespace

TEST_CASE("goldilocks: the prime and its constants", "[goldilocks]")
{
    CHECK(cas::gpu::is_prime(gl::prime));
    CHECK(gl::prime == (~std::uint64_t(0) - (std::uint64_t(1) << 32) + 2));  // 2^64 - 2^32 + 1
    const std::uint64_t ninv = n_preinvert_limb(gl::prime);
    CHECK(n_ll_mod_preinv(1, 0, gl::prime, ninv) == gl::epsilon);                         // 2^64
    CHECK(n_powmod2_preinv(2, 96, gl::prime, ninv) == gl::prime - 1);                     // 2^96 = -1
}

TEST_CASE("goldilocks: 128-bit reduction, sum, difference and product agree with FLINT", "[goldilocks]")
{
    FreshRandom r;
    INFO("seed " << r.seed);
    const std::uint64_t p = gl::prime, ninv = n_preinvert_limb(p);
    auto words = edge_words();
    for (std::uint64_t w : random_words(r, 200, 0)) words.push_back(w);  // any 64-bit word, biased to edges
    for (std::uint64_t hi : words)
        for (std::uint64_t lo : words) {
            INFO("hi " << hi << ", lo " << lo);
            REQUIRE(gl::reduce128(lo, hi) == n_ll_mod_preinv(hi, lo, p, ninv));
        }
    std::vector<std::uint64_t> residues;
    for (std::uint64_t w : words) residues.push_back(w % p);
    for (std::uint64_t w : random_words(r, 200, p)) residues.push_back(w);
    for (std::uint64_t a : residues)
        for (std::uint64_t b : residues) {
            INFO("a " << a << ", b " << b);
            REQUIRE(gl::add(a, b) == n_addmod(a, b, p));
            REQUIRE(gl::sub(a, b) == n_submod(a, b, p));
            REQUIRE(gl::mul(a, b) == n_mulmod2_preinv(a, b, p, ninv));
        }
}
