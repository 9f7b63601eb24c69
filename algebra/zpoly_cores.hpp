#pragma once
// Sums, differences, negation and derivatives of long polynomials in Z[x], in ranges on the cores;
// shorter ones go to FLINT's serial functions. One thread took 30 ms for f + f and 52 ms for deriv(f)
// of 2^20 coefficients of 64 bits on the development machine (PARI/GP 2.15: 20 and 16 ms), nearly
// all of it making the result's integers. Long results are marked as made on the cores.
#include "zpoly.hpp"

namespace cas {

ZPoly add_on_cores(const ZPoly& a, const ZPoly& b);
ZPoly sub_on_cores(const ZPoly& a, const ZPoly& b);
ZPoly neg_on_cores(const ZPoly& a);
ZPoly derivative_on_cores(const ZPoly& a);

}  // namespace cas
