#include "algebra/poly/roots.hpp"

#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/poly/division.hpp"
#include "algebra/poly/euclid.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/support/error.hpp"
#include "algebra/support/parallel.hpp"
#include "algebra/support/progress.hpp"

#include <flint/flint.h>
#include <flint/ulong_extras.h>

#include <algorithm>

namespace cas {

namespace {

// Factors shorter than this go to FLINT's roots: the splitting on cas's powmod and gcd is as fast
// down to there (2^13 terms on two cores: 606 ms with 16, 633 with 32, 757 with 512;
// docs/measurements.md, "Roots over Z/pZ against FLINT").
constexpr slong split_flint_below = 32;

// x + a over the ring of h.
ModPoly x_plus(const fmpz_t a, const ModulusPtr& m) {
  ModPoly r = modpoly_x(m);
  r.set_coeff(0, a);
  return r;
}

// FLINT's random state, seeded alike for every call: the splitting's choices, and so its time,
// repeat from run to run (its result does not depend on them).
struct SplittingRandom {
  flint_rand_t state;
  SplittingRandom() { flint_randinit(state); }
  explicit SplittingRandom(ulong seed) {
    flint_randinit(state);
    flint_randseed(state, seed, seed ^ 0x9e3779b97f4a7c15ull);
  }
  ~SplittingRandom() { flint_randclear(state); }
  SplittingRandom(const SplittingRandom&) = delete;
  SplittingRandom& operator=(const SplittingRandom&) = delete;
};

// Whether the two factors of h may split side by side on the cores: when no product of their
// splitting can reach the GPU, whose engine takes one caller at a time. Their products are at most
// twice h's length (powmod's squares, Newton's divisions); four times it leaves a margin.
bool split_side_by_side(const ModPoly& h) {
  if (!gpu_usable() || gpu_mode() == GpuMode::Off) return true;
  if (!h.word()) return false;
  const std::uint64_t p = h.modulus()->word();
  const size_t longest = 4 * static_cast<size_t>(h.length());
  return !use_gpu(for_modulus(GpuOperation::ProductNttPrime, p), longest) &&
         !use_gpu(for_modulus(GpuOperation::ProductCrt, p), longest);
}

// A proper factor of h: gcd((x + a)^((p-1)/2) - 1, h) for random a until one splits.
ModPoly split_off_factor(const ModPoly& h, SplittingRandom& random) {
  const ModulusPtr& m = h.modulus();
  Fmpz half, a, unit(1);
  fmpz_sub_ui(half.get(), m->value(), 1);
  fmpz_fdiv_q_2exp(half.get(), half.get(), 1);
  for (;;) {
    fmpz_randm(a.get(), random.state, m->value());
    const ModPoly w = powmod(x_plus(a.get(), m), half.get(), h);
    ModPoly d = gcd(sub(w, modpoly_constant(unit.get(), m)), h);
    if (d.length() > 1 && d.length() < h.length()) return d;
  }
}

// The roots of h, monic and a product of distinct linear factors, p odd. The two factors of a
// split are independent: below the GPU's crossovers they split side by side on the cores, each
// with its own random state drawn from this one.
void split(const ModPoly& h, slong flint_below, SplittingRandom& random, std::vector<Fmpz>& out) {
  if (h.length() <= 1) return;
  if (h.length() < flint_below || h.length() == 2) {
    for (Fmpz& r : roots_flint(h)) out.push_back(std::move(r));
    return;
  }
  const ModPoly d = split_off_factor(h, random);
  const ModPoly factors[2] = {d, exact_div(h, d)};
  if (!split_side_by_side(h)) {
    for (const ModPoly& factor : factors) split(factor, flint_below, random, out);
    return;
  }
  const ulong seeds[2] = {n_randlimb(random.state), n_randlimb(random.state)};
  std::vector<Fmpz> found[2];
  each_on_cores(2, [&](size_t i) {
    SplittingRandom own(seeds[i]);
    split(factors[i], flint_below, own, found[i]);
  });
  for (std::vector<Fmpz>& roots : found)
    for (Fmpz& r : roots) out.push_back(std::move(r));
}

}  // namespace

std::vector<Fmpz> roots_by_splitting(const ModPoly& f, slong flint_below) {
  const ModulusPtr& m = f.modulus();
  std::vector<Fmpz> out;
  if (fmpz_cmp_ui(m->value(), 2) == 0) {  // only 0 and 1, each tried
    for (slong r : {0, 1}) {
      Fmpz at(r), value;
      evaluate(value.get(), f, at.get());
      if (fmpz_is_zero(value.get())) out.push_back(at);
    }
    return out;
  }
  const ModPoly g = make_monic(f);
  const ModPoly x = modpoly_x(m);
  // The distinct linear factors of g: gcd(x^p - x, g).
  const ModPoly linear = gcd(sub(powmod(x, m->value(), g), x), g);
  SplittingRandom random;
  split(linear, flint_below, random, out);
  std::sort(out.begin(), out.end(), [](const Fmpz& a, const Fmpz& b) { return fmpz_cmp(a.get(), b.get()) < 0; });
  return out;
}

std::vector<Fmpz> roots(const ModPoly& f) {
  f.modulus()->require_field("roots");
  if (f.is_zero()) throw DomainError("roots: every element is a root of the zero polynomial");
  if (static_cast<size_t>(f.length()) < algorithm_crossover(AlgorithmCrossover::Roots)) return roots_flint(f);
  OperationDetail d;
  d.length1 = static_cast<size_t>(f.length());
  d.modulus = f.word() ? f.modulus()->word() : 0;
  d.modulus_bits = static_cast<unsigned>(fmpz_bits(f.modulus()->value()));
  engine_explain("roots by splitting", static_cast<double>(f.length()), d);
  const ProgressScope progress("roots by splitting", static_cast<double>(f.length()));
  return roots_by_splitting(f, split_flint_below);
}

}  // namespace cas
