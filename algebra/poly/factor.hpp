#pragma once
// The factorisation of a polynomial over Z/pZ (p prime): for a word-size p, from
// factor_from_modulo(p) terms on cas's products, gcd and division, so that the long products run
// on the CPU's transforms; FLINT's nmod_poly_factor below it, and FLINT's fmpz_mod_poly_factor for
// a multi-word p.
//
// Three stages, as FLINT's Kaltofen-Shoup factorisation:
// 1. Squarefree decomposition (Musser's): with g = gcd(f, f'), the squarefree parts of each
//    multiplicity i fall out of w_i = gcd(w_(i-1), g_(i-1)) one after the other; what is left of g
//    is a p-th power, whose root (the coefficients at multiples of p: the Frobenius fixes Z/pZ) is
//    decomposed again, its multiplicities times p. f' = 0 makes f a p-th power at once.
// 2. Distinct-degree factorisation of each part v of degree n (von zur Gathen and Shoup's baby
//    steps and giant steps): the baby steps h_i = x^(p^i) mod v for i <= l ~ n^(1/2), the giant
//    steps H_j = x^(p^(l(j+1))) mod v; x^(p^k) - x^(p^i) vanishes on the irreducible factors of
//    degree dividing k - i, so gcd(v, prod_i (H_j - h_i)) is the product of the factors of degree
//    in (lj, l(j+1)] (those of lower degree are gone by then), split further by
//    gcd(., H_j - h_i). Each step is a modular composition g(h) mod v (x^(p^(a+b)) =
//    x^(p^a)(x^(p^b))), by Brent and Kung's: the powers h^0..h^(s-1) mod v, the products of g's
//    blocks of s coefficients with them as one matrix product, and Horner in h^s.
// 3. Equal-degree factorisation of a product g of factors of degree d (Cantor and Zassenhaus): for
//    a random a, b = a^((p^d - 1)/2) mod g is 1, -1 or 0 modulo each factor, so gcd(b - 1, g) is a
//    proper factor about half the time (p = 2: the trace a + a^2 + ... + a^(2^(d-1)), 0 or 1
//    modulo each factor). a^((p^d - 1)/2) = N^((p - 1)/2) with the norm N = a a^p ... a^(p^(d-1)),
//    which doubling builds from O(log d) compositions with x^(p^k), not d log p squarings.
#include "algebra/poly/modpoly.hpp"

#include <flint/fmpz.h>

#include <cstddef>
#include <utility>
#include <vector>

namespace cas {

// Polynomials over a word-size Z/pZ factor on cas's engines from factor_from_modulo(p) terms,
// shorter ones by FLINT's nmod_poly_factor: the crossover algorithm.factor, or for p below
// small_factor_modulus (where FLINT's products pack several residues a word)
// algorithm.factor.small_p (dispatch.hpp).
constexpr ulong small_factor_modulus = 1024;
std::size_t factor_from_modulo(ulong p);

// The monic irreducible factors of f with their multiplicities (in no particular order), and f's
// leading coefficient in unit_out. DomainError for the zero polynomial or a composite p.
std::vector<std::pair<ModPoly, slong>> factor(const ModPoly& f, fmpz_t unit_out);

// How far the stages run on cas's engines, for tests: squarefree parts shorter than
// `flint_below` go to FLINT's nmod_poly_factor, products of equal-degree factors shorter than
// `equal_degree_flint_below` to FLINT's nmod_poly_factor_equal_deg.
struct FactorLimits {
  slong flint_below = 32;
  slong equal_degree_flint_below = 32;
};

// The same through the three stages whatever the length, for a word-size p and a nonzero f.
std::vector<std::pair<ModPoly, slong>> factor_by_stages(const ModPoly& f, fmpz_t unit_out, FactorLimits limits = {});

}  // namespace cas
