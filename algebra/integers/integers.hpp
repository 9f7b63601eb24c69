#pragma once
// Number theory on top of FLINT for the integer and Z/pZ builtins.
#include "algebra/support/flint_util.hpp"
#include "algebra/integers/modulus.hpp"
#include "algebra/values/value.hpp"

#include <utility>
#include <vector>

namespace cas {

// Euler's phi(n) and its factorisation, from FLINT's factoring.
std::vector<std::pair<Fmpz, ulong>> factor_integer(const fmpz_t n);  // |n| > 1
// The order of a in (Z/mZ)*; DomainError when a is not a unit.
Fmpz multiplicative_order(const fmpz_t a, const Modulus& m);
// The smallest generator of (Z/mZ)*; DomainError when the group is not cyclic.
Fmpz primitive_root(const Modulus& m);
// primroot(p)^((p-1)/n) for prime p; DomainError when n does not divide p-1.
Value root_of_unity(const fmpz_t n, const ModulusPtr& p);
// Chinese remaindering of residues r_i mod m_i (pairwise coprime or consistent):
// the smallest non-negative solution, reduced mod lcm(m_i).
Fmpz crt_integers(const std::vector<Fmpz>& residues, const std::vector<Fmpz>& moduli, Fmpz& lcm_out);

}  // namespace cas
