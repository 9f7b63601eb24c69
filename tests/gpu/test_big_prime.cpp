// The big-prime kernels (gpu/big_prime.hpp) against FLINT's fmpz_mod arithmetic, on fresh random
// inputs with the edge entries 0 and p - 1: the transform forward and inverse (the DFT by its
// definition for short lengths, a radix-2 transform on the host's cores for long ones), and the
// convolution cyclic, negacyclic, as a product with na != nb and with fewer outputs than its length
// (fmpz_mod_poly_mul folded for short lengths, three host transforms for long ones). Primes: P3 =
// (2^63 + 2^34)^8 + 1 and P4 = (2^62 + 2^36)^16 + 1 of the seed, (2^63 + 53) 2^64 + 1 (2 words),
// q 2^40 + 1 (3 words) and q 2^32 + 1 (5 words) for large odd q; lengths 1, 2, 4, ... up to 2^20
// modulo P3, 2^16 modulo the others, fewer repetitions for the longer ones.
#include "gpu/big_prime.hpp"
#include "gpu/big_prime_gf.hpp"
#include "big_prime_support.hpp"

#include <flint/fmpz.h>
#include <flint/fmpz_mod.h>
#include <flint/fmpz_mod_poly.h>

#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace cas::gpu;
using namespace cas::gpu::test;

namespace {

// A prime p with its FLINT context and its words.
struct Field {
    std::string name;
    Integer p;
    fmpz_mod_ctx_t ctx;
    std::size_t limbs = 0;
    std::vector<std::uint64_t> words;
    int most_log_length = 16;
    std::uint64_t shift_radix = 0;  // r of p = r^limbs + 1, for the convolutions by digit shifts

    Field(std::string field_name, const Integer& prime, int longest) : name(std::move(field_name)), p(prime)
    {
        fmpz_mod_ctx_init(ctx, p.z);
        limbs = fmpz_size(p.z);
        words.assign(limbs, 0);
        fmpz_get_ui_array(words.data(), static_cast<slong>(limbs), p.z);
        most_log_length = longest;
    }
    ~Field() { fmpz_mod_ctx_clear(ctx); }
    Field(const Field&) = delete;
    Field& operator=(const Field&) = delete;
};

Integer from_decimal(const char* digits)
{
    Integer x;
    fmpz_set_str(x.z, digits, 10);
    return x;
}

// (2^a + 2^b)^k + 1.
Integer generalized_fermat(ulong a, ulong b, ulong k)
{
    Integer r, term;
    fmpz_one(r.z);
    fmpz_mul_2exp(r.z, r.z, a);
    fmpz_one(term.z);
    fmpz_mul_2exp(term.z, term.z, b);
    fmpz_add(r.z, r.z, term.z);
    fmpz_pow_ui(r.z, r.z, k);
    fmpz_add_ui(r.z, r.z, 1);
    return r;
}

const std::vector<std::unique_ptr<Field>>& fields()
{
    static const std::vector<std::unique_ptr<Field>> all = [] {
        std::vector<std::unique_ptr<Field>> f;
        f.push_back(std::make_unique<Field>("P3", generalized_fermat(63, 34, 8), 20));
        f.back()->shift_radix = (std::uint64_t(1) << 63) + (std::uint64_t(1) << 34);
        f.push_back(std::make_unique<Field>("P4", generalized_fermat(62, 36, 16), 16));
        f.back()->shift_radix = (std::uint64_t(1) << 62) + (std::uint64_t(1) << 36);
        f.push_back(std::make_unique<Field>("(2^63 + 53) 2^64 + 1",
                                            from_decimal("170141183460469232709364739622490341377"), 16));
        f.push_back(std::make_unique<Field>(
            "q 2^40 + 1 (3 words)", from_decimal("1045195254955431189684233010339143616308390551848491155457"), 16));
        f.push_back(std::make_unique<Field>(
            "q 2^32 + 1 (5 words)",
            from_decimal("6329210555880184941319421096438948754550926002715342084070999100243117507555308294102843393"),
            16));
        return f;
    }();
    return all;
}

std::vector<std::uint64_t> element_words(const Integer& x, std::size_t limbs)
{
    std::vector<std::uint64_t> out(limbs);
    fmpz_get_ui_array(out.data(), static_cast<slong>(limbs), x.z);
    return out;
}

Integer inverse(const Field& f, const Integer& x)
{
    Integer r;
    fmpz_invmod(r.z, x.z, f.p.z);
    return r;
}

// f(begin, end) on ranges of [0, count) side by side on the host's cores.
template <class F>
void on_cores(std::size_t count, F&& f)
{
    const std::size_t threads = std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()),
                                                      std::max<std::size_t>(1, count / 4096));
    if (threads <= 1) {
        f(std::size_t{0}, count);
        return;
    }
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < threads; t++)
        pool.emplace_back([&, t] { f(count * t / threads, count * (t + 1) / threads); });
    for (auto& thread : pool) thread.join();
}

