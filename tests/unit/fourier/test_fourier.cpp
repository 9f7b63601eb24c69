// The Fourier transforms of algebra/fourier/fourier.hpp (fft, ifft, convolve) against
// FLINT called directly, in FLINT's t-*.c style: the DFT by its definition in
// fmpz_mod arithmetic, the cyclic and negacyclic products by fmpz_mod_poly_mul
// folded by hand; random NTT primes below and above 2^64, random lengths, the
// trial count scaled by CAS_TEST_MULTIPLIER. Then the builtins vector, len,
// concat, fft, ifft, convolve, negaconvolve through the interpreter.
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/support/error.hpp"
#include "algebra/fourier/fourier.hpp"
#include "flint_support.hpp"
#include "gpu/ntt.hpp"
#include "interpreter_support.hpp"

#include <flint/fmpz_mod_poly.h>
#include <flint/fmpz_poly.h>
#include <flint/nmod.h>
#include <flint/ulong_extras.h>

#include <string>
#include <vector>

using cas::Fmpz;
using cas::Kind;
using cas::ModulusPtr;
using cas::Value;
using cas::test::ModeGuard;
using cas::test::domain_error;
using cas::test::Random;
using cas::test::random_residues;
using cas::test::residues_of;
using cas::test::to_value;
using cas::test::equal;
using cas::test::show_residues;
using cas::test::Session;
using cas::test::show;
using cas::test::dft_by_definition;
using cas::test::convolution_by_flint;
using cas::test::trials;

namespace {

// A prime p = c * 2^log_order + 1 of about `bits` bits, so that Z/pZ has
// primitive roots of unity of every order 2^k, k <= log_order.
Fmpz random_ntt_prime(Random& r, ulong bits, ulong log_order) {
  return cas::test::random_prime_for_order(r, bits - log_order, ulong{1} << log_order);
}

// A random primitive n-th root of unity (n a power of two dividing p - 1):
// a^((p-1)/n) has order exactly n unless its (n/2)-th power is 1.
Value random_root(Random& r, const ModulusPtr& m, ulong n) {
  Fmpz e, a, w, half;
  fmpz_sub_ui(e.get(), m->value(), 1);
  fmpz_divexact_ui(e.get(), e.get(), n);
  do {
    fmpz_randm(a.get(), r.state, m->value());
    fmpz_powm(w.get(), a.get(), e.get(), m->value());
    fmpz_powm_ui(half.get(), w.get(), n / 2, m->value());
  } while (fmpz_is_zero(w.get()) || (n > 1 && fmpz_is_one(half.get())));
  return Value::mod(w.get(), m);
}

// The vector of these residues held packed (as fft and coeffs make them); m word-size.
Value packed(const std::vector<Fmpz>& residues, const ModulusPtr& m) {
  cas::Words words;
  for (const Fmpz& x : residues) words.push_back(fmpz_get_ui(x.get()));
  return Value::residue_words(m, std::move(words));
}

// The same residues as integers, each moved by a random multiple of p (of either sign).
Value as_integers(Random& r, const std::vector<Fmpz>& residues, const ModulusPtr& m) {
  std::vector<Value> items;
  for (const Fmpz& x : residues) {
    Fmpz shifted;
    fmpz_set_si(shifted.get(), static_cast<slong>(n_randint(r.state, 7)) - 3);
    fmpz_mul(shifted.get(), shifted.get(), m->value());
    fmpz_add(shifted.get(), shifted.get(), x.get());
    items.push_back(Value::integer(shifted.get()));
  }
  return Value::vec(std::move(items));
}

// What :timer names for a transform of length n over an NTT prime.
// The engine of a transform of length n mod p: the crossover of p's class (dispatch.hpp).
const char* expected_engine(ulong n, ulong p) {
  return cas::use_gpu(cas::for_modulus(cas::GpuOperation::Transform, p), n) ? "gpu ntt" : "cpu ntt";
}

// X_k = v(w^k) by Horner, for k = 0, 1, n - 1 and a few random k (the whole definition is
// O(n^2)); m word-size.
void check_sampled_entries(Random& r, const std::vector<Fmpz>& v, const cas::Words& X, const Value& w,
                           const ModulusPtr& m) {
  const nmod_t mod = m->nmod();
  const ulong n = v.size(), root = fmpz_get_ui(w.as_int());
  for (ulong k : {ulong{0}, ulong{1}, n - 1, n_randint(r.state, n), n_randint(r.state, n)}) {
    const ulong x = nmod_pow_ui(root, k, mod);
    ulong value = 0;
    for (size_t j = n; j-- > 0;) value = nmod_add(nmod_mul(value, x, mod), fmpz_get_ui(v[j].get()), mod);
    INFO("k = " << k);
    CHECK(X[k] == value);
  }
}

}  // namespace

