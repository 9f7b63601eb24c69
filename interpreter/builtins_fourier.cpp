// fft, ifft, convolve, negaconvolve: the fast paths of algebra/fourier/fourier.hpp.
// The O(n^2) definitions (dftmatrix, dft, idft) are written in cas, in stdlib/fourier.cas.
#include "algebra/fourier/fourier.hpp"
#include "builtin_args.hpp"

namespace cas {

namespace {

Value fft(CallContext& c) { return cas::fft(c.args[0], c.args[1]); }
Value ifft(CallContext& c) { return cas::ifft(c.args[0], c.args[1]); }
Value convolve(CallContext& c) { return cas::convolve(c.args[0], c.args[1], false); }
Value negaconvolve(CallContext& c) { return cas::convolve(c.args[0], c.args[1], true); }

}  // namespace

void register_fourier_builtins(Registry& r) {
  r.reg("fft", 2, fft,
        "fft(v, w): the DFT of v at w, X_k = sum_j v_j w^(j*k), by the radix-2 Cooley-Tukey FFT in "
        "O(n log n). w is a primitive n-th root of unity in Z/pZ (e.g. rootofunity(n, p)), n = len(v) a power "
        "of two; the entries of v are integers or elements of that Z/pZ. Same result as dft(v, w). Modulo a "
        "composite, w must also have w^(n/2) = -1, which the butterflies need (a prime gives it for free).");
  r.reg("ifft", 2, ifft,
        "ifft(v, w): the inverse of fft(v, w): the FFT at w^-1, scaled by n^-1, so that ifft(fft(v, w), w) == v "
        "mod p. Same conditions as fft; same result as idft(v, w).");
  r.reg("convolve", 2, convolve,
        "convolve(a, b): the cyclic convolution c_k = sum_(i+j = k mod n) a_i b_j of two vectors of one length n "
        "over Z/pZ, i.e. the product of the polynomials modulo x^n - 1; through the FFT when n is a power of two "
        "and Z/pZ has an n-th root of unity; for a long power-of-two n without one, through FFTs of length n "
        "modulo a few NTT primes and the CRT; otherwise by one polynomial product. Integer entries beside elements "
        "of Z/pZ are taken into it. Over Z (vectors of integers) exact, through FFTs of length n modulo enough "
        "primes (a long power-of-two n) or one product in Z[x]: convolve([1, 2, 3], [4, 5, 6]) is [31, 31, 28]. "
        ":explain says which route ran.");
  r.reg("negaconvolve", 2, negaconvolve,
        "negaconvolve(a, b): the negacyclic convolution of two vectors of one length n over Z/pZ, i.e. the "
        "product of the polynomials modulo x^n + 1 (a wrap-around term changes sign); through the FFT with a "
        "2n-th root of unity psi (the entries weighted by psi^i) when there is one, else as convolve does; over "
        "Z when the vectors hold integers.");
}

}  // namespace cas
