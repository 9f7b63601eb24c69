// Division with remainder and powers modulo a polynomial with every product on the device
// (gpu/division.cu) against FLINT's nmod_poly_divrem and nmod_poly_powmod_fmpz_binexp: NTT primes,
// CRT moduli, p = 2 and 3, composite moduli (leading coefficients prime to them), several lengths
// of the host's first terms of the inverse, the quotient alone.
#include "support.hpp"

#include <flint/fmpz.h>
#include <flint/nmod_poly.h>

#include <numeric>

using namespace cas::gpu;
using namespace cas::gpu::test;

namespace {

// In quick sanitizer runs (CAS_TEST_MULTIPLIER < 1) an NTT prime, a CRT prime and a composite.
std::vector<std::uint64_t> division_moduli()
{
    const std::uint64_t composite = ~std::uint64_t(0);  // 2^64 - 1 = 3 5 17 257 641 65537 6700417
    if (multiplier() < 1) return {ntt_primes(30, 22, 1).at(0), 1000000007, composite};
    return {ntt_primes(30, 22, 1).at(0), ntt_primes(62, 22, 1).at(0), ntt_primes(64, 22, 1).at(0),
            0xFFFFFFFF00000001ull,       2,
            3,                           1000000007,
            (std::uint64_t(1) << 61) - 1, composite,
            std::uint64_t(1) << 40};
}

// n words below p, the last one a unit mod p (the leading coefficient of a divisor).
std::vector<std::uint64_t> random_polynomial(std::size_t n, std::uint64_t p)
{
    std::vector<std::uint64_t> v = random_vector(n, p);
    do v.back() = 1 + rng()() % (p - 1);
    while (std::gcd(v.back(), p) != 1);
    return v;
}

struct FlintPoly {
    nmod_poly_t poly;
    FlintPoly(const std::vector<std::uint64_t>& words, std::uint64_t p)
    {
        nmod_poly_init2(poly, p, words.size());
        for (std::size_t i = 0; i < words.size(); ++i) nmod_poly_set_coeff_ui(poly, i, words[i]);
    }
    explicit FlintPoly(std::uint64_t p) { nmod_poly_init(poly, p); }
    ~FlintPoly() { nmod_poly_clear(poly); }
    // the first n coefficients, zero-padded
    std::vector<std::uint64_t> words(std::size_t n) const
    {
        std::vector<std::uint64_t> w(n, 0);
        for (slong i = 0; i < std::min<slong>(nmod_poly_length(poly), slong(n)); ++i) w[i] = poly->coeffs[i];
        return w;
    }
};

// The first k terms of rev(b)^-1 (FLINT's): what the algebra layer hands divide_mod.
std::vector<std::uint64_t> base_inverse(const std::vector<std::uint64_t>& b, std::size_t k, std::uint64_t p)
{
    FlintPoly h(std::vector<std::uint64_t>(b.rbegin(), b.rend()), p), inverse(p);
    nmod_poly_inv_series(inverse.poly, h.poly, slong(k));
    return inverse.words(k);
}

// The index of the first difference, compared with the length (not the vectors: Catch would print
// them whole).
void require_equal(const std::vector<std::uint64_t>& got, const std::vector<std::uint64_t>& expected)
{
    REQUIRE(got.size() == expected.size());
    const std::size_t first = std::mismatch(got.begin(), got.end(), expected.begin()).first - got.begin();
    CHECK(first == got.size());
}

struct Shape {
    std::size_t na, nb;
};

}  // namespace

