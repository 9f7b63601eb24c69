#include "algebra/poly/zpoly_division.hpp"

#include "algebra/support/ceil_log2.hpp"
#include "algebra/poly/division.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/support/error.hpp"
#include "algebra/support/flint_util.hpp"
#include "algebra/support/guards.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/multimodular/multimodular.hpp"
#include "algebra/poly/multiply.hpp"
#include "algebra/poly/zpoly_cores.hpp"

#include "gpu/ntt.hpp"

#include <flint/fmpz_vec.h>

#include <algorithm>
#include <vector>

namespace cas {

namespace {

// The bits of the largest coefficient of f in absolute value.
ulong max_bits(const ZPoly& f) {
  const slong bits = _fmpz_vec_max_bits(f.get()->coeffs, f.length());
  return static_cast<ulong>(bits < 0 ? -bits : bits);
}

// The primes whose product exceeds 2^(bits + 1), enough for integers of `bits` bits in symmetric
// representation (each prime is above 2^61).
size_t primes_for_bits(ulong bits) { return static_cast<size_t>((bits + 2) / (multimodular_prime_bits - 1) + 1); }

// The bits of h in a multiple f = g h, about: those of f less those of g.
ulong multiple_quotient_bits(ulong f_bits, ulong g_bits) { return f_bits > g_bits ? f_bits - g_bits : 0; }

// What a multiple f = g h needs, with a margin.
ulong estimated_quotient_bits(const ZPoly& f, const ZPoly& g) {
  return multiple_quotient_bits(max_bits(f), max_bits(g)) + 8;
}

// The residues of the quotient f // g modulo NTT primes that do not divide lc(g), prime by prime:
// each one a division in Z/pZ[x] (division.hpp, whose engine decides itself). The primes allow
// transforms of twice f's length, so each division's products take one prime.
class QuotientResidues {
 public:
  // Notes the division for :explain first: the primes' divisions note their own engines after it.
  QuotientResidues(const ZPoly& f, const ZPoly& g)
      : f_(f), g_(g), length_(static_cast<size_t>(f.length() - g.length() + 1)),
        log2_length_(static_cast<int>(ceil_log2(2 * static_cast<size_t>(f.length())))) {
    OperationDetail d;
    d.length1 = static_cast<size_t>(f.length());
    d.length2 = static_cast<size_t>(g.length());
    engine_explain("z[x] division through primes", static_cast<double>(f.length()), d);
  }

  size_t length() const { return length_; }
  size_t count() const { return primes_.size(); }

  // Residues modulo `count` primes in all. With remainder_wanted, the first prime's division keeps
  // its remainder for first_remainder_is_zero.
  void extend_to(size_t count, bool remainder_wanted = false) {
    const std::vector<ulong> candidates = usable_primes(count);
    residues_.resize(count * length_);
    for (size_t j = primes_.size(); j < count; j++) {
      const ModulusPtr m = make_modulus(candidates[j]);
      const ModPoly f = modpoly_from_fmpz_poly(f_.get(), m), g = modpoly_from_fmpz_poly(g_.get(), m);
      ModPoly q(m);
      if (remainder_wanted && j == 0) {
        auto [q_p, r_p] = divrem(f, g);
        q = std::move(q_p);
        first_remainder_zero_ = r_p.is_zero();
      } else {
        q = quotient(f, g);
      }
      ulong* out = residues_.data() + j * length_;
      const size_t terms = static_cast<size_t>(q.length());  // fewer when q's top terms vanish mod p
      std::copy(q.nmod()->coeffs, q.nmod()->coeffs + terms, out);
      std::fill(out + terms, out + length_, ulong{0});
      primes_.push_back(candidates[j]);
    }
  }

  bool first_remainder_is_zero() const { return first_remainder_zero_; }

  // The quotient rebuilt from the first `count` primes' residues, in symmetric representation.
  ZPoly rebuilt(size_t count) const {
    ZPoly q;
    fmpz_poly_fit_length(q.get(), static_cast<slong>(length_));
    const std::vector<ulong> primes(primes_.begin(), primes_.begin() + static_cast<std::ptrdiff_t>(count));
    reconstruct_symmetric(q.get()->coeffs, residues_.data(), length_, primes);
    _fmpz_poly_set_length(q.get(), static_cast<slong>(length_));
    _fmpz_poly_normalise(q.get());
    q.mark_made_on_cores();
    return q;
  }

  // Whether q's residues modulo prime j are that prime's residues of the quotient.
  bool agrees(const ZPoly& q, size_t j) const {
    const ulong p = primes_[j], *residue = residues_.data() + j * length_;
    const fmpz* c = q.get()->coeffs;
    const size_t terms = static_cast<size_t>(q.length());
    return all_on_cores(length_, integer_grain,
                        [&](size_t i) { return (i < terms ? fmpz_fdiv_ui(c + i, p) : 0) == residue[i]; });
  }

 private:
  // The first `count` NTT primes that do not divide lc(g) (a division modulo them needs its inverse).
  std::vector<ulong> usable_primes(size_t count) const {
    const fmpz* lead = g_.coeff(g_.length() - 1);
    for (size_t asked = count;; asked += 4) {
      const std::vector<ulong> candidates = gpu::ntt_primes(multimodular_prime_bits, log2_length_, asked);
      std::vector<ulong> usable;
      for (ulong p : candidates)
        if (usable.size() < count && fmpz_fdiv_ui(lead, p) != 0) usable.push_back(p);
      if (usable.size() == count) return usable;
      if (candidates.size() < asked)
        throw DomainError("not enough " + std::to_string(multimodular_prime_bits) +
                          "-bit NTT primes for a division of length 2^" + std::to_string(log2_length_));
    }
  }