// X_k = sum_j x_j w^(jk), by its definition.
Integers dft_by_definition(const Field& f, const Integers& x, const Integer& w)
{
    const std::size_t n = x.size();
    Integers out(n);
    Integer wk, power, term;
    fmpz_one(wk.z);
    for (std::size_t k = 0; k < n; k++) {
        fmpz_one(power.z);
        for (std::size_t j = 0; j < n; j++) {
            fmpz_mod_mul(term.z, x[j].z, power.z, f.ctx);
            fmpz_mod_add(out[k].z, out[k].z, term.z, f.ctx);
            fmpz_mod_mul(power.z, power.z, wk.z, f.ctx);
        }
        fmpz_mod_mul(wk.z, wk.z, w.z, f.ctx);
    }
    return out;
}

// The same by the iterative radix-2 transform (bit reversal, then log2 n stages), each stage's
// butterflies on the host's cores.
Integers dft_radix2(const Field& f, Integers a, const Integer& w)
{
    const std::size_t n = a.size();
    for (std::size_t i = 1, j = 0; i < n; i++) {
        std::size_t bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j |= bit;
        if (i < j) fmpz_swap(a[i].z, a[j].z);
    }
    Integers powers(std::max<std::size_t>(n / 2, 1));
    fmpz_one(powers[0].z);
    for (std::size_t k = 1; k < n / 2; k++) fmpz_mod_mul(powers[k].z, powers[k - 1].z, w.z, f.ctx);
    for (std::size_t length = 2; length <= n; length <<= 1) {
        const std::size_t half = length / 2, stride = n / length;
        on_cores(n / 2, [&](std::size_t begin, std::size_t end) {
            Integer u, v;
            for (std::size_t b = begin; b < end; b++) {
                const std::size_t i = (b / half) * length, j = b % half;
                fmpz_set(u.z, a[i + j].z);
                fmpz_mod_mul(v.z, a[i + j + half].z, powers[j * stride].z, f.ctx);
                fmpz_mod_add(a[i + j].z, u.z, v.z, f.ctx);
                fmpz_mod_sub(a[i + j + half].z, u.z, v.z, f.ctx);
            }
        });
    }
    return a;
}

// The DFT at w, or with inverse at w^-1 times 1/n: what big_prime_transform computes.
Integers host_transform(const Field& f, const Integers& x, const Integer& w, bool inverse)
{
    const std::size_t n = x.size();
    const Integer root = inverse ? ::inverse(f, w) : w;
    Integers out = n <= 64 ? dft_by_definition(f, x, root) : dft_radix2(f, x, root);
    if (inverse) {
        Integer n_inverse;
        fmpz_set_ui(n_inverse.z, n);
        n_inverse = ::inverse(f, n_inverse);
        on_cores(n, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; i++) fmpz_mod_mul(out[i].z, out[i].z, n_inverse.z, f.ctx);
        });
    }
    return out;
}

// x_i times psi^i (psi^-i with invert), for the negacyclic convolution.
void weigh(const Field& f, Integers& x, const Integer& psi)
{
    Integer power;
    fmpz_one(power.z);
    for (auto& e : x) {
        fmpz_mod_mul(e.z, e.z, power.z, f.ctx);
        fmpz_mod_mul(power.z, power.z, psi.z, f.ctx);
    }
}