TEST_CASE("Newton's division on the device agrees with FLINT's divrem", "[gpu][division]")
{
    CAS_REQUIRE_GPU();
    // {12289, 8193}: Newton steps of 2^k + 1 terms
    const Shape shapes[] = {{2, 2},       {3, 2},        {10, 3},     {100, 100},   {1000, 37},      {700, 600},
                            {5000, 2000}, {20000, 4097}, {70000, 30001}, {12289, 8193}, {10000, 4905}};
    for (std::uint64_t p : division_moduli()) {
        for (const Shape& s : shapes) {
            const std::vector<std::uint64_t> a = random_polynomial(s.na, p), b = random_polynomial(s.nb, p);
            FlintPoly fa(a, p), fb(b, p), fq(p), fr(p);
            nmod_poly_divrem(fq.poly, fr.poly, fa.poly, fb.poly);
            const std::size_t nq = s.na - s.nb + 1;
            for (std::size_t k : {std::size_t(1), std::min<std::size_t>(nq, 7), std::min<std::size_t>(nq, 256), nq}) {
                INFO("p = " << hex(p) << ", lengths " << s.na << " / " << s.nb << ", base " << k);
                const std::vector<std::uint64_t> base = base_inverse(b, k, p);
                std::vector<std::uint64_t> q(nq), r(s.nb - 1);
                divide_mod(a.data(), s.na, b.data(), s.nb, p, base.data(), k, q.data(), r.data());
                require_equal(q, fq.words(nq));
                require_equal(r, fr.words(s.nb - 1));
                std::vector<std::uint64_t> q_alone(nq);
                divide_mod(a.data(), s.na, b.data(), s.nb, p, base.data(), k, q_alone.data(), nullptr);
                require_equal(q_alone, q);
            }
        }
    }
    // long divisions modulo an NTT prime and a CRT modulus (not in quick sanitizer runs); the second
    // has a quotient of 2^18 + 1 terms (split product, Newton steps of 2^k + 1 terms with the
    // transform of the inverse kept, the last term wrapped onto the first)
    if (multiplier() < 1) return;
    const Shape long_shapes[] = {{(std::size_t(1) << 20) + 3, (std::size_t(1) << 19) + 5},
                                 {(std::size_t(1) << 18) + (std::size_t(1) << 17) + 1, (std::size_t(1) << 17) + 1}};
    for (std::uint64_t p : {ntt_primes(62, 22, 1).at(0), std::uint64_t(1000000007)}) {
        for (const Shape& s : long_shapes) {
            const std::size_t na = s.na, nb = s.nb, nq = na - nb + 1;
            const std::vector<std::uint64_t> a = random_polynomial(na, p), b = random_polynomial(nb, p);
            FlintPoly fa(a, p), fb(b, p), fq(p), fr(p);
            nmod_poly_divrem(fq.poly, fr.poly, fa.poly, fb.poly);
            const std::vector<std::uint64_t> base = base_inverse(b, 200, p);
            std::vector<std::uint64_t> q(nq), r(nb - 1);
            divide_mod(a.data(), na, b.data(), nb, p, base.data(), base.size(), q.data(), r.data());
            INFO("p = " << hex(p) << ", lengths " << na << " / " << nb);
            require_equal(q, fq.words(nq));
            require_equal(r, fr.words(nb - 1));
        }
    }
}

TEST_CASE("a repeated multi-modular division finds its twiddle tables cached", "[gpu][division]")
{
    CAS_REQUIRE_GPU();
    // Modulo 2^61 - 1 through CRT primes: tables for 5 primes, both directions and every length
    // of the Newton steps, more than the 64 sets the cache once held before it dropped them all.
    const std::uint64_t p = (std::uint64_t(1) << 61) - 1;
    const std::size_t na = std::size_t(1) << 15, nb = na / 2, nq = na - nb + 1;
    const std::vector<std::uint64_t> a = random_polynomial(na, p), b = random_polynomial(nb, p);
    const std::vector<std::uint64_t> base = base_inverse(b, 16, p);
    FlintPoly fa(a, p), fb(b, p), fq(p), fr(p);
    nmod_poly_divrem(fq.poly, fr.poly, fa.poly, fb.poly);
    clear_twiddle_cache();
    std::size_t built = 0;
    for (int round = 0; round < 2; ++round) {
        INFO("round " << round);
        std::vector<std::uint64_t> q(nq), r(nb - 1);
        divide_mod(a.data(), na, b.data(), nb, p, base.data(), base.size(), q.data(), r.data());
        require_equal(q, fq.words(nq));
        require_equal(r, fr.words(nb - 1));
        if (round == 0) built = twiddle_tables_built();
    }
    CHECK(twiddle_tables_built() == built);
}

TEST_CASE("powers modulo a polynomial on the device agree with FLINT's powmod", "[gpu][division]")
{
    CAS_REQUIRE_GPU();
    for (std::uint64_t p : division_moduli()) {
        for (std::size_t nm : {std::size_t(3), std::size_t(4), std::size_t(300), std::size_t(5000)}) {
            const std::vector<std::uint64_t> m = random_polynomial(nm, p);
            const std::vector<std::uint64_t> base = base_inverse(m, std::min<std::size_t>(nm - 2, 100), p);
            for (std::size_t nf : {std::size_t(1), std::size_t(2), nm - 1}) {
                std::vector<std::uint64_t> f = random_polynomial(nf, p);
                if (nf == 2) f = {0, 1};  // x
                std::vector<std::vector<std::uint64_t>> exponents = {{1}, {2}, {p}};
                if (nm < 5000) exponents.push_back({rng()(), rng()() | 1});  // 128 bits: FLINT's time
                for (const auto& e : exponents) {
                    INFO("p = " << hex(p) << ", len m " << nm << ", len f " << nf << ", e words " << e.size()
                                << ", e[0] = " << e[0]);
                    fmpz_t exponent;
                    fmpz_init(exponent);
                    fmpz_set_ui_array(exponent, e.data(), slong(e.size()));
                    FlintPoly ff(f, p), fm(m, p), expected(p);
                    nmod_poly_powmod_fmpz_binexp(expected.poly, ff.poly, exponent, fm.poly);
                    fmpz_clear(exponent);
                    std::vector<std::uint64_t> out(nm - 1);
                    power_modulo(f.data(), nf, e.data(), e.size(), m.data(), nm, p, base.data(), base.size(),
                                 out.data());
                    require_equal(out, expected.words(nm - 1));
                }
            }
        }
    }
    // m of 2^18 + 3 terms: quotients of 2^18 + 1 terms (split products), f^3 (a square and a
    // product by the kept f); not in quick sanitizer runs
    if (multiplier() < 1) return;
    for (std::uint64_t p : {ntt_primes(62, 22, 1).at(0), std::uint64_t(1000000007)}) {
        const std::size_t nm = (std::size_t(1) << 18) + 3;
        const std::vector<std::uint64_t> m = random_polynomial(nm, p), f = random_polynomial(nm - 1, p);
        const std::vector<std::uint64_t> base = base_inverse(m, 100, p), e = {3};
        fmpz_t exponent;
        fmpz_init_set_ui(exponent, 3);
        FlintPoly ff(f, p), fm(m, p), expected(p);
        nmod_poly_powmod_fmpz_binexp(expected.poly, ff.poly, exponent, fm.poly);
        fmpz_clear(exponent);
        std::vector<std::uint64_t> out(nm - 1);
        power_modulo(f.data(), f.size(), e.data(), 1, m.data(), nm, p, base.data(), base.size(), out.data());
        INFO("p = " << hex(p) << ", len m " << nm << ", f^3");
        require_equal(out, expected.words(nm - 1));
    }
}

