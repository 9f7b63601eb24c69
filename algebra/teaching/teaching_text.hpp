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

}  // namespace cas::teaching
