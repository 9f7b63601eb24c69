#pragma once
// Division with remainder and powers modulo a polynomial in Z/nZ[x]: the one place that decides
// which engine divides, as multiply.hpp does for products. For a word-size n and long operands,
// Newton's iteration on cas's cyclic products (the GPU's, or the CPU's transforms: FLINT 2.9's
// nmod_poly_divrem and nmod_poly_powmod run on its Kronecker-substitution products, several times
// slower from a few thousand coefficients); FLINT below the crossover. Multi-word moduli divide
// by the same iteration on whole products (multiply.hpp) from longer operands, FLINT's
// fmpz_mod_poly_divrem below; powmod where cas's products leave FLINT's (FLINT's powmod with the
// inverse precomputed below).
//
// Newton's division of f (length A) by g (length B), with h = rev(g) = x^(B-1) g(1/x) and
// Q = A - B + 1 quotient terms: the inverse i = h^-1 mod x^Q from FLINT's inverse of the first
// terms by i <- i + i (1 - h i), doubling the precision k -> K <= 2k each step; then
// rev(q) = rev(f) i mod x^Q and r = f - q g. Each step's two products are cyclic: h i modulo
// x^L - 1 for the power of two L >= K - 1 wraps its terms from L onto those below k, which are
// known (1, 0, ...), and term L itself (K = L + 1) onto term 0, where it is read back as that term
// minus 1; the correction i e mod x^(K-k) has at most 2(K-k) - 1 terms. A quotient of P + s terms
// (s small) splits its product at P: t0 i0 modulo x^2P - 1 and two short ones. The remainder has
// fewer than B terms, so it is f - q g modulo x^L - 1 for the power of two L >= B - 1. Those
// cyclic products run on the CPU's transforms (or FLINT's products when short). Where the GPU
// would take the division's largest product, the whole division goes there instead
// (gpu::divide_mod, the same iteration on the device, no round trip each), and so does powmod
// (gpu::power_modulo).
#include "algebra/poly/modpoly.hpp"
#include "algebra/poly/multiply.hpp"
#include "algebra/support/words.hpp"

#include <flint/fmpz.h>

#include <cstddef>
#include <utility>
#include <vector>

namespace cas {

// f = q g + r with deg r < deg g; DomainError unless g's leading coefficient is invertible.
std::pair<ModPoly, ModPoly> divrem(const ModPoly& f, const ModPoly& g);
ModPoly quotient(const ModPoly& f, const ModPoly& g);
ModPoly remainder(const ModPoly& f, const ModPoly& g);
// Independent remainders f_i mod g_i, as multiply_each runs products: the divisions that may use
// the GPU one after the other on this thread, the others side by side on the cores.
std::vector<ModPoly> remainder_each(const std::vector<Operands>& divisions);
// f / g when g divides f exactly, else DomainError.
ModPoly exact_div(const ModPoly& f, const ModPoly& g);
// f^e mod m, e >= 0.
ModPoly powmod(const ModPoly& f, const fmpz_t e, const ModPoly& m);

// Whether Newton's division goes with the quotient's and the divisor's lengths modulo this word
// (measured against FLINT: dispatch of division.cpp).
bool newton_division_pays(std::size_t quotient_length, std::size_t divisor_length, ulong n);
// The same for multi-word moduli, against FLINT's fmpz_mod_poly_divrem.
bool big_newton_division_pays(std::size_t quotient_length, std::size_t divisor_length);
// Whether powmod modulo a polynomial of this length squares and reduces on cas's products.
bool newton_powmod_pays(std::size_t modulus_length, ulong n);
// Multi-word moduli: where cas's products of 2 len m - 3 terms leave FLINT's (FLINT's powmod
// reduces through the inverse of rev(m) too, on its own products).
bool big_newton_powmod_pays(std::size_t modulus_length, const Modulus& m);

// The same by Newton's iteration whatever the lengths (g's leading coefficient invertible), for
// tests and benchmarks.
std::pair<ModPoly, ModPoly> divrem_newton(const ModPoly& f, const ModPoly& g);
ModPoly powmod_newton(const ModPoly& f, const fmpz_t e, const ModPoly& m);
// x modulo x^n - 1 over the word-size Z/mZ (its terms summed by their index mod n): min(length, n)
// terms.
Words folded(const ulong* x, std::size_t length, std::size_t n, const nmod_t& mod);
// out[0, n) = a b mod (x^n - 1) over the word-size Z/mZ on the CPU, n a power of two, na, nb <= n:
// cas's transforms from their crossover (dispatch.hpp), FLINT's product folded below; noted for
// :timer and :explain. The cyclic products Newton's division and factor's products modulo f are
// made of.
void cyclic_product(const ModulusPtr& m, const ulong* a, std::size_t na, const ulong* b, std::size_t nb,
                    std::size_t n, ulong* out);
// out[0, precision) = h^-1 mod x^precision over the word-size Z/mZ, h[0] invertible; h has nh >= 1
// terms (those from `precision` on are not read).
Words inverse_series(const ulong* h, std::size_t nh, std::size_t precision, const ModulusPtr& m);

}  // namespace cas
