#pragma once
// Traces of finite-field Fourier transforms, for teaching: every stage of the
// radix-2 Cooley-Tukey and Stockham FFTs, the matrices of the six-step
// algorithm, the evaluation table of a DFT. Only data here; teaching_text.hpp
// prints it as tables, teaching_svg.hpp draws it.
#include "algebra/poly/modpoly.hpp"
#include "algebra/values/value.hpp"

#include <vector>

namespace cas::teaching {

using Residues = std::vector<Fmpz>;

// One radix-2 butterfly: a = before[read_top], b = before[read_bottom],
// after[write_top] = a + w^k b, after[write_bottom] = a - w^k b.
struct Butterfly {
  size_t read_top, read_bottom;
  size_t write_top, write_bottom;
  ulong twiddle_exponent;  // k
};

struct FftStage {
  size_t span;  // Cooley-Tukey: the distance of the pairs; Stockham: the chunk size of the stride permutation
  std::vector<Butterfly> butterflies;
  Residues before, after;
};

enum class FftOrdering { CooleyTukey, Stockham };

struct FftTrace {
  FftOrdering ordering = FftOrdering::CooleyTukey;
  ModulusPtr modulus;
  Fmpz w;
  Residues input;
  // Cooley-Tukey only: position i of the first stage holds input[bit_reversal[i]].
  std::vector<size_t> bit_reversal;
  std::vector<FftStage> stages;
  const Residues& result() const { return stages.empty() ? first_stage_input : stages.back().after; }
  Residues first_stage_input;  // input, bit-reversed for Cooley-Tukey
};

// v of length n = 2^k over the Z/pZ of w, w a primitive n-th root of unity (DomainError
// naming `what` otherwise). The result equals fft(v, w).
//   Cooley-Tukey: bit reversal, then stages s = 1..k of in-place butterflies on pairs
//     (i, i + 2^(s-1)) with twiddles w^(j n / 2^s), as the builtin fft computes it.
//   Stockham (Moreno Maza & Pan 2010, formula (12)): no bit reversal; stage s applies the
//     stride permutation L_2^(2^(s)) x I_(n/2^s), the twiddles D_(2, 2^(s-1)) x I_(n/2^s) and
//     the butterflies DFT_2 x I_(n/2), which always write the pairs (j, j + n/2).
FftTrace trace_fft(const Value& v, const Value& w, FftOrdering ordering, const char* what);

// The product w^j b of a butterfly when p = w^k + 1, so that w is the base r of the seed's
// generalized Fermat prime and r^k = -1 ("Multiplication by r^i ... reduces to a negacyclic
// shift"): b written in base r, then the same digits moved up j places, those that pass the top
// (position k) coming back at the bottom negated. No multiplication happens.
struct ShiftedProduct {
  ulong shift = 0;            // j, the twiddle exponent, 0 <= j < k
  std::vector<Fmpz> digits;   // b in base r, least significant first: k digits, or k + 1 for b = p - 1 = r^k
  std::vector<Fmpz> shifted;  // k signed digits, least significant first; those below position j came around the top
  Fmpz value;                 // sum shifted[i] r^i, which is r^j b modulo p, in -(p - 1)..p - 1
  Fmpz product;               // r^j b mod p: value, plus p when it is negative
};

// b * r^j as a shift of the base-r digits of b (0 <= b < p = r^k + 1, 0 <= j < k).
ShiftedProduct shifted_product(const Fmpz& b, ulong j, const Fmpz& r, ulong k, const Fmpz& p);

// The radix-2 Cooley-Tukey FFT of fftsteps(v, w, "shifts"): p = w^k + 1 as integers, and
// n = len(v) = 2k, so w (of order 2k) is the root of ONE base-case DFT of length 2k, the seed's
// DFT_K with K = 2k, whose twiddles are all powers of w (Fuerer's trick).
struct ShiftTrace {
  FftTrace fft;  // the stages, Cooley-Tukey order, at w
  ulong k = 0;   // p = w^k + 1
  std::vector<std::vector<ShiftedProduct>> products;  // products[s][i]: butterfly i of stage s
};

// DomainError naming `what` unless p = w^k + 1 (suggesting the base r of p = r^(n/2) + 1, or
// of p's generalized Fermat form, when p has one) and n = 2k; then the checks of trace_fft.
ShiftTrace trace_shift_fft(const Value& v, const Value& w, const char* what);

// The bit-reversal permutation of 0..n-1 (n a power of two): rev[i] has the log2 n binary digits of i reversed.
std::vector<size_t> bit_reversal(size_t n);

struct Matrix {
  size_t rows = 0, cols = 0;
  Residues entries;  // row-major
  const Fmpz& at(size_t r, size_t c) const { return entries[r * cols + c]; }
  Fmpz& at(size_t r, size_t c) { return entries[r * cols + c]; }
};

// The six-step algorithm for n = J*K, from X_(t1 + J t2) = sum_c w^(J c t2) w^(c t1) sum_r v_(K r + c) w^(K r t1):
//   1. reshape v into a J x K matrix A (row r holds v[K r .. K r + K-1]);
//   2. a DFT of length J at w^K down each column;
//   3. entry (r, c) times the twiddle factor w^(r c);
//   4. a DFT of length K at w^J along each row;
//   5. transpose into a K x J matrix;
//   6. read it row by row: the DFT of v at w.
struct SixStepTrace {
  ModulusPtr modulus;
  Fmpz w;
  size_t J = 0, K = 0;
  Matrix reshaped, column_dfts, twiddle_factors, twiddled, row_dfts, transposed;
  Residues result;
};

// w must be a primitive n-th root of unity, n = len(v) = J*K (any n, not only powers of two).
SixStepTrace trace_six_step(const Value& v, const Value& w, size_t J, size_t K, const char* what);

// The table a DFT computes: f(w^i) for i < n, and the polynomial interpolating the values at the
// points back (f itself, as deg f < n).
struct EvaluationTable {
  ModulusPtr modulus;
  Fmpz w;
  Residues points, values;  // w^i and f(w^i)
  ModPoly interpolated;
};

// f over the Z/pZ of w with deg f < n; w a primitive n-th root of unity.
EvaluationTable evaluation_table(const ModPoly& f, const Value& w, size_t n, const char* what);

// The exponents i*j mod n of the DFT matrix (w^(i*j)) for 0 <= i, j < n.
std::vector<std::vector<ulong>> dft_exponents(size_t n);
// The DFT matrix itself: w^(i*j); w must be a primitive n-th root of unity.
Matrix dft_matrix(const Value& w, size_t n, const char* what);

}  // namespace cas::teaching
