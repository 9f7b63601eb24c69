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
    CHECK(n_powmod2_preinv(2, gl::order_of_two, gl::prime, ninv) == 1);
    CHECK(n_powmod2_preinv(2, gl::order_of_two / 2, gl::prime, ninv) != 1);
    CHECK(n_powmod2_preinv(2, gl::order_of_two / 3, gl::prime, ninv) != 1);
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

TEST_CASE("goldilocks: products by powers of two are shifts, for every exponent below 192", "[goldilocks]")
{
    FreshRandom r;
    INFO("seed " << r.seed);
    const std::uint64_t p = gl::prime, ninv = n_preinvert_limb(p);
    std::vector<std::uint64_t> residues;
    for (std::uint64_t w : edge_words()) residues.push_back(w % p);
    for (std::uint64_t w : random_words(r, 100, p)) residues.push_back(w);
    for (int k = 0; k < gl::order_of_two; ++k) {
        const std::uint64_t power = n_powmod2_preinv(2, k, p, ninv);
        CHECK(gl::pow2_exponent(power) == k);
        for (std::uint64_t x : residues) {
            INFO("x " << x << ", k " << k);
            REQUIRE(gl::mul_pow2(x, k) == n_mulmod2_preinv(x, power, p, ninv));
        }
    }
}

TEST_CASE("goldilocks: every root of unity of order dividing 64 is a power of two, no other", "[goldilocks]")
{
    const std::uint64_t p = gl::prime, ninv = n_preinvert_limb(p);
    for (int log_order = 0; log_order <= 6; ++log_order) {
        const std::uint64_t w = cas::gpu::root_of_unity(p, std::size_t(1) << log_order);
        INFO("order 2^" << log_order);
        REQUIRE(w != 0);
        for (std::uint64_t k = 1; k < (std::uint64_t(1) << log_order); k += 2) {  // every primitive root
            const int e = gl::pow2_exponent(n_powmod2_preinv(w, k, p, ninv));
            CHECK(e >= 0);
            CHECK(e % (gl::order_of_two >> log_order) == 0);
        }
    }
    const std::uint64_t w128 = cas::gpu::root_of_unity(p, 128);  // 128 does not divide 192
    CHECK(gl::pow2_exponent(w128) == -1);
    CHECK(gl::pow2_exponent(3) == -1);
}