// The products of a division are cyclic products with kept spectra and squares (division.cu):
// through the fused passes by default, here through the unfused steps (the product fusion off,
// and the Stockham and radix-2 kernels), on an NTT prime, a CRT modulus and p = 2.
TEST_CASE("divisions and powers modulo m agree with FLINT without the fused passes", "[gpu][division]")
{
    CAS_REQUIRE_GPU();
    const unsigned defaults = tune_fast_options(0);
    tune_fast_options(defaults & ~2u);  // bit 1: products fused into the passes
    struct Restore {
        unsigned options;
        ~Restore() { tune_fast_options(options); }
    } restore{defaults};
    const Shape shapes[] = {{3, 2},       {1000, 37},   {20000, 4097},
                            {9000, 8193}, {12289, 8193}, {(std::size_t(1) << 18) + 50001, 50001}};
    for (std::uint64_t p : {ntt_primes(62, 22, 1).at(0), std::uint64_t(1000000007), std::uint64_t(2)}) {
        for (Algorithm algorithm : {Algorithm::fast, Algorithm::stockham, Algorithm::radix2}) {
            for (const Shape& s : shapes) {
                INFO("p = " << hex(p) << ", lengths " << s.na << " / " << s.nb << ", " << to_string(algorithm));
                const std::vector<std::uint64_t> a = random_polynomial(s.na, p), b = random_polynomial(s.nb, p);
                FlintPoly fa(a, p), fb(b, p), fq(p), fr(p);
                nmod_poly_divrem(fq.poly, fr.poly, fa.poly, fb.poly);
                const std::size_t nq = s.na - s.nb + 1;
                const std::vector<std::uint64_t> base = base_inverse(b, 1, p);
                std::vector<std::uint64_t> q(nq), r(s.nb - 1);
                divide_mod(a.data(), s.na, b.data(), s.nb, p, base.data(), 1, q.data(), r.data(), algorithm);
                require_equal(q, fq.words(nq));
                require_equal(r, fr.words(s.nb - 1));
            }
            const std::size_t nm = 3000;
            const std::vector<std::uint64_t> m = random_polynomial(nm, p), f = random_polynomial(nm - 1, p);
            const std::vector<std::uint64_t> base = base_inverse(m, 10, p), e = {p + 1000};
            fmpz_t exponent;
            fmpz_init_set_ui(exponent, e[0]);
            FlintPoly ff(f, p), fm(m, p), expected(p);
            nmod_poly_powmod_fmpz_binexp(expected.poly, ff.poly, exponent, fm.poly);
            fmpz_clear(exponent);
            std::vector<std::uint64_t> out(nm - 1);
            power_modulo(f.data(), f.size(), e.data(), 1, m.data(), nm, p, base.data(), base.size(), out.data(),
                         algorithm);
            INFO("p = " << hex(p) << ", powmod, " << to_string(algorithm));
            require_equal(out, expected.words(nm - 1));
        }
    }
}

TEST_CASE("division arguments are checked", "[gpu][division]")
{
    CAS_REQUIRE_GPU();
    const std::uint64_t p = 998244353, words[4] = {1, 2, 3, 1}, base[1] = {1};
    std::uint64_t q[4], r[4];
    CHECK_THROWS_AS(divide_mod(words, 2, words, 3, p, base, 1, q, r), Error);   // na < nb
    CHECK_THROWS_AS(divide_mod(words, 4, words, 1, p, base, 1, q, r), Error);   // nb < 2
    CHECK_THROWS_AS(divide_mod(words, 4, words, 2, p, base, 0, q, r), Error);   // no base
    CHECK_THROWS_AS(divide_mod(words, 4, words, 3, p, base, 3, q, r), Error);   // base longer than q
    const std::uint64_t e[1] = {0};
    CHECK_THROWS_AS(power_modulo(words, 1, e, 1, words, 4, p, base, 1, q), Error);  // e = 0
    CHECK_THROWS_AS(power_modulo(words, 4, words, 1, words, 4, p, base, 1, q), Error);  // f not reduced
}
