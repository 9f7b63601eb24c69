#include "algebra/values/latex.hpp"

#include <cmath>

namespace cas {

namespace {

// 3x^{4} - 4x^{2} + \cdots\ \text{5 more terms}\ \cdots - x
const TermNotation latex_term_notation{"", "^{", "}", " + \\cdots\\ \\text{", " more terms}\\ \\cdots"};

// amsmath's matrix environments take at most 10 columns (its MaxMatrixCols); a wider matrix is an
// array in parentheses, which takes any number.
constexpr size_t most_matrix_columns = 10;

std::string bmod(const Modulus& m) { return " \\bmod " + m.to_string(); }

// format_real's digits, its exponent as a power of ten: "2.5e-07" as 2.5 \times 10^{-7}.
std::string latex_real(double d) {
  if (std::isnan(d)) return "\\mathrm{NaN}";
  if (std::isinf(d)) return d < 0 ? "-\\infty" : "\\infty";
  const std::string digits = format_real(d);
  const size_t e = digits.find('e');
  if (e == std::string::npos) return digits;
  const std::string mantissa = digits.substr(0, e);
  std::string exponent = digits.substr(e + 1);
  const bool negative = exponent[0] == '-';
  exponent.erase(0, exponent.find_first_not_of("+-0"));
  const std::string power = "10^{" + std::string(negative ? "-" : "") + exponent + "}";
  if (mantissa == "1") return power;
  if (mantissa == "-1") return "-" + power;
  return mantissa + " \\times " + power;
}

// A character that LaTeX gives a meaning in text, as it is written in math mode; null for the others.
const char* special_in_math(char ch) {
  switch (ch) {
    case '\\': return "\\backslash";
    case '{': return "\\{";
    case '}': return "\\}";
    case '$': return "\\$";
    case '&': return "\\&";
    case '#': return "\\#";
    case '%': return "\\%";
    case '_': return "\\_";
    case '^': return "\\hat{}";
    case '~': return "\\sim";
    default: return nullptr;
  }
}

// Runs of ordinary characters in \text{...}, the special ones in math mode between them. Control
// characters (newline, tab) become spaces: a blank line inside \text{} would end LaTeX's paragraph.
std::string latex_string(const std::string& s) {
  std::string out, run;
  auto end_run = [&] {
    if (!run.empty()) out += "\\text{" + run + "}";
    run.clear();
  };
  for (char ch : s) {
    if (const char* special = special_in_math(ch)) {
      end_run();
      out += special;
    } else {
      const bool control = static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f;
      run += control ? ' ' : ch;
    }
  }
  end_run();
  return out.empty() ? "\\text{}" : out;
}

// Writes one value, nested vectors included, into one string. As in format(), a vector over one
// Z/pZ is written with its entries lifted and " \bmod p" once after it.
class LatexPrinter {
 public:
  explicit LatexPrinter(const FormatOptions& options) : options_(options) {}

  void value(const Value& v);
  std::string take() { return std::move(out_); }

 private:
  void lifted(const Value& v);
  void modpoly(const Value& v);
  void vector(const Value& v);
  void vector_body(const Value& v, bool lifted_entries);
  template <class Entry>
  void list(size_t count, Entry&& entry);
  void matrix(const std::vector<Value>& rows, bool lifted_entries);
  template <class Cell>
  void matrix_row(size_t columns, Cell&& cell, const char* elided);

