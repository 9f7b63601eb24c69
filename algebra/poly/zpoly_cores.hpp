#pragma once
// Sums, differences, negation, derivatives and divisions by a constant of long polynomials in Z[x],
// in ranges on the cores;
// shorter ones go to FLINT's serial functions. On one thread f + f and deriv(f) of 2^20
// coefficients of 64 bits take 30 and 54 ms (PARI/GP 2.15: 20 and 16 ms), nearly all of it making
// the result's integers (docs/measurements.md, "Integers on the cores: vectors of integers and Z[x]
// polynomials"). Long results are marked as made on the cores.
#include "algebra/poly/zpoly.hpp"

#include <optional>
#include <utility>

namespace cas {

// From integers_on_cores_from coefficients on (parallel.hpp), work on a Z[x] polynomial (here and
// its conversions to and from Z/pZ[x], modpoly_ops.hpp) runs in ranges of integer_grain on the
// cores; below, FLINT's serial functions.

ZPoly add_on_cores(const ZPoly& a, const ZPoly& b);
ZPoly sub_on_cores(const ZPoly& a, const ZPoly& b);
ZPoly neg_on_cores(const ZPoly& a);
ZPoly derivative_on_cores(const ZPoly& a);

// Quotient and remainder in Z[x] (f // g, f % g, divrem), b != 0. By a constant c, coefficient by
// coefficient as for integers: floor quotients, remainders with the sign of c (f = q c + r, every
// coefficient of r in [0, c) for c > 0), on the cores for long f. (FLINT's fmpz_poly_divrem leaves
// a coefficient smaller than |c| in absolute value where it is, which would make (x^2 - 1) % 3
// x^2 - 1 and (x^2 - 4) % 3 x^2 + 2.) By a longer g, FLINT's division (see help(divrem)); for long
// operands and lc(b) = +-1, through primes (zpoly_division.hpp).
std::pair<ZPoly, ZPoly> zpoly_divrem(const ZPoly& a, const ZPoly& b);
ZPoly zpoly_quotient(const ZPoly& a, const ZPoly& b);
ZPoly zpoly_remainder(const ZPoly& a, const ZPoly& b);
// a / b for b != 0 when b divides a in Z[x], else nullopt: through primes for long operands
// (zpoly_division.hpp), FLINT's fmpz_poly_divides otherwise and where the primes did not decide.
std::optional<ZPoly> zpoly_exact_quotient(const ZPoly& a, const ZPoly& b);
// a / c for a constant c != 0 when c divides every coefficient, on the cores for long a; nullopt
// otherwise.
std::optional<ZPoly> exact_quotient_by_constant(const ZPoly& a, const fmpz_t c);

}  // namespace cas
