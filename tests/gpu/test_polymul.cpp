// Products in Z/pZ[x] against FLINT's nmod_poly_mul: NTT-friendly primes of 30 to 64 bits,
// p = 2, 3, primes whose p - 1 is odd-heavy, composite moduli; zero and one-term operands,
// unequal lengths, all three algorithms, host and device entry points.
#include "support.hpp"

#include "gpu/crt.hpp"
#include "gpu/power_of_two.hpp"

#include <flint/nmod_poly.h>

#include <thread>

using namespace cas::gpu;
using namespace cas::gpu::test;

namespace {

std::vector<std::uint64_t> flint_multiply(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b,
                                          std::uint64_t p)
{
    if (a.empty() || b.empty()) return {};
    nmod_poly_t fa, fb, fc;
    nmod_poly_init2(fa, p, a.size());
    nmod_poly_init2(fb, p, b.size());
    nmod_poly_init(fc, p);
    for (std::size_t i = 0; i < a.size(); ++i) nmod_poly_set_coeff_ui(fa, i, a[i]);
    for (std::size_t i = 0; i < b.size(); ++i) nmod_poly_set_coeff_ui(fb, i, b[i]);
    nmod_poly_mul(fc, fa, fb);
    std::vector<std::uint64_t> c(a.size() + b.size() - 1, 0);
    for (slong i = 0; i < nmod_poly_length(fc); ++i) c[i] = nmod_poly_get_coeff_ui(fc, i);
    nmod_poly_clear(fa);
    nmod_poly_clear(fb);
    nmod_poly_clear(fc);
    return c;
}

// a^e mod p as (na - 1) e + 1 coefficients (zero-padded past FLINT's length); a nonempty, reduced.
std::vector<std::uint64_t> flint_power(const std::vector<std::uint64_t>& a, std::uint64_t e, std::uint64_t p)
{
    nmod_poly_t fa, fc;
    nmod_poly_init2(fa, p, a.size());
    nmod_poly_init(fc, p);
    for (std::size_t i = 0; i < a.size(); ++i) nmod_poly_set_coeff_ui(fa, i, a[i]);
    nmod_poly_pow(fc, fa, e);
    std::vector<std::uint64_t> c((a.size() - 1) * e + 1, 0);
    for (slong i = 0; i < nmod_poly_length(fc); ++i) c[i] = nmod_poly_get_coeff_ui(fc, i);
    nmod_poly_clear(fa);
    nmod_poly_clear(fc);
    return c;
}

// The largest prime below 2^bits with p = 3 mod 4: p - 1 = 2 * odd, no transform of length > 2.
std::uint64_t odd_heavy_prime(int bits)
{
    std::uint64_t p = bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
    while (!(p % 4 == 3 && is_prime(p))) p -= 2;
    return p;
}

std::vector<std::uint64_t> moduli()
{
    std::vector<std::uint64_t> m;
    for (int bits : {30, 31, 32, 50, 62, 64}) m.push_back(ntt_primes(bits, 22, 1).at(0));
    m.push_back(0xFFFFFFFF00000001ull);
    m.push_back(2);
    m.push_back(3);
    m.push_back(odd_heavy_prime(63));
    m.push_back(odd_heavy_prime(64));
    m.push_back(odd_heavy_prime(31));
    m.push_back(1000000007);                         // p - 1 = 2 * 500000003
    m.push_back(~std::uint64_t(0));                  // 2^64 - 1, composite
    m.push_back((std::uint64_t(1) << 62) * 3 + 17);  // odd composite above 2^63
    m.push_back(std::uint64_t(1) << 40);             // a power of two
    return m;
}

void require_same(const std::vector<std::uint64_t>& got, const std::vector<std::uint64_t>& expected)
{
    REQUIRE(got.size() == expected.size());
    if (got != expected) {
        std::size_t i = 0;
        while (got[i] == expected[i]) ++i;
        FAIL("first difference at " << i << ": got " << got[i] << ", FLINT " << expected[i]);
    }
}

void check_product(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b, std::uint64_t p,
                   Algorithm algorithm)
{
    INFO("p = " << hex(p) << ", lengths " << a.size() << " x " << b.size() << ", " << to_string(algorithm));
    require_same(multiply_mod(a, b, p, algorithm), flint_multiply(a, b, p));
}

}  // namespace