// ---- the algebra layer against FLINT ----------------------------------------------------

TEST_CASE("fft agrees with the DFT by its definition, and ifft inverts it", "[fourier][fft]") {
  // auto keeps these lengths on the CPU; on sends every length from 2 to the GPU where there is one
  const cas::GpuMode mode = GENERATE(cas::GpuMode::Auto, cas::GpuMode::On);
  ModeGuard guard(mode);
  Random r;
  for (int trial = 0; trial < trials(60); trial++) {
    const ulong log_n = n_randint(r.state, 8);  // n = 1 .. 128
    const ulong n = 1ul << log_n;
    // word-size primes (Shoup butterflies below 2^63, nmod above) and multi-word (fmpz_mod) ones
    const ulong bits = trial % 2 ? 20 + n_randint(r.state, 45) : 70 + n_randint(r.state, 130);
    const Fmpz p = random_ntt_prime(r, bits, log_n + n_randint(r.state, 3));
    const ModulusPtr m = cas::make_modulus(p.get());
    const Value w = random_root(r, m, n);
    const std::vector<Fmpz> v = random_residues(r, m, n);
    INFO("p = " << p.to_string() << ", w = " << cas::fmpz_to_string(w.as_int()) << ", v = " << show_residues(v));

    const std::vector<Fmpz> X = residues_of(cas::fft(to_value(v, m), w));
    CHECK(equal(X, dft_by_definition(v, w.as_int(), m)));
    CHECK(equal(residues_of(cas::ifft(to_value(X, m), w)), v));
    // ifft is the DFT at w^-1 scaled by n^-1
    Fmpz w_inverse, n_inverse(n);
    fmpz_invmod(w_inverse.get(), w.as_int(), m->value());
    fmpz_invmod(n_inverse.get(), n_inverse.get(), m->value());
    std::vector<Fmpz> expected = dft_by_definition(v, w_inverse.get(), m);
    for (auto& x : expected) fmpz_mod_mul(x.get(), x.get(), n_inverse.get(), m->ctx());
    CHECK(equal(residues_of(cas::ifft(to_value(v, m), w)), expected));

    if (m->word_size()) {  // packed in and out (the input read where it is), integers of either sign
      const Value input = packed(v, m);
      const Value transformed = cas::fft(input, w);
      CHECK(transformed.packed_residues());
      CHECK(equal(residues_of(transformed), X));
      CHECK(equal(residues_of(cas::ifft(transformed, w)), v));
      CHECK(equal(residues_of(cas::ifft(input, w)), expected));
      CHECK(equal(residues_of(input), v));  // neither transform wrote to its input
      CHECK(equal(residues_of(cas::fft(as_integers(r, v, m), w)), X));
    }
  }
}

// Around the GPU transform crossovers (1024 for 64-bit p, 8192 below 2^32): on a GPU machine the
// longer ones run on the GPU (fresh result words, the inverse's 1/n in the engine), elsewhere on
// the CPU; the same results either way.
TEST_CASE("ifft(fft(v)) == v above the GPU transform crossover, packed and unpacked", "[fourier][fft]") {
  Random r;
  for (ulong p : {ulong{998244353}, ulong{cas::gpu::ntt_primes(31, 16, 1).at(0)},
                  ulong{cas::gpu::ntt_primes(62, 16, 1).at(0)}, ulong{cas::gpu::ntt_primes(64, 16, 1).at(0)},
                  ulong{18446744069414584321ull}}) {
    const ModulusPtr m = cas::make_modulus(p);
    for (ulong n : {ulong{1} << 11, ulong{1} << 13}) {
      const Value w = random_root(r, m, n);
      const std::vector<Fmpz> v = random_residues(r, m, n);
      const Value as_words = packed(v, m), as_values = to_value(v, m);
      INFO("p = " << p << ", n = " << n << ", w = " << cas::fmpz_to_string(w.as_int()));

      cas::engine_reset();
      const Value X = cas::fft(as_words, w);
      CHECK(cas::engine_last() == std::string(expected_engine(n, p)) + " 2^" + std::to_string(n_flog(n, 2)));
      REQUIRE(X.packed_residues());
      check_sampled_entries(r, v, X.packed_residues()->words, w, m);
      CHECK(cas::equal_values(cas::fft(as_values, w), X));
      CHECK(cas::equal_values(cas::ifft(X, w), as_words));
      CHECK(cas::equal_values(cas::ifft(cas::fft(as_values, w), w), as_values));
      CHECK(equal(residues_of(as_words), v));  // the inputs as they were
      CHECK(equal(residues_of(as_values), v));
    }
  }
}

