#pragma once
// gcd, xgcd, resultant and discriminant over Z/pZ (p prime, any size): from the crossovers
// AlgorithmCrossover::HalfGcd and HalfGcdResultant (dispatch.hpp) by the half-gcd on cas's products
// and divisions, so that the large products of the recursion run on the CPU's transforms or the
// GPU; FLINT's own below. A composite p is an error that names a non-invertible element
// (Modulus::require_field).
//
// The half-gcd (Thull and Yap's formulation): hgcd(a, b) with n = deg a > deg b returns the matrix
// R of the Euclidean steps that take (a, b) to (c, d) = R (a, b) with deg c >= m = ceil(n/2) > deg d.
// It needs only the top halves: R1 = hgcd(a div x^m, b div x^m) gives (a', b') = R1 (a, b); if
// deg b' >= m, one division step a' = q b' + r, and R2 = hgcd(b' div x^k, r div x^k) with
// k = 2m - deg b'; R = R2 [[0, 1], [1, -q]] R1. Each level costs a few products of its size, so
// the whole gcd takes O(M(n) log n). Short operands reduce by plain divisions (HalfGcdLimits).
//
// The resultant follows the remainder sequence r_0 = a, r_1 = b, r_(j-1) = q_j r_j + r_(j+1):
// res(r_(j-1), r_j) = (-1)^(d_(j-1) d_j) lc(r_j)^(d_(j-1) - d_(j+1)) res(r_j, r_(j+1)), d_j = deg r_j.
// Each step records the degree of q_j (= d_(j-1) - d_j) and lc(r_j), both exact inside the
// half-gcd's truncated operands, whose quotients are the true ones.
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/poly/modpoly.hpp"

#include <flint/fmpz.h>

#include <utility>

namespace cas {

ModPoly gcd(const ModPoly& a, const ModPoly& b);  // monic; gcd(0, 0) = 0
// g = s a + t b, g = gcd(a, b) monic, deg s < deg b - deg g and deg t < deg a - deg g (FLINT's).
void xgcd(ModPoly& g, ModPoly& s, ModPoly& t, const ModPoly& a, const ModPoly& b);
void resultant(fmpz_t out, const ModPoly& a, const ModPoly& b);
void discriminant(fmpz_t out, const ModPoly& f);  // deg f >= 1

// How far the half-gcd goes: it reduces the pair while the smaller operand has at least down_to
// terms (by default gcd's crossover in force, below which FLINT's gcd is the faster: FLINT
// finishes), and inside the recursion operands of fewer than `basecase` terms reduce by one
// division after the other (a short division and two short products a step, cheaper than the
// recursion's bookkeeping there), or (no steps to record) by FLINT's own hgcd, whose products are
// as fast as cas's at those lengths. Tests take small limits to run the recursion on short inputs.
// Defaults: docs/measurements.md, "gcd, xgcd and resultant: the half-gcd on cas's products against
// FLINT".
struct HalfGcdLimits {
  size_t down_to = algorithm_crossover(AlgorithmCrossover::HalfGcd);
  slong basecase = 128;
  slong flint_below = 256;  // gcd and xgcd over a word-size p: FLINT's hgcd on operands shorter than this
};

// The same by the half-gcd whatever the lengths, for tests and benchmarks (p prime, operands over
// one ring).
ModPoly gcd_half(const ModPoly& a, const ModPoly& b, HalfGcdLimits limits = {});
void xgcd_half(ModPoly& g, ModPoly& s, ModPoly& t, const ModPoly& a, const ModPoly& b, HalfGcdLimits limits = {});
void resultant_half(fmpz_t out, const ModPoly& a, const ModPoly& b, HalfGcdLimits limits = {});
// One half-gcd reduction, deg a > deg b: the pair (c, d) = R (a, b) of the remainder sequence with
// deg c >= ceil(deg a / 2) > deg d; for tests.
std::pair<ModPoly, ModPoly> half_gcd_pair(const ModPoly& a, const ModPoly& b, HalfGcdLimits limits = {});

}  // namespace cas
