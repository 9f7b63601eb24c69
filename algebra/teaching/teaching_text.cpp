#include "algebra/teaching/teaching_text.hpp"

#include "algebra/values/format.hpp"

#include <algorithm>
#include <ostream>

namespace cas::teaching {

namespace {

std::string text(const Fmpz& z) { return z.to_string(); }

std::string field(const ModulusPtr& m) { return "Z/" + m->to_string() + "Z"; }

// "w^k = value", the twiddle factor of a butterfly.
std::string power_text(ulong k, const Fmpz& w, const Modulus& m) {
  Fmpz power, exponent(k);
  fmpz_powm(power.get(), w.get(), exponent.get(), m.value());
  return "w^" + std::to_string(k) + " = " + text(power);
}

std::string binary(size_t i, size_t digits) {
  std::string out(digits, '0');
  for (size_t b = 0; b < digits; b++)
    if (i & (size_t{1} << b)) out[digits - 1 - b] = '1';
  return out;
}

std::string plural(size_t n, const std::string& word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

std::string power_of_w(size_t e, const SixStepTrace& t) { return power_text(e, t.w, *t.modulus); }

void write_bit_reversal(std::ostream& out, const FftTrace& t) {
  out << "\n" << bit_reversal_heading(t) << "\n";
  out << aligned_rows(bit_reversal_rows(t), "  ") << "  after: " << residue_list(t.first_stage_input) << "\n";
}

void write_stage(std::ostream& out, const FftTrace& t, size_t s) {
  out << "\n" << fft_stage_heading(t, s) << "\n";
  out << aligned_rows(fft_stage_rows(t, s), "  ") << "  after: " << residue_list(t.stages[s].after) << "\n";
}

}  // namespace

std::string residue_list(const Residues& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); i++) out += (i ? ", " : "") + text(items[i]);
  return out + "]";
}

std::string fft_title(const FftTrace& t) {
  const std::string name = t.ordering == FftOrdering::CooleyTukey ? "Cooley-Tukey" : "Stockham";
  std::string out = "radix-2 " + name + " FFT of length " + std::to_string(t.input.size()) + " over " +
                    field(t.modulus) + " at w = " + text(t.w);
  if (t.ordering == FftOrdering::Stockham) out += " (Moreno Maza & Pan 2010, formula (12))";
  return out;
}

std::string fft_outline(const FftTrace& t) {
  if (t.stages.empty()) return "";
  const std::string stages = plural(t.stages.size(), "stage") + " of butterflies (a, b) -> (a + w^k*b, a - w^k*b)";
  if (t.ordering == FftOrdering::CooleyTukey) return "bit reversal, then " + stages + ", in place";
  return "no bit reversal; " + stages + ", each from one vector into the next; the result in natural order";
}

const char* const fft_without_stages = "(a DFT of length 1 is the identity: no stages)";

std::string bit_reversal_heading(const FftTrace& t) {
  return "bit reversal: position i takes v[rev(i)], rev(i) = i with its " +
         plural(t.stages.size(), "binary digit") + " reversed";
}

Rows bit_reversal_rows(const FftTrace& t) {
  const size_t n = t.input.size(), digits = t.stages.size();
  Rows rows{{"i", "binary", "rev(i)", "v[rev(i)]"}};
  for (size_t i = 0; i < n; i++)
    rows.push_back({std::to_string(i), binary(i, digits), std::to_string(t.bit_reversal[i]),
                    text(t.first_stage_input[i])});
  return rows;
}

std::string fft_stage_heading(const FftTrace& t, size_t s) {
  const size_t n = t.input.size(), span = t.stages[s].span;
  const std::string count = "stage " + std::to_string(s + 1) + " of " + std::to_string(t.stages.size()) + ": ";
  if (t.ordering == FftOrdering::CooleyTukey)
    return count + "pairs (i, i+" + std::to_string(span) + ") in blocks of " + std::to_string(2 * span) +
           ", twiddle w^k with k = " + std::to_string(n / (2 * span)) + "*j for the j-th pair of a block";
  const std::string permutation = "L_2^" + std::to_string(n / span) + " x I_" + std::to_string(span);
  return count + "reads through " + permutation +
         (span == n / 2 ? " (the identity)" : " (chunks of " + std::to_string(span) + ", even chunks first)") +
         ", writes the pairs (j, j+" + std::to_string(n / 2) + ")";
}

