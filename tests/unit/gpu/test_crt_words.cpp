// The word-level arithmetic of the multi-modular layer (gpu/crt_words.hpp), which the CPU path
// runs and the GPU kernels run, against FLINT on fresh random inputs: residues of multi-limb
// integers against fmpz_fdiv_ui, and Garner's reconstruction (digits, limbs, symmetric
// representative) against the integer the residues came from. Numbers are stored both ways the
// code reads them: one number contiguous (stride 1, the host) and n numbers limb-major (stride n,
// the GPU's coalesced layout).
#include "flint_support.hpp"
#include "interpreter_support.hpp"

#include "gpu/crt_words.hpp"
#include "gpu/ntt.hpp"

#include <catch2/catch.hpp>
#include <flint/fmpz.h>
#include <flint/ulong_extras.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

using cas::Fmpz;
using cas::crt::Word;
using cas::test::FreshRandom;

// |x| in exactly `width` limbs (width must hold it).
std::vector<Word> magnitude_limbs(const fmpz_t x, size_t width) {
  std::vector<Word> limbs(width, 0);
  Fmpz magnitude;
  fmpz_abs(magnitude.get(), x);
  if (!fmpz_is_zero(magnitude.get())) {
    REQUIRE(fmpz_size(magnitude.get()) <= static_cast<slong>(width));
    fmpz_get_ui_array(limbs.data(), static_cast<slong>(width), magnitude.get());
  }
  return limbs;
}

bool same(const Fmpz& a, const Fmpz& b) { return fmpz_equal(a.get(), b.get()); }

std::string text(const Fmpz& x) {
  char* s = fmpz_get_str(nullptr, 10, x.get());
  std::string out(s);
  flint_free(s);
  return out;
}

Fmpz from_limbs(const Word* limbs, size_t stride, size_t width, bool negative) {
  std::vector<Word> contiguous(width);
  for (size_t l = 0; l < width; l++) contiguous[l] = limbs[l * stride];
  Fmpz x;
  fmpz_set_ui_array(x.get(), contiguous.data(), static_cast<slong>(width));
  if (negative) fmpz_neg(x.get(), x.get());
  return x;
}

// Signed integers of 1 to max_bits bits, with zero and all-ones magnitudes among them.
std::vector<Fmpz> random_integers(FreshRandom& r, size_t count, ulong max_bits) {
  std::vector<Fmpz> xs(count);
  for (size_t i = 0; i < count; i++) {
    if (i % 17 == 0) continue;  // zero
    const ulong bits = n_randint(r.state(), max_bits) + 1;
    if (i % 13 == 1) {
      fmpz_one(xs[i].get());
      fmpz_mul_2exp(xs[i].get(), xs[i].get(), bits);
      fmpz_sub_ui(xs[i].get(), xs[i].get(), 1);
      if (i % 2) fmpz_neg(xs[i].get(), xs[i].get());
    } else {
      fmpz_randtest(xs[i].get(), r.state(), static_cast<slong>(bits));
    }
  }
  return xs;
}

// Primes of every kind the layer meets: the 62-bit transform primes, random primes up to 63 bits,
// tiny ones, and a Mersenne prime (2^64 mod p = 2).
std::vector<Word> test_primes(FreshRandom& r) {
  std::vector<Word> primes = cas::gpu::ntt_primes(62, 20, 3);
  for (Word p : {Word{2}, Word{3}, Word{17}, (Word{1} << 61) - 1, Word{4294967291}}) primes.push_back(p);
  for (int bits : {32, 50, 63, 63}) primes.push_back(n_randprime(r.state(), bits, 1));
  return primes;
}

// Independent tables from FLINT: p_i^-1 mod p_j by n_invmod, M and M / 2 by fmpz.
struct OracleTables {
  Fmpz modulus, half;
};

OracleTables oracle_tables(const std::vector<Word>& primes) {
  OracleTables t;
  fmpz_one(t.modulus.get());
  for (Word p : primes) fmpz_mul_ui(t.modulus.get(), t.modulus.get(), p);
  fmpz_fdiv_q_2exp(t.half.get(), t.modulus.get(), 1);
  return t;
}