TEST_CASE("products agree with FLINT for many moduli, lengths and all algorithms", "[gpu][polymul]")
{
    CAS_REQUIRE_GPU();
    for (std::uint64_t p : moduli()) {
        for (Algorithm algorithm : algorithms()) {
            for (int t = 0; t < trials(6); ++t) {
                std::size_t na = 1 + rng()() % (t < 3 ? 40 : 3000);
                std::size_t nb = 1 + rng()() % (t < 3 ? 40 : 5000);
                check_product(random_vector(na, p), random_vector(nb, p), p, algorithm);
            }
        }
    }
}

TEST_CASE("zero and one-term operands", "[gpu][polymul]")
{
    CAS_REQUIRE_GPU();
    for (std::uint64_t p : moduli()) {
        auto x = random_vector(1 + rng()() % 100, p);
        CHECK(multiply_mod(x, {}, p).empty());
        CHECK(multiply_mod({}, x, p).empty());
        CHECK(multiply_mod(std::vector<std::uint64_t>{}, std::vector<std::uint64_t>{}, p).empty());
        check_product(x, random_vector(1, p), p, Algorithm::fast);
        check_product(random_vector(1, p), x, p, Algorithm::fast);
        check_product(random_vector(1, p), random_vector(1, p), p, Algorithm::fast);
        check_product(x, std::vector<std::uint64_t>(7, 0), p, Algorithm::fast);  // zero polynomial, stored
        std::vector<std::uint64_t> top(x.size(), p - 1);                        // all coefficients maximal
        check_product(top, top, p, Algorithm::fast);
    }
}

TEST_CASE("large products and every transform length up to 2^21", "[gpu][polymul]")
{
    CAS_REQUIRE_GPU();
    std::vector<std::uint64_t> some = {ntt_primes(31, 22, 1).at(0), ntt_primes(62, 22, 1).at(0),
                                       odd_heavy_prime(63), 3};
    int max_log = multiplier() < 0.5 ? 14 : 21;
    for (int log_len = 1; log_len <= max_log; ++log_len) {
        std::uint64_t p = some[log_len % some.size()];
        std::size_t length = (std::size_t(1) << log_len) - (log_len % 3);  // some odd lengths
        std::size_t na = 1 + rng()() % length;
        std::size_t nb = length + 1 - na;
        check_product(random_vector(na, p), random_vector(nb, p), p, Algorithm::fast);
    }
    if (multiplier() >= 1) {  // product length 2^22, single prime and CRT
        std::size_t half = std::size_t(1) << 21;
        check_product(random_vector(half, some[0]), random_vector(half, some[0]), some[0], Algorithm::fast);
        check_product(random_vector(half, some[2]), random_vector(half, some[2]), some[2], Algorithm::fast);
    }
}

namespace {
// FLINT's product folded modulo x^n - 1 (negacyclic: x^n + 1), as n words.
std::vector<std::uint64_t> flint_convolution(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b,
                                             std::size_t n, bool negacyclic, std::uint64_t p)
{
    const std::vector<std::uint64_t> c = flint_multiply(a, b, p);
    nmod_t mod;
    nmod_init(&mod, p);
    std::vector<std::uint64_t> r(n, 0);
    for (std::size_t k = 0; k < c.size(); ++k)
        r[k % n] = negacyclic && k >= n ? nmod_sub(r[k % n], c[k], mod) : nmod_add(r[k % n], c[k], mod);
    return r;
}
}  // namespace

