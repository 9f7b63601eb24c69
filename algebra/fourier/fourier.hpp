#pragma once
// Finite-field Fourier transforms on vectors over Z/pZ: the fast paths behind
// the builtins fft, ifft, convolve and negaconvolve. The definitions by the
// O(n^2) formula (dft, idft, dftmatrix) live in stdlib/, where students read them.
#include "algebra/values/value.hpp"

namespace cas {

// The multiplicative order of w in Z/pZ, computed against the order n it is claimed to have;
// throws DomainError unless w is a primitive n-th root of unity.
void require_primitive_root(const Value& w, ulong n, const char* what);

// The same, and w^(n/2) = -1 for n >= 2: what the radix-2 butterflies X_(k+n/2) = E_k - w^k O_k
// need. Modulo a prime every primitive n-th root has it; modulo 15, 2 is a primitive 4th root
// with 2^2 = 4.
void require_radix2_root(const Value& w, ulong n, const char* what);

// The Z/pZ of a root of unity w; DomainError naming `what` when w is no element of a Z/pZ.
ModulusPtr modulus_of_root(const Value& w, const char* what);
// The checked inputs of a transform at w, for the builtins that trace one (algebra/teaching/teaching.hpp):
// the entries of v as residues in the Z/pZ of w (integers or elements of that Z/pZ); DomainError
// naming `what` when w is no element of Z/pZ, v no vector, or an entry of another ring.
std::vector<Fmpz> residues_at_root(const Value& v, const Value& w, const char* what);
// The same, and n = len(v) a power of two, w a primitive n-th root of unity with w^(n/2) = -1:
// what fft requires.
std::vector<Fmpz> radix2_input(const Value& v, const Value& w, const char* what);
// The vector of elements of Z/pZ with these (reduced) residues.
Value residue_vector(const std::vector<Fmpz>& residues, const ModulusPtr& m);

// Radix-2 Cooley-Tukey, natural order in and out: X_k = sum_j v_j w^(jk).
// v may hold integers or elements of the Z/pZ of w; the length must be a power of two.
Value fft(const Value& v, const Value& w);
// The inverse: fft with w^-1, scaled by 1/n.
Value ifft(const Value& v, const Value& w);
// Cyclic (x^n - 1) or negacyclic (x^n + 1) convolution of two vectors of one length over Z/pZ,
// or over Z when neither has an element of a Z/pZ.
Value convolve(const Value& a, const Value& b, bool negacyclic);

}  // namespace cas
