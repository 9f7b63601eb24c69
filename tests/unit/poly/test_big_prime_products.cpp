// Products and powers in Z/pZ[x] modulo primes of 2 to 16 words (algebra/poly/multiply.cpp): the
// GPU's big-prime convolution from the crossover product.big_prime where a device answers and p has
// the roots of unity for the product's length, the route of before otherwise; every result against
// FLINT's fmpz_mod_poly_mul and fmpz_mod_poly_pow.
#include <flint/fmpz_mod_poly.h>

#include <string>
#include <utility>
#include <vector>

#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/poly/multiply.hpp"
#include "flint_support.hpp"

using cas::Fmpz;
using cas::GpuMode;
using cas::GpuOperation;
using cas::ModPoly;
using cas::ModulusPtr;
using cas::test::ModeGuard;
using cas::test::noted;

namespace {

// Primes of 2, 5, 8 and 16 words with roots of unity of order 2^32 at least, and 2^127 - 1, whose
// p - 1 has a single factor 2.
std::vector<ModulusPtr> moduli() {
  Fmpz two_words, five_words, mersenne;
  fmpz_set_str(two_words.get(), "170141183460469232709364739622490341377", 10);
  fmpz_set_str(five_words.get(),
               "6329210555880184941319421096438948754550926002715342084070999100243117507555308294102843393", 10);
  fmpz_one(mersenne.get());
  fmpz_mul_2exp(mersenne.get(), mersenne.get(), 127);
  fmpz_sub_ui(mersenne.get(), mersenne.get(), 1);
  return {cas::make_modulus(two_words.get()), cas::make_modulus(five_words.get()),
          cas::make_modulus(cas::test::generalized_fermat(63, 34, 8).get()),
          cas::make_modulus(cas::test::generalized_fermat(62, 36, 16).get()), cas::make_modulus(mersenne.get())};
}

// Sets product.big_prime (and transform.big_prime, which products do not ask) for the test.
struct ProductCrossover {
  cas::Crossovers saved = cas::crossovers();
  explicit ProductCrossover(size_t from) {
    cas::Crossovers c = saved;
    c.length[static_cast<size_t>(GpuOperation::ProductBigPrime)] = from;
    cas::set_crossovers(c);
  }
  ~ProductCrossover() { cas::set_crossovers(saved); }
  ProductCrossover(const ProductCrossover&) = delete;
  ProductCrossover& operator=(const ProductCrossover&) = delete;
};

// Whether a product of `length` terms modulo m goes to the big-prime convolution.
bool on_big_prime_gpu(const ModulusPtr& m, size_t length) {
  Fmpz p_minus_1;
  fmpz_sub_ui(p_minus_1.get(), m->value(), 1);
  size_t n = 1;
  while (n < length) n *= 2;
  return length >= 2 && cas::use_gpu(GpuOperation::ProductBigPrime, length) &&
         fmpz_val2(p_minus_1.get()) >= static_cast<ulong>(__builtin_ctzll(n));
}

ModPoly flint_product(const ModPoly& a, const ModPoly& b) {
  ModPoly c(a.modulus());
  fmpz_mod_poly_mul(c.big(), a.big(), b.big(), a.ctx());
  return c;
}

}  // namespace

TEST_CASE("products modulo primes of 2 to 16 words: the big-prime convolution from its crossover",
          "[multiply][big_prime]") {
  const GpuMode mode = GENERATE(GpuMode::Off, GpuMode::Auto, GpuMode::On);
  ModeGuard guard(mode);
  const ProductCrossover crossover(64);
  cas::test::FreshRandom r;
  INFO("seed " << r.seed << ", mode " << cas::gpu_mode_name(mode));
  const std::pair<slong, slong> shapes[] = {{1, 1},  {1, 9},   {2, 3},     {17, 40},   {33, 32},
                                            {64, 1}, {100, 2}, {300, 200}, {513, 512}, {1000, 999}};
  for (const ModulusPtr& m : moduli()) {
    for (const auto& [length_a, length_b] : shapes) {
      const ModPoly a = cas::test::random_modpoly(r.state(), m, length_a);
      const ModPoly b = cas::test::random_modpoly(r.state(), m, length_b);
      const size_t length = static_cast<size_t>(length_a + length_b - 1);
      INFO("p = " << m->to_string() << ", lengths " << length_a << " and " << length_b);
      cas::engine_reset();
      CHECK(cas::equal(cas::multiply(a, b), flint_product(a, b)));
      const bool constant = length_a == 1 || length_b == 1;
      CHECK(noted("gpu big-prime product") == (!constant && on_big_prime_gpu(m, length)));
      CHECK(cas::equal(cas::multiply(b, a), flint_product(a, b)));
    }
  }
}

TEST_CASE("squares and powers modulo primes of 2 to 16 words take the big-prime convolution for their products",
          "[multiply][big_prime]") {
  const GpuMode mode = GENERATE(GpuMode::Off, GpuMode::Auto);
  ModeGuard guard(mode);
  const ProductCrossover crossover(64);
  cas::test::FreshRandom r;
  INFO("seed " << r.seed << ", mode " << cas::gpu_mode_name(mode));
  for (const ModulusPtr& m : moduli()) {
    for (slong length : {slong{2}, slong{40}, slong{700}}) {
      const ModPoly f = cas::test::random_modpoly(r.state(), m, length);
      for (ulong e : {ulong{2}, ulong{3}, ulong{5}}) {
        INFO("p = " << m->to_string() << ", f of " << length << " terms to the power " << e);
        ModPoly expected(m);
        fmpz_mod_poly_pow(expected.big(), f.big(), e, m->ctx());
        cas::engine_reset();
        CHECK(cas::equal(cas::power(f, e), expected));
        const size_t result_length = static_cast<size_t>(length - 1) * e + 1;
        if (on_big_prime_gpu(m, result_length)) CHECK(noted("gpu big-prime product"));
      }
      cas::engine_reset();
      CHECK(cas::equal(cas::multiply(f, f), flint_product(f, f)));
      CHECK(noted("gpu big-prime product") == on_big_prime_gpu(m, static_cast<size_t>(2 * length - 1)));
    }
  }
}
