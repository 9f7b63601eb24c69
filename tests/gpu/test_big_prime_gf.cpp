// The transform modulo generalized Fermat primes p = r^k + 1 (gpu/big_prime_gf.hpp) against the
// DFT's definition computed with FLINT (lengths 1 to 256) and against the generic big-prime
// transform (gpu/big_prime.hpp, lengths 1 to 2^20), forward and inverse, on random inputs with the
// edge entries 0 and p - 1, all entries p - 1, and in place. Primes: the seed's P3 = (2^63 +
// 2^34)^8 + 1 and P4 = (2^62 + 2^36)^16 + 1 (r above 2^62: no or one leading zero bit), and
// 1099511826096^8 + 1 (321 bits: r of 41 bits, 6 of the 8 words used) and 8589947840^16 + 1 (529
// bits: r of 34 bits), found by searching r^k + 1 for primes with FLINT.
#include "gpu/big_prime.hpp"
#include "gpu/big_prime_gf.hpp"
#include "big_prime_support.hpp"

#include <flint/fmpz.h>
#include <flint/fmpz_mod.h>

#include <memory>
#include <string>
#include <vector>

using namespace cas::gpu;
using namespace cas::gpu::test;

namespace {

// p = r^k + 1 with its FLINT context; `limbs` words hold p (the generic transform's size), k
// words an element for big_prime_transform_gf.
struct Field {
    std::string name;
    std::uint64_t r;
    std::size_t k;
    Integer p;
    fmpz_mod_ctx_t ctx;
    std::size_t limbs;
    std::vector<std::uint64_t> words;

    Field(std::string field_name, std::uint64_t radix, std::size_t digits)
        : name(std::move(field_name)), r(radix), k(digits)
    {
        fmpz_set_ui(p.z, r);
        fmpz_pow_ui(p.z, p.z, k);
        fmpz_add_ui(p.z, p.z, 1);
        fmpz_mod_ctx_init(ctx, p.z);
        limbs = fmpz_size(p.z);
        words.assign(limbs, 0);
        fmpz_get_ui_array(words.data(), static_cast<slong>(limbs), p.z);
    }
    ~Field() { fmpz_mod_ctx_clear(ctx); }
    Field(const Field&) = delete;
    Field& operator=(const Field&) = delete;
};

const std::vector<std::unique_ptr<Field>>& fields()
{
    static const std::vector<std::unique_ptr<Field>> all = [] {
        std::vector<std::unique_ptr<Field>> f;
        f.push_back(std::make_unique<Field>("P3", (std::uint64_t(1) << 63) + (std::uint64_t(1) << 34), 8));
        f.push_back(std::make_unique<Field>("P4", (std::uint64_t(1) << 62) + (std::uint64_t(1) << 36), 16));
        f.push_back(std::make_unique<Field>("1099511826096^8 + 1", 1099511826096ull, 8));
        f.push_back(std::make_unique<Field>("8589947840^16 + 1", 8589947840ull, 16));
        return f;
    }();
    return all;
}

std::vector<std::uint64_t> element_words(const Field& f, const Integer& x)
{
    std::vector<std::uint64_t> w(f.k);
    fmpz_get_ui_array(w.data(), static_cast<slong>(f.k), x.z);
    return w;
}

// X_j = sum_i x_i w^(ij), times 1/n when scaled: the definition, O(n^2) products.
Integers dft(const Field& f, const Integers& x, const Integer& w, bool scaled)
{
    const std::size_t n = x.size();
    Integers powers(n), out(n);
    fmpz_one(powers[0].z);
    for (std::size_t i = 1; i < n; i++) fmpz_mod_mul(powers[i].z, powers[i - 1].z, w.z, f.ctx);
    Integer term, scale;
    fmpz_set_ui(scale.z, n);
    fmpz_mod_inv(scale.z, scale.z, f.ctx);
    for (std::size_t j = 0; j < n; j++) {
        for (std::size_t i = 0; i < n; i++) {
            fmpz_mod_mul(term.z, x[i].z, powers[(i * j) % n].z, f.ctx);
            fmpz_mod_add(out[j].z, out[j].z, term.z, f.ctx);
        }
        if (scaled) fmpz_mod_mul(out[j].z, out[j].z, scale.z, f.ctx);
    }
    return out;
}

// big_prime_transform_gf of x (limb-major, k words an element).
std::vector<std::uint64_t> transform_gf(const Field& f, const std::vector<std::uint64_t>& x, std::size_t n,
                                        const Integer& w, bool inverse)
{
    std::vector<std::uint64_t> out(x.size());
    big_prime_transform_gf(x.data(), out.data(), n, f.r, f.k, element_words(f, w).data(), inverse);
    return out;
}

// big_prime_transform of the same array: its first `limbs` rows are the elements in limbs words.
std::vector<std::uint64_t> transform_generic(const Field& f, const std::vector<std::uint64_t>& x, std::size_t n,
                                             const Integer& w, bool inverse)
{
    std::vector<std::uint64_t> in(x.begin(), x.begin() + f.limbs * n), out(f.k * n, 0);
    std::vector<std::uint64_t> root(f.limbs);
    fmpz_get_ui_array(root.data(), static_cast<slong>(f.limbs), w.z);
    big_prime_transform(in.data(), out.data(), n, f.words.data(), f.limbs, root.data(), inverse);
    return out;
}

bool same(const Integers& a, const Integers& b)
{
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); i++)
        if (!fmpz_equal(a[i].z, b[i].z)) return false;
    return true;
}

}  // namespace

