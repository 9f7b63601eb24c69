#pragma once
// Pictures of the traces of teaching.hpp, as SVG: the butterfly diagram of an FFT with the
// value on every wire at every stage and the twiddle powers on the crossing edges, and the
// DFT matrix as a grid coloured by exponent. Laid out for n up to 32.
#include "algebra/teaching/teaching.hpp"

#include <string>

namespace cas::teaching {

std::string butterfly_svg(const FftTrace& t);
// omega = dft_matrix(w, n): cell (i, j) shows w^(i*j), coloured by the exponent i*j mod n.
std::string dft_matrix_svg(const Matrix& omega, const Fmpz& w, const ModulusPtr& m);

// Writes text to the file at path; DomainError naming `what` and the reason when it cannot.
void write_file(const std::string& path, const std::string& text, const char* what);
// Whether a mode argument names an SVG file (ends in ".svg", any case).
bool is_svg_path(const std::string& mode);

}  // namespace cas::teaching
