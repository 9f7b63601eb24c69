// The traces of algebra/teaching/teaching.hpp (fftsteps, butterfly, sixstep, evaltable, dftmatrix) in
// FLINT's t-*.c style: on random inputs over random primes below and above 2^64, every
// length 1..64, each trace's result against the DFT computed independently, as the values
// f(w^k) of the polynomial f with coefficients v (fmpz_mod_poly_evaluate_fmpz), and against
// cas::fft; each stage against its own butterflies. Then the lecture's example over Z/17Z
// stage by stage, the grid layout of matrices, the SVG text, and the builtins' errors.
#include "algebra/support/error.hpp"
#include "algebra/values/format.hpp"
#include "algebra/fourier/fourier.hpp"
#include "algebra/integers/integers.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/teaching/teaching.hpp"
#include "algebra/teaching/teaching_svg.hpp"
#include "algebra/teaching/teaching_text.hpp"
#include "flint_support.hpp"
#include "interpreter_support.hpp"

#include <flint/fmpz_mod_poly.h>

#include <set>
#include <string>
#include <vector>

using cas::Fmpz;
using cas::ModulusPtr;
using cas::Value;
using cas::teaching::FftOrdering;
using cas::teaching::Residues;
using cas::test::Random;
using cas::test::random_prime_for_order;
using cas::test::random_residues;
using cas::test::residues_of;
using cas::test::to_value;
using cas::test::equal;
using cas::test::show_residues;
using cas::test::Session;
using cas::test::trials;

namespace {

// A random primitive n-th root of unity: g^(c (p-1)/n) for the generator g and c prime to n.
Value random_root(Random& r, const ModulusPtr& m, ulong n) {
  const Fmpz g = cas::primitive_root(*m);
  Fmpz e, w;
  ulong c;
  do c = 1 + n_randint(r.state, n); while (n_gcd(c, n) != 1);
  fmpz_sub_ui(e.get(), m->value(), 1);
  fmpz_divexact_ui(e.get(), e.get(), n);
  fmpz_mul_ui(e.get(), e.get(), c);
  fmpz_powm(w.get(), g.get(), e.get(), m->value());
  return Value::mod(w.get(), m);
}

// The DFT as evaluation: X_k = f(w^k) for f = sum_j v_j x^j, by FLINT.
Residues dft_by_evaluation(const Residues& v, const Value& w) {
  const ModulusPtr m = w.modulus();
  fmpz_mod_poly_t f;
  fmpz_mod_poly_init(f, m->ctx());
  for (size_t j = 0; j < v.size(); j++) fmpz_mod_poly_set_coeff_fmpz(f, static_cast<slong>(j), v[j].get(), m->ctx());
  Residues X(v.size());
  Fmpz point, exponent;
  for (size_t k = 0; k < v.size(); k++) {
    fmpz_set_ui(exponent.get(), k);
    fmpz_powm(point.get(), w.as_int(), exponent.get(), m->value());
    fmpz_mod_poly_evaluate_fmpz(X[k].get(), f, point.get(), m->ctx());
  }
  fmpz_mod_poly_clear(f, m->ctx());
  return X;
}

Residues ints(std::initializer_list<slong> values) {
  Residues out;
  for (slong v : values) out.emplace_back(v);
  return out;
}

// Each stage's `after` is its butterflies applied to its `before`, every index is read once
// and written once, and the stages chain.
void check_stages(const cas::teaching::FftTrace& t) {
  const ModulusPtr& m = t.modulus;
  Residues current = t.first_stage_input;
  for (const auto& stage : t.stages) {
    REQUIRE(equal(stage.before, current));
    std::set<size_t> reads, writes;
    Fmpz power, product, sum, difference, exponent;
    for (const auto& b : stage.butterflies) {
      reads.insert({b.read_top, b.read_bottom});
      writes.insert({b.write_top, b.write_bottom});
      fmpz_set_ui(exponent.get(), b.twiddle_exponent);
      fmpz_powm(power.get(), t.w.get(), exponent.get(), m->value());
      fmpz_mod_mul(product.get(), stage.before[b.read_bottom].get(), power.get(), m->ctx());
      fmpz_mod_add(sum.get(), stage.before[b.read_top].get(), product.get(), m->ctx());
      fmpz_mod_sub(difference.get(), stage.before[b.read_top].get(), product.get(), m->ctx());
      CHECK(fmpz_equal(sum.get(), stage.after[b.write_top].get()));
      CHECK(fmpz_equal(difference.get(), stage.after[b.write_bottom].get()));
    }
    CHECK(reads.size() == current.size());
    CHECK(writes.size() == current.size());
    current = stage.after;
  }
}

// w^e as an element of Z/pZ.
Value power(const Value& w, ulong e) {
  Fmpz out, exponent(e);
  fmpz_powm(out.get(), w.as_int(), exponent.get(), w.modulus()->value());
  return Value::mod(out.get(), w.modulus());
}

// What stage s holds, independently of the butterflies, with L = 2^s and the root w^(n/L):
//   Cooley-Tukey: block b (entries bL .. bL+L-1) is the DFT_L of v[rev(bL) + m n/L], m < L;
//   Stockham: (DFT_L x I_(n/L)) v, i.e. entry t(n/L) + c is the DFT_L of v[a n/L + c], a < L, at t.
Residues expected_stage(const Residues& v, const Value& w, size_t s, FftOrdering ordering) {
  const size_t n = v.size(), L = size_t{1} << s, stride = n / L;
  const Value root = power(w, stride);
  const auto rev = cas::teaching::bit_reversal(n);
  Residues out(n);
  for (size_t group = 0; group < stride; group++) {
    const size_t first = ordering == FftOrdering::CooleyTukey ? rev[group * L] : group;
    Residues sub;
    for (size_t m = 0; m < L; m++) sub.push_back(v[first + m * stride]);
    const Residues transformed = dft_by_evaluation(sub, root);
    for (size_t t = 0; t < L; t++)
      out[ordering == FftOrdering::CooleyTukey ? group * L + t : t * stride + group] = transformed[t];
  }
  return out;
}

std::vector<Residues> stage_results(const cas::teaching::FftTrace& t) {
  std::vector<Residues> out;
  for (const auto& s : t.stages) out.push_back(s.after);
  return out;
}

const ulong prime_bits[] = {8, 30, 62, 64, 100};

}  // namespace

