#include "algebra/teaching/teaching_text.hpp"

#include "algebra/values/format.hpp"

#include <algorithm>
#include <ostream>

namespace cas::teaching {

namespace {

std::string text(const Fmpz& z) { return z.to_string(); }

std::string list(const Residues& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); i++) out += (i ? ", " : "") + text(items[i]);
  return out + "]";
}

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

void write_bit_reversal(std::ostream& out, const FftTrace& t) {
  const size_t n = t.input.size(), digits = t.stages.size();
  out << "\nbit reversal: position i takes v[rev(i)], rev(i) = i with its " << plural(digits, "binary digit")
      << " reversed\n";
  std::vector<std::vector<std::string>> rows{{"i", "binary", "rev(i)", "v[rev(i)]"}};
  for (size_t i = 0; i < n; i++)
    rows.push_back({std::to_string(i), binary(i, digits), std::to_string(t.bit_reversal[i]),
                    text(t.first_stage_input[i])});
  out << aligned_rows(rows, "  ") << "  after: " << list(t.first_stage_input) << "\n";
}

std::string stage_heading(const FftTrace& t, size_t s) {
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

void write_stage(std::ostream& out, const FftTrace& t, size_t s) {
  const FftStage& stage = t.stages[s];
  const bool stockham = t.ordering == FftOrdering::Stockham;
  out << "\n" << stage_heading(t, s) << "\n";
  std::vector<std::vector<std::string>> rows;
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
  out << aligned_rows(rows, "  ") << "  after: " << list(stage.after) << "\n";
}

// Two lines: which transform, and how it goes.
std::string fft_heading(const FftTrace& t) {
  const std::string name = t.ordering == FftOrdering::CooleyTukey ? "Cooley-Tukey" : "Stockham";
  std::string out = "radix-2 " + name + " FFT of length " + std::to_string(t.input.size()) + " over " +
                    field(t.modulus) + " at w = " + text(t.w);
  if (t.ordering == FftOrdering::Stockham) out += " (Moreno Maza & Pan 2010, formula (12))";
  const std::string stages = plural(t.stages.size(), "stage") + " of butterflies (a, b) -> (a + w^k*b, a - w^k*b)";
  if (t.stages.empty()) return out + "\n";
  if (t.ordering == FftOrdering::CooleyTukey) return out + "\n  bit reversal, then " + stages + ", in place\n";
  return out + "\n  no bit reversal; " + stages + ", each from one vector into the next; the result in natural order\n";
}

void write_grid(std::ostream& out, const Matrix& a) {
  std::vector<std::vector<std::string>> rows(a.rows);
  for (size_t r = 0; r < a.rows; r++)
    for (size_t c = 0; c < a.cols; c++) rows[r].push_back(text(a.at(r, c)));
  out << aligned_rows(rows, "     ");
}

std::string power_of_w(size_t e, const SixStepTrace& t) { return power_text(e, t.w, *t.modulus); }

}  // namespace

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
  out << fft_heading(t);
  out << "  input: " << list(t.input) << "\n";
  if (t.ordering == FftOrdering::CooleyTukey && !t.stages.empty()) write_bit_reversal(out, t);
  if (t.stages.empty()) out << "  (a DFT of length 1 is the identity: no stages)\n";
  for (size_t s = 0; s < t.stages.size(); s++) write_stage(out, t, s);
}

void write_six_step(std::ostream& out, const SixStepTrace& t) {
  const size_t n = t.J * t.K;
  const std::string J = std::to_string(t.J), K = std::to_string(t.K);
  out << "six-step DFT of length " << n << " = " << J << " x " << K << " over " << field(t.modulus)
      << " at w = " << text(t.w) << "\n";
  out << "1. reshape v into " << plural(t.J, "row") << " of " << K << ": A[r][c] = v[" << K << "*r + c]\n";
  write_grid(out, t.reshaped);
  out << "2. a DFT of length " << J << " at " << power_of_w(t.K % n, t) << " down each of the "
      << plural(t.K, "column") << "\n";
  write_grid(out, t.column_dfts);
  out << "3. entry (r, c) times the twiddle factor w^(r*c); the factors:\n";
  write_grid(out, t.twiddle_factors);
  out << "   the products:\n";
  write_grid(out, t.twiddled);
  out << "4. a DFT of length " << K << " at " << power_of_w(t.J % n, t) << " along each of the "
      << plural(t.J, "row") << "\n";
  write_grid(out, t.row_dfts);
  out << "5. transpose into " << plural(t.K, "row") << " of " << J << "\n";
  write_grid(out, t.transposed);
  out << "6. read row by row: " << list(t.result) << " = the DFT of v at w\n";
}

void write_evaluation_table(std::ostream& out, const EvaluationTable& t, const std::string& f_text) {
  const size_t n = t.points.size();
  const std::string p = t.modulus->to_string();
  out << "f(w^i) for i = 0.." << n - 1 << ", w = " << text(t.w) << " in " << field(t.modulus)
      << ": the DFT of the coefficients of f = " << f_text << "\n";
  std::vector<std::vector<std::string>> rows{{"i", "w^i", "f(w^i)"}};
  for (size_t i = 0; i < n; i++) rows.push_back({std::to_string(i), text(t.points[i]), text(t.values[i])});
  out << aligned_rows(rows, "  ");
  Residues coefficients(n);
  for (size_t i = 0; i < n; i++) t.interpolated.coeff(coefficients[i].get(), static_cast<slong>(i));
  out << "and back, the inverse DFT:\n  interpolate(" << list(t.points) << " mod " << p << ", " << list(t.values)
      << " mod " << p << ")\n    = " << format(Value::modpoly(t.interpolated)) << " = f\n  idft(values, w) = "
      << list(coefficients) << ", the coefficients of f\n";
}

}  // namespace cas::teaching