TEST_CASE("fft takes integer entries and reduces them", "[fourier][fft]") {
  const ModulusPtr m = cas::make_modulus(17);
  Fmpz two(2);
  const Value w = Value::mod(two.get(), m);
  std::vector<Value> ints;
  for (slong e : {1, 2, 1, 2, 1, 2, 1, 2}) ints.push_back(Value::integer(e + 17 * (e - 2)));  // 1-17, 2, ...
  CHECK(cas::format(cas::fft(Value::vec(ints), w)) == "[12, 0, 0, 0, 13, 0, 0, 0] mod 17");
}

TEST_CASE("convolve and negaconvolve agree with fmpz_mod_poly_mul folded mod x^n -+ 1", "[fourier][convolve]") {
  Random r;
  for (int trial = 0; trial < trials(150); trial++) {
    // any modulus: NTT primes (the FFT path), random primes and composites (the product path)
    Fmpz p;
    switch (trial % 3) {
      case 0: p = random_ntt_prime(r, 20 + n_randint(r.state, 100), 8); break;
      case 1: fmpz_set_ui(p.get(), n_randtest_prime(r.state, 0)); break;
      default: fmpz_randtest_unsigned(p.get(), r.state, 1 + n_randint(r.state, 130)); fmpz_add_ui(p.get(), p.get(), 2);
    }
    const ModulusPtr m = cas::make_modulus(p.get());
    const size_t n = trial % 4 ? (1ul << n_randint(r.state, 8)) : 1 + n_randint(r.state, 40);
    const std::vector<Fmpz> a = random_residues(r, m, n), b = random_residues(r, m, n);
    INFO("p = " << p.to_string() << ", a = " << show_residues(a) << ", b = " << show_residues(b));
    for (bool negacyclic : {false, true}) {
      INFO((negacyclic ? "negaconvolve" : "convolve"));
      const Value c = cas::convolve(to_value(a, m), to_value(b, m), negacyclic);
      CHECK(equal(residues_of(c), convolution_by_flint(a, b, m, negacyclic)));
      if (m->word_size()) {
        CHECK(cas::equal_values(cas::convolve(packed(a, m), packed(b, m), negacyclic), c));
        CHECK(cas::equal_values(cas::convolve(as_integers(r, a, m), packed(b, m), negacyclic), c));
      }
      // commutative, and aliasing a with b is fine
      CHECK(cas::equal_values(c, cas::convolve(to_value(b, m), to_value(a, m), negacyclic)));
      const Value aa = to_value(a, m);
      CHECK(equal(residues_of(cas::convolve(aa, aa, negacyclic)), convolution_by_flint(a, a, m, negacyclic)));
    }
  }
}

// Power-of-two lengths over Z/pZ without the roots of unity for them, from the length where the
// CPU's transforms modulo CRT primes take them (dispatch.hpp: cpu_crt_convolution_from_words),
// the GPU off: p = 2, 3 mod 4, 2^61 - 1, the largest 64-bit prime, and all entries p - 1 (the
// negacyclic entries over Z then reach -n (p - 1)^2, which the shift must lift).
TEST_CASE("power-of-two convolutions over Z/pZ without the roots, through CRT primes", "[fourier][convolve]") {
  Random r;
  ModeGuard guard(cas::GpuMode::Off);
  for (ulong p : {ulong{2}, ulong{1000000007}, (ulong{1} << 61) - 1, ulong{18446744073709551557ull}}) {
    Fmpz modulus(p);
    const ModulusPtr m = cas::make_modulus(modulus.get());
    for (size_t n : {size_t{2048}, size_t{1} << 13})
      for (bool largest : {false, true}) {
        std::vector<Fmpz> a = random_residues(r, m, n), b = random_residues(r, m, n);
        if (largest)
          for (size_t i = 0; i < n; i++) {
            fmpz_set_ui(a[i].get(), p - 1);
            fmpz_set_ui(b[i].get(), p - 1);
          }
        for (bool negacyclic : {false, true}) {
          INFO("p = " << p << ", n = " << n << (negacyclic ? ", negaconvolve" : ", convolve")
                      << (largest ? ", all p - 1" : ""));
          cas::engine_reset();
          const Value c = cas::convolve(packed(a, m), packed(b, m), negacyclic);
          INFO(cas::engine_last());
          CHECK(cas::engine_last().rfind(negacyclic ? "cpu crt negacyclic convolution" : "cpu crt cyclic convolution",
                                         0) == 0);
          CHECK(equal(residues_of(c), convolution_by_flint(a, b, m, negacyclic)));
        }
      }
  }
}