// Values in the symmetric range (-M/2, M/2]: random ones, 0, +-1 and both extremes, floor(M/2)
// and -floor((M-1)/2).
std::vector<Fmpz> symmetric_values(FreshRandom& r, const OracleTables& t, size_t random_count) {
  Fmpz lowest;
  fmpz_sub_ui(lowest.get(), t.modulus.get(), 1);
  fmpz_fdiv_q_2exp(lowest.get(), lowest.get(), 1);
  fmpz_neg(lowest.get(), lowest.get());
  std::vector<Fmpz> xs(random_count);
  for (Fmpz& x : xs) {
    fmpz_randm(x.get(), r.state(), t.modulus.get());
    fmpz_add(x.get(), x.get(), lowest.get());
  }
  xs.emplace_back();
  xs.emplace_back(1);
  if (fmpz_cmp_ui(t.modulus.get(), 2) > 0) xs.emplace_back(-1);  // -1 = 1 mod 2
  xs.emplace_back(t.half.get());
  xs.push_back(lowest);
  return xs;
}

void check_reconstruction(FreshRandom& r, const std::vector<Word>& primes) {
  const cas::crt::GarnerTables tables(primes);
  const OracleTables oracle = oracle_tables(primes);
  const size_t k = primes.size(), width = tables.width();
  INFO(k << " primes, M of " << fmpz_bits(oracle.modulus.get()) << " bits");
  REQUIRE(fmpz_size(oracle.modulus.get()) == static_cast<slong>(width));
  CHECK(same(from_limbs(tables.modulus.data(), 1, width, false), oracle.modulus));
  CHECK(same(from_limbs(tables.half.data(), 1, width, false), oracle.half));
  for (size_t j = 0; j < k; j++)
    for (size_t i = 0; i < j; i++) CHECK(tables.inverse[j * k + i] == n_invmod(primes[i] % primes[j], primes[j]));

  const std::vector<Fmpz> xs = symmetric_values(r, oracle, 60);
  const size_t n = xs.size();
  // Limb-major, as on the GPU: residue j of x_i at [j n + i], limb l of the result at [l n + i].
  std::vector<Word> values(k * n), limbs(width * n);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < k; j++) values[j * n + i] = fmpz_fdiv_ui(xs[i].get(), primes[j]);
  for (size_t i = 0; i < n; i++) {
    INFO("x = " << text(xs[i]));
    cas::crt::mixed_radix_digits(values.data() + i, n, k, tables.primes.data(), tables.inverse.data(),
                                 tables.inverse_shoup.data());
    for (size_t j = 0; j < k; j++) CHECK(values[j * n + i] < primes[j]);
    cas::crt::digits_to_limbs(limbs.data() + i, n, width, values.data() + i, n, k, tables.primes.data());
    const bool negative =
        cas::crt::make_symmetric(limbs.data() + i, n, width, tables.modulus.data(), tables.half.data());
    CHECK(same(from_limbs(limbs.data() + i, n, width, negative), xs[i]));
  }
}

// The dot-product tables of the GPU's warp-a-coefficient reconstruction (crt::PrefixTables) against
// FLINT's integers, and the reconstruction they describe: digits v_j = (x_j - sum_{i<j} v_i
// prefix[j k + i]) inverse[j] mod p_j, then x = sum_j v_j P_j with P_j from the radix rows.
void check_prefix_tables(FreshRandom& r, const std::vector<Word>& primes) {
  const cas::crt::PrefixTables t(primes);
  const OracleTables oracle = oracle_tables(primes);
  const size_t k = primes.size(), width = t.width();
  INFO(k << " primes");
  CHECK(same(from_limbs(t.modulus.data(), 1, width, false), oracle.modulus));
  CHECK(same(from_limbs(t.half.data(), 1, width, false), oracle.half));
  Fmpz radix(1);
  for (size_t j = 0; j < k; j++) {
    CHECK(same(from_limbs(t.radix.data() + j * width, 1, width, false), radix));
    const Word p = primes[j];
    CHECK(n_mulmod2_preinv(t.inverse[j], fmpz_fdiv_ui(radix.get(), p), p, n_preinvert_limb(p)) == 1 % p);
    Fmpz partial(1);
    for (size_t i = 0; i < j; i++) {
      CHECK(t.prefix[j * k + i] == fmpz_fdiv_ui(partial.get(), p));
      fmpz_mul_ui(partial.get(), partial.get(), primes[i]);
    }
    fmpz_mul_ui(radix.get(), radix.get(), p);
  }
  for (const Fmpz& x : symmetric_values(r, oracle, 20)) {
    INFO("x = " << text(x));
    std::vector<Word> digits(k);
    Fmpz sum;
    for (size_t j = 0; j < k; j++) {
      const Word p = primes[j];
      Word dot = 0;
      for (size_t i = 0; i < j; i++)
        dot = cas::crt::add_mod(
            dot, cas::crt::mul_shoup(digits[i], t.prefix[j * k + i], t.prefix_shoup[j * k + i], p), p);
      digits[j] = cas::crt::mul_shoup(cas::crt::sub_mod(fmpz_fdiv_ui(x.get(), p), dot, p), t.inverse[j],
                                      t.inverse_shoup[j], p);
      Fmpz term = from_limbs(t.radix.data() + j * width, 1, width, false);
      fmpz_mul_ui(term.get(), term.get(), digits[j]);
      fmpz_add(sum.get(), sum.get(), term.get());
    }
    Fmpz expected;
    fmpz_mod(expected.get(), x.get(), oracle.modulus.get());
    CHECK(same(sum, expected));
  }
}

}  // namespace