TEST_CASE("fftsteps' traces agree with fft and the DFT as evaluation, stage by stage", "[teaching][fft]") {
  Random r;
  for (int trial = 0; trial < trials(6); trial++)
    for (ulong bits : prime_bits)
      for (ulong n = 1; n <= 64; n *= 2) {
        const ModulusPtr m = cas::make_modulus(random_prime_for_order(r, bits, n).get());
        const Value w = random_root(r, m, n);
        const Residues v = random_residues(r, m, n);
        const Residues expected = dft_by_evaluation(v, w);
        INFO("p = " << m->to_string() << ", w = " << w.as_int() << ", v = " << show_residues(v));
        for (FftOrdering ordering : {FftOrdering::CooleyTukey, FftOrdering::Stockham}) {
          const auto t = cas::teaching::trace_fft(to_value(v, m), w, ordering, "fftsteps");
          CHECK(t.stages.size() == static_cast<size_t>(__builtin_ctzl(n)));
          CHECK(equal(t.result(), expected));
          CHECK(equal(t.result(), residues_of(cas::fft(to_value(v, m), w))));
          check_stages(t);
          for (size_t stage = 0; stage < t.stages.size(); stage++)
            CHECK(equal(t.stages[stage].after, expected_stage(v, w, stage + 1, ordering)));
        }
      }
}

TEST_CASE("Cooley-Tukey pairs are 2^(s-1) apart in place; Stockham writes (j, j + n/2)", "[teaching][fft]") {
  const ModulusPtr m = cas::make_modulus(257);
  Fmpz w32;  // 3 generates (Z/257Z)*, so 3^(256/32) has order 32
  fmpz_powm_ui(w32.get(), Fmpz(slong{3}).get(), 8, m->value());
  const Value root = Value::mod(w32.get(), m);
  const auto ct = cas::teaching::trace_fft(to_value(Residues(32), m), root, FftOrdering::CooleyTukey, "t");
  const auto st = cas::teaching::trace_fft(to_value(Residues(32), m), root, FftOrdering::Stockham, "t");
  for (size_t s = 0; s < ct.stages.size(); s++)
    for (const auto& b : ct.stages[s].butterflies) {
      CHECK(b.read_bottom - b.read_top == size_t{1} << s);
      CHECK(b.write_top == b.read_top);
      CHECK(b.write_bottom == b.read_bottom);
    }
  for (const auto& stage : st.stages)
    for (const auto& b : stage.butterflies) CHECK(b.write_bottom - b.write_top == 16);
}

