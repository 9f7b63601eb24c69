// Transforms: every length 2^0..2^22, primes of 30 to 64 bits, all three algorithms, against the
// definition X_k = sum_j x_j w^(jk) (checked at sampled k by Horner) and against each other.
#include "support.hpp"

#include "gpu/crt.hpp"

#include <memory>

using namespace cas::gpu;
using namespace cas::gpu::test;

namespace {

// NTT-friendly primes of 30, 31, 32, 50, 62, 63 and 64 bits (2^22 divides p - 1), and
// p = 2^64 - 2^32 + 1, whose p - 1 has 2^32. On 64-bit words they take each product the
// kernels have: lazy Shoup (p < 2^62), exact Shoup (2^62 <= p < 2^63), carry-aware Shoup
// (p >= 2^63) and the Goldilocks reduction.
std::vector<std::uint64_t> transform_primes()
{
    std::vector<std::uint64_t> primes;
    for (int bits : {30, 31, 32, 50, 62, 63, 64}) primes.push_back(ntt_primes(bits, 22, 1).at(0));
    primes.push_back(0xFFFFFFFF00000001ull);
    return primes;
}

void check_definition(const std::vector<std::uint64_t>& x, const std::vector<std::uint64_t>& X, std::size_t offset,
                      std::size_t n, std::uint64_t p, std::uint64_t w, std::size_t samples)
{
    for (std::size_t s = 0; s < samples; ++s) {
        std::size_t k = samples >= n ? s : (s == 0 ? 0 : s == 1 ? n - 1 : rng()() % n);
        if (k >= n) break;
        std::uint64_t expected = evaluate(x, offset, n, pow_mod(w, k, p), p);
        if (X[offset + k] != expected) {
            FAIL_CHECK("n = " << n << " p = " << hex(p) << " w = " << hex(w) << " k = " << k << ": got "
                              << X[offset + k] << ", expected " << expected);
            return;
        }
    }
}

std::size_t samples_for(std::size_t n) { return n <= 256 ? n : n <= 4096 ? 16 : 3; }

}  // namespace

TEST_CASE("forward NTT matches the definition for every length 2^0..2^22 and all algorithms", "[gpu][ntt]")
{
    CAS_REQUIRE_GPU();
    int max_log = multiplier() < 0.5 ? 16 : 22;
    for (std::uint64_t p : transform_primes()) {
        for (int log_n = 0; log_n <= max_log; ++log_n) {
            std::size_t n = std::size_t(1) << log_n;
            std::uint64_t w = root_of_unity(p, n);
            REQUIRE(w != 0);
            auto x = random_vector(n, p);
            std::vector<std::vector<std::uint64_t>> results;
            for (Algorithm a : algorithms()) {
                INFO("p = " << hex(p) << ", n = 2^" << log_n << ", " << to_string(a));
                results.push_back(forward(x, n, p, w, a));
                REQUIRE(results.back().size() == n);
                if (a != Algorithm::fast) REQUIRE(results.back() == results.front());
                else CHECK(results.back() == results.front());
                CHECK(inverse(results.back(), n, p, w, a) == x);
            }
            check_definition(x, results.back(), 0, n, p, w, samples_for(n));
        }
    }
}

TEST_CASE("odd roots: every primitive root of a length, not only the canonical one", "[gpu][ntt]")
{
    CAS_REQUIRE_GPU();
    for (std::uint64_t p : transform_primes()) {
        for (int t = 0; t < trials(4); ++t) {
            int log_n = 1 + int(rng()() % 14);
            std::size_t n = std::size_t(1) << log_n;
            std::uint64_t w = pow_mod(root_of_unity(p, n), 2 * (rng()() % (n / 2)) + 1, p);  // odd power: primitive
            auto x = random_vector(n, p);
            for (Algorithm a : algorithms()) {
                INFO("p = " << hex(p) << ", n = 2^" << log_n << ", " << to_string(a));
                auto X = forward(x, n, p, w, a);
                check_definition(x, X, 0, n, p, w, samples_for(n));
                CHECK(inverse(X, n, p, w, a) == x);
            }
        }
    }
}

