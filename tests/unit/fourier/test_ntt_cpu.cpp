// The CPU's transform of words (algebra/fourier/ntt_cpu.cpp), both its decimations, against the textbook
// iterative radix-2 transform with FLINT's nmod arithmetic, at every length up to 2^19: past the sub-transform size
// that runs in the cache (2^12) and the length from which it uses several threads (2^18), for
// primes of each arithmetic it picks (narrow lazy butterflies below 2^30, lazy ones below 2^62,
// Shoup products below 2^63, nmod above). Below 2^62 the butterflies run on AVX-512 vectors where
// the machine has them (ntt_cpu_lanes.hpp), and scalar elsewhere: both ways are tested here.
#include "algebra/fourier/ntt_cpu.hpp"
#include "both_butterflies.hpp"
#include "gpu/ntt.hpp"

#include <catch2/catch.hpp>
#include <flint/ulong_extras.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace {

std::vector<ulong> textbook_ntt(std::vector<ulong> a, ulong w, const nmod_t& mod) {
  const size_t n = a.size();
  for (size_t i = 1, j = 0; i < n; i++) {
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  for (size_t half = 1; half < n; half <<= 1) {
    const ulong step = nmod_pow_ui(w, n / (2 * half), mod);
    for (size_t block = 0; block < n; block += 2 * half) {
      ulong twiddle = 1;
      for (size_t j = 0; j < half; j++, twiddle = nmod_mul(twiddle, step, mod)) {
        const ulong top = a[block + j], v = nmod_mul(a[block + j + half], twiddle, mod);
        a[block + j] = nmod_add(top, v, mod);
        a[block + j + half] = nmod_sub(top, v, mod);
      }
    }
  }
  return a;
}

// A root of unity of order exactly n modulo the prime p (2-adic order of p - 1 at least log2 n).
ulong root_of_order(ulong p, size_t n) {
  const ulong g = n_primitive_root_prime(p);
  return n_powmod2(g, (p - 1) / n, p);
}

}  // namespace

TEST_CASE("the CPU transform of words equals the textbook transform at every length to 2^19", "[fourier][ntt_cpu]") {
  flint_rand_t state;
  flint_randinit(state);
  std::vector<ulong> primes = {17, 7681, 998244353, 18446744069414584321ull};
  // narrow (30: just below its bound 2^30); lazy (62: just below 2^62); Shoup; nmod
  for (int bits : {30, 31, 61, 62, 63, 64}) primes.push_back(cas::gpu::ntt_primes(bits, 20, 1).at(0));
  with_both_butterflies([&] {
    for (ulong p : primes) {
      nmod_t mod;
      nmod_init(&mod, p);
      const int longest = std::min<int>(19, __builtin_ctzll(p - 1));
      for (int k = 0; k <= longest; k++) {
        const size_t n = size_t{1} << k;
        const ulong w = root_of_order(p, n);
        std::vector<ulong> a(n);
        for (size_t i = 0; i < n; i++) a[i] = i % 7 == 3 ? p - 1 : n_randint(state, p);  // the largest value too
        const std::vector<ulong> expected = textbook_ntt(a, w, mod);
        std::vector<ulong> dif = a;
        cas::ntt_words_cpu(a.data(), n, w, mod);
        INFO("p = " << p << ", n = 2^" << k);
        const size_t first_difference = std::mismatch(a.begin(), a.end(), expected.begin()).first - a.begin();
        CHECK(first_difference == n);  // (not a == expected: Catch would print 2^19 entries)
        // Decimation in frequency leaves the same values in bit-reversed order; the inverse in time
        // at w^-1 brings back n times the input.
        const cas::CpuTransform forward(n, w, mod), inverse(n, n_invmod(w, p), mod);
        const std::vector<ulong> input = dif;
        forward.natural_to_bit_reversed(dif.data());
        std::vector<ulong> in_order = dif;
        cas::bit_reverse_range(in_order.data(), n, 0, n);
        CHECK(std::mismatch(in_order.begin(), in_order.end(), expected.begin()).first - in_order.begin() == n);
        inverse.bit_reversed_to_natural(dif.data());
        const ulong n_mod_p = n % p;
        size_t round_trip = 0;
        while (round_trip < n && dif[round_trip] == nmod_mul(input[round_trip], n_mod_p, mod)) round_trip++;
        CHECK(round_trip == n);
      }
    }
  });
  flint_randclear(state);
}
