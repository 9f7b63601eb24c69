// fftsteps(v, w, "shifts") (trace_shift_fft and shifted_product, algebra/teaching/teaching.hpp): for
// p = w^k + 1 and n = 2k, over the Fermat primes, P3 and P4 of the seed, on random vectors: the
// result against the DFT as evaluation, every butterfly's digits against b and its shifted digits
// against w^j*b mod p; single shifts worked by hand; the text table; the builtin and its errors.
#include "algebra/teaching/teaching.hpp"
#include "algebra/teaching/teaching_text.hpp"
#include "flint_support.hpp"
#include "interpreter_support.hpp"

#include <flint/fmpz_mod_poly.h>

#include <sstream>
#include <string>
#include <vector>

using cas::Fmpz;
using cas::ModulusPtr;
using cas::Value;
using cas::teaching::Residues;
using cas::teaching::ShiftedProduct;
using cas::test::FreshRandom;
using cas::test::Session;
using cas::test::two_powers;

namespace {

// r^k + 1 for the r and k of a test.
struct Base {
  Fmpz r;
  ulong k;
};

Fmpz fermat(const Base& b) {
  Fmpz p;
  fmpz_pow_ui(p.get(), b.r.get(), b.k);
  fmpz_add_ui(p.get(), p.get(), 1);
  return p;
}

// The bases of the tests: 17 = 2^4 + 1 = 4^2 + 1, 257 = 2^8 + 1 = 16^2 + 1, 65537 at 2, 4, 16 and 256,
// P3 = (2^63 + 2^34)^8 + 1 and P4 = (2^62 + 2^36)^16 + 1.
std::vector<Base> bases() {
  std::vector<Base> out;
  for (auto [r, k] : {std::pair<ulong, ulong>{2, 4}, {4, 2}, {2, 8}, {16, 2}, {2, 16}, {4, 8}, {16, 4}, {256, 2}})
    out.push_back({Fmpz(r), k});
  out.push_back({two_powers(63, 34), 8});
  out.push_back({two_powers(62, 36), 16});
  return out;
}

// The DFT as evaluation: X_i = f(w^i) for f = sum_j v_j x^j, by FLINT.
Residues dft_by_evaluation(const Residues& v, const Value& w) {
  const ModulusPtr m = w.modulus();
  fmpz_mod_poly_t f;
  fmpz_mod_poly_init(f, m->ctx());
  for (size_t j = 0; j < v.size(); j++) fmpz_mod_poly_set_coeff_fmpz(f, static_cast<slong>(j), v[j].get(), m->ctx());
  Residues X(v.size());
  Fmpz point;
  for (size_t i = 0; i < v.size(); i++) {
    fmpz_powm_ui(point.get(), w.as_int(), i, m->value());
    fmpz_mod_poly_evaluate_fmpz(X[i].get(), f, point.get(), m->ctx());
  }
  fmpz_mod_poly_clear(f, m->ctx());
  return X;
}

// sum digits[i] r^i.
Fmpz value_of(const std::vector<Fmpz>& digits, const Fmpz& r) {
  Fmpz value, power, term;
  fmpz_one(power.get());
  for (const Fmpz& d : digits) {
    fmpz_mul(term.get(), d.get(), power.get());
    fmpz_add(value.get(), value.get(), term.get());
    fmpz_mul(power.get(), power.get(), r.get());
  }
  return value;
}

// b's digits are base-r digits of b (a leading 1 only for b = r^k); the shifted digits' value
// is w^j b mod p, lies strictly between -p and p, and the product is that value made a residue.
void check_product(const ShiftedProduct& x, const Fmpz& b, const Fmpz& r, ulong k, const Fmpz& p) {
  INFO("b = " << b.to_string() << ", j = " << x.shift);
  CHECK(fmpz_equal(value_of(x.digits, r).get(), b.get()));
  Fmpz minus_one;
  fmpz_sub_ui(minus_one.get(), p.get(), 1);
  const bool top = fmpz_equal(b.get(), minus_one.get());
  REQUIRE(x.digits.size() == k + (top ? 1 : 0));
  for (size_t i = 0; i < k; i++) {
    CHECK(fmpz_sgn(x.digits[i].get()) >= 0);
    CHECK(fmpz_cmp(x.digits[i].get(), r.get()) < 0);
  }
  if (top) CHECK(fmpz_is_one(x.digits[k].get()));
  REQUIRE(x.shifted.size() == k);
  const Fmpz value = value_of(x.shifted, r);
  CHECK(fmpz_equal(value.get(), x.value.get()));
  Fmpz expected, residue;
  fmpz_powm_ui(expected.get(), r.get(), x.shift, p.get());
  fmpz_mul(expected.get(), expected.get(), b.get());
  fmpz_mod(expected.get(), expected.get(), p.get());
  fmpz_mod(residue.get(), value.get(), p.get());
  CHECK(fmpz_equal(residue.get(), expected.get()));
  CHECK(fmpz_equal(x.product.get(), expected.get()));
  Fmpz magnitude;
  fmpz_abs(magnitude.get(), value.get());
  CHECK(fmpz_cmp(magnitude.get(), p.get()) < 0);
}

cas::teaching::ShiftTrace trace_at(const Residues& v, const Base& base) {
  const ModulusPtr m = cas::make_modulus(fermat(base).get());
  return cas::teaching::trace_shift_fft(cas::test::to_value(v, m), Value::mod(base.r.get(), m), "t");
}

Residues ints(std::initializer_list<slong> values) {
  Residues out;
  for (slong v : values) out.emplace_back(v);
  return out;
}

}  // namespace