// The same lengths with the GPU on: a cyclic convolution of power-of-two length wraps inside the
// device's transforms of length n (gpu::convolve_mod, "gpu cyclic product"), a negacyclic one is a
// product folded; NTT primes with and without the roots, p = 2 and 2^61 - 1.
TEST_CASE("power-of-two convolutions on the GPU wrap in transforms of length n", "[fourier][convolve][gpu]") {
  if (cas::test::skipped_without_gpu("convolutions of power-of-two length on the GPU")) return;
  Random r;
  ModeGuard guard(cas::GpuMode::On);
  for (ulong p : {ulong{998244353}, ulong{1000000007}, ulong{2}, (ulong{1} << 61) - 1,
                  ulong{cas::gpu::ntt_primes(62, 13, 1).at(0)}}) {
    Fmpz modulus(p);
    const ModulusPtr m = cas::make_modulus(modulus.get());
    for (size_t n : {size_t{2}, size_t{2048}, size_t{1} << 17}) {
      const std::vector<Fmpz> a = random_residues(r, m, n), b = random_residues(r, m, n);
      for (bool negacyclic : {false, true}) {
        INFO("p = " << p << ", n = " << n << (negacyclic ? ", negaconvolve" : ", convolve"));
        cas::engine_reset();
        const Value c = cas::convolve(packed(a, m), packed(b, m), negacyclic);
        INFO(cas::engine_last());
        if (!negacyclic) CHECK(cas::engine_last().rfind("gpu cyclic product", 0) == 0);
        CHECK(equal(residues_of(c), convolution_by_flint(a, b, m, negacyclic)));
      }
    }
  }
}

// Lengths that are no power of two (one product, then the fold) and that the fold's threads split
// unevenly (ranges of 2^16 words at least).
TEST_CASE("long convolutions by one product fold like FLINT's", "[fourier][convolve]") {
  Random r;
  for (int trial = 0; trial < trials(2); trial++) {
    Fmpz p(n_randtest_prime(r.state, 0));
    const ModulusPtr m = cas::make_modulus(p.get());
    const size_t n = 3 * (size_t(1) << 16) + 1 + n_randint(r.state, 1000);
    const std::vector<Fmpz> a = random_residues(r, m, n), b = random_residues(r, m, n);
    INFO("p = " << p.to_string() << ", n = " << n);
    for (bool negacyclic : {false, true}) {
      INFO((negacyclic ? "negaconvolve" : "convolve"));
      const Value c = cas::convolve(packed(a, m), packed(b, m), negacyclic);
      REQUIRE(c.packed_residues());
      CHECK(equal(residues_of(c), convolution_by_flint(a, b, m, negacyclic)));
    }
  }
}

// c_k = sum over i + j = k mod n of a_i b_j, straight from the definition (the sign of a wrapped
// term flipped when negacyclic).
std::vector<Fmpz> integer_convolution_by_definition(const std::vector<Fmpz>& a, const std::vector<Fmpz>& b,
                                                    bool negacyclic) {
  const size_t n = a.size();
  std::vector<Fmpz> c(n);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      Fmpz& slot = c[(i + j) % n];
      if (negacyclic && i + j >= n)
        fmpz_submul(slot.get(), a[i].get(), b[j].get());
      else
        fmpz_addmul(slot.get(), a[i].get(), b[j].get());
    }
  return c;
}

