#pragma once
// The traces of teaching.hpp as HTML, for a notebook (the Jupyter kernel's "text/html"): the
// words and numbers of the plain-text tables (teaching_text.hpp), a heading per stage or step and
// one <table> each, the column headings in <th>, numbers right-aligned. No <style> and few inline
// styles: the notebook's own CSS styles tables. Each result is one <div>.
#include "algebra/teaching/teaching.hpp"

#include <string>

namespace cas::teaching {

// The title and outline, the input, the bit reversal (Cooley-Tukey), then a table per stage with
// the whole vector after it.
std::string fft_trace_html(const FftTrace& t);
// fftsteps(v, w, "shifts"): the title and outline, the input, the bit reversal, then a table per
// stage whose rows show each product w^j*b as b's base-r digits shifted j places.
std::string shift_trace_html(const ShiftTrace& t);
// The six steps, each with its matrix as a table, its rows and columns numbered r and c.
std::string six_step_html(const SixStepTrace& t);
// The table i, w^i, f(w^i) and the interpolation back; f_text is f's printed form.
std::string evaluation_table_html(const EvaluationTable& t, const std::string& f_text);

// Text with &, <, > and " as HTML's character references.
std::string escape_html(const std::string& text);

}  // namespace cas::teaching
