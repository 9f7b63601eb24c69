// The Euclidean resultant of gpu/euclid_words.hpp, which a GPU thread block runs for each prime of
// a multi-modular resultant, run here with a team of one against FLINT's nmod_poly_resultant on
// fresh random inputs: odd primes of 3 to 63 bits, lengths 1 to 120, biased to the divisions of
// several steps (a remainder that drops several degrees at once), a common factor (resultant 0),
// and operands given in either order (the sign (-1)^(m n)).
#include "flint_support.hpp"
#include "interpreter_support.hpp"

#include "gpu/euclid_words.hpp"

#include <catch2/catch.hpp>
#include <flint/nmod_poly.h>
#include <flint/ulong_extras.h>

#include <vector>

namespace {

using cas::crt::Word;
using cas::test::FreshRandom;

// nmod_poly wrapper for the oracle.
struct NmodPoly {
  nmod_poly_t p;
  explicit NmodPoly(ulong n) { nmod_poly_init(p, n); }
  ~NmodPoly() { nmod_poly_clear(p); }
  NmodPoly(const NmodPoly&) = delete;
  NmodPoly& operator=(const NmodPoly&) = delete;
};

Word euclid_words_resultant(const nmod_poly_t a, const nmod_poly_t b, const cas::crt::MontgomeryPrime& q) {
  auto row = [&](const nmod_poly_t f) {
    std::vector<Word> words(static_cast<size_t>(f->length));
    for (size_t i = 0; i < words.size(); i++) words[i] = cas::crt::to_montgomery(f->coeffs[i], q);
    return words;
  };
  std::vector<Word> x = row(a), y = row(b);
  std::vector<Word> log(cas::crt::resultant_log_words(x.size() - 1, y.size() - 1));
  cas::crt::SerialTeam team;
  return cas::crt::euclidean_resultant(team, x.data(), x.size() - 1, y.data(), y.size() - 1, q, log.data());
}

// A random polynomial of exactly `length` terms modulo p, sparse one time in three (remainders
// that lose several degrees at once).
void random_of_length(nmod_poly_t f, flint_rand_t state, slong length) {
  if (n_randint(state, 3) == 0) {
    nmod_poly_zero(f);
    for (slong i = 0; i < length; i += 1 + static_cast<slong>(n_randint(state, 4)))
      nmod_poly_set_coeff_ui(f, i, n_randint(state, f->mod.n));
  } else {
    nmod_poly_randtest(f, state, length);
  }
  nmod_poly_set_coeff_ui(f, length - 1, 1 + n_randint(state, f->mod.n - 1));
}

}  // namespace

TEST_CASE("euclid words: Montgomery form round trip, products and powers", "[gpu][words]") {
  FreshRandom r;
  INFO("seed " << r.seed);
  for (int t = 0; t < cas::test::trials(200); t++) {
    const ulong p = n_randprime(r.state(), 2 + static_cast<ulong>(n_randint(r.state(), 62)), 1);
    if (p == 2) continue;
    const cas::crt::MontgomeryPrime q = cas::crt::montgomery_prime(p);
    const Word x = n_randint(r.state(), p), y = n_randint(r.state(), p);
    const Word xm = cas::crt::to_montgomery(x, q), ym = cas::crt::to_montgomery(y, q);
    CHECK(cas::crt::from_montgomery(xm, q) == x);
    CHECK(cas::crt::from_montgomery(cas::crt::montgomery_product(xm, ym, q), q) == n_mulmod2_preinv(x, y, p, n_preinvert_limb(p)));
    const ulong e = n_randtest(r.state());
    CHECK(cas::crt::from_montgomery(cas::crt::montgomery_power(xm, e, q), q) == n_powmod2_ui_preinv(x, e, p, n_preinvert_limb(p)));
  }
}

TEST_CASE("euclid words: the Euclidean resultant equals nmod_poly_resultant", "[gpu][words]") {
  FreshRandom r;
  INFO("seed " << r.seed);
  for (int t = 0; t < cas::test::trials(300); t++) {
    ulong p = n_randprime(r.state(), 2 + static_cast<ulong>(n_randint(r.state(), 62)), 1);
    if (p == 2) p = 3;
    const cas::crt::MontgomeryPrime q = cas::crt::montgomery_prime(p);
    NmodPoly a(p), b(p), c(p);
    const slong la = 1 + static_cast<slong>(n_randint(r.state(), 120));
    const slong lb = 1 + static_cast<slong>(n_randint(r.state(), 120));
    random_of_length(a.p, r.state(), la);
    random_of_length(b.p, r.state(), lb);
    if (n_randint(r.state(), 5) == 0) {  // a common factor: the resultant is 0
      random_of_length(c.p, r.state(), 2 + static_cast<slong>(n_randint(r.state(), 10)));
      nmod_poly_mul(a.p, a.p, c.p);
      nmod_poly_mul(b.p, b.p, c.p);
    }
    INFO("p " << p << ", lengths " << a.p->length << " and " << b.p->length);
    CHECK(euclid_words_resultant(a.p, b.p, q) == nmod_poly_resultant(a.p, b.p));
    CHECK(euclid_words_resultant(b.p, a.p, q) == nmod_poly_resultant(b.p, a.p));
  }
}