TEST_CASE("the lecture's DFT_8 over Z/17Z, stage by stage", "[teaching][fft][lecture]") {
  const ModulusPtr m = cas::make_modulus(17);
  const Value w = Value::mod(Fmpz(slong{2}).get(), m);
  const Value v = to_value(ints({1, 2, 1, 2, 1, 2, 1, 2}), m);
  const auto ct = cas::teaching::trace_fft(v, w, FftOrdering::CooleyTukey, "fftsteps");
  CHECK(ct.bit_reversal == std::vector<size_t>{0, 4, 2, 6, 1, 5, 3, 7});
  CHECK(equal(ct.first_stage_input, ints({1, 1, 1, 1, 2, 2, 2, 2})));
  const auto ct_stages = stage_results(ct);
  REQUIRE(ct_stages.size() == 3);
  CHECK(equal(ct_stages[0], ints({2, 0, 2, 0, 4, 0, 4, 0})));
  CHECK(equal(ct_stages[1], ints({4, 0, 0, 0, 8, 0, 0, 0})));
  CHECK(equal(ct_stages[2], ints({12, 0, 0, 0, 13, 0, 0, 0})));
  const auto st_stages = stage_results(cas::teaching::trace_fft(v, w, FftOrdering::Stockham, "fftsteps"));
  REQUIRE(st_stages.size() == 3);
  CHECK(equal(st_stages[0], ints({2, 4, 2, 4, 0, 0, 0, 0})));
  CHECK(equal(st_stages[1], ints({4, 8, 0, 0, 0, 0, 0, 0})));
  CHECK(equal(st_stages[2], ints({12, 0, 0, 0, 13, 0, 0, 0})));

  const auto six = cas::teaching::trace_six_step(v, w, 2, 4, "sixstep");
  CHECK(equal(six.column_dfts.entries, ints({2, 4, 2, 4, 0, 0, 0, 0})));
  CHECK(equal(six.twiddle_factors.entries, ints({1, 1, 1, 1, 1, 2, 4, 8})));
  CHECK(equal(six.row_dfts.entries, ints({12, 0, 13, 0, 0, 0, 0, 0})));
  CHECK(equal(six.transposed.entries, ints({12, 0, 0, 0, 13, 0, 0, 0})));
  CHECK(equal(six.result, ints({12, 0, 0, 0, 13, 0, 0, 0})));
}

TEST_CASE("bit_reversal is an involution that reverses the binary digits", "[teaching]") {
  for (size_t n = 1; n <= 64; n *= 2) {
    const auto rev = cas::teaching::bit_reversal(n);
    for (size_t i = 0; i < n; i++) {
      CHECK(rev[rev[i]] == i);
      CHECK((n == 1 || (rev[i] & 1) == ((i >> (__builtin_ctzl(n) - 1)) & 1)));
    }
  }
}

TEST_CASE("sixstep agrees with the DFT as evaluation for every J*K = n <= 64", "[teaching][sixstep]") {
  Random r;
  for (int trial = 0; trial < trials(2); trial++)
    for (ulong bits : prime_bits)
      for (ulong n = 1; n <= 64; n++) {
        const ModulusPtr m = cas::make_modulus(random_prime_for_order(r, bits, n).get());
        const Value w = random_root(r, m, n);
        const Residues v = random_residues(r, m, n);
        const Residues expected = dft_by_evaluation(v, w);
        for (ulong J = 1; J <= n; J++) {
          if (n % J) continue;
          INFO("p = " << m->to_string() << ", w = " << w.as_int() << ", J = " << J << ", v = " << show_residues(v));
          const auto t = cas::teaching::trace_six_step(to_value(v, m), w, J, n / J, "sixstep");
          CHECK(equal(t.result, expected));
          CHECK(t.reshaped.rows == J);
          CHECK(t.transposed.rows == n / J);
        }
      }
}

TEST_CASE("evaltable's values are the DFT of the coefficients, and interpolation gives f back", "[teaching]") {
  Random r;
  for (int trial = 0; trial < trials(10); trial++)
    for (ulong bits : prime_bits)
      for (ulong n : {1ul, 2ul, 3ul, 8ul, 12ul, 16ul}) {
        const ModulusPtr m = cas::make_modulus(random_prime_for_order(r, bits, n).get());
        const Value w = random_root(r, m, n);
        const Residues v = random_residues(r, m, n);
        cas::ModPoly f(m);
        for (size_t j = 0; j < n; j++) f.set_coeff(static_cast<slong>(j), v[j].get());
        const auto t = cas::teaching::evaluation_table(f, w, n, "evaltable");
        CHECK(equal(t.values, dft_by_evaluation(v, w)));
        CHECK(cas::equal(t.interpolated, f));
      }
}