// convolve_mod: the product folded on the device, for every modulus (one prime, CRT, p < 2^32
// with 32-bit words on the bus), n from 1 to past a staging chunk, operands shorter than n, words
// all p - 1, and unreduced words (>= p; >= 2^32 sends p < 2^32 down the 64-bit path). Cyclic
// convolutions of a power-of-two length that wrap are transforms of n words (multiply_cyclic_device).
TEST_CASE("convolutions fold the product on the device and agree with FLINT", "[gpu][polymul][convolve]")
{
    CAS_REQUIRE_GPU();
    for (std::uint64_t p : moduli()) {
        // powers of two with na + nb - 1 > n take the transforms' own wrap (one pass at 4096, fused at 2^17)
        for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(3), std::size_t(1000), std::size_t(4096),
                              std::size_t(100001), std::size_t(1) << 17}) {
            for (int shape = 0; shape < 3; ++shape) {
                const std::size_t na = shape == 1 ? 1 + rng()() % n : n, nb = shape == 2 ? 1 + rng()() % n : n;
                std::vector<std::uint64_t> a = random_vector(na, p), b = random_vector(nb, p);
                if (shape == 0) {
                    std::fill(a.begin(), a.end(), p - 1);
                    std::fill(b.begin(), b.end(), p - 1);
                }
                for (bool negacyclic : {false, true}) {
                    INFO("p = " << hex(p) << ", n = " << n << ", lengths " << na << " x " << nb
                                << (negacyclic ? ", negacyclic" : ", cyclic"));
                    std::vector<std::uint64_t> c(n);
                    convolve_mod(a.data(), na, b.data(), nb, n, negacyclic, p, c.data());
                    require_same(c, flint_convolution(a, b, n, negacyclic, p));
                }
            }
        }
    }
    // unreduced words: one word of 2^64 - 1 in each operand
    for (std::uint64_t p : {std::uint64_t(998244353), std::uint64_t(1000000007), odd_heavy_prime(63)}) {
        std::vector<std::uint64_t> a = random_vector(5000, p), b = random_vector(5000, p);
        a[17] = b[4000] = ~std::uint64_t(0);
        std::vector<std::uint64_t> ra = a, rb = b;
        ra[17] %= p;
        rb[4000] %= p;
        INFO("p = " << hex(p));
        std::vector<std::uint64_t> c(5000), cyclic(8192);
        convolve_mod(a.data(), a.size(), b.data(), b.size(), 5000, true, p, c.data());
        require_same(c, flint_convolution(ra, rb, 5000, true, p));
        convolve_mod(a.data(), a.size(), b.data(), b.size(), 8192, false, p, cyclic.data());  // the wrap
        require_same(cyclic, flint_convolution(ra, rb, 8192, false, p));
    }
}

TEST_CASE("device-buffer products equal host products", "[gpu][polymul]")
{
    CAS_REQUIRE_GPU();
    for (std::uint64_t p : moduli()) {
        auto a = random_vector(1 + rng()() % 5000, p), b = random_vector(1 + rng()() % 5000, p);
        DeviceWords da(a), db(b);
        DeviceWords dc = multiply_mod(da, db, p);
        CHECK(dc.to_host() == multiply_mod(a, b, p));
        CHECK(dc.size() == a.size() + b.size() - 1);
    }
}

TEST_CASE("product plans pick one prime when p allows and enough CRT primes otherwise", "[gpu][polymul]")
{
    // Host-only: runs everywhere.
    auto plan = plan_product(1 << 20, 1 << 20, 998244353);
    CHECK(plan.single_prime);
    CHECK(plan.transform_length == (std::size_t(1) << 21));
    plan = plan_product(1 << 20, 1 << 20, odd_heavy_prime(63));
    CHECK_FALSE(plan.single_prime);
    double bits = 0;
    for (auto q : plan.primes) {
        CHECK(is_prime(q));
        CHECK((q - 1) % plan.transform_length == 0);
        bits += std::log2(double(q));
    }
    CHECK(bits > 20 + 2 * 63);
    CHECK(plan_product(0, 5, 7).primes.empty());
}

TEST_CASE("cyclic product plans transform n words and need only n | p - 1", "[gpu][polymul]")
{
    // Host-only: runs everywhere.
    const std::size_t n = std::size_t(1) << 20;
    auto plan = plan_cyclic_product(n, n, n, 998244353);
    CHECK(plan.single_prime);
    CHECK(plan.transform_length == n);
    // a prime with 2^20 but not 2^21 dividing p - 1: one prime cyclically, CRT for the whole product
    std::uint64_t p = 0;
    for (std::uint64_t q : ntt_primes(62, 20, 8))
        if ((q - 1) % (2 * n) != 0) p = q;
    REQUIRE(p != 0);
    CHECK(plan_cyclic_product(n, n, n, p).single_prime);
    CHECK_FALSE(plan_product(n, n, p).single_prime);
    // CRT primes for min(na, nb) (p - 1)^2, each with n | q - 1
    plan = plan_cyclic_product(5, n, n, odd_heavy_prime(63));
    CHECK_FALSE(plan.single_prime);
    double bits = 0;
    for (auto q : plan.primes) {
        CHECK((q - 1) % n == 0);
        bits += std::log2(double(q));
    }
    CHECK(bits > std::log2(5.0) + 2 * 63);
    CHECK_THROWS_AS(plan_cyclic_product(5, 5, 6, 998244353), Error);   // n not a power of two
    CHECK_THROWS_AS(plan_cyclic_product(9, 5, 8, 998244353), Error);   // an operand longer than n
    CHECK(plan_cyclic_product(0, 5, 8, 998244353).primes.empty());
}

