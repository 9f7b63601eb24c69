// Products and powers in Z/nZ[x] through the CPU's transforms (algebra/fourier/ntt_product_cpu.cpp) against
// FLINT's nmod_poly_mul and nmod_poly_pow: for moduli that take one transform, that need two or
// three CRT primes, composite ones and 64-bit ones, at lengths around the powers of two, past the
// length from which the transforms use threads.
#include "algebra/fourier/ntt_product_cpu.hpp"
#include "both_butterflies.hpp"

#include <catch2/catch.hpp>
#include <flint/nmod_poly.h>
#include <flint/ulong_extras.h>

#include <algorithm>
#include <vector>

namespace {

// n uniform words below m, every seventh the largest (m - 1).
std::vector<ulong> random_words(size_t n, ulong m, flint_rand_t state) {
  std::vector<ulong> a(n);
  for (size_t i = 0; i < n; i++) a[i] = i % 7 == 3 ? m - 1 : n_randint(state, m);
  return a;
}

// FLINT's product, as na + nb - 1 words (zero-padded above its normalised length).
std::vector<ulong> flint_product(const std::vector<ulong>& a, const std::vector<ulong>& b, const nmod_t& mod) {
  std::vector<ulong> r(a.size() + b.size() - 1);
  if (a.size() >= b.size())
    _nmod_poly_mul(r.data(), a.data(), static_cast<slong>(a.size()), b.data(), static_cast<slong>(b.size()), mod);
  else
    _nmod_poly_mul(r.data(), b.data(), static_cast<slong>(b.size()), a.data(), static_cast<slong>(a.size()), mod);
  return r;
}

// c mod (x^n - 1), or with negacyclic mod (x^n + 1), as n words.
std::vector<ulong> folded(const std::vector<ulong>& c, size_t n, bool negacyclic, const nmod_t& mod) {
  std::vector<ulong> r(n);
  for (size_t k = 0; k < c.size(); k++)
    r[k % n] = negacyclic && k >= n ? nmod_sub(r[k % n], c[k], mod) : nmod_add(r[k % n], c[k], mod);
  return r;
}

size_t first_difference(const std::vector<ulong>& x, const std::vector<ulong>& y) {
  return static_cast<size_t>(std::mismatch(x.begin(), x.end(), y.begin()).first - x.begin());
}

}  // namespace

TEST_CASE("CPU transform products equal FLINT's for every kind of word modulus", "[ntt_cpu][product]") {
  flint_rand_t state;
  flint_randinit(state);
  const ulong moduli[] = {2,
                          3,
                          17,
                          65537,                    // 2^16 | p - 1: one transform to 2^16
                          45119,                    // p = 3 mod 4: CRT at every length
                          998244353,                // 2^23 | p - 1
                          1000000000,               // composite
                          (ulong{1} << 62) - 57,    // largest 62-bit prime
                          4611686018326724609ull,   // 62-bit NTT prime
                          9223372036854775783ull,   // largest 63-bit prime
                          18446744069414584321ull,  // 2^64 - 2^32 + 1: one transform, nmod arithmetic
                          18446744073709551557ull,  // largest 64-bit prime: three CRT primes
                          ~ulong{0}};               // 2^64 - 1, composite
  const size_t lengths[][2] = {{1, 1},   {1, 9},     {2, 2},       {3, 5},      {64, 65},
                               {100, 1}, {1000, 37}, {2048, 2049}, {4097, 4096}};
  with_both_butterflies([&] {
    for (ulong m : moduli) {
      nmod_t mod;
      nmod_init(&mod, m);
      for (const auto& l : lengths) {
        const std::vector<ulong> a = random_words(l[0], m, state), b = random_words(l[1], m, state);
        std::vector<ulong> r(l[0] + l[1] - 1);
        cas::multiply_words_cpu_ntt(a.data(), a.size(), b.data(), b.size(), mod, r.data());
        INFO("m = " << m << ", lengths " << l[0] << " x " << l[1] << ", primes "
                    << cas::cpu_product_primes(l[0], l[1], m).size());
        CHECK(first_difference(r, flint_product(a, b, mod)) == r.size());
        std::vector<ulong> square(2 * l[0] - 1);
        cas::multiply_words_cpu_ntt(a.data(), a.size(), a.data(), a.size(), mod, square.data());
        CHECK(first_difference(square, flint_product(a, a, mod)) == square.size());
      }
    }
  });
  flint_randclear(state);
}

