#pragma once
// Finite-field Fourier transforms on vectors over Z/pZ: the fast paths behind
// the builtins fft, ifft, convolve and negaconvolve. The definitions by the
// O(n^2) formula (dft, idft, dftmatrix) live in stdlib/, where students read them.
#include "value.hpp"

namespace cas {

// The multiplicative order of w in Z/pZ, computed against the order n it is claimed to have;
// throws DomainError unless w is a primitive n-th root of unity.
void require_primitive_root(const Value& w, ulong n, const char* what);

// Radix-2 Cooley-Tukey, natural order in and out: X_k = sum_j v_j w^(jk).
// v may hold integers or elements of the Z/pZ of w; the length must be a power of two.
Value fft(const Value& v, const Value& w);
// The inverse: fft with w^-1, scaled by 1/n.
Value ifft(const Value& v, const Value& w);
// Cyclic (x^n - 1) or negacyclic (x^n + 1) convolution of two vectors of one length over Z/pZ.
Value convolve(const Value& a, const Value& b, bool negacyclic);

}  // namespace cas
