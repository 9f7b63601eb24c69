#pragma once
// Resultants and discriminants in Z[x] through word-size primes: the resultant modulo each prime
// (where both degrees survive the reduction) is the integer resultant's residue, and a proven
// bound on |res(a, b)| says how many primes the CRT needs. The primes are independent: on the GPU
// one thread block a prime runs the Euclidean resultant, thousands at once; on the CPU one prime a
// task on the cores, FLINT's nmod_poly_resultant each.
#include "algebra/multimodular/multimodular.hpp"
#include "algebra/poly/zpoly.hpp"

#include <flint/fmpz.h>

#include <vector>

namespace cas {

struct ResultantPlan {
  std::vector<ulong> primes;  // 62-bit, dividing neither leading coefficient
  ulong bound_bits = 0;       // |res(a, b)| < 2^bound_bits
  std::vector<size_t> primes_per_device;  // the Gpu engine's, as MultimodularPlan's
};

// Hadamard's bound |res(a, b)| <= |a|_2^deg b |b|_2^deg a (the resultant is the determinant of
// the Sylvester matrix, whose deg b rows of a's coefficients have norm |a|_2 and deg a rows of
// b's |b|_2), rounded up to bits, and primes whose product M >= 2^(bound_bits + 1) > 2 |res|, so
// that the symmetric residue modulo M is the resultant. a and b of degree at least 1.
ResultantPlan plan_resultant(const ZPoly& a, const ZPoly& b);

// res(a, b) through the plan's primes: Gpu on the GPU (gpu::resultants_of_limb_sources: operands
// of at most gpu::longest_resultant_operand() terms), HostKernels the GPU's Euclidean resultant
// (gpu/euclid_words.hpp) on the cores, Cpu FLINT's nmod_poly_resultant on the cores; the CRT on
// the host. a and b of degree at least 1. plan_out (may be null) receives the plan. Throws what
// the GPU engine throws on the Gpu engine.
void resultant_multimodular(fmpz_t out, const ZPoly& a, const ZPoly& b, ProductEngine engine,
                            ResultantPlan* plan_out = nullptr);

// res(a, b) in Z[x], any a and b (res(0, b) = 0; res(c, b) = c^deg b for a constant c): FLINT's
// fmpz_poly_resultant below AlgorithmCrossover::ZResultantPrimes terms (dispatch.hpp), else through
// the primes on the GPU where it is usable (gpu("off") keeps it on the cores), else on the cores; a
// GPU failure falls back to the cores with a notice. Noted for :timer and :explain.
void resultant_z(fmpz_t out, const ZPoly& a, const ZPoly& b);
// disc(f) = (-1)^(n(n-1)/2) res(f, f') / lc(f), n = deg f >= 1, with res(f, f') as resultant_z's.
void discriminant_z(fmpz_t out, const ZPoly& f);

}  // namespace cas