TEST_CASE("CPU transform products on several threads, one transform and CRT", "[ntt_cpu][product]") {
  flint_rand_t state;
  flint_randinit(state);
  // 2^18 + 1 coefficients: transforms of 2^19 words, past the 2^18 from which they use threads.
  with_both_butterflies([&] {
    for (ulong m : {ulong{998244353}, ulong{1000000007}, ulong{18446744073709551557ull}}) {
      nmod_t mod;
      nmod_init(&mod, m);
      const std::vector<ulong> a = random_words((size_t{1} << 18) + 1, m, state),
                               b = random_words(size_t{1} << 17, m, state);
      std::vector<ulong> r(a.size() + b.size() - 1);
      cas::multiply_words_cpu_ntt(a.data(), a.size(), b.data(), b.size(), mod, r.data());
      INFO("m = " << m);
      CHECK(first_difference(r, flint_product(a, b, mod)) == r.size());
    }
  });
  flint_randclear(state);
}

TEST_CASE("CPU transform plans: one transform only where the modulus has the roots", "[ntt_cpu][product]") {
  CHECK(cas::cpu_product_primes(1 << 15, (1 << 15) + 1, 65537) == std::vector<ulong>{65537});
  // 2^16 + 1 coefficients: one 62-bit prime holds their 2^15 65536^2 < 2^47
  const std::vector<ulong> longer = cas::cpu_product_primes(1 << 15, (1 << 15) + 2, 65537);
  CHECK((longer.size() == 1 && longer[0] > (ulong{1} << 61)));
  CHECK(cas::cpu_product_primes(10, 10, 1000000000).size() == 2);       // composite: 4 + 60 bits
  CHECK(cas::cpu_product_primes(1 << 10, 1 << 10, 65521).size() == 1);  // 10 + 32 bits
  CHECK(cas::cpu_product_primes(10, 10, 18446744073709551557ull).size() == 3);
  for (ulong q : cas::cpu_product_primes(1 << 20, 1 << 20, 18446744073709551557ull))
    CHECK((q - 1) % (ulong{1} << 21) == 0);
}

TEST_CASE("CPU powers in one transform equal FLINT's", "[ntt_cpu][product]") {
  flint_rand_t state;
  flint_randinit(state);
  for (ulong p :
       {ulong{17}, ulong{65537}, ulong{998244353}, ulong{4611686018326724609ull}, ulong{18446744069414584321ull}}) {
    nmod_t mod;
    nmod_init(&mod, p);
    for (size_t na : {1, 2, 7, 300})
      for (ulong e : {1, 2, 3, 16, 37}) {
        if (!cas::cpu_power_in_one_transform(na, e, p)) continue;
        const std::vector<ulong> a = random_words(na, p, state);
        const size_t length = (na - 1) * e + 1;
        std::vector<ulong> r(length), expected(length);
        cas::power_words_cpu_ntt(a.data(), na, e, mod, r.data());
        nmod_poly_t f, g;
        nmod_poly_init(f, p);
        nmod_poly_init(g, p);
        for (size_t i = 0; i < na; i++) nmod_poly_set_coeff_ui(f, static_cast<slong>(i), a[i]);
        nmod_poly_pow(g, f, e);
        for (size_t i = 0; i < length; i++) expected[i] = nmod_poly_get_coeff_ui(g, static_cast<slong>(i));
        nmod_poly_clear(f);
        nmod_poly_clear(g);
        INFO("p = " << p << ", length " << na << ", e = " << e);
        CHECK(first_difference(r, expected) == length);
      }
  }
  CHECK_FALSE(cas::cpu_power_in_one_transform(300, 37, 17));        // 11064 coefficients, 2^4 | 16
  CHECK(cas::cpu_power_in_one_transform(2, 15, 17));                // 16 coefficients
  CHECK_FALSE(cas::cpu_power_in_one_transform(2, 15, 1000000000));  // not prime
  flint_randclear(state);
}

