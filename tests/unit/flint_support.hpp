#pragma once
// Helpers of the randomised tests (FLINT's t-*.c style): FLINT's random state, initialised
// and cleared with the test that owns it, random primes and residues, and vectors of residues
// converted, compared and printed.
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/support/error.hpp"
#include "algebra/support/flint_util.hpp"
#include "algebra/fourier/fourier.hpp"
#include "algebra/poly/zpoly.hpp"
#include "algebra/values/value.hpp"
#include "gpu/ntt.hpp"
#include "gpu/ranks.hpp"

#include <catch2/catch.hpp>
#include <flint/flint.h>
#include <flint/fmpz_mod_poly.h>
#include <flint/fmpz_poly.h>
#include <flint/ulong_extras.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace cas::test {

// True, after a visible SKIPPED warning naming what goes untested, when no CUDA device answers.
inline bool skipped_without_gpu(const char* untested) {
  if (gpu_usable()) return false;
  WARN("SKIPPED: no CUDA device; " << untested << " is not exercised");
  return true;
}

// The GPUs that share multi-modular work: the MPI ranks' under mpirun (gpu/ranks.hpp), else this
// process's devices.
inline int sharing_gpus() {
  const int ranks = gpu::sharing_ranks();
  return ranks > 1 ? ranks : gpu::device_count();
}

// Restores the GPU mode of before when the test ends (and sets `mode` for it, when given).
struct ModeGuard {
  GpuMode saved = gpu_mode();
  ModeGuard() = default;
  explicit ModeGuard(GpuMode mode) { set_gpu_mode(mode); }
  ~ModeGuard() { set_gpu_mode(saved); }
  ModeGuard(const ModeGuard&) = delete;
  ModeGuard& operator=(const ModeGuard&) = delete;
};

// Sets the crossover of one algorithm for the test, and restores the crossovers of before when
// the test ends.
struct AlgorithmCrossoverGuard {
  Crossovers saved = crossovers();
  AlgorithmCrossoverGuard(AlgorithmCrossover a, size_t from) {
    Crossovers c = saved;
    c.algorithm_from[static_cast<size_t>(a)] = from;
    set_crossovers(c);
  }
  ~AlgorithmCrossoverGuard() { set_crossovers(saved); }
  AlgorithmCrossoverGuard(const AlgorithmCrossoverGuard&) = delete;
  AlgorithmCrossoverGuard& operator=(const AlgorithmCrossoverGuard&) = delete;
};

// Whether the current statement noted `what` (engine_note or engine_explain) among its first notes.
inline bool noted(const char* what) {
  for (const EngineNote& n : engine_notes())
    if (std::string(n.what) == what) return true;
  return false;
}

struct Random {
  flint_rand_t state;
  Random() { flint_randinit(state); }
  ~Random() { flint_randclear(state); }
  Random(const Random&) = delete;
  Random& operator=(const Random&) = delete;
};

// A random prime p = c*n + 1 with c of about `bits_of_c` bits: Z/pZ has primitive n-th roots of unity.
inline Fmpz random_prime_for_order(Random& r, ulong bits_of_c, ulong n) {
  Fmpz p;
  do {
    fmpz_randbits(p.get(), r.state, static_cast<slong>(bits_of_c));
    fmpz_abs(p.get(), p.get());
    fmpz_mul_ui(p.get(), p.get(), n);
    fmpz_add_ui(p.get(), p.get(), 1);
  } while (fmpz_cmp_ui(p.get(), 3) < 0 || !fmpz_is_probabprime(p.get()));
  return p;
}

// FLINT's random state seeded afresh for every test, or from CAS_TEST_SEED (print `seed` in an
// INFO so that a failure can be replayed).
struct FreshRandom {
  Random random;
  ulong seed;
  FreshRandom() {
    const char* fixed = std::getenv("CAS_TEST_SEED");
    seed = fixed ? std::strtoul(fixed, nullptr, 10) : std::random_device{}();
    flint_randseed(random.state, seed, seed ^ 0x9e3779b97f4a7c15ull);
  }
  flint_rand_t& state() { return random.state; }
};