TEST_CASE("batched transforms of many short vectors equal one-by-one transforms", "[gpu][ntt]")
{
    CAS_REQUIRE_GPU();
    for (std::uint64_t p : transform_primes()) {
        for (int log_n : {0, 1, 2, 3, 5, 8, 11, 12, 13, 15, 17}) {
            std::size_t n = std::size_t(1) << log_n;
            std::size_t batch = 1 + rng()() % (log_n <= 8 ? 1000 : log_n <= 13 ? 40 : 5);
            std::uint64_t w = root_of_unity(p, n);
            auto x = random_vector(n * batch, p);
            INFO("p = " << hex(p) << ", n = 2^" << log_n << ", batch " << batch);
            auto reference = forward(x, n, p, w, Algorithm::radix2);
            for (Algorithm a : {Algorithm::stockham, Algorithm::fast}) {
                INFO(to_string(a));
                auto X = forward(x, n, p, w, a);
                CHECK(X == reference);
                CHECK(inverse(X, n, p, w, a) == x);
            }
            for (int s = 0; s < 3; ++s) {
                std::size_t v = rng()() % batch;
                check_definition(x, reference, v * n, n, p, w, std::min<std::size_t>(n, 4));
            }
        }
    }
}

TEST_CASE("32-bit words give the same transforms as 64-bit words for p < 2^31", "[gpu][ntt]")
{
    CAS_REQUIRE_GPU();
    for (int bits : {20, 30, 31}) {
        std::uint64_t p = ntt_primes(bits, 16, 1).at(0);
        for (int log_n : {0, 1, 4, 7, 12, 13, 14, 16, 18, 20}) {
            std::size_t n = std::size_t(1) << log_n;
            if ((p - 1) % n != 0) continue;
            std::size_t batch = 1 + rng()() % 3;
            std::uint64_t w = root_of_unity(p, n);
            auto x = random_vector(n * batch, p);
            std::vector<std::uint32_t> x32(x.begin(), x.end());
            for (Algorithm a : algorithms()) {
                INFO("p = " << p << ", n = 2^" << log_n << ", batch " << batch << ", " << to_string(a));
                auto X = forward(x, n, p, w, a);
                DeviceWords32 d(x32);
                cas::gpu::forward(d, n, batch, std::uint32_t(p), std::uint32_t(w), a);
                auto X32 = d.to_host();
                CHECK(std::vector<std::uint64_t>(X32.begin(), X32.end()) == X);
                cas::gpu::inverse(d, n, batch, std::uint32_t(p), std::uint32_t(w), a);
                CHECK(d.to_host() == x32);
            }
        }
    }
}

namespace {

// An array never written before, as cas's fft makes its result (new[] leaves the words
// uninitialised; at these sizes malloc mostly hands out pages never touched, which the download
// faults in), with one sentinel word past the end.
class FreshWords {
public:
    explicit FreshWords(std::size_t count) : words_(new std::uint64_t[count + 1]), count_(count)
    {
        words_[count] = sentinel;
    }
    std::uint64_t* data() { return words_.get(); }
    std::vector<std::uint64_t> contents() const { return {words_.get(), words_.get() + count_}; }
    bool sentinel_intact() const { return words_[count_] == sentinel; }

private:
    static constexpr std::uint64_t sentinel = 0x5e471e15e471e1ull;
    std::unique_ptr<std::uint64_t[]> words_;
    std::size_t count_;
};

}  // namespace

// What cas's fft and ifft run: the caller's words into a fresh array (or in place), on 32-bit
// words for p < 2^31; the inverse with 1/n.
TEST_CASE("host transforms into a fresh array or in place agree with the vector API", "[gpu][ntt]")
{
    CAS_REQUIRE_GPU();
    std::vector<std::uint64_t> primes;
    for (int bits : {30, 31, 62, 64}) primes.push_back(ntt_primes(bits, 20, 1).at(0));
    primes.push_back(0xFFFFFFFF00000001ull);  // the Goldilocks prime's own arithmetic
    for (std::uint64_t p : primes) {
        for (int log_n : {0, 1, 5, 12, 13, 17, 20}) {
            const std::size_t n = std::size_t(1) << log_n, batch = log_n <= 13 ? 3 : 1;
            const std::uint64_t w = root_of_unity(p, n);
            const auto x = random_vector(n * batch, p);
            INFO("p = " << hex(p) << ", n = 2^" << log_n << ", batch " << batch);
            const auto X = forward(x, n, p, w), x_inverse = inverse(x, n, p, w);

            FreshWords forward_out(x.size()), inverse_out(x.size());
            forward_into(x.data(), forward_out.data(), x.size(), n, p, w);
            inverse_into(x.data(), inverse_out.data(), x.size(), n, p, w);
            CHECK(forward_out.contents() == X);
            CHECK(inverse_out.contents() == x_inverse);
            CHECK((forward_out.sentinel_intact() && inverse_out.sentinel_intact()));

            auto y = x;
            forward_into(y.data(), y.data(), y.size(), n, p, w);
            CHECK(y == X);
            inverse_into(y.data(), y.data(), y.size(), n, p, w);
            CHECK(y == x);
        }
    }
    std::vector<std::uint64_t> twelve(12, 1);
    CHECK_THROWS_AS(forward_into(twelve.data(), twelve.data(), 12, 8, 998244353, 3), cas::gpu::Error);  // not n * batch
}

