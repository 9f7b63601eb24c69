// fft, ifft, convolve and negaconvolve modulo primes of 2 to 16 words on the route the dispatcher
// picks (algebra/fourier/fourier.cpp): the GPU's big-prime kernels from transform.big_prime where a
// device answers, the CPU's radix-2 transform otherwise, against the DFT by its definition and
// FLINT's products folded; the engine each names; the messages of bad lengths, roots and entries
// the same on both routes; and through the interpreter, the same values with the GPU off and on.
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/fourier/big_prime_words.hpp"
#include "algebra/fourier/fourier.hpp"
#include "algebra/integers/generalized_fermat.hpp"
#include "flint_support.hpp"
#include "interpreter_support.hpp"

#include <flint/ulong_extras.h>

#include <functional>
#include <string>
#include <vector>

using cas::Fmpz;
using cas::GpuMode;
using cas::GpuOperation;
using cas::ModulusPtr;
using cas::Value;
using cas::test::convolution_by_flint;
using cas::test::dft_by_definition;
using cas::test::domain_error;
using cas::test::equal;
using cas::test::ModeGuard;
using cas::test::noted;
using cas::test::Random;
using cas::test::residues_of;
using cas::test::show_residues;
using cas::test::to_value;

namespace {

Fmpz from_decimal(const char* digits) {
  Fmpz p;
  fmpz_set_str(p.get(), digits, 10);
  return p;
}

// Primes of 2, 3, 5, 8 and 16 words with roots of unity of order 2^32 at least: (2^63 + 53) 2^64 + 1,
// q 2^40 + 1 and q 2^32 + 1 for large odd q, P3 and P4.
std::vector<ModulusPtr> big_primes() {
  return {cas::make_modulus(from_decimal("170141183460469232709364739622490341377").get()),
          cas::make_modulus(from_decimal("1045195254955431189684233010339143616308390551848491155457").get()),
          cas::make_modulus(from_decimal("63292105558801849413194210964389487545509260027153420840709991002431175075553"
                                         "08294102843393")
                                .get()),
          cas::make_modulus(cas::test::generalized_fermat(63, 34, 8).get()),
          cas::make_modulus(cas::test::generalized_fermat(62, 36, 16).get())};
}

// Sets transform.big_prime and product.big_prime for the test; the crossovers of before after it.
struct BigPrimeCrossovers {
  cas::Crossovers saved = cas::crossovers();
  BigPrimeCrossovers(size_t transform_from, size_t product_from) {
    cas::Crossovers c = saved;
    c.length[static_cast<size_t>(GpuOperation::TransformBigPrime)] = transform_from;
    c.length[static_cast<size_t>(GpuOperation::ProductBigPrime)] = product_from;
    cas::set_crossovers(c);
  }
  ~BigPrimeCrossovers() { cas::set_crossovers(saved); }
  BigPrimeCrossovers(const BigPrimeCrossovers&) = delete;
  BigPrimeCrossovers& operator=(const BigPrimeCrossovers&) = delete;
};

// Whether a transform or convolution of length n goes to the big-prime kernels: a device, the mode,
// and n >= 2 from the crossover (n a power of two, p prime: the callers' inputs).
bool on_big_prime_gpu(size_t n) { return n >= 2 && cas::use_gpu(GpuOperation::TransformBigPrime, n); }

// The engine an fft of length n modulo m notes: the CPU's, or on the GPU the kernels for r^k + 1
// (P3 and P4, whose k is their number of words) or the generic ones.
const char* transform_engine(const ModulusPtr& m, size_t n) {
  if (!on_big_prime_gpu(n)) return "cpu ntt";
  const auto form = cas::generalized_fermat_form(Fmpz(m->value()));
  const bool shifts = form && form->k == cas::big_prime_limbs(*m) && n <= (size_t{1} << 26);
  return shifts ? "gpu generalized-fermat ntt" : "gpu big-prime ntt";
}

// A random primitive n-th root of unity: a power of the least one by a random odd exponent.
Value random_root(Random& r, const ModulusPtr& m, ulong n) {
  Fmpz w;
  REQUIRE(cas::find_root_of_unity(w, *m, n));
  fmpz_powm_ui(w.get(), w.get(), 2 * n_randint(r.state, 1000) + 1, m->value());
  return Value::mod(w.get(), m);
}

// n random residues with 0 and p - 1 among the first.
std::vector<Fmpz> residues_with_edges(Random& r, const ModulusPtr& m, size_t n) {
  std::vector<Fmpz> v = cas::test::random_residues(r, m, n);
  if (n > 1) fmpz_zero(v[1].get());
  if (n > 2) fmpz_sub_ui(v[2].get(), m->value(), 1);
  return v;
}

// The same residues as integers moved by multiples of p of either sign.
Value as_integers(const std::vector<Fmpz>& residues, const ModulusPtr& m) {
  std::vector<Value> items;
  for (size_t i = 0; i < residues.size(); i++) {
    Fmpz shifted;
    fmpz_mul_si(shifted.get(), m->value(), static_cast<slong>(i % 5) - 2);
    fmpz_add(shifted.get(), shifted.get(), residues[i].get());
    items.push_back(Value::integer(shifted.get()));
  }
  return Value::vec(std::move(items));
}

}  // namespace