// The cyclic and negacyclic convolutions modulo a prime with the roots of unity for them, against
// FLINT's product folded modulo x^n -+ 1: operands shorter than n (zero-padded), n from 1 to past
// the 2^16 from which the passes use threads, primes of 17, 30, 62 and 64 bits.
TEST_CASE("CPU convolutions modulo a prime equal FLINT's product folded", "[ntt_cpu][convolve]") {
  flint_rand_t state;
  flint_randinit(state);
  with_both_butterflies([&] {
    for (ulong q : {ulong{65537}, ulong{998244353}, ulong{4611686018326724609ull}, ulong{18446744069414584321ull}})
      for (size_t n : {size_t{1}, size_t{2}, size_t{8}, size_t{1024}, size_t{1} << 17}) {
        if ((q - 1) % (2 * n) != 0) continue;
        nmod_t mod;
        nmod_init(&mod, q);
        const size_t na = n > 8 ? n - 3 : n, nb = n > 8 ? n / 2 + 1 : n;
        const std::vector<ulong> a = random_words(na, q, state), b = random_words(nb, q, state);
        for (bool negacyclic : {false, true}) {
          INFO("q = " << q << ", n = " << n << (negacyclic ? ", negacyclic" : ", cyclic"));
          std::vector<ulong> r(n);
          cas::convolve_words_mod_prime(a.data(), na, b.data(), nb, n, negacyclic, q, r.data());
          CHECK(first_difference(r, folded(flint_product(a, b, mod), n, negacyclic, mod)) == n);
          cas::convolve_words_mod_prime(a.data(), na, a.data(), na, n, negacyclic, q, r.data());  // a square
          CHECK(first_difference(r, folded(flint_product(a, a, mod), n, negacyclic, mod)) == n);
        }
      }
  });
  flint_randclear(state);
}

// The same for every kind of word modulus, through one transform modulo p or CRT primes: operands
// shorter than n, and all entries p - 1, whose negacyclic convolution over Z reaches
// -(n - 1)(p - 1)^2 (at k = 0), below zero, where the shift by min(na, nb) p^2 must lift it.
TEST_CASE("CPU convolutions equal FLINT's product folded for every kind of word modulus", "[ntt_cpu][convolve]") {
  flint_rand_t state;
  flint_randinit(state);
  const ulong moduli[] = {2, 3, 17, 65537, 45119, 998244353, 1000000000, (ulong{1} << 62) - 57,
                          9223372036854775783ull, 18446744069414584321ull, 18446744073709551557ull, ~ulong{0}};
  for (ulong m : moduli) {
    nmod_t mod;
    nmod_init(&mod, m);
    for (size_t n : {size_t{1}, size_t{4}, size_t{64}, size_t{4096}})
      for (bool largest : {false, true}) {
        const size_t na = n > 4 ? n - 5 : n, nb = n;
        std::vector<ulong> a = random_words(na, m, state), b = random_words(nb, m, state);
        if (largest) {
          std::fill(a.begin(), a.end(), m - 1);
          std::fill(b.begin(), b.end(), m - 1);
        }
        for (bool negacyclic : {false, true}) {
          INFO("m = " << m << ", n = " << n << (negacyclic ? ", negacyclic" : ", cyclic")
                      << (largest ? ", all m - 1" : "")
                      << ", primes " << cas::cpu_convolution_primes(na, nb, n, negacyclic, m).size());
          std::vector<ulong> r(n);
          cas::convolve_words_cpu_ntt(a.data(), na, b.data(), nb, n, negacyclic, mod, r.data());
          CHECK(first_difference(r, folded(flint_product(a, b, mod), n, negacyclic, mod)) == n);
        }
      }
  }
  // One transform only where p has the roots of order n, or 2n for the negacyclic one.
  CHECK(cas::cpu_convolution_primes(1 << 16, 1 << 16, 1 << 16, false, 65537) == std::vector<ulong>{65537});
  // negacyclic: 2^17 does not divide 65536; 16 + 2 x 17 + 1 bits fit one 62-bit prime with 2^17 | q - 1
  const std::vector<ulong> nega = cas::cpu_convolution_primes(1 << 16, 1 << 16, 1 << 16, true, 65537);
  CHECK((nega.size() == 1 && nega[0] > (ulong{1} << 61) && (nega[0] - 1) % (ulong{1} << 17) == 0));
  flint_randclear(state);
}


// The negacyclic weights x_i r^i, in ranges on the cores (each from its own power of r), against
// one serial walk of the powers: Shoup's steps below 2^63, nmod's above.
TEST_CASE("CPU weights by powers equal a serial walk of the powers", "[ntt_cpu][convolve]") {
  flint_rand_t state;
  flint_randinit(state);
  for (ulong q : {ulong{998244353}, ulong{4611686018326724609ull}, ulong{18446744069414584321ull}}) {
    nmod_t mod;
    nmod_init(&mod, q);
    const size_t count = (size_t{1} << 17) + 3;
    const ulong r = 2 + n_randint(state, q - 2);
    std::vector<ulong> x = random_words(count, q, state), expected(count);
    ulong power = 1;
    for (size_t i = 0; i < count; i++) {
      expected[i] = nmod_mul(x[i], power, mod);
      power = nmod_mul(power, r, mod);
    }
    cas::weight_by_powers(x.data(), count, r, mod);
    INFO("q = " << q << ", r = " << r);
    CHECK(first_difference(x, expected) == count);
  }
  flint_randclear(state);
}