TEST_CASE("big_prime_transform_gf matches the DFT's definition for lengths 1 to 256", "[gpu][big_prime_gf]")
{
    CAS_REQUIRE_GPU();
    for (const auto& field : fields()) {
        const Field& f = *field;
        for (std::size_t n = 1; n <= 256; n *= 2) {
            INFO(f.name << ", n = " << n);
            const Integer w = root_of_unity(f.p.z, n);
            for (bool all_top : {false, true}) {
                const Integers x = random_residues(f.p.z, f.limbs, n, all_top);
                const Integers X = from_words(transform_gf(f, to_words(x, f.k), n, w, false), n, f.k);
                CHECK(same(X, dft(f, x, w, false)));
                Integer w_inverse;
                fmpz_mod_inv(w_inverse.z, w.z, f.ctx);
                const Integers back = from_words(transform_gf(f, to_words(X, f.k), n, w, true), n, f.k);
                CHECK(same(back, dft(f, X, w_inverse, true)));
                CHECK(same(back, x));
            }
        }
    }
}

TEST_CASE("big_prime_transform_gf matches big_prime_transform for lengths 1 to 2^20", "[gpu][big_prime_gf]")
{
    CAS_REQUIRE_GPU();
    const int most_log = multiplier() < 0.5 ? 16 : 20;
    for (const auto& field : fields()) {
        const Field& f = *field;
        for (int log_n = 0; log_n <= most_log; log_n++) {
            const std::size_t n = std::size_t(1) << log_n;
            INFO(f.name << ", n = 2^" << log_n);
            const Integer w = root_of_unity(f.p.z, n);
            const std::vector<std::uint64_t> x = to_words(random_residues(f.p.z, f.limbs, n), f.k);
            const std::vector<std::uint64_t> X = transform_gf(f, x, n, w, false);
            CHECK(X == transform_generic(f, x, n, w, false));
            CHECK(transform_gf(f, X, n, w, true) == x);
            CHECK(transform_gf(f, x, n, w, true) == transform_generic(f, x, n, w, true));
        }
    }
}

TEST_CASE("big_prime_transform_gf in place, on all p - 1 and all 0", "[gpu][big_prime_gf]")
{
    CAS_REQUIRE_GPU();
    for (const auto& field : fields()) {
        const Field& f = *field;
        for (std::size_t n : {std::size_t(16), std::size_t(512), std::size_t(1) << 13}) {
            INFO(f.name << ", n = " << n);
            const Integer w = root_of_unity(f.p.z, n);
            const std::vector<std::uint64_t> top = to_words(random_residues(f.p.z, f.limbs, n, true), f.k);
            const std::vector<std::uint64_t> expected = transform_generic(f, top, n, w, false);
            std::vector<std::uint64_t> data = top;
            big_prime_transform_gf(data.data(), data.data(), n, f.r, f.k, element_words(f, w).data(), false);
            CHECK(data == expected);
            big_prime_transform_gf(data.data(), data.data(), n, f.r, f.k, element_words(f, w).data(), true);
            CHECK(data == top);
            const std::vector<std::uint64_t> zero(f.k * n, 0);
            CHECK(transform_gf(f, zero, n, w, false) == zero);
        }
    }
}

TEST_CASE("big_prime_transform_gf takes k = 8 and 16, even r from 2^32, n dividing r^k", "[gpu][big_prime_gf]")
{
    CAS_REQUIRE_GPU();
    const std::uint64_t r3 = (std::uint64_t(1) << 63) + (std::uint64_t(1) << 34);
    CHECK(generalized_fermat_transform_takes(r3, 8, 1));
    CHECK(generalized_fermat_transform_takes(r3, 8, std::size_t(1) << 26));
    CHECK_FALSE(generalized_fermat_transform_takes(r3, 8, std::size_t(1) << 27));
    CHECK_FALSE(generalized_fermat_transform_takes(r3, 8, 3));
    CHECK_FALSE(generalized_fermat_transform_takes(r3, 4, 16));
    CHECK_FALSE(generalized_fermat_transform_takes(r3 + 1, 8, 16));                   // odd r
    CHECK_FALSE(generalized_fermat_transform_takes(std::uint64_t(1) << 31, 8, 16));  // r below 2^32
    // r = 2 (mod 4): r^8 holds 2^8, so 2^8 is the longest length.
    const std::uint64_t r = (std::uint64_t(1) << 40) + 2;
    CHECK(generalized_fermat_transform_takes(r, 8, 256));
    CHECK_FALSE(generalized_fermat_transform_takes(r, 8, 512));
    CHECK(generalized_fermat_transform_takes(r, 16, std::size_t(1) << 16));
    // A w that is no primitive root of unity is refused.
    const Field& f = *fields().front();
    std::vector<std::uint64_t> x(f.k * 16, 0), one(f.k, 0);
    one[0] = 1;
    CHECK_THROWS_AS(big_prime_transform_gf(x.data(), x.data(), 16, f.r, f.k, one.data(), false), Error);
    CHECK_THROWS_AS(big_prime_transform_gf(x.data(), x.data(), 16, f.r, 4, one.data(), false), Error);
}