// a b folded modulo x^n - 1 (x^n + 1 with negacyclic), c[0, out_count): fmpz_mod_poly_mul up to
// length flint_up_to, three host transforms of length n beyond.
Integers host_convolution(const Field& f, const Integers& a, const Integers& b, std::size_t n, bool negacyclic,
                          std::size_t out_count, std::size_t flint_up_to = 4096)
{
    Integers c(n);
    if (n <= flint_up_to) {
        fmpz_mod_poly_t pa, pb, product;
        fmpz_mod_poly_init(pa, f.ctx);
        fmpz_mod_poly_init(pb, f.ctx);
        fmpz_mod_poly_init(product, f.ctx);
        for (std::size_t i = 0; i < a.size(); i++) fmpz_mod_poly_set_coeff_fmpz(pa, i, a[i].z, f.ctx);
        for (std::size_t i = 0; i < b.size(); i++) fmpz_mod_poly_set_coeff_fmpz(pb, i, b[i].z, f.ctx);
        fmpz_mod_poly_mul(product, pa, pb, f.ctx);
        Integer coefficient;
        for (slong k = 0; k < fmpz_mod_poly_length(product, f.ctx); k++) {
            fmpz_mod_poly_get_coeff_fmpz(coefficient.z, product, k, f.ctx);
            Integer& slot = c[static_cast<std::size_t>(k) % n];
            if (negacyclic && static_cast<std::size_t>(k) >= n)
                fmpz_mod_sub(slot.z, slot.z, coefficient.z, f.ctx);
            else
                fmpz_mod_add(slot.z, slot.z, coefficient.z, f.ctx);
        }
        fmpz_mod_poly_clear(pa, f.ctx);
        fmpz_mod_poly_clear(pb, f.ctx);
        fmpz_mod_poly_clear(product, f.ctx);
    } else {
        Integers x = a, y = b;
        x.resize(n);
        y.resize(n);
        const Integer psi = root_of_unity(f.p.z, 2 * n);
        Integer w;
        fmpz_mod_mul(w.z, psi.z, psi.z, f.ctx);
        const Integer root = negacyclic ? w : root_of_unity(f.p.z, n);
        if (negacyclic) {
            weigh(f, x, psi);
            weigh(f, y, psi);
        }
        x = host_transform(f, x, root, false);
        y = host_transform(f, y, root, false);
        on_cores(n, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; i++) fmpz_mod_mul(x[i].z, x[i].z, y[i].z, f.ctx);
        });
        c = host_transform(f, x, root, true);
        if (negacyclic) weigh(f, c, inverse(f, psi));
    }
    c.resize(out_count);
    return c;
}

// The first index where the two differ, or -1.
long first_difference(const Integers& a, const Integers& b)
{
    if (a.size() != b.size()) return 0;
    for (std::size_t i = 0; i < a.size(); i++)
        if (!fmpz_equal(a[i].z, b[i].z)) return static_cast<long>(i);
    return -1;
}

std::string decimal(const Integer& x)
{
    char* text = fmpz_get_str(nullptr, 10, x.z);
    std::string s(text);
    flint_free(text);
    return s;
}

// CHECKs that the GPU's values equal the host's, naming the first entry that differs.
void check_equal(const Integers& gpu, const Integers& host)
{
    const long i = first_difference(gpu, host);
    std::string difference;
    if (i >= 0 && gpu.size() == host.size())
        difference = "entry " + std::to_string(i) + ": GPU " + decimal(gpu[i]) + ", host " + decimal(host[i]);
    INFO(difference);
    CHECK(i == -1);
}

// Repetitions at length 2^log_n: more for short lengths.
int repetitions(int log_n) { return trials(log_n <= 10 ? 3 : log_n <= 16 ? 2 : 1); }

Integers gpu_transform(const Field& f, const Integers& x, const Integer& w, bool inverse, bool in_place)
{
    const std::size_t n = x.size();
    std::vector<std::uint64_t> in = to_words(x, f.limbs), out(in.size(), 0xdeadbeefdeadbeefull);
    const std::vector<std::uint64_t> root = element_words(w, f.limbs);
    std::uint64_t* target = in_place ? in.data() : out.data();
    big_prime_transform(in.data(), target, n, f.words.data(), f.limbs, root.data(), inverse);
    return from_words(in_place ? in : out, n, f.limbs);
}

Integers gpu_convolution(const Field& f, const Integers& a, const Integers& b, std::size_t n, bool negacyclic,
                         std::size_t out_count)
{
    const std::vector<std::uint64_t> x = to_words(a, f.limbs), y = to_words(b, f.limbs);
    const Integer psi = root_of_unity(f.p.z, 2 * n);
    Integer w;
    fmpz_mod_mul(w.z, psi.z, psi.z, f.ctx);
    const std::vector<std::uint64_t> root = element_words(w, f.limbs), weight = element_words(psi, f.limbs);
    std::vector<std::uint64_t> c(f.limbs * out_count, 0xdeadbeefdeadbeefull);
    // Modulo P3 and P4 the transforms by digit shifts at every other length, the Montgomery passes at the others.
    const bool shifts = f.shift_radix && generalized_fermat_transform_takes(f.shift_radix, f.limbs, n) &&
                        __builtin_ctzll(n) % 2 == 0;
    big_prime_convolve(x.data(), a.size(), y.data(), b.size(), n, f.words.data(), f.limbs, root.data(),
                       negacyclic ? weight.data() : nullptr, c.data(), out_count, shifts ? f.shift_radix : 0);
    return from_words(c, out_count, f.limbs);
}

}  // namespace