Rows fft_stage_rows(const FftTrace& t, size_t s) {
  const FftStage& stage = t.stages[s];
  const bool stockham = t.ordering == FftOrdering::Stockham;
  Rows rows;
  if (stockham)
    rows.push_back({"reads", "writes", "w^k", "a", "b", "->", "a + w^k*b", "a - w^k*b"});
  else
    rows.push_back({"pair", "w^k", "a", "b", "->", "a + w^k*b", "a - w^k*b"});
  for (const Butterfly& b : stage.butterflies) {
    std::vector<std::string> row;
    row.push_back(std::to_string(b.read_top) + ", " + std::to_string(b.read_bottom));
    if (stockham) row.push_back(std::to_string(b.write_top) + ", " + std::to_string(b.write_bottom));
    row.insert(row.end(), {power_text(b.twiddle_exponent, t.w, *t.modulus), text(stage.before[b.read_top]),
                           text(stage.before[b.read_bottom]), "->", text(stage.after[b.write_top]),
                           text(stage.after[b.write_bottom])});
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string shift_title(const ShiftTrace& t) {
  const std::string p = t.fft.modulus->to_string();
  return "radix-2 Cooley-Tukey FFT of length " + std::to_string(t.fft.input.size()) + " over " + field(t.fft.modulus) +
         " at w = " + text(t.fft.w) + ", where " + p + " = " + text(t.fft.w) + "^" + std::to_string(t.k) + " + 1";
}

std::vector<std::string> shift_outline(const ShiftTrace& t) {
  const std::string r = text(t.fft.w), k = std::to_string(t.k);
  return {"bit reversal, then " + plural(t.fft.stages.size(), "stage") +
              " of butterflies (a, b) -> (a + w^j*b, a - w^j*b), in place",
          "every twiddle w^j is a power of w = " + r + " with " + r + "^" + k +
              " = -1, so w^j*b needs no multiplication:",
          "b's " + k + " base-" + r + " digits move up j places, and the j passing the top come back negated (after "
              "the |)"};
}

std::string shift_stage_heading(const ShiftTrace& t, size_t s) {
  const size_t n = t.fft.input.size(), span = t.fft.stages[s].span;
  return "stage " + std::to_string(s + 1) + " of " + std::to_string(t.fft.stages.size()) + ": pairs (i, i+" +
         std::to_string(span) + ") in blocks of " + std::to_string(2 * span) + ", twiddle w^j with j = " +
         std::to_string(n / (2 * span)) + "*m for the m-th pair of a block";
}

Rows shift_stage_rows(const ShiftTrace& t, size_t s) {
  const FftStage& stage = t.fft.stages[s];
  const Fmpz p(t.fft.modulus->value());
  Rows rows{{"pair", "j", "a", "b", "b in base " + text(t.fft.w), "shifted j places", "w^j*b", "->", "a + w^j*b",
             "a - w^j*b"}};
  for (size_t i = 0; i < stage.butterflies.size(); i++) {
    const Butterfly& b = stage.butterflies[i];
    const ShiftedProduct& x = t.products[s][i];
    rows.push_back({std::to_string(b.read_top) + ", " + std::to_string(b.read_bottom), std::to_string(x.shift),
                    text(stage.before[b.read_top]), text(stage.before[b.read_bottom]), digits_text(x),
                    shifted_digits_text(x), normalised_text(x, p), "->", text(stage.after[b.write_top]),
                    text(stage.after[b.write_bottom])});
  }
  return rows;
}

std::string digits_text(const ShiftedProduct& x) {
  std::string out = "(";
  for (size_t i = x.digits.size(); i-- > 0;) out += text(x.digits[i]) + (i ? ", " : "");
  return out + ")";
}

// Below place j every digit came around the top: shown with its minus sign even when it is 0.
std::string shifted_digits_text(const ShiftedProduct& x) {
  std::string out = "(";
  for (size_t i = x.shifted.size(); i-- > 0;) {
    const bool wrapped = i < x.shift;
    out += wrapped && fmpz_is_zero(x.shifted[i].get()) ? "-0" : text(x.shifted[i]);
    if (i) out += i == x.shift ? " | " : ", ";
  }
  return out + ")";
}

std::string normalised_text(const ShiftedProduct& x, const Fmpz& p) {
  if (fmpz_sgn(x.value.get()) >= 0) return text(x.product);
  return text(x.value) + " + " + text(p) + " = " + text(x.product);
}

std::string six_step_title(const SixStepTrace& t) {
  return "six-step DFT of length " + std::to_string(t.J * t.K) + " = " + std::to_string(t.J) + " x " +
         std::to_string(t.K) + " over " + field(t.modulus) + " at w = " + text(t.w);
}

std::vector<SixStepPart> six_step_parts(const SixStepTrace& t) {
  const size_t n = t.J * t.K;
  const std::string J = std::to_string(t.J), K = std::to_string(t.K);
  return {
      {1, "reshape v into " + plural(t.J, "row") + " of " + K + ": A[r][c] = v[" + K + "*r + c]", &t.reshaped},
      {2, "a DFT of length " + J + " at " + power_of_w(t.K % n, t) + " down each of the " + plural(t.K, "column"),
       &t.column_dfts},
      {3, "entry (r, c) times the twiddle factor w^(r*c); the factors:", &t.twiddle_factors},
      {3, "the products:", &t.twiddled},
      {4, "a DFT of length " + K + " at " + power_of_w(t.J % n, t) + " along each of the " + plural(t.J, "row"),
       &t.row_dfts},
      {5, "transpose into " + plural(t.K, "row") + " of " + J, &t.transposed},
      {6, "read row by row: " + residue_list(t.result) + " = the DFT of v at w", nullptr},
  };
}

Rows matrix_rows(const Matrix& a) {
  Rows rows(a.rows);
  for (size_t r = 0; r < a.rows; r++)
    for (size_t c = 0; c < a.cols; c++) rows[r].push_back(text(a.at(r, c)));
  return rows;
}

std::string evaluation_title(const EvaluationTable& t, const std::string& f_text) {
  return "f(w^i) for i = 0.." + std::to_string(t.points.size() - 1) + ", w = " + text(t.w) + " in " +
         field(t.modulus) + ": the DFT of the coefficients of f = " + f_text;
}

Rows evaluation_rows(const EvaluationTable& t) {
  Rows rows{{"i", "w^i", "f(w^i)"}};
  for (size_t i = 0; i < t.points.size(); i++) rows.push_back({std::to_string(i), text(t.points[i]), text(t.values[i])});
  return rows;
}

const char* const interpolation_heading = "and back, the inverse DFT:";

std::vector<std::string> interpolation_lines(const EvaluationTable& t) {
  const size_t n = t.points.size();
  const std::string p = t.modulus->to_string();
  Residues coefficients(n);
  for (size_t i = 0; i < n; i++) t.interpolated.coeff(coefficients[i].get(), static_cast<slong>(i));
  return {"interpolate(" + residue_list(t.points) + " mod " + p + ", " + residue_list(t.values) + " mod " + p + ")",
          "= " + format(Value::modpoly(t.interpolated)) + " = f",
          "idft(values, w) = " + residue_list(coefficients) + ", the coefficients of f"};
}

std::string aligned_rows(const std::vector<std::vector<std::string>>& rows, const std::string& indent) {
  std::vector<size_t> widths;
  for (const auto& row : rows)
    for (size_t c = 0; c < row.size(); c++) {
      if (widths.size() <= c) widths.push_back(0);
      widths[c] = std::max(widths[c], row[c].size());
    }
  std::string out;
  for (const auto& row : rows) {
    std::string line = indent;
    for (size_t c = 0; c < row.size(); c++)
      line += (c ? "  " : "") + std::string(widths[c] - row[c].size(), ' ') + row[c];
    out += line + "\n";
  }
  return out;
}

void write_fft_trace(std::ostream& out, const FftTrace& t) {
  out << fft_title(t) << "\n";
  if (!t.stages.empty()) out << "  " << fft_outline(t) << "\n";
  out << "  input: " << residue_list(t.input) << "\n";
  if (t.ordering == FftOrdering::CooleyTukey && !t.stages.empty()) write_bit_reversal(out, t);
  if (t.stages.empty()) out << "  " << fft_without_stages << "\n";
  for (size_t s = 0; s < t.stages.size(); s++) write_stage(out, t, s);
}

void write_shift_trace(std::ostream& out, const ShiftTrace& t) {
  out << shift_title(t) << "\n";
  for (const std::string& line : shift_outline(t)) out << "  " << line << "\n";
  out << "  input: " << residue_list(t.fft.input) << "\n";
  write_bit_reversal(out, t.fft);
  for (size_t s = 0; s < t.fft.stages.size(); s++) {
    out << "\n" << shift_stage_heading(t, s) << "\n";
    out << aligned_rows(shift_stage_rows(t, s), "  ") << "  after: " << residue_list(t.fft.stages[s].after) << "\n";
  }
}

// Each step's number before its first part; a later part of the same step indented under it.
void write_six_step(std::ostream& out, const SixStepTrace& t) {
  out << six_step_title(t) << "\n";
  size_t step = 0;
  for (const SixStepPart& part : six_step_parts(t)) {
    out << (part.step == step ? "   " : std::to_string(part.step) + ". ") << part.heading << "\n";
    step = part.step;
    if (part.matrix) out << aligned_rows(matrix_rows(*part.matrix), "     ");
  }
}

void write_evaluation_table(std::ostream& out, const EvaluationTable& t, const std::string& f_text) {
  out << evaluation_title(t, f_text) << "\n";
  out << aligned_rows(evaluation_rows(t), "  ");
  const std::vector<std::string> lines = interpolation_lines(t);
  out << interpolation_heading << "\n  " << lines[0] << "\n    " << lines[1] << "\n  " << lines[2] << "\n";
}

}  // namespace cas::teaching