  const ZPoly &f_, &g_;
  size_t length_;
  int log2_length_;
  std::vector<ulong> primes_;
  std::vector<ulong> residues_;  // prime j's residues at j * length_
  bool first_remainder_zero_ = true;
};

// The quotient from the primes an estimate of its size needs, checked by one prime more and
// proven by proven(q); the primes double while either fails. nullopt past division_most_primes,
// or where the residues would not fit in memory (guards.hpp).
template <class Proven>
std::optional<ZPoly> quotient_through_primes(QuotientResidues& residues, ulong estimated_bits, Proven&& proven) {
  for (size_t count = primes_for_bits(estimated_bits); count + 1 <= division_most_primes; count *= 2) {
    // the residues and the rebuilt quotient: two words a prime and a coefficient
    if (!allocation_fits(2.0 * 8.0 * static_cast<double>(count + 1) * static_cast<double>(residues.length())))
      return std::nullopt;
    residues.extend_to(count + 1);
    ZPoly q = residues.rebuilt(count);
    if (residues.agrees(q, count) && proven(q)) return q;
  }
  return std::nullopt;
}

}  // namespace

// Through primes from quotients and divisors of 2^8 terms, the divisor at most twice the quotient's
// length, once the quotient's coefficients have 32 bits or more: 1.1-4x FLINT's divrem there on
// two cores without a GPU. Below 2^8 each prime's division is FLINT's, and FLINT's own wins; longer
// divisors win for some sizes only (0.7-1.6x). Small coefficients keep FLINT's Kronecker products
// cheap: quotients under 32 bits from 2^12 terms (about 22 bits: 1.08-1.7x), under 16 bits from
// 2^13 (about 10 bits: 1.05x). cas-bench-zdivision --grid 1: docs/measurements.md, "Division in
// Z[x] through primes".
bool division_through_primes_pays(size_t f_length, size_t g_length, ulong f_bits, ulong g_bits) {
  if (g_length < 2 || f_length < g_length) return false;
  const size_t quotient_length = f_length - g_length + 1;
  const ulong quotient_bits = multiple_quotient_bits(f_bits, g_bits);
  const size_t from = quotient_bits < 16 ? size_t{1} << 13 : quotient_bits < 32 ? size_t{1} << 12 : size_t{1} << 8;
  return quotient_length >= from && g_length >= from && g_length <= 2 * quotient_length;
}

bool division_through_primes_pays(const ZPoly& f, const ZPoly& g) {
  return division_through_primes_pays(static_cast<size_t>(f.length()), static_cast<size_t>(g.length()), max_bits(f),
                                      max_bits(g));
}

std::optional<std::pair<ZPoly, ZPoly>> divrem_through_primes(const ZPoly& f, const ZPoly& g) {
  QuotientResidues residues(f, g);
  ZPoly r;
  auto proven = [&](const ZPoly& q) {
    r = sub_on_cores(f, multiply(q, g));
    return r.length() < g.length();  // lc(g) = +-1: then q and r are the unique ones
  };
  std::optional<ZPoly> q = quotient_through_primes(residues, estimated_quotient_bits(f, g), proven);
  if (!q) return std::nullopt;
  return std::pair{std::move(*q), std::move(r)};
}

ExactQuotient exact_quotient_through_primes(const ZPoly& f, const ZPoly& g) {
  ExactQuotient out;
  Fmpz content;
  fmpz_poly_content(content.get(), g.get());
  std::optional<ZPoly> primitive_part;
  if (!fmpz_is_one(content.get())) primitive_part = exact_quotient_by_constant(g, content.get());
  const ZPoly& primitive = primitive_part ? *primitive_part : g;
  QuotientResidues residues(f, primitive);
  residues.extend_to(1, true);
  if (!residues.first_remainder_is_zero()) {  // g' divides f in Z[x] only if it does modulo every prime
    out.exactness = Exactness::NotExact;
    return out;
  }
  bool remainder_proven_nonzero = false;
  auto proven = [&](const ZPoly& q) {
    // f = q g' + r with deg r < deg g' makes q and r the quotient and remainder in Q[x] (unique)
    const ZPoly r = sub_on_cores(f, multiply(q, primitive));
    remainder_proven_nonzero = !r.is_zero() && r.length() < primitive.length();
    return r.is_zero() || remainder_proven_nonzero;
  };
  std::optional<ZPoly> q = quotient_through_primes(residues, estimated_quotient_bits(f, primitive), proven);
  if (!q) return out;  // Undecided
  if (remainder_proven_nonzero) {
    out.exactness = Exactness::NotExact;
    return out;
  }
  std::optional<ZPoly> by_content = primitive_part ? exact_quotient_by_constant(*q, content.get()) : std::move(q);
  if (!by_content) {
    out.exactness = Exactness::NotExact;  // f / g' is q in Z[x]; f / g = q / content is not
    return out;
  }
  out.exactness = Exactness::Exact;
  out.quotient = std::move(*by_content);
  return out;
}

}  // namespace cas
