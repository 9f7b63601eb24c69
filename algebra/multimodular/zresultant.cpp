#include "algebra/multimodular/zresultant.hpp"

#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/support/error.hpp"
#include "algebra/support/flint_util.hpp"
#include "algebra/support/parallel.hpp"
#include "algebra/support/progress.hpp"
#include "gpu/crt.hpp"
#include "gpu/euclid_words.hpp"
#include "gpu/ntt.hpp"

#include <flint/nmod_poly.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace cas {

namespace {

// log2 |f|_2 = log2(sum f_i^2) / 2, to double precision.
double log2_norm(const ZPoly& f) {
  Fmpz squares;
  for (slong i = 0; i < f.length(); i++) fmpz_addmul(squares.get(), f.coeff(i), f.coeff(i));
  slong exponent = 0;
  const double mantissa = fmpz_get_d_2exp(&exponent, squares.get());  // in [1/2, 1)
  return (static_cast<double>(exponent) + std::log2(mantissa)) / 2;
}

const fmpz* leading(const ZPoly& f) { return f.coeff(f.length() - 1); }

// 62-bit primes, dividing neither leading coefficient, whose product has at least needed_bits
// bits. A prime's log2 is taken a little low, so the sum never overstates the product.
std::vector<ulong> resultant_primes(ulong needed_bits, const fmpz* lc_a, const fmpz* lc_b) {
  std::vector<ulong> primes;
  double bits = 0;
  size_t asked = static_cast<size_t>(needed_bits / (multimodular_prime_bits - 1) + 2), next = 0;
  while (bits < static_cast<double>(needed_bits)) {
    // odd candidates only: the prime list of 2-adic order at least 1
    const std::vector<std::uint64_t> candidates = gpu::ntt_primes(multimodular_prime_bits, 1, asked);
    for (; next < candidates.size() && bits < static_cast<double>(needed_bits); next++) {
      const ulong p = candidates[next];
      if (fmpz_fdiv_ui(lc_a, p) == 0 || fmpz_fdiv_ui(lc_b, p) == 0) continue;
      primes.push_back(p);
      bits += std::log2(static_cast<double>(p)) - 1e-9;
    }
    asked += asked / 8 + 8;
  }
  return primes;
}

}  // namespace

ResultantPlan plan_resultant(const ZPoly& a, const ZPoly& b) {
  ResultantPlan plan;
  const double bound = static_cast<double>(b.degree()) * log2_norm(a) + static_cast<double>(a.degree()) * log2_norm(b);
  // a relative error of 1e-12 covers the logarithms' rounding; one more bit for the last one
  plan.bound_bits = static_cast<ulong>(std::ceil(std::max(bound, 0.0) * (1 + 1e-12))) + 1;
  plan.primes = resultant_primes(plan.bound_bits + 2, leading(a), leading(b));
  return plan;
}

namespace {

// res(a, b) mod p by FLINT, for one prime that divides neither leading coefficient.
ulong resultant_by_flint(const ZPoly& a, const ZPoly& b, ulong p) {
  nmod_poly_t ap, bp;
  nmod_poly_init(ap, p);
  nmod_poly_init(bp, p);
  fmpz_poly_get_nmod_poly(ap, a.get());
  fmpz_poly_get_nmod_poly(bp, b.get());
  const ulong r = nmod_poly_resultant(ap, bp);
  nmod_poly_clear(ap);
  nmod_poly_clear(bp);
  return r;
}

// The same by the GPU's Euclidean resultant (gpu/euclid_words.hpp) with a team of one.
ulong resultant_by_euclid_words(const ZPoly& a, const ZPoly& b, ulong p) {
  const crt::MontgomeryPrime q = crt::montgomery_prime(p);
  auto row = [&](const ZPoly& f) {
    std::vector<crt::Word> words(static_cast<size_t>(f.length()));
    for (size_t i = 0; i < words.size(); i++) words[i] = crt::to_montgomery(fmpz_fdiv_ui(f.coeff(slong(i)), p), q);
    return words;
  };
  std::vector<crt::Word> x = row(a), y = row(b);
  std::vector<crt::Word> log(crt::resultant_log_words(x.size() - 1, y.size() - 1));
  crt::SerialTeam team;
  return crt::euclidean_resultant(team, x.data(), x.size() - 1, y.data(), y.size() - 1, q, log.data());
}

}  // namespace