// With the split threshold at 0 every host vector of 4 words or more takes the four-step
// decomposition (gpu/ntt_split.cu), on every device that exchanges data, or on the one device.
TEST_CASE("one vector by the four-step decomposition equals the single transform", "[gpu][ntt][devices]")
{
    CAS_REQUIRE_GPU();
    const std::size_t saved = set_prime_split_threshold(0);
    const int devices = devices_share_work() ? device_count() : 1;
    for (std::uint64_t p : transform_primes()) {
        for (int log_n : {2, 3, 4, 7, 10, 15, 19, 22}) {
            const std::size_t n = std::size_t(1) << log_n;
            const std::uint64_t w = root_of_unity(p, n);
            const auto x = random_vector(n, p);
            INFO("p = " << hex(p) << ", n = 2^" << log_n << ", " << devices << " devices");
            const auto X = forward(x, n, p, w);  // one transform on one device
            FreshWords out(n);
            forward_into(x.data(), out.data(), n, n, p, w);
            CHECK(last_split().devices() == devices);
            CHECK(out.contents() == X);
            CHECK(out.sentinel_intact());
            auto y = X;
            inverse_into(y.data(), y.data(), n, n, p, w);
            CHECK(y == x);
        }
    }
    set_prime_split_threshold(saved);
}

// Hidden (run with "[large]"): past the 2^30 words of a single transform, the four-step
// decomposition on every device that exchanges data (16 GiB of input).
TEST_CASE("length 2^31: the four-step round trip, X_0 and X_(n-1) match the definition", "[.][large]")
{
    CAS_REQUIRE_GPU();
    const std::size_t n = std::size_t(1) << 31;
    const std::uint64_t p = ntt_primes(62, 31, 1).at(0), w = root_of_unity(p, n);
    INFO("p = " << hex(p));
    const auto x = random_vector(n, p);
    std::vector<std::uint64_t> X(n);
    forward_into(x.data(), X.data(), n, n, p, w);
    check_definition(x, X, 0, n, p, w, 2);
    inverse_into(X.data(), X.data(), n, n, p, w);
    CHECK(X == x);
}

TEST_CASE("transform arguments are checked", "[gpu][ntt]")
{
    CAS_REQUIRE_GPU();
    std::uint64_t p = 998244353;
    std::vector<std::uint64_t> x(12, 1);
    CHECK_THROWS_AS(forward(x, 12, p, 3), cas::gpu::Error);               // not a power of two
    std::vector<std::uint64_t> y(16, 1);
    CHECK_THROWS_AS(forward(y, 16, p, 1), cas::gpu::Error);               // 1 is no primitive root
    CHECK_THROWS_AS(forward(y, 16, 1000, 3), cas::gpu::Error);            // even modulus
    DeviceWords32 d(16);
    CHECK_THROWS_AS(cas::gpu::forward(d, 16, 1, 4293918721u, 3u), cas::gpu::Error);  // p >= 2^31 on 32-bit words
    CHECK_THROWS_AS(cas::gpu::forward(d, 16, 2, 998244353u, 3u), cas::gpu::Error);   // past the end
}

TEST_CASE("device information", "[gpu]")
{
    CAS_REQUIRE_GPU();
    DeviceInfo info = device_info();
    CHECK(!info.name.empty());
    CHECK(info.total_memory > 0);
    WARN("device: " << describe());
}

