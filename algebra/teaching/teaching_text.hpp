#pragma once
// The traces of teaching.hpp as plain-text tables, for a terminal, a projector or a
// handout: fixed-width columns, residues as integers 0..p-1, no colour.
#include "algebra/teaching/teaching.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace cas::teaching {

// Every stage of an FFT: for Cooley-Tukey the bit reversal, then per stage the pairs combined,
// the twiddle w^k, the values before (a, b) and after, and the whole vector after the stage.
void write_fft_trace(std::ostream& out, const FftTrace& t);
// The six steps with their intermediate matrices.
void write_six_step(std::ostream& out, const SixStepTrace& t);
// i, w^i, f(w^i), then the interpolation that gives f back.
void write_evaluation_table(std::ostream& out, const EvaluationTable& t, const std::string& f_text);

// Rows of cells in columns, right-aligned, two spaces apart, each line starting with `indent`.
std::string aligned_rows(const std::vector<std::vector<std::string>>& rows, const std::string& indent);

// The text of the traces, line by line and cell by cell, for the writers above and for the HTML
// tables of teaching_html.hpp: both show the same words and numbers.

// Rows of cells; in a table with headings, the first row holds them.
using Rows = std::vector<std::vector<std::string>>;

// "[1, 2, 3]"
std::string residue_list(const Residues& items);

// "radix-2 Cooley-Tukey FFT of length 8 over Z/17Z at w = 2", and for Stockham the paper it follows.
std::string fft_title(const FftTrace& t);
// How the transform goes: "bit reversal, then 3 stages of butterflies ..."; empty without stages.
std::string fft_outline(const FftTrace& t);
// Said of a transform of length 1 instead of its stages.
extern const char* const fft_without_stages;
std::string bit_reversal_heading(const FftTrace& t);
// Headings i, binary, rev(i), v[rev(i)], then a row per position (Cooley-Tukey with stages only).
Rows bit_reversal_rows(const FftTrace& t);
// "stage 1 of 3: pairs (i, i+1) in blocks of 2, ..."
std::string fft_stage_heading(const FftTrace& t, size_t s);
// Headings pair (Stockham: reads, writes), w^k, a, b, ->, a + w^k*b, a - w^k*b, then a row per butterfly.
Rows fft_stage_rows(const FftTrace& t, size_t s);

// fftsteps(v, w, "shifts"), the FFT of a ShiftTrace, as write_fft_trace shows the Cooley-Tukey
// FFT, with each butterfly's product w^j*b as b's base-r digits shifted j places.
void write_shift_trace(std::ostream& out, const ShiftTrace& t);
// "radix-2 Cooley-Tukey FFT of length 8 over Z/65537Z at w = 16, where 65537 = 16^4 + 1"
std::string shift_title(const ShiftTrace& t);
// How the transform goes and how to read a shift, a sentence a line.
std::vector<std::string> shift_outline(const ShiftTrace& t);
// "stage 1 of 3: pairs (i, i+1) in blocks of 2, twiddle w^j with j = 4*m for the m-th pair of a block"
std::string shift_stage_heading(const ShiftTrace& t, size_t s);
// Headings pair, j, a, b, b in base r, shifted j places, w^j*b, ->, a + w^j*b, a - w^j*b, then a row per butterfly.
Rows shift_stage_rows(const ShiftTrace& t, size_t s);
// b's digits, most significant first: "(1, 2, 3, 4)".
std::string digits_text(const ShiftedProduct& x);
// The shifted digits, most significant first, those that came around the top after a bar with
// their sign: "(2, 3, 4 | -1)".
std::string shifted_digits_text(const ShiftedProduct& x);
// The shifted digits' value made a residue: "9023", or "-820 + 65537 = 64717".
std::string normalised_text(const ShiftedProduct& x, const Fmpz& p);

// "six-step DFT of length 8 = 2 x 4 over Z/17Z at w = 2"
std::string six_step_title(const SixStepTrace& t);
// One part of a step of the six-step algorithm: what it does and the matrix it makes. Step 3 has
// two parts (the twiddle factors, then the products); step 6 has no matrix.
struct SixStepPart {
  size_t step;          // 1..6
  std::string heading;  // without the step's number
  const Matrix* matrix;  // into the trace; null for step 6
};
std::vector<SixStepPart> six_step_parts(const SixStepTrace& t);
// The entries as rows of cells, without headings.
Rows matrix_rows(const Matrix& a);

// "f(w^i) for i = 0..7, w = 2 in Z/17Z: the DFT of the coefficients of f = ..."
std::string evaluation_title(const EvaluationTable& t, const std::string& f_text);
// Headings i, w^i, f(w^i), then a row per point.
Rows evaluation_rows(const EvaluationTable& t);
// Said before interpolation_lines.
extern const char* const interpolation_heading;
// "interpolate([points] mod p, [values] mod p)", "= f's printed form = f", "idft(values, w) = [...], ...".
std::vector<std::string> interpolation_lines(const EvaluationTable& t);

}  // namespace cas::teaching
