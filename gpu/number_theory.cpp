// Host-side number theory for the GPU engine: primality, roots of unity, the choice of
// transform primes. Plain C++ (unsigned __int128), compiled with or without CUDA.
#include "gpu/ntt.hpp"
#include "gpu/power_of_two.hpp"

#include <cmath>
#include <map>
#include <mutex>

namespace cas::gpu {

std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b, std::uint64_t p)
{
    return static_cast<std::uint64_t>(static_cast<unsigned __int128>(a) * b % p);
}

std::uint64_t pow_mod(std::uint64_t a, std::uint64_t e, std::uint64_t p)
{
    std::uint64_t result = 1 % p;
    a %= p;
    for (; e != 0; e >>= 1) {
        if (e & 1) result = mul_mod(result, a, p);
        a = mul_mod(a, a, p);
    }
    return result;
}

// Miller-Rabin with the seven bases of Jim Sinclair, deterministic for all n < 2^64.
bool is_prime(std::uint64_t n)
{
    if (n < 2) return false;
    for (std::uint64_t q : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37}) {
        if (n % q == 0) return n == q;
    }
    std::uint64_t d = n - 1;
    int s = 0;
    while ((d & 1) == 0) { d >>= 1; ++s; }
    for (std::uint64_t base : {2ull, 325ull, 9375ull, 28178ull, 450775ull, 9780504ull, 1795265022ull}) {
        std::uint64_t a = base % n;
        if (a == 0) continue;
        std::uint64_t x = pow_mod(a, d, n);
        if (x == 1 || x == n - 1) continue;
        bool composite = true;
        for (int i = 1; i < s && composite; ++i) {
            x = mul_mod(x, x, n);
            if (x == n - 1) composite = false;
        }
        if (composite) return false;
    }
    return true;
}

// c = g^((p-1)/n) has order dividing n; it has order exactly n iff c^(n/2) != 1.
std::uint64_t root_of_unity(std::uint64_t p, std::size_t n)
{
    if (n == 0 || (n & (n - 1)) != 0 || p < 2 || (p - 1) % n != 0) return 0;
    if (n == 1) return 1 % p;
    for (std::uint64_t g = 2; g < p && g < 100000; ++g) {
        std::uint64_t c = pow_mod(g, (p - 1) / n, p);
        if (pow_mod(c, n / 2, p) != 1) return c;
    }
    return 0;
}

std::vector<std::uint64_t> ntt_primes(int bits, int log2_length, std::size_t count)
{
    static std::mutex lock;
    static std::map<std::pair<int, int>, std::vector<std::uint64_t>> cache;
    std::lock_guard<std::mutex> guard(lock);
    auto& found = cache[{bits, log2_length}];
    if (found.size() < count) {
        std::uint64_t step = std::uint64_t(1) << log2_length;
        std::uint64_t limit = bits >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
        std::uint64_t c = found.empty() ? (limit - 1) / step : (found.back() - 1) / step - 1;
        for (; c >= 1 && found.size() < count; --c) {
            std::uint64_t q = c * step + 1;
            if (is_prime(q)) found.push_back(q);
        }
    }
    return {found.begin(), found.begin() + std::min(count, found.size())};
}

// The primes for a transform of plan.transform_length words: p itself when it allows one,
// else CRT primes for coefficients up to min(na, nb) (p-1)^2 (a cyclic product's coefficients
// are sums of at most min(na, nb) products too).
static ProductPlan plan_transform(std::size_t na, std::size_t nb, std::size_t transform_length, std::uint64_t p)
{
    ProductPlan plan;
    plan.transform_length = transform_length;
    int log2n = 0;
    while ((std::size_t(1) << log2n) < plan.transform_length) ++log2n;
    if (p > 2 && (p - 1) % plan.transform_length == 0 && is_prime(p)) {
        plan.single_prime = true;
        plan.primes = {p};
        return plan;
    }
    // The primes' product must exceed the bound; one bit of margin covers the rounding of the
    // logarithms.
    double bound_bits = std::log2(double(std::min(na, nb))) + 2 * std::log2(double(p - 1) + 1) + 1;
    // 31-bit primes first: Shoup products on 32-bit words run 4.4x the rate of 64-bit ones
    // (docs/measurements.md, "The card's ceilings: copy, PCIe, modular products, cuFFT").
    for (int bits : {31, 62}) {
        auto candidates = ntt_primes(bits, log2n, 8);
        double have = 0;
        plan.primes.clear();
        for (auto q : candidates) {
            plan.primes.push_back(q);
            have += std::log2(double(q));
            if (have > bound_bits) return plan;
        }
    }
    throw Error("no set of NTT primes for a transform of length " + std::to_string(transform_length));
}

ProductPlan plan_product(std::size_t na, std::size_t nb, std::uint64_t p)
{
    if (na == 0 || nb == 0) return {};
    return plan_transform(na, nb, detail::next_power_of_two(na + nb - 1), p);
}

ProductPlan plan_cyclic_product(std::size_t na, std::size_t nb, std::size_t n, std::uint64_t p)
{
    if (na == 0 || nb == 0) return {};
    if (n == 0 || (n & (n - 1)) != 0 || na > n || nb > n)
        throw Error("plan_cyclic_product: needs n a power of two and operands of at most n words");
    return plan_transform(na, nb, n, p);
}

bool convolves_by_cyclic_product(std::size_t na, std::size_t nb, std::size_t n, bool negacyclic)
{
    return !negacyclic && n != 0 && (n & (n - 1)) == 0 && na != 0 && nb != 0 && na + nb - 1 > n;
}

const char* to_string(Algorithm a)
{
    switch (a) {
    case Algorithm::radix2: return "radix2";
    case Algorithm::stockham: return "stockham";
    case Algorithm::fast: return "fast";
    }
    return "?";
}

}  // namespace cas::gpu