TEST_CASE("crt words: the dot-product tables reconstruct the residue", "[crt]") {
  FreshRandom r;
  INFO("seed " << r.seed);
  for (size_t k : {1, 2, 3, 33, 130}) check_prefix_tables(r, cas::gpu::ntt_primes(62, 20, k));
  check_prefix_tables(r, {3, n_randprime(r.state(), 63, 1), 5, (Word{1} << 61) - 1});
  check_prefix_tables(r, {2, 3});
}

TEST_CASE("crt words: residues of multi-limb integers equal fmpz_fdiv_ui", "[crt]") {
  FreshRandom r;
  INFO("seed " << r.seed);
  const std::vector<Fmpz> xs = random_integers(r, static_cast<size_t>(cas::test::trials(200)), 10000);
  const size_t n = xs.size(), width = 10000 / 64 + 1;
  std::vector<Word> matrix(width * n);  // limb-major: limb l of x_i at [l n + i]
  for (size_t i = 0; i < n; i++) {
    const std::vector<Word> limbs = magnitude_limbs(xs[i].get(), width);
    for (size_t l = 0; l < width; l++) matrix[l * n + i] = limbs[l];
  }
  for (Word p : test_primes(r)) {
    INFO("p = " << p);
    const cas::crt::ReductionPrime q = cas::crt::reduction_prime(p);
    for (size_t i = 0; i < n; i++) {
      INFO("x = " << text(xs[i]));
      const bool negative = fmpz_sgn(xs[i].get()) < 0;
      const Word expected = fmpz_fdiv_ui(xs[i].get(), p);
      const std::vector<Word> limbs = magnitude_limbs(xs[i].get(), fmpz_size(xs[i].get()) + 1);
      CHECK(cas::crt::residue_of_limbs(limbs.data(), limbs.size(), 1, negative, q) == expected);
      CHECK(cas::crt::residue_of_limbs(matrix.data() + i, width, n, negative, q) == expected);
    }
  }
}

TEST_CASE("crt words: Garner's digits and limbs reconstruct the symmetric residue", "[crt]") {
  FreshRandom r;
  INFO("seed " << r.seed);
  for (size_t k : {1, 2, 3, 13, 14, 33, 120}) check_reconstruction(r, cas::gpu::ntt_primes(62, 20, k));
  // Unordered primes of mixed sizes: digits of a larger prime reduced modulo a smaller one.
  std::vector<Word> mixed = {3, n_randprime(r.state(), 63, 1), 5, (Word{1} << 61) - 1};
  do mixed.push_back(n_randprime(r.state(), 40, 1));
  while (mixed.back() == 3 || mixed.back() == 5);
  check_reconstruction(r, mixed);
  check_reconstruction(r, {2});
  check_reconstruction(r, {2, 3});
}

TEST_CASE("crt words: chunks of an integer reassemble it", "[crt]") {
  FreshRandom r;
  INFO("seed " << r.seed);
  for (unsigned b : {1u, 7u, 63u, 64u, 65u, 91u, 128u}) {
    Fmpz x;
    fmpz_randtest_unsigned(x.get(), r.state(), static_cast<slong>(n_randint(r.state(), 5000) + 1));
    const std::vector<Word> limbs = magnitude_limbs(x.get(), std::max<size_t>(1, fmpz_size(x.get())));
    const size_t chunks = (fmpz_bits(x.get()) + b - 1) / b + 2;  // two beyond the top: zero
    Fmpz sum, term;
    for (size_t i = 0; i < chunks; i++) {
      Word chunk[2];
      cas::crt::chunk_at(limbs.data(), limbs.size(), i, b, chunk);
      fmpz_set_uiui(term.get(), chunk[1], chunk[0]);
      CHECK(fmpz_bits(term.get()) <= b);
      fmpz_mul_2exp(term.get(), term.get(), b * i);
      fmpz_add(sum.get(), sum.get(), term.get());
    }
    INFO(b << "-bit chunks of " << text(x));
    CHECK(same(sum, x));
  }
}

