#include "algebra/teaching/teaching_html.hpp"

#include "algebra/teaching/teaching_text.hpp"

namespace cas::teaching {

namespace {

// The numbers, like the text tables' columns, right-aligned; the cells inherit it.
constexpr const char* table_open = "<table style=\"text-align: right\">\n";

std::string paragraph(const std::string& text) { return "<p>" + escape_html(text) + "</p>\n"; }

std::string heading(const std::string& text) { return "<p><b>" + escape_html(text) + "</b></p>\n"; }

std::string cells(const std::vector<std::string>& row, const char* tag) {
  std::string out = "<tr>";
  for (const std::string& cell : row) out += std::string("<") + tag + ">" + escape_html(cell) + "</" + tag + ">";
  return out + "</tr>\n";
}

// A table whose first row holds the column headings.
std::string table(const Rows& rows) {
  std::string out = table_open;
  if (!rows.empty()) out += "<thead>\n" + cells(rows[0], "th") + "</thead>\n";
  out += "<tbody>\n";
  for (size_t r = 1; r < rows.size(); r++) out += cells(rows[r], "td");
  return out + "</tbody>\n</table>\n";
}

// A matrix's entries with the column numbers c above and the row numbers r before them, as the
// six steps name the entries A[r][c].
std::string matrix_table(const Matrix& a) {
  const Rows entries = matrix_rows(a);
  std::string out = table_open;
  out += "<thead>\n<tr><th>r \\ c</th>";
  for (size_t c = 0; c < a.cols; c++) out += "<th>" + std::to_string(c) + "</th>";
  out += "</tr>\n</thead>\n<tbody>\n";
  for (size_t r = 0; r < a.rows; r++) {
    out += "<tr><th>" + std::to_string(r) + "</th>";
    for (const std::string& entry : entries[r]) out += "<td>" + escape_html(entry) + "</td>";
    out += "</tr>\n";
  }
  return out + "</tbody>\n</table>\n";
}

std::string after(const Residues& values) { return paragraph("after: " + residue_list(values)); }

std::string division(const std::string& body) { return "<div>\n" + body + "</div>\n"; }

}  // namespace

std::string escape_html(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  }
  return out;
}

std::string fft_trace_html(const FftTrace& t) {
  std::string out = heading(fft_title(t));
  if (!t.stages.empty()) out += paragraph(fft_outline(t));
  out += paragraph("input: " + residue_list(t.input));
  if (t.stages.empty()) out += paragraph(fft_without_stages);
  if (t.ordering == FftOrdering::CooleyTukey && !t.stages.empty())
    out += heading(bit_reversal_heading(t)) + table(bit_reversal_rows(t)) + after(t.first_stage_input);
  for (size_t s = 0; s < t.stages.size(); s++)
    out += heading(fft_stage_heading(t, s)) + table(fft_stage_rows(t, s)) + after(t.stages[s].after);
  return division(out);
}

std::string shift_trace_html(const ShiftTrace& t) {
  std::string out = heading(shift_title(t));
  for (const std::string& line : shift_outline(t)) out += paragraph(line);
  out += paragraph("input: " + residue_list(t.fft.input));
  out += heading(bit_reversal_heading(t.fft)) + table(bit_reversal_rows(t.fft)) + after(t.fft.first_stage_input);
  for (size_t s = 0; s < t.fft.stages.size(); s++)
    out += heading(shift_stage_heading(t, s)) + table(shift_stage_rows(t, s)) + after(t.fft.stages[s].after);
  return division(out);
}

// Each step's number before its first part; a later part of the same step (step 3's products)
// is a plain line under it.
std::string six_step_html(const SixStepTrace& t) {
  std::string out = heading(six_step_title(t));
  size_t step = 0;
  for (const SixStepPart& part : six_step_parts(t)) {
    out += part.step == step ? paragraph(part.heading) : heading(std::to_string(part.step) + ". " + part.heading);
    step = part.step;
    if (part.matrix) out += matrix_table(*part.matrix);
  }
  return division(out);
}

std::string evaluation_table_html(const EvaluationTable& t, const std::string& f_text) {
  std::string out = heading(evaluation_title(t, f_text)) + table(evaluation_rows(t)) + heading(interpolation_heading);
  for (const std::string& line : interpolation_lines(t)) out += paragraph(line);
  return division(out);
}

}  // namespace cas::teaching
