#pragma once
// The roots of a polynomial over Z/pZ (p prime): from AlgorithmCrossover::Roots terms (dispatch.hpp)
// through cas's powmod and half-gcd, so that the long products run on the CPU's transforms or the
// GPU; FLINT's own below.
//
// The product of f's distinct linear factors is g = gcd(x^p - x mod f, f) (the roots of x^p - x are
// the elements of Z/pZ). g splits by equal-degree splitting (Cantor and Zassenhaus): for a random
// a, (x + a)^((p-1)/2) is 1, -1 or 0 at each root r according as r + a is a nonzero square, a
// non-square or 0, so gcd((x + a)^((p-1)/2) - 1 mod g, g) is a proper factor about half the time.
// The factors split again until they are short enough for FLINT.
#include "algebra/poly/modpoly.hpp"
#include "algebra/support/flint_util.hpp"

#include <vector>

namespace cas {

// The distinct roots of f, ascending. DomainError for the zero polynomial or a composite p.
std::vector<Fmpz> roots(const ModPoly& f);
// The same through the gcd and the splitting whatever the length; factors shorter than
// `flint_below` go to FLINT. For tests.
std::vector<Fmpz> roots_by_splitting(const ModPoly& f, slong flint_below);

}  // namespace cas