TEST_CASE("crt words: packed words sum to the value at 2^b", "[crt]") {
  FreshRandom r;
  INFO("seed " << r.seed);
  for (unsigned b : {64u, 70u, 91u, 100u}) {
    const size_t count = n_randint(r.state(), 40) + 1, width = (3 * b + 63) / 64;
    std::vector<Word> c(width * count);  // limb-major, entries below 2^(3b), many at the top
    Fmpz expected, term;
    for (size_t i = 0; i < count; i++) {
      fmpz_randtest_unsigned(term.get(), r.state(), 3 * b);
      if (i % 3 == 0) {  // 2^(3b) - 1: every bit of the term set
        fmpz_one(term.get());
        fmpz_mul_2exp(term.get(), term.get(), 3 * b);
        fmpz_sub_ui(term.get(), term.get(), 1);
      }
      const std::vector<Word> limbs = magnitude_limbs(term.get(), width);
      for (size_t l = 0; l < width; l++) c[l * count + i] = limbs[l];
      fmpz_mul_2exp(term.get(), term.get(), b * i);
      fmpz_add(expected.get(), expected.get(), term.get());
    }
    const size_t words = b * (count + 2) / 64 + 2;
    Fmpz sum;
    for (unsigned part = 0; part < 3; part++) {
      std::vector<Word> packed(words);
      for (size_t w = 0; w < words; w++) packed[w] = cas::crt::packed_word(w, part, c.data(), count, width, b);
      fmpz_set_ui_array(term.get(), packed.data(), static_cast<slong>(words));
      fmpz_add(sum.get(), sum.get(), term.get());
    }
    INFO(count << " terms of up to " << 3 * b << " bits at 2^" << b);
    CHECK(same(sum, expected));
    // The same word by word: sums and 2-bit carries, added back with the carries one word up.
    std::vector<Word> sums(words), carry_bits(cas::crt::summed_groups(words));
    for (size_t g = 0; g < carry_bits.size(); g++)
      cas::crt::summed_words_entry(g, c.data(), count, width, b, words, sums.data(), carry_bits.data());
    Fmpz by_words;
    for (size_t w = 0; w < words; w++) {
      fmpz_set_ui(term.get(), sums[w]);
      fmpz_mul_2exp(term.get(), term.get(), 64 * w);
      fmpz_add(by_words.get(), by_words.get(), term.get());
      fmpz_set_ui(term.get(), cas::crt::carry_out_of(carry_bits.data(), w));
      fmpz_mul_2exp(term.get(), term.get(), 64 * (w + 1));
      fmpz_add(by_words.get(), by_words.get(), term.get());
    }
    CHECK(same(by_words, expected));
  }
}

// fold_entry for every size of p, up to the 64-bit primes whose residue sums wrap past 2^64 (the
// GPU's first convolve_mod run found that case): against nmod arithmetic, random residues and the
// largest ones.
TEST_CASE("crt words: folds modulo x^n -+ 1 for any word p", "[crt]") {
  flint_rand_t state;
  flint_randinit(state);
  for (ulong p : {ulong{2}, ulong{998244353}, (ulong{1} << 62) - 57, ulong{0xffffffffff000001}, ~ulong{0}}) {
    nmod_t mod;
    nmod_init(&mod, p);
    const size_t n = 37, length = 2 * n - 1;
    std::vector<ulong> c(length), out(n);
    for (size_t k = 0; k < length; k++) c[k] = k % 5 == 0 ? p - 1 : n_randint(state, p);
    for (bool negacyclic : {false, true}) {
      for (size_t i = 0; i < n; i++) cas::crt::fold_entry(i, c.data(), length, n, negacyclic, p, out.data());
      for (size_t i = 0; i < n; i++) {
        const ulong high = i + n < length ? c[i + n] : 0;
        INFO("p = " << p << ", i = " << i << (negacyclic ? ", negacyclic" : ", cyclic"));
        CHECK(out[i] == (negacyclic ? nmod_sub(c[i], high, mod) : nmod_add(c[i], high, mod)));
      }
    }
  }
  flint_randclear(state);
}