TEST_CASE("shift traces equal the DFT, and every product is a shift of b's digits", "[teaching][shifts]") {
  FreshRandom random;
  INFO("seed " << random.seed);
  for (const Base& base : bases()) {
    const Fmpz p = fermat(base);
    const ModulusPtr m = cas::make_modulus(p.get());
    INFO("p = " << p.to_string() << " = " << base.r.to_string() << "^" << base.k << " + 1");
    for (int trial = 0; trial < cas::test::trials(4); trial++) {
      Residues v(2 * base.k);
      for (Fmpz& x : v) fmpz_randm(x.get(), random.state(), p.get());
      // Entries p - 1 = r^k: the one residue with k + 1 digits.
      fmpz_sub_ui(v[trial % v.size()].get(), p.get(), 1);
      const auto t = trace_at(v, base);
      CHECK(t.k == base.k);
      CHECK(cas::test::equal(t.fft.result(), dft_by_evaluation(v, Value::mod(base.r.get(), m))));
      REQUIRE(t.products.size() == t.fft.stages.size());
      for (size_t s = 0; s < t.fft.stages.size(); s++) {
        const auto& stage = t.fft.stages[s];
        REQUIRE(t.products[s].size() == stage.butterflies.size());
        for (size_t i = 0; i < stage.butterflies.size(); i++) {
          CHECK(t.products[s][i].shift == stage.butterflies[i].twiddle_exponent);
          CHECK(t.products[s][i].shift < base.k);
          check_product(t.products[s][i], stage.before[stage.butterflies[i].read_bottom], base.r, base.k, p);
        }
      }
    }
  }
}

TEST_CASE("single shifts modulo 65537 = 16^4 + 1, worked by hand", "[teaching][shifts]") {
  const Fmpz p(ulong{65537}), r(ulong{16});
  // 0x1234 * 16: (1, 2, 3, 4) -> (2, 3, 4 | -1) = 8192 + 768 + 64 - 1 = 9023.
  auto x = cas::teaching::shifted_product(Fmpz(ulong{0x1234}), 1, r, 4, p);
  CHECK(cas::test::equal(x.digits, ints({4, 3, 2, 1})));
  CHECK(cas::test::equal(x.shifted, ints({-1, 4, 3, 2})));
  CHECK(x.product.to_string() == "9023");
  CHECK(cas::teaching::digits_text(x) == "(1, 2, 3, 4)");
  CHECK(cas::teaching::shifted_digits_text(x) == "(2, 3, 4 | -1)");
  CHECK(cas::teaching::normalised_text(x, p) == "9023");
  // 0xF000 * 16 = 15 * 16^4 = -15: negative, so p is added.
  x = cas::teaching::shifted_product(Fmpz(ulong{0xF000}), 1, r, 4, p);
  CHECK(x.value.to_string() == "-15");
  CHECK(cas::teaching::shifted_digits_text(x) == "(0, 0, 0 | -15)");
  CHECK(cas::teaching::normalised_text(x, p) == "-15 + 65537 = 65522");
  // 0x0F00 * 16^3: the wrapped zeros keep their sign; 0 shifts nothing.
  x = cas::teaching::shifted_product(Fmpz(ulong{0x0F00}), 3, r, 4, p);
  CHECK(cas::teaching::shifted_digits_text(x) == "(0 | -0, -15, -0)");
  CHECK(cas::teaching::normalised_text(x, p) == "-240 + 65537 = 65297");
  x = cas::teaching::shifted_product(Fmpz(ulong{0xABCD}), 0, r, 4, p);
  CHECK(cas::teaching::shifted_digits_text(x) == "(10, 11, 12, 13)");
  CHECK(x.product.to_string() == std::to_string(0xABCD));
  // p - 1 = 16^4 = -1: five digits; times 16^2 it is -16^2.
  x = cas::teaching::shifted_product(Fmpz(ulong{65536}), 2, r, 4, p);
  CHECK(cas::teaching::digits_text(x) == "(1, 0, 0, 0, 0)");
  CHECK(cas::teaching::shifted_digits_text(x) == "(0, -1 | -0, -0)");
  CHECK(cas::teaching::normalised_text(x, p) == "-256 + 65537 = 65281");
}