TEST_CASE("convolve_mod takes the cyclic product when n is a power of two and the product wraps", "[gpu][polymul]")
{
    // Host-only: runs everywhere (fourier.cpp's engine note asks the same question).
    CHECK(convolves_by_cyclic_product(8, 8, 8, false));
    CHECK(convolves_by_cyclic_product(5, 5, 8, false));       // 9 terms: the top one wraps
    CHECK_FALSE(convolves_by_cyclic_product(5, 5, 8, true));  // negacyclic: the product folded
    CHECK_FALSE(convolves_by_cyclic_product(4, 5, 8, false)); // exactly 8 terms: no wrap
    CHECK_FALSE(convolves_by_cyclic_product(1, 1, 1, false));
    CHECK_FALSE(convolves_by_cyclic_product(6, 6, 6, false)); // not a power of two
    CHECK_FALSE(convolves_by_cyclic_product(0, 8, 8, false));
}

namespace {
// Sets the fast path's options for one scope (tune_fast_options), restores them after.
struct FastOptions {
    unsigned previous;
    explicit FastOptions(unsigned options) : previous(tune_fast_options(options)) {}
    ~FastOptions() { tune_fast_options(previous); }
};
}  // namespace

TEST_CASE("fused products (padding, pointwise product, widening inside the passes) agree with FLINT", "[gpu][polymul]")
{
    CAS_REQUIRE_GPU();
    // single prime on 32-bit words, on 64-bit words (lazy and p >= 2^63), and CRT products
    std::vector<std::uint64_t> primes = {ntt_primes(31, 22, 1).at(0), ntt_primes(62, 22, 1).at(0),
                                         ntt_primes(64, 22, 1).at(0), 0xFFFFFFFF00000001ull, odd_heavy_prime(63),
                                         odd_heavy_prime(64)};
    int max_log = multiplier() < 0.5 ? 14 : 19;
    // 191, 63, 51 and 19: the layout variants (register stages on the last pass, for
    // both word sizes; row-order stores and register stages of the 32-bit strided passes) with
    // and without the twiddle walks; 15: walks alone; 1727, 703, 1539 and 515: the
    // Goldilocks prime's own arithmetic, with and without the other options, and the pointwise
    // product with one Montgomery reduction (R folded into 1/n: bit 1024) or two; 3775 (default)
    // and 2051: dead inputs dropped from L2 (bit 2048), the spectra in the fused product too
    for (unsigned options : {3775u, 1727u, 2051u, 703u, 1539u, 515u, 1215u, 191u, 63u, 1075u, 51u, 19u, 15u, 3u, 1026u, 0u, 4u}) {
        FastOptions scope(options);
        for (std::uint64_t p : primes) {
            for (int log_n = 12; log_n <= max_log; ++log_n) {
                std::size_t length = (std::size_t(1) << log_n) - rng()() % 64;  // product length: n = 2^log_n
                std::size_t na = 1 + rng()() % (length - 1);
                std::size_t nb = length + 1 - na;
                INFO("options " << options << ", log n " << log_n);
                check_product(random_vector(na, p), random_vector(nb, p), p, Algorithm::fast);
            }
        }
    }
}

TEST_CASE("unreduced operand words are reduced mod p, in the fused and the unfused product", "[gpu][polymul]")
{
    CAS_REQUIRE_GPU();
    // 4294967291: CRT over 31-bit primes whose range (n p^2) a word near 2^64 would overflow
    std::vector<std::uint64_t> primes = {ntt_primes(31, 22, 1).at(0), ntt_primes(62, 22, 1).at(0),
                                         ntt_primes(64, 22, 1).at(0), odd_heavy_prime(63), 0xFFFFFFFF00000001ull,
                                         4294967291ull};
    for (unsigned options : {3775u, 1727u, 703u, 63u, 15u, 0u}) {
        FastOptions scope(options);
        for (std::uint64_t p : primes) {
            std::size_t na = 5000 + rng()() % 3000, nb = 9000 + rng()() % 3000;
            std::vector<std::uint64_t> a(na), b(nb), ra(na), rb(nb);
            for (std::size_t i = 0; i < na; ++i) ra[i] = (a[i] = rng()()) % p;
            for (std::size_t i = 0; i < nb; ++i) rb[i] = (b[i] = rng()()) % p;
            a[0] = ~std::uint64_t(0);  // the largest word, and a zero
            ra[0] = a[0] % p;
            b[0] = rb[0] = 0;
            INFO("options " << options << ", p = " << hex(p));
            CHECK(multiply_mod(a, b, p) == flint_multiply(ra, rb, p));
        }
    }
}

