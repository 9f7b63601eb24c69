#pragma once
// Division in Z[x] through word-size primes, for long operands: the quotient's residues modulo
// 62-bit NTT primes, each from a division in Z/pZ[x] (division.hpp: Newton's iteration on cas's
// transforms or the GPU), rebuilt by the CRT in symmetric representation and proven by one
// product in Z[x] (multiply.hpp). FLINT 2.9's fmpz_poly_divrem and fmpz_poly_divides divide and
// conquer on its own products instead.
//
// How many primes the quotient needs is not known in advance (the coefficients of f // g can be
// far larger than f's: x^n // (x - 2)). The primes start from an estimate, bits(f) - bits(g) plus
// a margin, which is what a multiple f = g h needs; one more prime checks the rebuilt quotient
// (its residues must agree), and the product proves it: r = f - q g with deg r < deg g makes q and
// r the quotient and remainder in Q[x], which are unique (the Euclidean ones in Z[x] when g has
// leading coefficient +-1). Where the check or the proof fails, the primes double, up to
// division_most_primes; past it the caller divides by FLINT.
#include "algebra/poly/zpoly.hpp"

#include <cstddef>
#include <optional>
#include <utility>

namespace cas {

// The most primes a division through primes takes (62 bits each) before it leaves the quotient
// to FLINT. With 139 primes (coefficients of 8192 bits, divisors of 2^9..2^13 terms) it still wins
// 1.19-1.79x FLINT on two cores (cas-bench-zdivision --bits 8192: docs/measurements.md, "Division
// in Z[x] through primes").
constexpr std::size_t division_most_primes = 256;

// Whether the division of f by g goes through primes at these lengths and coefficient sizes
// (bits of the largest coefficient), measured against FLINT.
bool division_through_primes_pays(std::size_t f_length, std::size_t g_length, ulong f_bits, ulong g_bits);
bool division_through_primes_pays(const ZPoly& f, const ZPoly& g);  // their lengths and largest coefficients

// f = q g + r with deg r < deg g, for g with leading coefficient +-1 and len f >= len g >= 2;
// nullopt when the quotient needed more than division_most_primes primes.
std::optional<std::pair<ZPoly, ZPoly>> divrem_through_primes(const ZPoly& f, const ZPoly& g);

enum class Exactness { Exact, NotExact, Undecided };
struct ExactQuotient {
  Exactness exactness = Exactness::Undecided;
  ZPoly quotient;  // f / g when Exact
};
// f / g for any g with len g >= 2: divided by its primitive part g' (for which f / g' lies in Z[x]
// exactly when it lies in Q[x]), then by g's content. NotExact when the first prime's remainder is
// not 0, when a quotient q in Z[x] leaves f - q g' nonzero of degree below g' (then it is the
// remainder in Q[x]), or when g's content does not divide f / g'; Undecided when the quotient in
// Q[x] did not come out in Z[x] within division_most_primes primes (it is not in Z[x], and the
// first prime divided its remainder: rare, and left to FLINT).
ExactQuotient exact_quotient_through_primes(const ZPoly& f, const ZPoly& g);

}  // namespace cas