// check(state) on fresh random inputs (their seed in the report) with the GPU in `mode`.
inline void check_in_mode(GpuMode mode, void (*check)(flint_rand_t)) {
  FreshRandom random;
  INFO("seed " << random.seed);
  ModeGuard guard(mode);
  check(random.state());
}

// Moduli for the randomised tests over Z/pZ, by kind (0 <= kind < test_modulus_kinds): 2, 3, a
// random prime of 5 to 16 bits, 998244353 (2^23 | p - 1), 2^64 - 59, a random prime of 32 to 63
// bits, the first prime above 2^64..2^193.
constexpr int test_modulus_kinds = 7;
inline ModulusPtr test_modulus(flint_rand_t state, int kind) {
  switch (kind) {
    case 0: return make_modulus(ulong{2});
    case 1: return make_modulus(ulong{3});
    case 2: return make_modulus(n_randprime(state, 5 + n_randint(state, 12), 1));
    case 3: return make_modulus(ulong{998244353});
    case 4: return make_modulus(ulong{18446744073709551557ull});
    case 5: return make_modulus(n_randprime(state, 32 + n_randint(state, 32), 1));
    default: {
      Fmpz p;
      fmpz_one(p.get());
      fmpz_mul_2exp(p.get(), p.get(), 64 + n_randint(state, 130));
      fmpz_nextprime(p.get(), p.get(), 1);
      return make_modulus(p.get());
    }
  }
}

// Exactly `length` terms of up to `bits` bits: FLINT's randtest (runs of zeros, +-(2^k - 1)), the
// last term set where randtest's vector ended early.
inline ZPoly random_zpoly_of_length(flint_rand_t state, slong length, ulong bits) {
  ZPoly f;
  fmpz_poly_randtest(f.get(), state, length, bits);
  if (f.length() < length) fmpz_poly_set_coeff_si(f.get(), length - 1, 1 + static_cast<slong>(n_randint(state, 1000)));
  return f;
}

// `length` uniform random coefficients, the leading one nonzero (1 where it came out 0).
inline ModPoly random_modpoly(flint_rand_t state, const ModulusPtr& m, slong length) {
  ModPoly f(m);
  Fmpz c;
  for (slong i = 0; i < length; i++) {
    fmpz_randm(c.get(), state, m->value());
    if (i + 1 == length && fmpz_is_zero(c.get())) fmpz_one(c.get());
    f.set_coeff(i, c.get());
  }
  return f;
}

inline std::vector<Fmpz> random_residues(Random& r, const ModulusPtr& m, size_t n) {
  std::vector<Fmpz> v(n);
  for (auto& x : v) fmpz_randm(x.get(), r.state, m->value());
  return v;
}

// The vector of Z/pZ elements with these residues, and back.
// 2^a + 2^b: the bases of the generalized Fermat primes of the seed, (2^63 + 2^34)^8 + 1 and
// (2^62 + 2^36)^16 + 1.
inline Fmpz two_powers(ulong a, ulong b) {
  Fmpz r, term;
  fmpz_one(r.get());
  fmpz_mul_2exp(r.get(), r.get(), a);
  fmpz_one(term.get());
  fmpz_mul_2exp(term.get(), term.get(), b);
  fmpz_add(r.get(), r.get(), term.get());
  return r;
}

// (2^a + 2^b)^k + 1: P3 = (2^63 + 2^34)^8 + 1 and P4 = (2^62 + 2^36)^16 + 1 of the big-prime-field
// seed are generalized_fermat(63, 34, 8) and generalized_fermat(62, 36, 16).
inline Fmpz generalized_fermat(ulong a, ulong b, ulong k) {
  Fmpz p = two_powers(a, b);
  fmpz_pow_ui(p.get(), p.get(), k);
  fmpz_add_ui(p.get(), p.get(), 1);
  return p;
}

inline Value to_value(const std::vector<Fmpz>& residues, const ModulusPtr& m) { return residue_vector(residues, m); }

inline std::vector<Fmpz> residues_of(const Value& v) {
  std::vector<Fmpz> out;
  for (const Value& e : v.as_vec()) {
    REQUIRE(e.is(Kind::Mod));
    out.emplace_back(e.as_int());
  }
  return out;
}