void resultant_multimodular(fmpz_t out, const ZPoly& a, const ZPoly& b, ProductEngine engine, ResultantPlan* plan_out) {
  if (a.degree() < 1 || b.degree() < 1) throw DomainError("resultant_multimodular: operands of degree at least 1");
  ResultantPlan plan = plan_resultant(a, b);
  progress_primes(plan.primes.size());
  std::vector<ulong> residues;
  if (engine == ProductEngine::Gpu) {
    residues = gpu::resultants_of_limb_sources(limb_source(a.get()->coeffs, static_cast<size_t>(a.length())),
                                               limb_source(b.get()->coeffs, static_cast<size_t>(b.length())),
                                               plan.primes);
    plan.primes_per_device = gpu::last_split().primes_per_device;
  } else {
    residues.resize(plan.primes.size());
    const ProgressSteps steps("primes", plan.primes.size());
    each_on_cores(plan.primes.size(), [&](size_t j) {
      const ulong p = plan.primes[j];
      residues[j] = engine == ProductEngine::Cpu ? resultant_by_flint(a, b, p) : resultant_by_euclid_words(a, b, p);
      steps.advance();
    });
  }
  reconstruct_symmetric(out, residues.data(), 1, plan.primes);
  if (plan_out) *plan_out = std::move(plan);
}

namespace {

void resultant_noted(fmpz_t out, const ZPoly& a, const ZPoly& b, ProductEngine engine) {
  const ProgressScope progress(engine == ProductEngine::Gpu ? "gpu crt resultant" : "cpu crt resultant",
                               static_cast<double>(std::max(a.length(), b.length())));
  ResultantPlan plan;
  resultant_multimodular(out, a, b, engine, &plan);
  OperationDetail d;
  d.length1 = static_cast<size_t>(a.length());
  d.length2 = static_cast<size_t>(b.length());
  d.primes = static_cast<unsigned>(plan.primes.size());
  d.bound_bits = plan.bound_bits;
  note_primes_per_device(d, plan.primes_per_device);
  engine_note(engine == ProductEngine::Gpu ? "gpu crt resultant" : "cpu crt resultant",
              static_cast<double>(std::max(a.length(), b.length())), d);
}

bool resultant_fits_gpu(const ZPoly& a, const ZPoly& b) {
  if (!gpu_usable() || gpu_mode() == GpuMode::Off) return false;
  try {
    return static_cast<size_t>(std::max(a.length(), b.length())) <= gpu::longest_resultant_operand();
  } catch (const gpu::Error&) {
    return false;
  }
}

}  // namespace

void resultant_z(fmpz_t out, const ZPoly& a, const ZPoly& b) {
  if (a.degree() < 1 || b.degree() < 1 ||
      static_cast<size_t>(std::max(a.length(), b.length())) <
          algorithm_crossover(AlgorithmCrossover::ZResultantPrimes)) {
    fmpz_poly_resultant(out, a.get(), b.get());
    return;
  }
  if (resultant_fits_gpu(a, b)) {
    try {
      resultant_noted(out, a, b, ProductEngine::Gpu);
      return;
    } catch (const gpu::Error& e) {
      post_notice(std::string("the GPU failed (") + e.what() + "); resultant ran on the CPU");
    }
  }
  resultant_noted(out, a, b, ProductEngine::Cpu);
}

void discriminant_z(fmpz_t out, const ZPoly& f) {
  const slong n = f.degree();
  if (n < 1) throw DomainError("discriminant: needs a polynomial of degree at least 1, not a constant");
  ZPoly derivative;
  fmpz_poly_derivative(derivative.get(), f.get());
  Fmpz r;
  resultant_z(r.get(), f, derivative);
  fmpz_divexact(out, r.get(), leading(f));
  if ((n * (n - 1) / 2) % 2 == 1) fmpz_neg(out, out);
}

}  // namespace cas
