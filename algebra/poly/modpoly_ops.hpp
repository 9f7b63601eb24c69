#pragma once
// Operations on ModPoly, each one FLINT call on whichever storage the
// modulus uses. Field operations check that p is prime first (FLINT would
// abort) and say which element is not invertible.
#include "algebra/support/flint_util.hpp"
#include "algebra/poly/modpoly.hpp"
#include "algebra/poly/zpoly.hpp"

#include <utility>
#include <vector>

namespace cas {

// f mod p, and back: lift(f) with coefficients in 0..p-1, or centred in (-p/2, p/2]. Long
// polynomials (from 2^15 coefficients; f mod p for word-size p) are converted in ranges on the
// cores: on one thread 2^20 coefficients of 64 bits take 9.5 ms mod 998244353 each way, 48 ms for
// the lift mod 2^127 - 1 (docs/measurements.md, "Integers on the cores: vectors of integers and
// Z[x] polynomials"). Lifts are marked as made on the cores.
ModPoly modpoly_from_fmpz_poly(const fmpz_poly_struct* f, const ModulusPtr& m);
ZPoly lifted(const ModPoly& f, bool centred);
// One residue w of a word-size p lifted: w, or for the centred lift w - p when w > p/2 (then
// p - w < 2^63).
inline void lift_word(fmpz_t out, ulong w, ulong p, bool centred) {
  if (centred && w > p / 2) fmpz_set_si(out, -static_cast<slong>(p - w));
  else fmpz_set_ui(out, w);
}
ModPoly modpoly_constant(const fmpz_t c, const ModulusPtr& m);
ModPoly modpoly_x(const ModulusPtr& m);

bool equal(const ModPoly& a, const ModPoly& b);
ModPoly add(const ModPoly& a, const ModPoly& b);
ModPoly sub(const ModPoly& a, const ModPoly& b);
ModPoly neg(const ModPoly& a);
ModPoly scalar_mul(const ModPoly& a, const fmpz_t c);
ModPoly mul_flint(const ModPoly& a, const ModPoly& b);  // always FLINT; see multiply.hpp
ModPoly pow_flint(const ModPoly& a, ulong e);

// Euclidean division by FLINT; needs an invertible leading coefficient of b. division.hpp decides
// between these and Newton's iteration on cas's products.
std::pair<ModPoly, ModPoly> divrem_flint(const ModPoly& a, const ModPoly& b);
ModPoly remainder_flint(const ModPoly& a, const ModPoly& b);

void lead(fmpz_t out, const ModPoly& a);
void evaluate(fmpz_t out, const ModPoly& a, const fmpz_t point);
ModPoly derivative(const ModPoly& a);
ModPoly make_monic(const ModPoly& a);
// FLINT's gcd (monic), xgcd, resultant and discriminant, for operands over one prime field (the
// callers check); poly/euclid.hpp decides between them and the half-gcd on cas's products.
ModPoly gcd_flint(const ModPoly& a, const ModPoly& b);
void xgcd_flint(ModPoly& g, ModPoly& s, ModPoly& t, const ModPoly& a, const ModPoly& b);
void resultant_flint(fmpz_t out, const ModPoly& a, const ModPoly& b);
void discriminant_flint(fmpz_t out, const ModPoly& f);  // deg f >= 1
// Whether a is c*x^k (k >= 0, c nonzero): c in `c`.
bool is_monomial(const ModPoly& a, Fmpz& c);
ModPoly compose(const ModPoly& f, const ModPoly& g);
ModPoly powmod_flint(const ModPoly& f, const fmpz_t e, const ModPoly& m);
// FLINT's factorisation (nmod_poly_factor or fmpz_mod_poly_factor): monic irreducible factors with
// their multiplicities, the leading coefficient in unit_out; poly/factor.hpp decides between it and
// the stages on cas's engines.
std::vector<std::pair<ModPoly, slong>> factor_flint(const ModPoly& f, fmpz_t unit_out);
// FLINT's roots of a nonzero f over a prime field (the caller checks): distinct, ascending.
std::vector<Fmpz> roots_flint(const ModPoly& f);
bool is_irreducible(const ModPoly& f);

// Throws unless both are polynomials over one Z/pZ.
void require_same(const ModPoly& a, const ModPoly& b);
// Throws unless the leading coefficient is invertible mod p.
void require_invertible_lead(const ModPoly& b, const char* what);

}  // namespace cas