TEST_CASE("the shift trace as text: 8 points modulo 65537 at w = 16", "[teaching][shifts]") {
  const auto t = trace_at(ints({1, 2, 3, 4, 5, 6, 7, 8}), {Fmpz(ulong{16}), 4});
  std::ostringstream out;
  cas::teaching::write_shift_trace(out, t);
  const std::string text = out.str();
  INFO(text);
  CHECK(text.rfind("radix-2 Cooley-Tukey FFT of length 8 over Z/65537Z at w = 16, where 65537 = 16^4 + 1\n", 0) == 0);
  CHECK(text.find("16^4 = -1") != std::string::npos);
  CHECK(text.find("bit reversal: position i takes v[rev(i)]") != std::string::npos);
  CHECK(text.find("stage 3 of 3: pairs (i, i+4) in blocks of 8, twiddle w^j with j = 1*m") != std::string::npos);
  CHECK(text.find("  pair  j      a      b      b in base 16     shifted j places  w^j*b  ->  a + w^j*b  a - w^j*b\n") !=
        std::string::npos);
  CHECK(text.find("  1, 5  1  64509  64509  (15, 11, 15, 13)   (11, 15, 13 | -15)  49089  ->      48061      15420\n") !=
        std::string::npos);
  CHECK(text.find("  after: [36, 48061, 64509, 50109, 65533, 15420, 1020, 17468]\n") != std::string::npos);
}

TEST_CASE("fftsteps with \"shifts\" returns the DFT and refuses what is no shift", "[teaching][shifts][builtins]") {
  Session s;
  CHECK(s.show("v = [1, 2, 3, 4, 5, 6, 7, 8]; fftsteps(v, 16 mod 65537, \"shifts\") == dft(v, 16 mod 65537)") == "true");
  // 17 = 4^2 + 1; in stage 2, b = 16 = 4^2 has three digits, and 4 * 16 = -4 = 13.
  CHECK(s.show("fftsteps([3, 1, 4, 2], 4 mod 17, \"shifts\") == fft([3, 1, 4, 2], 4 mod 17)") == "true");
  CHECK(s.out.str().find("  1, 3  1  16  16    (1, 0, 0)         (-1 | -0)  -4 + 17 = 13  ->") != std::string::npos);
  auto message = [&](const std::string& text) {
    auto e = s.error(text);
    return e ? e->message() : std::string("(no error)");
  };
  CHECK(message("fftsteps([1, 2, 3, 4, 5, 6, 7, 8], 3 mod 65537, \"shifts\")") ==
        "fftsteps: \"shifts\" needs p = w^k + 1 with w the base r: 65537 = 16^4 + 1, so w = 16 (an element of order 8), "
        "not 3");
  CHECK(message("fftsteps([1, 2], 3 mod 65537, \"shifts\")") ==
        "fftsteps: \"shifts\" needs p = w^k + 1 with w the base r: 65537 = 2^16 + 1, so w = 2 (an element of order 32, "
        "for 32 entries), not 3");
  CHECK(message("fftsteps([1, 2, 3, 4], 2 mod 7681, \"shifts\")") ==
        "fftsteps: \"shifts\" needs p = w^k + 1 with w the base r, and 7681 is not r^k + 1 for any r < 2^64 and k >= 2 "
        "a power of two (65537 = 16^4 + 1 is)");
  CHECK(message("fftsteps([1, 2, 3, 4], 16 mod 65537, \"shifts\")") ==
        "fftsteps: \"shifts\" at w = 16 is one DFT of length 2k = 8, as 65537 = 16^4 + 1; v has 4 entries");
  CHECK(message("fftsteps([1, 2], 16 mod 17, \"shift\")") ==
        "fftsteps: the mode must be \"cooley-tukey\", \"stockham\" or \"shifts\", not \"shift\"");
  CHECK(message("fftsteps([1, 2, 3, 4], 16, \"shifts\")") ==
        "fftsteps: the root of unity must be an element of Z/pZ (like 2 mod 17), not 16");
}