// Hidden (run with "[large]"): the largest length the API promises on an 80 GB card.
TEST_CASE("length 2^27: round trip, algorithms agree, X_0 and X_1 match the definition", "[.][large]")
{
    CAS_REQUIRE_GPU();
    const std::size_t n = std::size_t(1) << 27;
    for (std::uint64_t p : {ntt_primes(62, 27, 1).at(0), ntt_primes(31, 27, 1).at(0)}) {
        INFO("p = " << hex(p));
        std::uint64_t w = root_of_unity(p, n);
        auto x = random_vector(n, p);
        auto X = forward(x, n, p, w, Algorithm::fast);
        CHECK(X == forward(x, n, p, w, Algorithm::stockham));
        check_definition(x, X, 0, n, p, w, 2);  // k = 0 and k = n - 1
        CHECK(inverse(X, n, p, w, Algorithm::fast) == x);
        if (p < (std::uint64_t(1) << 31)) {
            DeviceWords32 d(std::vector<std::uint32_t>(x.begin(), x.end()));
            cas::gpu::forward(d, n, 1, std::uint32_t(p), std::uint32_t(w));
            auto X32 = d.to_host();
            CHECK(std::equal(X32.begin(), X32.end(), X.begin()));
        }
    }
}

TEST_CASE("layout variants of the fast passes give the same transforms", "[gpu][ntt]")
{
    // tune_fast_options bits 4 (row-order stores, unpadded strided tiles with 16-byte shared
    // accesses), 5 (first DIF stages of strided passes in registers) and 7 (the same on the last
    // pass), with and without the twiddle walks (bits 2, 3), against bits 0 and 1 alone: the
    // passes of radix 2^7 / 2^8 (n >= 2^13), strided and contiguous. Bits 4 and 5 exist for
    // 32-bit words, bit 7 for both sizes: the 64-bit primes (lazy p < 2^62, full p >= 2^63) run
    // its last passes, and check that the other options leave their kernels alone. Bit 9 takes
    // the Goldilocks prime's own arithmetic (the reference, options 3, takes the carry-aware Shoup
    // products there).
    CAS_REQUIRE_GPU();
    int max_log = multiplier() < 0.5 ? 15 : 22;
    std::vector<std::uint64_t> primes = {ntt_primes(31, 22, 1).at(0), ntt_primes(62, 22, 1).at(0),
                                         ntt_primes(64, 22, 1).at(0), 0xFFFFFFFF00000001ull};
    for (std::uint64_t p : primes) {
        bool narrow = p < (std::uint64_t(1) << 31);
        for (int log_n = 12; log_n <= max_log; ++log_n) {
            std::size_t n = std::size_t(1) << log_n;
            std::uint64_t w = root_of_unity(p, n);
            auto x = random_vector(n, p);
            unsigned previous = tune_fast_options(3u);
            auto reference = forward(x, n, p, w);
            std::vector<std::uint32_t> narrow_reference;
            if (narrow) {
                DeviceWords32 x32(std::vector<std::uint32_t>(x.begin(), x.end()));
                forward(x32, n, 1, std::uint32_t(p), std::uint32_t(w));
                narrow_reference = x32.to_host();
            }
            // 191: + register stages on the last pass; 703, 515: Goldilocks; 2239, 3775 (default):
            // + dead inputs dropped from L2 (bit 11)
            for (unsigned options : {19u, 51u, 63u, 191u, 703u, 515u, 2239u, 3775u}) {
                tune_fast_options(options);
                INFO("p = " << hex(p) << ", n = 2^" << log_n << ", options " << options);
                auto X = forward(x, n, p, w);
                CHECK(X == reference);
                check_definition(x, X, 0, n, p, w, 3);
                CHECK(inverse(X, n, p, w) == x);
                if (narrow) {
                    DeviceWords32 y32(std::vector<std::uint32_t>(x.begin(), x.end()));
                    forward(y32, n, 1, std::uint32_t(p), std::uint32_t(w));
                    CHECK(y32.to_host() == narrow_reference);
                    std::vector<std::uint32_t> two(x.begin(), x.end());  // batch of 2
                    two.insert(two.end(), narrow_reference.begin(), narrow_reference.end());
                    DeviceWords32 t32(two);
                    forward(t32, n, 2, std::uint32_t(p), std::uint32_t(w));
                    auto both = t32.to_host();
                    CHECK(std::equal(narrow_reference.begin(), narrow_reference.end(), both.begin()));
                }
            }
            tune_fast_options(previous);
        }
    }
}

