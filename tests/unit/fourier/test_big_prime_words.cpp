// The limb-major words of algebra/fourier/big_prime_words.hpp: which moduli the big-prime kernels
// take, elements, arrays of residues and polynomials there and back against FLINT's own integers
// (fmpz_tdiv_q_2exp for each word), on lengths that stay in one range and that spread over the
// cores; the roots of unity the GPU's routes ask for.
#include <flint/fmpz_mod_poly.h>

#include <string>
#include <vector>

#include "algebra/fourier/big_prime_words.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "flint_support.hpp"

using cas::Fmpz;
using cas::ModulusPtr;
using cas::test::Random;

namespace {

// Word d of x (x >= 0).
ulong word_of(const fmpz* x, size_t d) {
  Fmpz shifted;
  fmpz_tdiv_q_2exp(shifted.get(), x, 64 * d);
  fmpz_fdiv_r_2exp(shifted.get(), shifted.get(), 64);
  return fmpz_get_ui(shifted.get());
}

// Residues below p with the edges: 0, 1, p - 1, 2^62 and 2^64 - 1 (the largest inline fmpz and the
// largest word), then random ones.
std::vector<Fmpz> residues_with_edges(Random& r, const ModulusPtr& m, size_t n) {
  std::vector<Fmpz> v = cas::test::random_residues(r, m, n);
  std::vector<Fmpz> edges(5);
  fmpz_one(edges[1].get());
  fmpz_sub_ui(edges[2].get(), m->value(), 1);
  fmpz_one(edges[3].get());
  fmpz_mul_2exp(edges[3].get(), edges[3].get(), 62);
  fmpz_set_ui(edges[4].get(), ~ulong{0});
  for (size_t i = 0; i < n && i < edges.size(); i++) v[i] = edges[i];
  return v;
}

std::vector<ModulusPtr> big_moduli() {
  Fmpz two_words, five_words;
  fmpz_set_str(two_words.get(), "170141183460469232709364739622490341377", 10);  // (2^63 + 53) 2^64 + 1
  fmpz_set_str(five_words.get(),
               "6329210555880184941319421096438948754550926002715342084070999100243117507555308294102843393", 10);
  return {cas::make_modulus(two_words.get()), cas::make_modulus(five_words.get()),
          cas::make_modulus(cas::test::generalized_fermat(63, 34, 8).get()),
          cas::make_modulus(cas::test::generalized_fermat(62, 36, 16).get())};
}

}  // namespace

TEST_CASE("big-prime words: the moduli the kernels take", "[fourier][big_prime]") {
  Fmpz p;
  fmpz_set_ui(p.get(), ~ulong{0});
  CHECK(cas::big_prime_limbs(*cas::make_modulus(p.get())) == 0);  // one word
  fmpz_add_ui(p.get(), p.get(), 2);                               // 2^64 + 1
  CHECK(cas::big_prime_limbs(*cas::make_modulus(p.get())) == 2);
  fmpz_add_ui(p.get(), p.get(), 1);  // even
  CHECK(cas::big_prime_limbs(*cas::make_modulus(p.get())) == 0);
  CHECK(cas::big_prime_limbs(*cas::make_modulus(cas::test::generalized_fermat(63, 34, 8).get())) == 8);
  CHECK(cas::big_prime_limbs(*cas::make_modulus(cas::test::generalized_fermat(62, 36, 16).get())) == 16);
  fmpz_one(p.get());
  fmpz_mul_2exp(p.get(), p.get(), 1024);
  fmpz_add_ui(p.get(), p.get(), 1);  // 17 words
  CHECK(cas::big_prime_limbs(*cas::make_modulus(p.get())) == 0);
}