TEST_CASE("fft and ifft modulo primes of 2 to 16 words agree with the DFT on the route chosen",
          "[fourier][fft][big_prime]") {
  const GpuMode mode = GENERATE(GpuMode::Off, GpuMode::Auto, GpuMode::On);
  ModeGuard guard(mode);
  const BigPrimeCrossovers crossovers(8, cas::never_on_gpu);
  Random r;
  for (const ModulusPtr& m : big_primes()) {
    for (size_t n = 1; n <= 64; n *= 2) {
      const Value w = random_root(r, m, n);
      const std::vector<Fmpz> v = residues_with_edges(r, m, n);
      INFO("mode " << cas::gpu_mode_name(mode) << ", p = " << m->to_string() << ", w = "
                   << cas::fmpz_to_string(w.as_int()) << ", v = " << show_residues(v));
      cas::engine_reset();
      const std::vector<Fmpz> X = residues_of(cas::fft(to_value(v, m), w));
      CHECK(noted(transform_engine(m, n)));
      CHECK(equal(X, dft_by_definition(v, w.as_int(), m)));
      CHECK(equal(residues_of(cas::fft(as_integers(v, m), w)), X));
      cas::engine_reset();
      CHECK(equal(residues_of(cas::ifft(to_value(X, m), w)), v));
      CHECK(noted("ifft"));
      CHECK(noted(transform_engine(m, n)));
    }
  }
}

TEST_CASE("convolve and negaconvolve modulo primes of 2 to 16 words agree with FLINT on the route chosen",
          "[fourier][convolve][big_prime]") {
  const GpuMode mode = GENERATE(GpuMode::Off, GpuMode::Auto, GpuMode::On);
  ModeGuard guard(mode);
  const BigPrimeCrossovers crossovers(8, cas::never_on_gpu);
  Random r;
  for (const ModulusPtr& m : big_primes()) {
    for (size_t n = 1; n <= 64; n *= 2) {
      const std::vector<Fmpz> a = residues_with_edges(r, m, n), b = cas::test::random_residues(r, m, n);
      for (bool negacyclic : {false, true}) {
        INFO("mode " << cas::gpu_mode_name(mode) << ", p = " << m->to_string() << ", n = " << n
                     << (negacyclic ? ", negaconvolve" : ", convolve"));
        cas::engine_reset();
        const Value c = cas::convolve(to_value(a, m), as_integers(b, m), negacyclic);
        CHECK(noted(on_big_prime_gpu(n) ? "gpu big-prime convolution" : "cpu ntt"));
        CHECK(noted(negacyclic ? "negacyclic convolution by fft" : "cyclic convolution by fft"));
        CHECK(equal(residues_of(c), convolution_by_flint(a, b, m, negacyclic)));
      }
    }
  }
}

// Where the GPU cannot take it, the CPU does, whatever the mode: no root of unity of order 2n for
// a negacyclic convolution (2^127 - 1 = 3 mod 4), a composite modulus of 8 words (3 P3: the radix-2
// transform at w = -1 of length 2 is still defined), a power of two past the GPU's crossover not
// reached in auto mode.
TEST_CASE("big-prime routes: the CPU where the GPU's kernels do not apply", "[fourier][big_prime]") {
  const GpuMode mode = GENERATE(GpuMode::Auto, GpuMode::On);
  ModeGuard guard(mode);
  const BigPrimeCrossovers crossovers(2, cas::never_on_gpu);
  Random r;
  Fmpz mersenne;
  fmpz_one(mersenne.get());
  fmpz_mul_2exp(mersenne.get(), mersenne.get(), 127);
  fmpz_sub_ui(mersenne.get(), mersenne.get(), 1);
  const ModulusPtr m127 = cas::make_modulus(mersenne.get());
  const std::vector<Fmpz> a = cas::test::random_residues(r, m127, 4), b = cas::test::random_residues(r, m127, 4);
  cas::engine_reset();
  CHECK(equal(residues_of(cas::convolve(to_value(a, m127), to_value(b, m127), true)),
              convolution_by_flint(a, b, m127, true)));
  CHECK(noted("negacyclic convolution by product"));
  CHECK_FALSE(noted("gpu big-prime convolution"));

  Fmpz three_p3 = cas::test::generalized_fermat(63, 34, 8);
  fmpz_mul_ui(three_p3.get(), three_p3.get(), 3);
  const ModulusPtr composite = cas::make_modulus(three_p3.get());
  Fmpz minus_one;
  fmpz_sub_ui(minus_one.get(), composite->value(), 1);
  const Value w = Value::mod(minus_one.get(), composite);
  const std::vector<Fmpz> v = cas::test::random_residues(r, composite, 2);
  cas::engine_reset();
  CHECK(equal(residues_of(cas::fft(to_value(v, composite), w)), dft_by_definition(v, w.as_int(), composite)));
  CHECK(noted("cpu ntt"));
  CHECK_FALSE(noted("gpu big-prime ntt"));
}