std::vector<Fmpz> random_integers(Random& r, size_t n, ulong max_bits) {
  std::vector<Fmpz> out(n);
  for (Fmpz& x : out) fmpz_randtest(x.get(), r.state, 1 + n_randint(r.state, max_bits));
  return out;
}

Value integer_vector(const std::vector<Fmpz>& xs) {
  std::vector<Value> items;
  for (const Fmpz& x : xs) items.push_back(Value::integer(x.get()));
  return Value::vec(std::move(items));
}

std::vector<Fmpz> integers_of(const Value& v) {
  REQUIRE(v.is(Kind::Vec));
  std::vector<Fmpz> out;
  for (const Value& e : v.as_vec()) {
    REQUIRE(e.is(Kind::Int));
    out.emplace_back();
    fmpz_set(out.back().get(), e.as_int());
  }
  return out;
}

// Over Z: one product in Z[x] (FLINT's, or the GPU's through several primes past the crossover),
// folded; lengths of every kind, entries of either sign up to 300 bits, and zeros.
TEST_CASE("convolve and negaconvolve over Z agree with the definition", "[fourier][convolve]") {
  Random r;
  for (int trial = 0; trial < trials(120); trial++) {
    const size_t n = trial % 3 ? 1 + n_randint(r.state, 70) : (size_t{1} << n_randint(r.state, 7));
    const ulong bits = trial % 4 ? 1 + n_randint(r.state, 64) : 300;
    std::vector<Fmpz> a = random_integers(r, n, bits), b = random_integers(r, n, bits);
    if (trial % 7 == 0) a.assign(n, Fmpz());
    INFO("a = " << show_residues(a) << ", b = " << show_residues(b));
    for (bool negacyclic : {false, true}) {
      INFO((negacyclic ? "negaconvolve" : "convolve"));
      const std::vector<Fmpz> expected = integer_convolution_by_definition(a, b, negacyclic);
      CHECK(equal(integers_of(cas::convolve(integer_vector(a), integer_vector(b), negacyclic)), expected));
      CHECK(equal(integers_of(cas::convolve(integer_vector(b), integer_vector(a), negacyclic)), expected));
    }
  }
}

// Long enough for the GPU's multi-prime product when one is there (the Z[x] crossover is near
// 2^11), with the GPU forced on and off: both equal the definition, checked on a sample of indices.
TEST_CASE("long convolutions over Z fold the product's high half", "[fourier][convolve][gpu]") {
  Random r;
  const size_t n = 3000 + n_randint(r.state, 3000);
  const std::vector<Fmpz> a = random_integers(r, n, 100), b = random_integers(r, n, 100);
  for (cas::GpuMode mode : {cas::GpuMode::Off, cas::GpuMode::On}) {
    if (mode == cas::GpuMode::On && cas::test::skipped_without_gpu("long convolutions over Z on the GPU")) continue;
    ModeGuard guard(mode);
    for (bool negacyclic : {false, true}) {
      INFO((negacyclic ? "negaconvolve" : "convolve") << ", n = " << n);
      const std::vector<Fmpz> c = integers_of(cas::convolve(integer_vector(a), integer_vector(b), negacyclic));
      REQUIRE(c.size() == n);
      for (size_t k : {size_t{0}, size_t{1}, n / 2, n - 2, n - 1, size_t(n_randint(r.state, n))}) {
        INFO("k = " << k);
        Fmpz expected;
        for (size_t i = 0; i < n; i++) {
          const size_t j = (k + n - i) % n;
          if (negacyclic && i + j >= n)
            fmpz_submul(expected.get(), a[i].get(), b[j].get());
          else
            fmpz_addmul(expected.get(), a[i].get(), b[j].get());
        }
        CHECK(fmpz_equal(c[k].get(), expected.get()));
      }
    }
  }
}

// FLINT's product of a and b folded modulo x^n -+ 1 (n = len a = len b).
std::vector<Fmpz> integer_convolution_by_flint(const std::vector<Fmpz>& a, const std::vector<Fmpz>& b,
                                               bool negacyclic) {
  const size_t n = a.size();
  fmpz_poly_t f, g;
  fmpz_poly_init(f);
  fmpz_poly_init(g);
  for (size_t i = 0; i < n; i++) {
    fmpz_poly_set_coeff_fmpz(f, static_cast<slong>(i), a[i].get());
    fmpz_poly_set_coeff_fmpz(g, static_cast<slong>(i), b[i].get());
  }
  fmpz_poly_mul(f, f, g);
  std::vector<Fmpz> c(n);
  for (slong k = 0; k < fmpz_poly_length(f); k++) {
    Fmpz& slot = c[static_cast<size_t>(k) % n];
    if (negacyclic && static_cast<size_t>(k) >= n)
      fmpz_sub(slot.get(), slot.get(), f->coeffs + k);
    else
      fmpz_add(slot.get(), slot.get(), f->coeffs + k);
  }
  fmpz_poly_clear(f);
  fmpz_poly_clear(g);
  return c;
}

