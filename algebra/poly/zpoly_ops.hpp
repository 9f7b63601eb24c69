#pragma once
// Operations on Z[x] that FLINT's fmpz_poly offers only in a form the
// language cannot use directly: factorisation with the content as a factor,
// integer roots, interpolation that refuses non-integral interpolants (FLINT
// would abort), powers modulo a monic polynomial, and Chinese remaindering of
// coefficients. The Z/pZ[x] counterparts live in modpoly_ops.hpp.
#include "algebra/support/flint_util.hpp"
#include "algebra/poly/zpoly.hpp"

#include <utility>
#include <vector>

namespace cas {

// f = content * prod factors[i].first ^ factors[i].second, with primitive
// irreducible factors of positive leading coefficient; the content carries
// the sign of f's leading coefficient. f must be non-zero.
struct ZPolyFactorisation {
  Fmpz content;
  std::vector<std::pair<ZPoly, slong>> factors;
};
ZPolyFactorisation factor(const ZPoly& f);

// The distinct integer roots of f != 0, ascending.
std::vector<Fmpz> integer_roots(const ZPoly& f);

// Irreducible as an element of Z[x]: degree >= 1, content +-1 and no
// non-trivial factor (so 2*x + 2 = 2*(x + 1) is reducible).
bool is_irreducible(const ZPoly& f);

// The polynomial of degree < n through (xs[i], ys[i]); DomainError when two
// xs coincide or when its coefficients are not all integers.
ZPoly interpolate(const std::vector<Fmpz>& xs, const std::vector<Fmpz>& ys);

// f^e mod m for m with leading coefficient +-1 (so that division stays in
// Z[x]); DomainError otherwise, or when e < 0, or when the result would not fit.
ZPoly powmod(const ZPoly& f, const fmpz_t e, const ZPoly& m);

// Coefficientwise CRT: the polynomial whose j-th coefficient is the integer
// in 0..M-1 (M = lcm of the moduli) congruent to residues[i]'s j-th
// coefficient modulo moduli[i] for every i.
ZPoly crt_coefficients(const std::vector<ZPoly>& residues, const std::vector<Fmpz>& moduli);

}  // namespace cas