TEST_CASE("dft_matrix holds w^(i*j) and dft_exponents i*j mod n", "[teaching][dftmatrix]") {
  const ModulusPtr m = cas::make_modulus(17);
  const auto omega = cas::teaching::dft_matrix(Value::mod(Fmpz(slong{4}).get(), m), 4, "dftmatrix");
  CHECK(equal(omega.entries, ints({1, 1, 1, 1, 1, 4, 16, 13, 1, 16, 1, 16, 1, 13, 16, 4})));
  CHECK(cas::teaching::dft_exponents(3) == std::vector<std::vector<ulong>>{{0, 0, 0}, {0, 1, 2}, {0, 2, 1}});
  CHECK_THROWS_AS(cas::teaching::dft_matrix(Value::mod(Fmpz(slong{2}).get(), m), 4, "dftmatrix"),
                  cas::DomainError);
}

TEST_CASE("matrices print as an aligned grid when asked, and the grid reads back", "[teaching][format]") {
  Session s;
  cas::FormatOptions grid;
  grid.grid = true;
  const Value omega = s.eval("dftmatrix(4, 4 mod 17)");
  CHECK(cas::format(omega, grid) ==
        "[[1,  1,  1,  1],\n"
        " [1,  4, 16, 13],\n"
        " [1, 16,  1, 16],\n"
        " [1, 13, 16,  4]] mod 17");
  CHECK(cas::format(omega) == "[[1, 1, 1, 1], [1, 4, 16, 13], [1, 16, 1, 16], [1, 13, 16, 4]] mod 17");
  CHECK(s.show(cas::format(omega, grid) + " == dftmatrix(4, 4 mod 17)") == "true");
  CHECK(cas::format(s.eval("[[1, -20], [300, 4]]"), grid) == "[[  1, -20],\n [300,   4]]");
  // Not matrices: one row, rows of other lengths, entries that are not numbers.
  CHECK(cas::format(s.eval("[[1, 2, 3]]"), grid) == "[[1, 2, 3]]");
  CHECK(cas::format(s.eval("[[1, 2], [3]]"), grid) == "[[1, 2], [3]]");
  CHECK(cas::format(s.eval("[[x, 2], [3, 4]]"), grid) == "[[x, 2], [3, 4]]");
  // Too large for the REPL's elision: the usual line.
  grid.elide_above = 3;
  CHECK(cas::format(omega, grid).find('\n') == std::string::npos);
}

TEST_CASE("dftmatrix keeps its cas definition and gains the modes", "[teaching][dftmatrix]") {
  Session s;
  CHECK(s.show("dftmatrix(2, -1 mod 5)") == "[[1, 1], [1, 4]] mod 5");
  CHECK(s.show("dftmatrix(4, 4 mod 17, \"powers\")") == "[[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 0, 2], [0, 3, 2, 1]]");
  s.eval("source(dftmatrix)");
  CHECK(s.out.str().find("fn dftmatrix(n, w) {") != std::string::npos);
  // A user's two-argument dftmatrix replaces the stdlib's; a three-argument one would hide the builtin.
  s.eval("fn dftmatrix(n, w) { 42 }");
  CHECK(s.show("dftmatrix(1, 2)") == "42");
  auto e = s.error("fn dftmatrix(n, w, mode) { 1 }");
  REQUIRE(e);
  CHECK(e->message() == "'dftmatrix' is a builtin and cannot be redefined");
  e = s.error("dftmatrix(1, 2, 3, 4)");
  REQUIRE(e);
  CHECK(e->message() == "dftmatrix() takes 2 arguments or 3 arguments (see help(dftmatrix)), not 4");
}

TEST_CASE("the butterfly and matrix pictures", "[teaching][svg]") {
  const ModulusPtr m = cas::make_modulus(17);
  const Value w = Value::mod(Fmpz(slong{2}).get(), m);
  const Value v = to_value(ints({1, 2, 1, 2, 1, 2, 1, 2}), m);
  const std::string svg = cas::teaching::butterfly_svg(cas::teaching::trace_fft(v, w, FftOrdering::CooleyTukey, "b"));
  CHECK(svg.rfind("<?xml", 0) == 0);
  CHECK(svg.find("</svg>") != std::string::npos);
  size_t boxes = 0;
  for (size_t at = svg.find("<rect x="); at != std::string::npos; at = svg.find("<rect x=", at + 1)) boxes++;
  CHECK(boxes == 8 * 4);  // a value on every wire before and after each of the 3 stages
  CHECK(svg.find(">13</text>") != std::string::npos);
  CHECK(svg.find("v[4]") != std::string::npos);
  const auto omega = cas::teaching::dft_matrix(w, 8, "dftmatrix");
  const std::string grid = cas::teaching::dft_matrix_svg(omega, Fmpz(slong{2}), m);
  size_t cells = 0;
  for (size_t at = grid.find("<rect x="); at != std::string::npos; at = grid.find("<rect x=", at + 1)) cells++;
  CHECK(cells == 8 * 8 + 8);  // the matrix and the legend
  CHECK(cas::teaching::is_svg_path("fft8.svg"));
  CHECK(cas::teaching::is_svg_path("dir/FFT.SVG"));
  CHECK_FALSE(cas::teaching::is_svg_path(".svg"));
  CHECK_FALSE(cas::teaching::is_svg_path("powers"));
}