// Power-of-two lengths from the primes' crossover on (dispatch.hpp: cpu_crt_convolution_from_z),
// the GPU off: the CPU's transforms of length n modulo 1 to 33 primes ran (the engine says so), and
// every entry equals FLINT's product folded. The extreme case (every a_i = 2^bits - 1, every
// b_j = -(2^bits - 1)) reaches the bound n |a|_inf |b|_inf the primes are chosen for; at 58 bits
// and n = 2^10 it needs 126 bits and a third prime, which a bound without the factor n misses.
TEST_CASE("power-of-two convolutions over Z through the primes' transforms of length n", "[fourier][convolve]") {
  Random r;
  ModeGuard guard(cas::GpuMode::Off);
  const struct {
    size_t n;
    ulong bits;
  } cases[] = {{1024, 1}, {1024, 58}, {2048, 300}, {4096, 64}, {8192, 1000}};
  for (const auto& c : cases)
    for (bool extreme : {false, true}) {
      std::vector<Fmpz> a = random_integers(r, c.n, c.bits), b = random_integers(r, c.n, c.bits);
      if (extreme) {
        Fmpz top(ulong{1});
        fmpz_mul_2exp(top.get(), top.get(), c.bits);
        fmpz_sub_ui(top.get(), top.get(), 1);
        for (size_t i = 0; i < c.n; i++) {
          fmpz_set(a[i].get(), top.get());
          fmpz_neg(b[i].get(), top.get());
        }
      }
      for (bool negacyclic : {false, true}) {
        INFO((negacyclic ? "negaconvolve" : "convolve") << ", n = " << c.n << ", " << c.bits << " bits"
                                                         << (extreme ? ", extreme" : ""));
        cas::engine_reset();
        const std::vector<Fmpz> got = integers_of(cas::convolve(integer_vector(a), integer_vector(b), negacyclic));
        INFO(cas::engine_last());
        CHECK(cas::engine_last().rfind(negacyclic ? "cpu crt negacyclic convolution" : "cpu crt cyclic convolution",
                                       0) == 0);
        CHECK(equal(got, integer_convolution_by_flint(a, b, negacyclic)));
      }
    }
}

TEST_CASE("the transforms refuse bad lengths, roots and vectors", "[fourier][errors]") {
  const ModulusPtr m17 = cas::make_modulus(17), m5 = cas::make_modulus(5);
  auto mod17 = [&](slong e) {
    Fmpz z(e);
    return Value::mod(z.get(), m17);
  };
  auto vec17 = [&](std::initializer_list<slong> es) {
    std::vector<Value> items;
    for (slong e : es) items.push_back(mod17(e));
    return Value::vec(std::move(items));
  };
  CHECK(domain_error([&] { cas::fft(vec17({1, 2, 3}), mod17(2)); }) ==
        "fft: the length 3 is not a power of two (use dft for other lengths)");
  CHECK(domain_error([&] { cas::fft(vec17({1, 2, 3, 4}), mod17(2)); }) ==
        "fft: 2 mod 17 is not a primitive 4th root of unity (its 4th power is not 1)");
  CHECK(domain_error([&] { cas::ifft(vec17({1, 2, 3, 4}), mod17(16)); }) ==
        "ifft: 16 mod 17 is not a primitive 4th root of unity (already its 2nd power is 1)");
  CHECK(domain_error([&] { cas::fft(vec17({1, 2}), Value::integer(slong{2})); }).find("must be an element of Z/pZ") !=
        std::string::npos);
  // w^0 = 1 and 0 has no prime factor: without its own check, n = 0 passed.
  CHECK(domain_error([&] { cas::require_primitive_root(mod17(2), 0, "fft"); }) ==
        "fft: n must be at least 1 (there is no primitive 0th root of unity)");
  CHECK(domain_error([&] { cas::require_primitive_root(mod17(1), 0, "fft"); }) ==
        "fft: n must be at least 1 (there is no primitive 0th root of unity)");
  CHECK(domain_error([&] { cas::convolve(vec17({1, 2, 3}), vec17({1, 2}), false); }) ==
        "convolve: the vectors must have one length, not 3 and 2");
  Fmpz one(1);
  const Value over_z5 = Value::vec({Value::mod(one.get(), m5)});
  CHECK(domain_error([&] { cas::convolve(over_z5, vec17({1}), false); }) ==
        "convolve: the entries must be integers or elements of Z/5Z, not 1 mod 17");
  const Value integers = Value::vec({Value::integer(slong{1}), Value::integer(slong{2})});
  const Value with_polynomial = Value::vec({Value::integer(slong{1}), Value::zpoly(cas::ZPoly::x())});
  CHECK(domain_error([&] { cas::convolve(integers, with_polynomial, true); }) ==
        "negaconvolve: the entries must be integers, or elements of one Z/pZ, not x");
  CHECK(domain_error([&] { cas::convolve(with_polynomial, integers, false); }) ==
        "convolve: the entries must be integers, or elements of one Z/pZ, not x");
  CHECK(domain_error([&] { cas::convolve(integers, Value::vec({Value::integer(slong{1})}), false); }) ==
        "convolve: the vectors must have one length, not 2 and 1");
  CHECK(domain_error([&] { cas::convolve(integers, Value::integer(slong{1}), false); }) ==
        "convolve: expected a vector, not an integer");
}