TEST_CASE("big-prime words: residues, polynomials and elements round-trip, limb-major", "[fourier][big_prime]") {
  Random r;
  for (const ModulusPtr& m : big_moduli()) {
    const size_t limbs = cas::big_prime_limbs(*m);
    REQUIRE(limbs >= 2);
    for (size_t n : {size_t{1}, size_t{7}, size_t{5000}, size_t{40000}}) {
      INFO("p = " << m->to_string() << ", n = " << n);
      const std::vector<Fmpz> v = residues_with_edges(r, m, n);
      std::vector<fmpz> values(n);
      for (size_t i = 0; i < n; i++) values[i] = *v[i].get();  // borrowed, not cleared
      const cas::Words words = cas::limb_major(values.data(), n, limbs);
      REQUIRE(words.size() == limbs * n);
      bool laid_out = true;
      for (size_t i = 0; i < n; i += 1 + i / 3)
        for (size_t d = 0; d < limbs; d++) laid_out = laid_out && words[d * n + i] == word_of(v[i].get(), d);
      CHECK(laid_out);

      std::vector<Fmpz> back(n);
      std::vector<fmpz> out(n, 0);
      cas::read_limb_major(out.data(), words.data(), n, limbs);
      bool same = true;
      for (size_t i = 0; i < n; i++) {
        same = same && fmpz_equal(&out[i], v[i].get());
        fmpz_clear(&out[i]);
      }
      CHECK(same);

      cas::ModPoly f(m);
      for (size_t i = 0; i < n; i++) f.set_coeff(static_cast<slong>(i), v[i].get());
      const cas::Words coefficients = cas::coefficient_limbs(f, limbs);
      const cas::ModPoly g = cas::modpoly_from_limbs(m, coefficients.data(), static_cast<size_t>(f.length()), limbs);
      CHECK(cas::equal(f, g));
    }
    // Leading zeros are normalised away, and no coefficient at all is the zero polynomial.
    cas::Words padded(limbs * 3, 0);
    padded[0] = 5;
    CHECK(cas::modpoly_from_limbs(m, padded.data(), 3, limbs).length() == 1);
    CHECK(cas::modpoly_from_limbs(m, padded.data(), 0, limbs).is_zero());
    Fmpz p_minus_1;
    fmpz_sub_ui(p_minus_1.get(), m->value(), 1);
    const cas::Words element = cas::element_limbs(p_minus_1.get(), limbs);
    for (size_t d = 0; d < limbs; d++) CHECK(element[d] == word_of(p_minus_1.get(), d));
  }
}

TEST_CASE("big-prime words: roots of unity of power-of-two order", "[fourier][big_prime]") {
  for (const ModulusPtr& m : big_moduli()) {
    Fmpz p_minus_1;
    fmpz_sub_ui(p_minus_1.get(), m->value(), 1);
    const ulong largest = std::min<ulong>(fmpz_val2(p_minus_1.get()), 30);
    for (ulong k : {ulong{0}, ulong{1}, ulong{5}, largest}) {
      INFO("p = " << m->to_string() << ", order 2^" << k);
      Fmpz w, power;
      REQUIRE(cas::find_root_of_unity(w, *m, ulong{1} << k));
      fmpz_powm_ui(power.get(), w.get(), ulong{1} << k, m->value());
      CHECK(fmpz_is_one(power.get()));
      if (k == 0) continue;
      fmpz_powm_ui(power.get(), w.get(), ulong{1} << (k - 1), m->value());
      CHECK(fmpz_equal(power.get(), p_minus_1.get()));  // of full order: w^(n/2) = -1
    }
  }
  Fmpz w, composite = cas::test::generalized_fermat(63, 34, 8);
  fmpz_mul_ui(composite.get(), composite.get(), 3);
  CHECK_FALSE(cas::find_root_of_unity(w, *cas::make_modulus(composite.get()), 4));
  Fmpz three_mod_four;  // 2^127 - 1: p - 1 = 2 (2^126 - 1)
  fmpz_one(three_mod_four.get());
  fmpz_mul_2exp(three_mod_four.get(), three_mod_four.get(), 127);
  fmpz_sub_ui(three_mod_four.get(), three_mod_four.get(), 1);
  CHECK(cas::find_root_of_unity(w, *cas::make_modulus(three_mod_four.get()), 2));
  CHECK_FALSE(cas::find_root_of_unity(w, *cas::make_modulus(three_mod_four.get()), 4));
}