TEST_CASE("per-pass twiddle tables and twiddle walks give the same transforms as the two-level tables", "[gpu][ntt]")
{
    CAS_REQUIRE_GPU();
    int max_log = multiplier() < 0.5 ? 18 : 22;
    // 31-bit words, lazy 64-bit words, p >= 2^63 (Shoup with the carry-aware form) and the
    // Goldilocks prime with its own products (bit 9), whose walks stay in plain form
    std::vector<std::uint64_t> primes = {ntt_primes(31, 22, 1).at(0), ntt_primes(62, 22, 1).at(0),
                                         ntt_primes(64, 22, 1).at(0), 0xFFFFFFFF00000001ull};
    const unsigned two_level = 0, pair_tables = 1, walks = 4, strided_walks = 8, goldilocks = 512;
    for (std::uint64_t p : primes) {
        for (int log_n = 12; log_n <= max_log; ++log_n) {
            std::size_t n = std::size_t(1) << log_n;
            std::uint64_t w = root_of_unity(p, n);
            auto x = random_vector(n, p);
            bool narrow = p < (std::uint64_t(1) << 31);
            auto transform = [&](unsigned options) {
                unsigned previous = tune_fast_options(options);
                auto wide = forward(x, n, p, w);
                if (narrow) {  // the same words through the 32-bit kernels
                    DeviceWords32 x32(std::vector<std::uint32_t>(x.begin(), x.end()));
                    forward(x32, n, 1, std::uint32_t(p), std::uint32_t(w));
                    auto words = x32.to_host();
                    CHECK(std::vector<std::uint64_t>(words.begin(), words.end()) == wide);
                }
                tune_fast_options(previous);
                return wide;
            };
            auto reference = transform(two_level);
            INFO("p = " << hex(p) << ", n = 2^" << log_n);
            check_definition(x, reference, 0, n, p, w, 3);
            for (unsigned options : {pair_tables, walks, pair_tables | walks, strided_walks, walks | strided_walks,
                                     pair_tables | walks | strided_walks}) {
                INFO("options " << options);
                CHECK(transform(options) == reference);
                CHECK(transform(options | goldilocks) == reference);
            }
            CHECK(transform(goldilocks) == reference);
        }
    }
}

TEST_CASE("three passes of radix up to 2^9 at 2^25 and 2^26 give the four-pass transforms", "[gpu][ntt]")
{
    // tune_fast_options bit 12 (option_long_radix): 2^25 and 2^26 in three passes (strided passes of
    // radix 2^9, 32-bit rows and 64-bit padded tiles, the pair table of 2^18 entries on the
    // second pass), against the four passes of radix <= 2^8 without it; and the fused product
    // (its first pass of radix 2^9 loads the operands and multiplies the spectra) the same way.
    CAS_REQUIRE_GPU();
    const unsigned long_radix = 4096;
    std::vector<std::uint64_t> primes = {ntt_primes(31, 26, 1).at(0), ntt_primes(62, 26, 1).at(0),
                                         ntt_primes(64, 26, 1).at(0), 0xFFFFFFFF00000001ull};
    for (int log_n : {25, 26}) {
        const std::size_t n = std::size_t(1) << log_n;
        for (std::uint64_t p : primes) {
            INFO("p = " << hex(p) << ", n = 2^" << log_n);
            const bool narrow = p < (std::uint64_t(1) << 31);
            const std::uint64_t w = root_of_unity(p, n);
            const auto x = random_vector(n, p);
            auto transform = [&](unsigned options) {
                unsigned previous = tune_fast_options(options);
                std::vector<std::uint64_t> X;
                if (narrow) {  // 32-bit words, as the products take them
                    DeviceWords32 x32(std::vector<std::uint32_t>(x.begin(), x.end()));
                    forward(x32, n, 1, std::uint32_t(p), std::uint32_t(w));
                    auto words = x32.to_host();
                    X.assign(words.begin(), words.end());
                } else {
                    X = forward(x, n, p, w);
                }
                tune_fast_options(previous);
                return X;
            };
            const unsigned defaults = tune_fast_options(0);
            tune_fast_options(defaults);
            REQUIRE((defaults & long_radix) != 0);
            const auto four = transform(defaults & ~long_radix), three = transform(defaults);
            CHECK(three == four);
            check_definition(x, three, 0, n, p, w, 2);
            CHECK(inverse(three, n, p, w) == x);
            if (log_n == 25) {
                const std::size_t half = n / 2;
                const auto a = random_vector(half, p), b = random_vector(half, p);
                std::vector<std::uint64_t> with(n - 1), without(n - 1);
                multiply_mod(a.data(), half, b.data(), half, p, with.data());
                tune_fast_options(defaults & ~long_radix);
                multiply_mod(a.data(), half, b.data(), half, p, without.data());
                tune_fast_options(defaults);
                CHECK(with == without);
            }
        }
    }
}