// The messages of bad lengths, roots and entries are those of the CPU's route, with the GPU's route
// asked for from length 2 (mode on, and auto from that crossover).
TEST_CASE("big-prime routes: the same messages for bad lengths, roots and entries", "[fourier][big_prime][errors]") {
  const BigPrimeCrossovers crossovers(2, cas::never_on_gpu);
  const ModulusPtr m = cas::make_modulus(cas::test::generalized_fermat(63, 34, 8).get());
  auto element = [&](slong e) { return Value::mod_reduce(Fmpz(e).get(), m); };
  auto vector_of = [&](size_t n) {
    std::vector<Value> items;
    for (size_t i = 0; i < n; i++) items.push_back(element(static_cast<slong>(i * i) - 5));
    return Value::vec(std::move(items));
  };
  Fmpz root8, root16;
  REQUIRE(cas::find_root_of_unity(root8, *m, 8));
  REQUIRE(cas::find_root_of_unity(root16, *m, 16));
  const Value w8 = Value::mod(root8.get(), m), w16 = Value::mod(root16.get(), m);
  Value with_string = vector_of(8);
  with_string.vec_mut()[5] = Value::str("five");
  Value with_other_ring = vector_of(8);
  with_other_ring.vec_mut()[3] = Value::mod_reduce(Fmpz(slong{3}).get(), cas::make_modulus(17));
  const std::vector<std::function<void()>> failing = {
      [&] { cas::fft(vector_of(6), w8); },
      [&] { cas::fft(vector_of(8), w16); },
      [&] { cas::ifft(vector_of(8), w16); },
      [&] { cas::fft(vector_of(8), element(1)); },
      [&] { cas::fft(with_string, w8); },
      [&] { cas::ifft(with_other_ring, w8); },
      [&] { cas::convolve(vector_of(8), vector_of(4), false); },
      [&] { cas::convolve(vector_of(8), with_string, true); },
      [&] { cas::convolve(with_other_ring, with_string, false); },
      [&] { cas::convolve(vector_of(8), Value::integer(slong{3}), false); },
  };
  for (size_t i = 0; i < failing.size(); i++) {
    std::string on_cpu;
    {
      ModeGuard off(GpuMode::Off);
      on_cpu = domain_error(failing[i]);
    }
    INFO("case " << i << ": " << on_cpu);
    CHECK_FALSE(on_cpu.empty());
    for (GpuMode mode : {GpuMode::Auto, GpuMode::On}) {
      ModeGuard guard(mode);
      CHECK(domain_error(failing[i]) == on_cpu);
    }
  }
}

TEST_CASE("fft, ifft, convolve modulo P3 in cas: the same values with the GPU off and on",
          "[builtins][fourier][big_prime]") {
  cas::test::Session s;
  s.eval("p = (2^63 + 2^34)^8 + 1; w = rootofunity(16, p); v = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3] mod p");
  s.eval("u = [2, -7, 1, 8, 2, 8, 1, 8, 2, 8, 4, 5, 9, 0, 4, 5]");
  s.eval("gpu(\"off\"); X = fft(v, w); Y = ifft(X, w); C = convolve(v, u); N = negaconvolve(u, v)");
  CHECK(cas::test::holds(s, "X == dft(v, w) and Y == v and fft(u, w) == dft(u, w) and ifft(v, w) == idft(v, w)"));
  s.eval("gpu(\"on\")");
  CHECK(cas::test::holds(s, "fft(v, w) == X and ifft(X, w) == Y and convolve(v, u) == C and negaconvolve(u, v) == N"));
  CHECK(cas::test::holds(s, "fft(u, w) == dft(u, w) and ifft(fft(u, w), w) == (u mod p)"));
  // A convolution is the product folded: its first entry by hand.
  CHECK(cas::test::holds(s, "C[0] == ((3*2 + 1*5 + 4*4 + 1*0 + 5*9 + 9*5 + 2*4 + 6*8 + 5*2 + 3*8 + 5*1 + 8*8 + "
                            "9*2 + 7*8 + 9*1 + 3*(-7)) mod p)"));
}