TEST_CASE("the teaching builtins return what fft and dft return", "[teaching][builtins]") {
  Session s;
  CHECK(s.show("fftsteps([1, 2, 1, 2, 1, 2, 1, 2], 2 mod 17)") == "[12, 0, 0, 0, 13, 0, 0, 0] mod 17");
  CHECK(s.show("fftsteps([1, 2, 1, 2, 1, 2, 1, 2], 2 mod 17, \"stockham\")") == "[12, 0, 0, 0, 13, 0, 0, 0] mod 17");
  CHECK(s.show("sixstep([1, 2, 1, 2, 1, 2, 1, 2], 2 mod 17, 4, 2)") == "[12, 0, 0, 0, 13, 0, 0, 0] mod 17");
  CHECK(s.show("sixstep([1, 0, 2, 0, 3, 0], rootofunity(6, 13), 2, 3) == dft([1, 0, 2, 0, 3, 0], rootofunity(6, 13))") ==
        "true");
  CHECK(s.show("evaltable([1, 2, 3, 4, 5, 6, 7, 8], 2 mod 17, 8)") == "[2, 8, 14, 6, 13, 3, 12, 1] mod 17");
  CHECK(s.out.str().find("stage 3 of 3") != std::string::npos);
}

TEST_CASE("the teaching builtins refuse bad input with clear messages", "[teaching][errors]") {
  Session s;
  auto message = [&](const std::string& text) {
    auto e = s.error(text);
    return e ? e->message() : std::string("(no error)");
  };
  CHECK(message("fftsteps([1, 2, 3], 2 mod 17)") ==
        "fftsteps: the length 3 is not a power of two (use dft for other lengths)");
  CHECK(message("fftsteps([1, 2, 3, 4], 2 mod 17)") ==
        "fftsteps: 2 mod 17 is not a primitive 4th root of unity (its 4th power is not 1)");
  CHECK(message("fftsteps([1, 2] mod 5, 16 mod 17)") ==
        "fftsteps: the entries must be integers or elements of Z/17Z, not 1 mod 5");
  CHECK(message("fftsteps(7, 16 mod 17)") == "fftsteps: expected a vector, not an integer");
  CHECK(message("fftsteps([1, 2], 16 mod 17, \"radix4\")") ==
        "fftsteps: the mode must be \"cooley-tukey\", \"stockham\" or \"shifts\", not \"radix4\"");
  CHECK(message("sixstep([1, 2, 3, 4], 4 mod 17, 3, 2)") == "sixstep: J*K = 3*2 = 6 must be the length 4 of v");
  CHECK(message("evaltable(x^8, 2 mod 17, 8)") ==
        "evaltable: deg f = 8 must be less than n = 8 (a DFT of length n holds n coefficients)");
  CHECK(message("evaltable(x mod 5, 2 mod 17, 8)") == "evaltable: f is over Z/5Z but w is in Z/17Z");
  CHECK(message("butterfly([1, 2], 16 mod 17, \"fft.png\")") ==
        "butterfly: argument 3 must be the name of an SVG file, ending in .svg, or an ordering (\"cooley-tukey\" or "
        "\"stockham\"), not \"fft.png\"");
  CHECK(message("butterfly([1, 2], 16 mod 17, \"/nonexistent-dir/fft.svg\")") ==
        "butterfly: cannot write '/nonexistent-dir/fft.svg' (No such file or directory)");
  CHECK(message("dftmatrix(4, 4 mod 17, \"grid\")") ==
        "dftmatrix: the mode must be \"powers\", \"svg\" or the name of an SVG file (ending in .svg), not \"grid\"");
  CHECK(message("dftmatrix(4, 2 mod 17, \"powers\")") ==
        "dftmatrix: 2 mod 17 is not a primitive 4th root of unity (its 4th power is not 1)");
}