// ---- the builtins through the interpreter -------------------------------------------------

TEST_CASE("vector, len and concat", "[builtins][vector]") {
  CHECK(show("vector(3)") == "[0, 0, 0]");
  CHECK(show("vector(0)") == "[]");
  CHECK(show("len([1, [2, 3], x])") == "3");
  CHECK(show("len(\"abc\")") == "3");
  CHECK(show("concat([1, 2], [3])") == "[1, 2, 3]");
  CHECK(show("concat([], [])") == "[]");
  CHECK(show("concat(\"ab\", \"c\")") == "\"abc\"");
  CHECK(show("a = [1, 2]; b = concat(a, a); b[0] = 9; a") == "[1, 2]");
  // Long vectors of integers are joined and summed on the cores; FLINT's Z[x] is the oracle.
  CHECK(show("a = coeffs(randzpoly(40000, 70)); b = coeffs(randzpoly(30000, 200)); "
             "poly(concat(a, b)) == poly(a) + x^len(a) * poly(b) and vecsum(a) == eval(poly(a), 1) and "
             "vecsum(concat(b, a)) == vecsum(a) + vecsum(b) and len(concat(a, b)) == 70000") == "true");
  Session s;
  auto e = s.error("len(42)");
  REQUIRE(e);
  CHECK(e->message() == "len: argument 1 must be a vector or a string, not 42 (deg gives the degree of a polynomial)");
  e = s.error("vector(10^15)");
  REQUIRE(e);
  CHECK(e->message().find("vector(1000000000000000) would need about") == 0);
  e = s.error("vector(-1)");
  REQUIRE(e);
  CHECK(e->message().find("vector: argument 1 must be a non-negative integer") == 0);
  e = s.error("concat([1], 2)");
  REQUIRE(e);
  CHECK(e->message() == "concat: argument 2 must be a vector, not 2");
}