// The host's oracles for long lengths against those for short ones, with or without a device.
TEST_CASE("big-prime oracles: the radix-2 transform and the transforms' convolution agree with FLINT", "[big_prime]")
{
    for (const auto& field : fields()) {
        const Field& f = *field;
        for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{32}, std::size_t{128}}) {
            INFO(f.name << ", n = " << n);
            const Integers x = random_residues(f.p.z, f.limbs, n);
            const Integer w = root_of_unity(f.p.z, n);
            check_equal(dft_radix2(f, x, w), dft_by_definition(f, x, w));
            check_equal(host_transform(f, host_transform(f, x, w, false), w, true), x);
            for (bool negacyclic : {false, true}) {
                const Integers a = random_residues(f.p.z, f.limbs, n), b = random_residues(f.p.z, f.limbs, n / 2 + 1);
                check_equal(host_convolution(f, a, b, n, negacyclic, n, 0),
                            host_convolution(f, a, b, n, negacyclic, n));
            }
        }
    }
}

TEST_CASE("big-prime transform: forward and inverse against FLINT", "[gpu][big_prime]")
{
    CAS_REQUIRE_GPU();
    for (const auto& field : fields()) {
        const Field& f = *field;
        for (int log_n = 0; log_n <= f.most_log_length; log_n++) {
            const std::size_t n = std::size_t{1} << log_n;
            const Integer w = root_of_unity(f.p.z, n);
            for (int trial = 0; trial < repetitions(log_n); trial++) {
                INFO(f.name << ", n = 2^" << log_n << ", trial " << trial << ", w = " << decimal(w));
                const Integers x = random_residues(f.p.z, f.limbs, n, trial == 1);
                const Integers forward = gpu_transform(f, x, w, false, trial == 0);
                check_equal(forward, host_transform(f, x, w, false));
                check_equal(gpu_transform(f, forward, w, true, trial != 0), x);  // the inverse undoes it
                if (log_n <= 12) check_equal(gpu_transform(f, x, w, true, false), host_transform(f, x, w, true));
            }
        }
    }
}

TEST_CASE("big-prime convolve: cyclic and negacyclic of length n against FLINT", "[gpu][big_prime]")
{
    CAS_REQUIRE_GPU();
    for (const auto& field : fields()) {
        const Field& f = *field;
        for (int log_n = 1; log_n <= f.most_log_length; log_n++) {
            const std::size_t n = std::size_t{1} << log_n;
            for (int trial = 0; trial < repetitions(log_n); trial++)
                for (bool negacyclic : {false, true}) {
                    INFO(f.name << ", n = 2^" << log_n << ", trial " << trial
                                << (negacyclic ? ", negacyclic" : ", cyclic"));
                    const Integers a = random_residues(f.p.z, f.limbs, n, trial == 1);
                    const Integers b = random_residues(f.p.z, f.limbs, n);
                    check_equal(gpu_convolution(f, a, b, n, negacyclic, n),
                                host_convolution(f, a, b, n, negacyclic, n));
                }
        }
    }
}

// Products: na + nb - 1 <= n outputs of the cyclic convolution, the rest zero padding; shorter
// outputs than n of a convolution that wraps; unequal and one-term operands.
TEST_CASE("big-prime convolve: products with na != nb, and fewer outputs than n", "[gpu][big_prime]")
{
    CAS_REQUIRE_GPU();
    for (const auto& field : fields()) {
        const Field& f = *field;
        for (int trial = 0; trial < trials(40); trial++) {
            const int log_n = 1 + static_cast<int>(rng()() % std::min(f.most_log_length, 14));
            const std::size_t n = std::size_t{1} << log_n;
            const std::size_t na = 1 + rng()() % n, nb = 1 + rng()() % (n - na + 1);  // na + nb - 1 <= n
            const bool negacyclic = trial % 3 == 2;
            const bool wraps = trial % 4 == 3;  // operands of up to n terms, fewer outputs than n
            const std::size_t length_a = wraps ? n : na, length_b = wraps ? 1 + rng()() % n : nb;
            const std::size_t out_count = wraps ? 1 + rng()() % n : length_a + length_b - 1;
            INFO(f.name << ", n = " << n << ", na = " << length_a << ", nb = " << length_b << ", out_count = "
                        << out_count << (negacyclic ? ", negacyclic" : ", cyclic"));
            const Integers a = random_residues(f.p.z, f.limbs, length_a);
            const Integers b = random_residues(f.p.z, f.limbs, length_b, trial % 5 == 4);
            check_equal(gpu_convolution(f, a, b, n, negacyclic, out_count),
                        host_convolution(f, a, b, n, negacyclic, out_count));
        }
    }
}