inline bool equal(const std::vector<Fmpz>& a, const std::vector<Fmpz>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++)
    if (!fmpz_equal(a[i].get(), b[i].get())) return false;
  return true;
}

inline std::string show_residues(const std::vector<Fmpz>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); i++) s += (i ? ", " : "") + v[i].to_string();
  return s + "]";
}

// X_k = sum_j v_j w^(jk), straight from the definition.
inline std::vector<Fmpz> dft_by_definition(const std::vector<Fmpz>& v, const fmpz* w, const ModulusPtr& m) {
  const size_t n = v.size();
  std::vector<Fmpz> X(n);
  Fmpz wk, power, term;
  fmpz_one(wk.get());
  for (size_t k = 0; k < n; k++) {
    fmpz_one(power.get());
    for (size_t j = 0; j < n; j++) {
      fmpz_mod_mul(term.get(), v[j].get(), power.get(), m->ctx());
      fmpz_mod_add(X[k].get(), X[k].get(), term.get(), m->ctx());
      fmpz_mod_mul(power.get(), power.get(), wk.get(), m->ctx());
    }
    fmpz_mod_mul(wk.get(), wk.get(), w, m->ctx());
  }
  return X;
}

// The product of the polynomials with coefficients a and b, folded modulo x^n -+ 1.
inline std::vector<Fmpz> convolution_by_flint(const std::vector<Fmpz>& a, const std::vector<Fmpz>& b,
                                              const ModulusPtr& m, bool negacyclic) {
  const size_t n = a.size();
  fmpz_mod_poly_t pa, pb, product;
  fmpz_mod_poly_init(pa, m->ctx());
  fmpz_mod_poly_init(pb, m->ctx());
  fmpz_mod_poly_init(product, m->ctx());
  for (size_t i = 0; i < n; i++) {
    fmpz_mod_poly_set_coeff_fmpz(pa, static_cast<slong>(i), a[i].get(), m->ctx());
    fmpz_mod_poly_set_coeff_fmpz(pb, static_cast<slong>(i), b[i].get(), m->ctx());
  }
  fmpz_mod_poly_mul(product, pa, pb, m->ctx());
  std::vector<Fmpz> c(n);
  Fmpz coefficient;
  for (slong k = 0; k < fmpz_mod_poly_length(product, m->ctx()); k++) {
    fmpz_mod_poly_get_coeff_fmpz(coefficient.get(), product, k, m->ctx());
    Fmpz& slot = c[static_cast<size_t>(k) % n];
    if (negacyclic && static_cast<size_t>(k) >= n)
      fmpz_mod_sub(slot.get(), slot.get(), coefficient.get(), m->ctx());
    else
      fmpz_mod_add(slot.get(), slot.get(), coefficient.get(), m->ctx());
  }
  fmpz_mod_poly_clear(pa, m->ctx());
  fmpz_mod_poly_clear(pb, m->ctx());
  fmpz_mod_poly_clear(product, m->ctx());
  return c;
}

// The message of the DomainError `body` throws ("" when none).
template <class Body>
std::string domain_error(Body&& body) {
  try {
    body();
  } catch (const DomainError& e) {
    return e.what();
  }
  return "";
}

// The oracle of f // g and f % g in Z[x] (g != 0): by a constant, fmpz_fdiv_qr of every
// coefficient, as for integers; by a longer g, FLINT's fmpz_poly_divrem.
inline void zpoly_divrem_oracle(fmpz_poly_t q, fmpz_poly_t r, const fmpz_poly_t f, const fmpz_poly_t g) {
  if (fmpz_poly_length(g) != 1) {
    fmpz_poly_divrem(q, r, f, g);
    return;
  }
  fmpz_poly_zero(q);
  fmpz_poly_zero(r);
  Fmpz qi, ri;
  for (slong i = 0; i < fmpz_poly_length(f); i++) {
    fmpz_fdiv_qr(qi.get(), ri.get(), f->coeffs + i, g->coeffs);
    fmpz_poly_set_coeff_fmpz(q, i, qi.get());
    fmpz_poly_set_coeff_fmpz(r, i, ri.get());
  }
}

}  // namespace cas::test