TEST_CASE("powers in one transform agree with FLINT's nmod_poly_pow", "[gpu][polymul]")
{
    CAS_REQUIRE_GPU();
    for (int bits : {31, 62, 64}) {
        const std::uint64_t p = ntt_primes(bits, 22, 1).at(0);
        for (std::uint64_t e : {1ull, 2ull, 3ull, 5ull, 8ull, 13ull, 100ull}) {
            for (int t = 0; t < trials(3); ++t) {
                std::size_t na = 1 + rng()() % (t == 0 ? 5 : 3000);
                if ((na - 1) * e + 1 > (std::size_t(1) << 22)) na = 1 + ((std::size_t(1) << 22) - 1) / e;
                auto a = t == 1 ? std::vector<std::uint64_t>(na, p - 1) : random_vector(na, p);
                INFO("p = " << hex(p) << ", length " << na << ", e = " << e);
                REQUIRE(power_in_one_transform(na, e, p));
                auto expected = flint_power(a, e, p);
                std::vector<std::uint64_t> got(expected.size());
                power_mod(a.data(), na, e, p, got.data());
                CHECK(got == expected);
            }
        }
    }
    // No transform of the needed length: p - 1 = 2 * odd, a length beyond 2^23, e = 0, no operand.
    CHECK_FALSE(power_in_one_transform(10, 3, 1000000007ull));
    CHECK_FALSE(power_in_one_transform(std::size_t(1) << 20, 16, 998244353ull));
    CHECK(power_in_one_transform(std::size_t(1) << 19, 16, 998244353ull));
    CHECK_FALSE(power_in_one_transform(10, 0, 998244353ull));
    CHECK_FALSE(power_in_one_transform(0, 3, 998244353ull));
}

// Host to host modulo p < 2^32: 32-bit words on the bus, staged 4M words (16 MiB) a chunk, the
// host side split over the copy workers above 2^17 words. Lengths put chunk and worker
// boundaries at every kind of remainder; the result goes into a buffer prefilled with a
// sentinel and one word longer, so that a chunk never copied out or a write past the end shows.
namespace {
constexpr std::size_t chunk_words = std::size_t(1) << 22;
// An operand three staging chunks long with a short remainder (two at small multipliers).
std::size_t long_operand_length() { return multiplier() >= 1 ? 2 * chunk_words + 3 : chunk_words + 3; }

void check_host_product(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b, std::uint64_t p,
                        const std::vector<std::uint64_t>& expected)
{
    INFO("p = " << p << ", lengths " << a.size() << " x " << b.size());
    const std::size_t length = a.size() + b.size() - 1;
    std::vector<std::uint64_t> got(length + 1, ~std::uint64_t(0));
    multiply_mod(a.data(), a.size(), b.data(), b.size(), p, got.data());
    CHECK(got[length] == ~std::uint64_t(0));
    got.pop_back();
    require_same(got, expected);
}

// single prime on 32-bit words, single prime on 64-bit words (p > 2^31), CRT, p = 3
std::vector<std::uint64_t> moduli_below_2_32()
{
    return {ntt_primes(31, 24, 1).at(0), ntt_primes(32, 24, 1).at(0), 4294967291ull, 3};
}
}  // namespace

