#include "algebra/poly/roots.hpp"

#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/poly/division.hpp"
#include "algebra/poly/euclid.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/support/error.hpp"

#include <flint/flint.h>

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
  ~SplittingRandom() { flint_randclear(state); }
  SplittingRandom(const SplittingRandom&) = delete;
  SplittingRandom& operator=(const SplittingRandom&) = delete;
};

// The roots of h, monic and a product of distinct linear factors, p odd.
void split(const ModPoly& h, slong flint_below, SplittingRandom& random, std::vector<Fmpz>& out) {
  if (h.length() <= 1) return;
  if (h.length() < flint_below || h.length() == 2) {
    for (Fmpz& r : roots_flint(h)) out.push_back(std::move(r));
    return;
  }
  const ModulusPtr& m = h.modulus();
  Fmpz half, a, unit(1);
  fmpz_sub_ui(half.get(), m->value(), 1);
  fmpz_fdiv_q_2exp(half.get(), half.get(), 1);
  for (;;) {
    fmpz_randm(a.get(), random.state, m->value());
    const ModPoly w = powmod(x_plus(a.get(), m), half.get(), h);
    const ModPoly d = gcd(sub(w, modpoly_constant(unit.get(), m)), h);
    if (d.length() > 1 && d.length() < h.length()) {
      split(d, flint_below, random, out);
      split(exact_div(h, d), flint_below, random, out);
      return;
    }
  }
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
  if (static_cast<size_t>(f.length()) < roots_from) return roots_flint(f);
  OperationDetail d;
  d.length1 = static_cast<size_t>(f.length());
  d.modulus = f.word() ? f.modulus()->word() : 0;
  d.modulus_bits = static_cast<unsigned>(fmpz_bits(f.modulus()->value()));
  engine_explain("roots by splitting", static_cast<double>(f.length()), d);
  return roots_by_splitting(f, split_flint_below);
}

}  // namespace cas