TEST_CASE("fft, ifft, convolve, negaconvolve as builtins", "[builtins][fourier]") {
  CHECK(show("fft([1, 2, 1, 2, 1, 2, 1, 2], 2 mod 17)") == "[12, 0, 0, 0, 13, 0, 0, 0] mod 17");
  CHECK(show("ifft([12, 0, 0, 0, 13, 0, 0, 0] mod 17, 2 mod 17)") == "[1, 2, 1, 2, 1, 2, 1, 2] mod 17");
  CHECK(show("convolve([1, 2, 3] mod 7, [4, 5, 6] mod 7)") == "[3, 3, 0] mod 7");
  CHECK(show("negaconvolve([1, 2, 3] mod 7, [4, 5, 6] mod 7)") == "[5, 2, 0] mod 7");
  // over Z, the same numbers before reduction mod 7
  CHECK(show("convolve([1, 2, 3], [4, 5, 6])") == "[31, 31, 28]");
  CHECK(show("negaconvolve([1, 2, 3], [4, 5, 6])") == "[-23, -5, 28]");
  CHECK(show("convolve([2^100, -1], [2^100, 1])") == "[1606938044258990275541962092341162602522202993782792835301375, 0]");
  CHECK(show("convolve([], [])") == "[]");
  // Integers among the elements of a Z/pZ are taken into it, in either vector and in any place
  // (as poly and dft do): 1*3 + 2*4 = 11 = 4 and 1*4 + 2*3 = 10 = 3 mod 7.
  CHECK(show("convolve([1 mod 7, 2], [3 mod 7, 4])") == "[4, 3] mod 7");
  CHECK(show("convolve([1, 2 mod 7], [3, 4])") == "[4, 3] mod 7");
  CHECK(show("negaconvolve([1, 2], [3, 4 mod 7])") == "[2, 3] mod 7");  // 3 - 8 = -5 = 2
  CHECK(show("convolve([1 mod 2^70 + 25, 2], [3 mod 2^70 + 25, 4])") == "[11, 10] mod 1180591620717411303449");
  Session s;
  auto mixed = s.error("convolve([1 mod 7, 2 mod 5], [1, 2])");
  REQUIRE(mixed);
  CHECK(mixed->message() == "convolve: the entries must be integers or elements of Z/7Z, not 2 mod 5");
  auto e = s.error("v = [1, 2, 3] mod 17\nfft(v, 2 mod 17)");
  REQUIRE(e);
  CHECK(e->message() == "fft: the length 3 is not a power of two (use dft for other lengths)");
  CHECK(e->where().line_column().line == 2);
}

TEST_CASE("the stdlib's dft and idft agree with fft and ifft", "[stdlib][fourier]") {
  Session s;
  CHECK(s.show("dft([1, 2, 1, 2, 1, 2, 1, 2], 2 mod 17)") == "[12, 0, 0, 0, 13, 0, 0, 0] mod 17");
  CHECK(s.show("w = rootofunity(16, 97); v = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3]; "
               "dft(v, w) == fft(v, w) and idft(v, w) == ifft(v, w) and recursive_fft(v, w) == fft(v, w)") == "true");
  CHECK(s.show("dftmatrix(2, -1 mod 5)") == "[[1, 1], [1, 4]] mod 5");
}

// Modulo a composite, an element of order n need not have w^(n/2) = -1 (2 mod 15: order 4, 2^2 = 4),
// and then the radix-2 butterflies do not compute the DFT: fft, ifft, fftsteps and the stdlib's
// recursive_fft refuse it. Where w^(n/2) = -1 holds (57 mod 65: 57^2 = -1), they equal dft.
TEST_CASE("radix-2 transforms modulo a composite need w^(n/2) = -1", "[fourier][errors]") {
  Session s;
  const std::string why = " is a primitive 4th root of unity, but its 2nd power is 4 mod 15, not -1: the radix-2 "
                          "butterflies need w^(n/2) = -1, which every primitive root modulo a prime has (not modulo "
                          "15); dft(v, w) computes this transform by its definition";
  for (const char* call : {"fft", "ifft", "fftsteps"}) {
    auto e = s.error(std::string(call) + "([1, 2, 3, 4], 2 mod 15)");
    REQUIRE(e);
    CHECK(e->message() == std::string(call) + ": 2 mod 15" + why);
  }
  auto e = s.error("recursive_fft([1, 2, 3, 4], 2 mod 15)");
  REQUIRE(e);
  CHECK(e->message().find("the butterflies need w^(n/2) = -1") != std::string::npos);
  CHECK(s.show("dft([1, 2, 3, 4], 2 mod 15)") == "[10, 4, 13, 7] mod 15");  // PARI/GP's values
  CHECK(s.show("v = [1, 2, 3, 4]; w = 57 mod 65; fft(v, w) == dft(v, w) and ifft(v, w) == idft(v, w) and "
               "recursive_fft(v, w) == dft(v, w)") == "true");
  // A multi-word modulus: 15 q (q prime above 2^70), w = 2 mod 15 and 1 mod q.
  auto big = s.error("q = nextprime(2^70); m = 15 * q; fft([1, 2, 3, 4], crt([2, 1], [15, q]) mod m)");
  REQUIRE(big);
  CHECK(big->message().find("not -1: the radix-2 butterflies") != std::string::npos);
}