TEST_CASE("host products modulo p < 2^32 (32-bit words on the bus) agree with FLINT across staging chunks",
          "[gpu][polymul][narrow]")
{
    CAS_REQUIRE_GPU();
    using Lengths = std::pair<std::size_t, std::size_t>;
    // one-word operands; below the copy workers' threshold (2^17 words); just across it;
    // 576005 = 9 * 64000 + 5 and 576517 = 16 * 36032 + 5: with 9 parts (8 workers and the
    // caller) or 16 (the default on a 16-core host) the last part also holds the 5 words past
    // the 64-word-aligned pieces
    std::vector<Lengths> lengths = {{1, 1}, {1000, 70000}, {131072, 131073}, {576005, 7}, {7, 576517}};
    if (multiplier() >= 1)  // a: two chunks (remainder 1), b: part of one, result: two (remainder 3000001)
        lengths.push_back({chunk_words + 1, 3000001});
    for (std::uint64_t p : moduli_below_2_32()) {
        for (auto [na, nb] : lengths) {
            auto a = random_vector(na, p), b = random_vector(nb, p);
            check_host_product(a, b, p, flint_multiply(a, b, p));
        }
    }
    // Three chunks each way with short remainders, the long operand first and second (b starts
    // na words into the device buffer).
    const std::uint64_t p = moduli_below_2_32()[0];
    const std::size_t long_length = long_operand_length();
    auto a = random_vector(long_length, p), b = random_vector(5, p);
    check_host_product(a, b, p, flint_multiply(a, b, p));
    check_host_product(b, a, p, flint_multiply(b, a, p));
}

TEST_CASE("host products modulo p < 2^32 with operand words >= p are reduced (>= 2^32: the 64-bit path)",
          "[gpu][polymul][narrow]")
{
    CAS_REQUIRE_GPU();
    const std::size_t long_length = long_operand_length();
    for (std::uint64_t p : moduli_below_2_32()) {
        // words in [p, 2^32) travel as 32-bit words and are reduced on the device
        auto a = random_vector(3000, p), b = random_vector(200000, p);
        auto ra = a, rb = b;
        a[7] = 0xFFFFFFFFull;
        b[150000] = p;
        ra[7] = a[7] % p;
        rb[150000] = 0;
        check_host_product(a, b, p, flint_multiply(ra, rb, p));
        // one word >= 2^32 in the last chunk of the first operand, or only in the second operand
        auto c = random_vector(long_length, p), d = random_vector(5, p);
        auto rc = c, rd = d;
        c[long_length - 1] = std::uint64_t(1) << 32;
        rc[long_length - 1] = c[long_length - 1] % p;
        check_host_product(c, d, p, flint_multiply(rc, rd, p));
        rc[long_length - 1] = c[long_length - 1] = rng()() % p;
        d[4] = ~std::uint64_t(0);
        rd[4] = d[4] % p;
        check_host_product(c, d, p, flint_multiply(rc, rd, p));
    }
}

// Host products modulo p >= 2^32: a goes up first, b beside the library stream while a's work
// (its forward transform, or for CRT products its reduction) runs. b spans two staging chunks
// of 2M 64-bit words (one at small multipliers), first as the long operand, then as the short
// one, then both long; unreduced words in b show that it was read after its upload.
TEST_CASE("host products modulo p >= 2^32 upload the second operand beside the first one's work",
          "[gpu][polymul][overlap]")
{
    CAS_REQUIRE_GPU();
    const std::size_t chunk64 = chunk_words / 2;
    const std::size_t long_length = multiplier() >= 1 ? chunk64 + 5 : chunk64 / 4 + 5;
    const std::uint64_t goldilocks = 0xFFFFFFFF00000001ull, odd_heavy = 9223372036854775783ull;
    for (std::uint64_t p : {ntt_primes(62, 24, 1).at(0), goldilocks, odd_heavy}) {
        using Lengths = std::pair<std::size_t, std::size_t>;
        const Lengths cases[] = {{3, long_length}, {long_length, 3}, {long_length / 2, long_length}};
        for (auto [na, nb] : cases) {
            auto a = random_vector(na, p), b = random_vector(nb, p);
            auto rb = b;
            b[nb - 1] = ~std::uint64_t(0);
            rb[nb - 1] = b[nb - 1] % p;
            check_host_product(a, b, p, flint_multiply(a, rb, p));
        }
    }
}

// The REPL warms the GPU up on a thread of its own while the user may already multiply.
TEST_CASE("warm_up never throws and runs beside a host product", "[gpu][polymul][warmup]")
{
    CHECK_NOTHROW(warm_up());  // with or without a device
    CAS_REQUIRE_GPU();
    const std::uint64_t p = ntt_primes(62, 24, 1).at(0);
    auto a = random_vector(100000, p), b = random_vector(70000, p);
    auto expected = flint_multiply(a, b, p);
    std::thread beside([] { warm_up(); });
    check_host_product(a, b, p, expected);
    beside.join();
}