  const FormatOptions& options_;
  std::string out_;
  VectorModuli moduli_;
};

void LatexPrinter::value(const Value& v) {
  switch (v.kind()) {
    case Kind::None: break;
    case Kind::Bool: out_ += v.as_bool() ? "\\mathrm{true}" : "\\mathrm{false}"; break;
    case Kind::Int: out_ += fmpz_to_string(v.as_int()); break;
    case Kind::Real: out_ += latex_real(v.as_real()); break;
    case Kind::Mod: out_ += fmpz_to_string(v.as_int()) + bmod(v.mod_context()); break;
    case Kind::ZPoly: out_ += format_terms(v.as_zpoly(), options_, latex_term_notation); break;
    case Kind::ModPoly: modpoly(v); break;
    case Kind::Vec: vector(v); break;
    case Kind::Str: out_ += latex_string(v.as_str()); break;
  }
}

// The body of a value over Z/pZ, written as its lift (inside a vector that writes \bmod p once).
void LatexPrinter::lifted(const Value& v) {
  switch (v.kind()) {
    case Kind::Mod: out_ += fmpz_to_string(v.as_int()); break;
    case Kind::ModPoly: out_ += format_terms(v.as_modpoly(), options_, latex_term_notation); break;
    case Kind::Vec: vector_body(v, true); break;
    default: value(v);
  }
}

// (x^{2} + 16) \bmod 17, the parentheses only around several terms, as format() has them.
void LatexPrinter::modpoly(const Value& v) {
  const std::string body = format_terms(v.as_modpoly(), options_, latex_term_notation);
  const bool several_terms = body.find(" + ") != std::string::npos || body.find(" - ") != std::string::npos;
  out_ += (several_terms ? "(" + body + ")" : body) + bmod(*v.modulus());
}

void LatexPrinter::vector(const Value& v) {
  const ModulusPtr m = moduli_.of(v);
  vector_body(v, m != nullptr);
  if (m) out_ += bmod(*m);
}

void LatexPrinter::vector_body(const Value& v, bool lifted_entries) {
  // Packed residues are written from their words: only the entries shown are read.
  if (const PackedResidues* packed = v.packed_residues(); packed && lifted_entries) {
    list(packed->words.size(), [&](size_t i) { out_ += std::to_string(packed->words[i]); });
    return;
  }
  const std::vector<Value>& items = v.as_vec();
  if (is_matrix(items)) {
    matrix(items, lifted_entries);
    return;
  }
  list(items.size(), [&](size_t i) {
    if (lifted_entries)
      lifted(items[i]);
    else
      value(items[i]);
  });
}

// \left[1,\ 2,\ \ldots\ \text{90 more entries}\ \ldots,\ 99\right]
template <class Entry>
void LatexPrinter::list(size_t count, Entry&& entry) {
  out_ += "\\left[";
  bool first = true;
  auto separate = [&] {
    if (!first) out_ += ",\\ ";
    first = false;
  };
  for_each_shown(
      count, options_,
      [&](size_t i) {
        separate();
        entry(i);
      },
      [&](size_t left_out) {
        separate();
        out_ += "\\ldots\\ \\text{" + std::to_string(left_out) + " more entries}\\ \\ldots";
      });
  out_ += "\\right]";
}

// \begin{pmatrix}1 & 2 \\ 3 & 4\end{pmatrix}; rows and columns are elided as format() elides
// entries, a row of \vdots (\ddots where the columns are elided) in place of the rows left out.
void LatexPrinter::matrix(const std::vector<Value>& rows, bool lifted_entries) {
  const size_t columns = rows[0].as_vec().size();
  size_t shown_columns = 0;  // the \cdots of elided columns counts as one
  for_each_shown(
      columns, options_, [&](size_t) { shown_columns++; }, [&](size_t) { shown_columns++; });
  const bool wide = shown_columns > most_matrix_columns;
  out_ += wide ? "\\left(\\begin{array}{" + std::string(shown_columns, 'c') + "}" : "\\begin{pmatrix}";
  bool first = true;
  auto next_row = [&] {
    if (!first) out_ += " \\\\ ";
    first = false;
  };
  for_each_shown(
      rows.size(), options_,
      [&](size_t r) {
        next_row();
        const std::vector<Value>& row = rows[r].as_vec();
        matrix_row(
            columns,
            [&](size_t c) {
              if (lifted_entries)
                lifted(row[c]);
              else
                value(row[c]);
            },
            "\\cdots");
      },
      [&](size_t) {
        next_row();
        matrix_row(
            columns, [&](size_t) { out_ += "\\vdots"; }, "\\ddots");
      });
  out_ += wide ? "\\end{array}\\right)" : "\\end{pmatrix}";
}

// One row's cells separated by &, `elided` in place of the columns left out.
template <class Cell>
void LatexPrinter::matrix_row(size_t columns, Cell&& cell, const char* elided) {
  bool first = true;
  auto separate = [&] {
    if (!first) out_ += " & ";
    first = false;
  };
  for_each_shown(
      columns, options_,
      [&](size_t c) {
        separate();
        cell(c);
      },
      [&](size_t) {
        separate();
        out_ += elided;
      });
}

}  // namespace

std::string format_latex(const Value& v, const FormatOptions& options) {
  if (v.is_none()) return "";
  LatexPrinter printer(options);
  printer.value(v);
  return "$" + printer.take() + "$";
}

}  // namespace cas
