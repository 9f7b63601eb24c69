#pragma once
// Products and powers in Z/nZ[x], n a word, through the CPU's number-theoretic transform
// (ntt_cpu.hpp). FLINT 2.9's nmod_poly_mul (Kronecker substitution into GMP's integer product)
// takes several times as long from a few thousand coefficients on (2^19-coefficient operands on two
// cores: 3.7-17 times; docs/measurements.md, "CPU transform products against FLINT by class of
// prime"); FLINT 3 has an NTT product of its own, 2.9 does not. When n is a prime with 2^k | n - 1
// for the product's transform length 2^k: one transform modulo n. Otherwise the exact integer
// product through two or three 62-bit NTT primes (min(na, nb) (n - 1)^2 < 2^(2 64 + log2 na) is
// below three primes' product), rebuilt by Garner's CRT straight into residues mod n.
#include <flint/nmod_vec.h>

#include <cstddef>
#include <vector>

namespace cas {

// The transform primes of the product of operands of these lengths mod n: {n} when one transform
// modulo n will do, else 62-bit NTT primes (largest first) whose product exceeds every coefficient
// of the product over Z. na, nb >= 1.
std::vector<ulong> cpu_product_primes(std::size_t na, std::size_t nb, ulong n);

// out[0, na + nb - 1) = a b mod mod.n, for any modulus n >= 2; entries of a and b below n,
// na, nb >= 1; out must not overlap a or b. a == b with na == nb takes one forward transform.
void multiply_words_cpu_ntt(const ulong* a, std::size_t na, const ulong* b, std::size_t nb, const nmod_t& mod,
                            ulong* out);

// out[0, n) = the cyclic convolution of a[0, na) and b[0, nb), zero-padded to length n (their
// product modulo x^n - 1), or with negacyclic their negacyclic one (modulo x^n + 1), modulo the
// prime q: n a power of two dividing q - 1 (2n for the negacyclic one), na, nb <= n. One forward
// transform of length n per operand and one inverse, not a product's of length 2n.
void convolve_words_mod_prime(const ulong* a, std::size_t na, const ulong* b, std::size_t nb, std::size_t n,
                              bool negacyclic, ulong q, ulong* out);

// x[i] = x[i] r^i mod q for i < count (entries below q), in ranges on the cores: the weights that
// turn a negacyclic convolution into a cyclic one (r = psi), and back (r = psi^-1).
void weight_by_powers(ulong* x, std::size_t count, ulong r, const nmod_t& q);

// The transform primes of such a convolution modulo p (any word p >= 2): {p} when one transform
// modulo p will do, else 62-bit NTT primes (2n | q - 1 for the negacyclic one's weights) whose
// product exceeds every entry of the convolution over Z (of the negacyclic one shifted to be
// non-negative).
std::vector<ulong> cpu_convolution_primes(std::size_t na, std::size_t nb, std::size_t n, bool negacyclic, ulong p);
// Their bound: the convolution's entries over Z have |c_k| < 2^cpu_convolution_bound_bits, and
// the primes' product is at least twice that.
unsigned long cpu_convolution_bound_bits(std::size_t na, std::size_t nb, ulong p);
// The same convolution modulo mod.n, for any word modulus: one transform of length n modulo p, or
// one per prime of cpu_convolution_primes and Garner's CRT into residues mod p.
void convolve_words_cpu_ntt(const ulong* a, std::size_t na, const ulong* b, std::size_t nb, std::size_t n,
                            bool negacyclic, const nmod_t& mod, ulong* out);

// Whether power_words_cpu_ntt can raise operands of na words to the e-th power mod n: n prime
// and 2^k | n - 1 for the power's transform length 2^k >= e (na - 1) + 1.
bool cpu_power_in_one_transform(std::size_t na, ulong e, ulong n);
// out[0, e (na - 1) + 1) = a^e mod mod.n in one forward transform, e pointwise powers and one
// inverse transform (square and multiply would transform every intermediate power).
void power_words_cpu_ntt(const ulong* a, std::size_t na, ulong e, const nmod_t& mod, ulong* out);

}  // namespace cas