TEST_CASE("host powers modulo p < 2^32 agree with FLINT across a staging chunk, unreduced words too",
          "[gpu][polymul][narrow]")
{
    CAS_REQUIRE_GPU();
    const std::size_t na = multiplier() >= 1 ? chunk_words / 2 + 1 : 3001;  // a^2: chunk_words + 1 words
    for (std::uint64_t p : {ntt_primes(31, 23, 1).at(0), ntt_primes(32, 23, 1).at(0)}) {
        for (int unreduced : {0, 1, 2}) {
            auto a = random_vector(na, p);
            if (unreduced == 1) a[1] = p;                            // reduced on the device (32-bit path)
            if (unreduced == 2) a[na - 1] += std::uint64_t(1) << 32;  // the 64-bit path
            auto reduced = a;
            for (auto& x : reduced) x %= p;
            INFO("p = " << p << ", length " << na << ", unreduced " << unreduced);
            REQUIRE(power_in_one_transform(na, 2, p));
            std::vector<std::uint64_t> got(2 * na, ~std::uint64_t(0));  // one sentinel word past the end
            auto expected = flint_power(reduced, 2, p);
            power_mod(a.data(), na, 2, p, got.data());
            CHECK(got.back() == ~std::uint64_t(0));
            got.pop_back();
            require_same(got, expected);
        }
    }
}

// A product modulo one prime shared between two GPUs (gpu/polymul_split.cu): every modulus whose
// transforms allow it, lengths that meet the halves' boundaries (the product's length a power of
// two, one short of it, operands of exactly n / 2 terms, one term longer than the other by far),
// unreduced operand words, against FLINT; then the same on one device. Skips visibly with fewer
// than two GPUs.
TEST_CASE("products modulo one prime shared between two GPUs agree with FLINT", "[gpu][polymul][devices]")
{
    CAS_REQUIRE_GPU();
    std::string why;
    if (!devices_share_work(&why)) {
        WARN("SKIPPED: " << why << "; products shared between two GPUs are not exercised");
        return;
    }
    const std::size_t saved = set_prime_split_threshold(0);
    const std::pair<std::size_t, std::size_t> lengths[] = {{2, 2},       {3, 2},         {8, 8},          {9, 7},
                                                           {1000, 24},   {1024, 1024},   {1023, 1025},    {5000, 3},
                                                           {1 << 16, 1 << 16}, {(1 << 20) - 3, 1 << 20}, {1 << 23, 1 << 22}};
    for (std::uint64_t p : {ntt_primes(62, 26, 1).at(0), ntt_primes(31, 26, 1).at(0), std::uint64_t(0xFFFFFFFF00000001ull),
                            ntt_primes(64, 24, 1).at(0)}) {
        for (const auto& [na, nb] : lengths) {
            std::vector<std::uint64_t> a = random_vector(na, p), b = random_vector(nb, p);
            a[0] = ~std::uint64_t(0);  // unreduced words are reduced
            INFO("p = " << hex(p) << ", lengths " << na << " x " << nb);
            const std::vector<std::uint64_t> expected = flint_multiply(a, b, p);
            require_same(multiply_mod(a, b, p), expected);
            // the transform length; each operand must fit half of it
            const std::size_t n = std::max<std::size_t>(4, detail::next_power_of_two(na + nb - 1));
            CHECK(last_split().devices() == (na <= n / 2 && nb <= n / 2 ? 2 : 1));
            const int devices = set_devices_used(1);
            require_same(multiply_mod(a, b, p), expected);
            CHECK(last_split().devices() == 1);
            set_devices_used(devices);
        }
    }
    set_prime_split_threshold(saved);
    // By default a product is shared only when one device lacks the memory for it: one device's
    // two transforms of 2^21 words (32 MiB) fail under a limit of 24 MiB, two of 2^20 words fit.
    const std::uint64_t p = ntt_primes(62, 26, 1).at(0);
    const std::vector<std::uint64_t> a = random_vector(std::size_t(1) << 20, p), b = random_vector(std::size_t(1) << 20, p);
    const std::vector<std::uint64_t> expected = flint_multiply(a, b, p);
    require_same(multiply_mod(a, b, p), expected);
    CHECK(last_split().devices() == 1);
    set_allocation_limit(std::size_t(24) << 20);
    std::vector<std::uint64_t> shared;
    CHECK_NOTHROW(shared = multiply_mod(a, b, p));
    set_allocation_limit(0);
    require_same(shared, expected);
    CHECK(last_split().devices() == 2);
}
