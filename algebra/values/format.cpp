#include "algebra/values/format.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <memory>
#include <unordered_map>

namespace cas {

std::string fmpz_to_string(const fmpz_t z) {
  if (!COEFF_IS_MPZ(*z)) return std::to_string(static_cast<slong>(*z));
  char* s = fmpz_get_str(nullptr, 10, z);
  std::string out(s);
  flint_free(s);
  return out;
}

std::string Fmpz::to_string() const { return fmpz_to_string(&z_); }

namespace {

// Appends one term `c*x^i` with its sign; `first` is true for the leading term.
void append_term(std::string& out, const fmpz* c, slong i, bool first, const TermNotation& notation) {
  const bool negative = fmpz_sgn(c) < 0;
  if (first)
    out += negative ? "-" : "";
  else
    out += negative ? " - " : " + ";
  Fmpz magnitude;
  fmpz_abs(magnitude.get(), c);
  const bool unit = fmpz_is_one(magnitude.get());
  if (i == 0) {
    out += magnitude.to_string();
    return;
  }
  if (!unit) out += magnitude.to_string() + notation.times;
  out += "x";
  if (i > 1) out += notation.power_open + std::to_string(i) + notation.power_close;
}

// Formats the terms with these exponents (the non-zero ones, descending), each coefficient given by
// `coeff(out, i)`, eliding the middle when asked.
template <class CoeffAt>
std::string terms(const std::vector<slong>& exponents, CoeffAt coeff, const FormatOptions& options,
                  const TermNotation& notation) {
  if (exponents.empty()) return "0";
  std::string out;
  Fmpz c;
  for_each_shown(
      exponents.size(), options,
      [&](size_t k) {
        coeff(c.get(), exponents[k]);
        append_term(out, c.get(), exponents[k], k == 0, notation);
      },
      [&](size_t left_out) { out += notation.elided_open + std::to_string(left_out) + notation.elided_close; });
  return out;
}

std::vector<slong> nonzero_exponents(const ZPoly& p) {
  std::vector<slong> out;
  for (slong i = p.length() - 1; i >= 0; i--)
    if (!fmpz_is_zero(p.coeff(i))) out.push_back(i);
  return out;
}

std::vector<slong> nonzero_exponents(const ModPoly& p) {
  std::vector<slong> out;
  Fmpz c;
  for (slong i = p.length() - 1; i >= 0; i--) {
    p.coeff(c.get(), i);
    if (!fmpz_is_zero(c.get())) out.push_back(i);
  }
  return out;
}

// [[1,  1,  1],
//  [1, 16, 13]]   with the entries right-aligned in their columns.
std::string format_grid(const std::vector<Value>& rows, bool lifted) {
  std::vector<std::vector<std::string>> cells;
  std::vector<size_t> widths(rows[0].as_vec().size());
  for (const Value& row : rows) {
    cells.emplace_back();
    for (const Value& e : row.as_vec()) {
      cells.back().push_back(lifted ? fmpz_to_string(e.as_int()) : format(e));
      widths[cells.back().size() - 1] = std::max(widths[cells.back().size() - 1], cells.back().back().size());
    }
  }
  std::string out = "[";
  for (size_t r = 0; r < cells.size(); r++) {
    out += r ? ",\n [" : "[";
    for (size_t c = 0; c < cells[r].size(); c++)
      out += (c ? ", " : "") + std::string(widths[c] - cells[r][c].size(), ' ') + cells[r][c];
    out += "]";
  }
  return out + "]";
}

bool shown_as_grid(const std::vector<Value>& items, const FormatOptions& options) {
  if (!options.grid || !is_matrix(items)) return false;
  const size_t limit = options.elide_above;
  return !limit || (items.size() <= limit && items[0].as_vec().size() <= limit);
}

// Prints one value, nested vectors included, into one string. A vector over one Z/pZ is printed as
// `[...] mod p` with its entries lifted, so each vector needs its common modulus; asking
// common_modulus at every level would read all the levels below again (quadratic in the depth), so
// the moduli are found once per vector and remembered.
class Printer {
 public:
  explicit Printer(const FormatOptions& options) : options_(options) {}

  void value(const Value& v);
  std::string take() { return std::move(out_); }

 private:
  void lifted(const Value& v);
  void vector(const Value& v);
  void items(const std::vector<Value>& items, bool lifted);

  const FormatOptions& options_;
  std::string out_;
  VectorModuli moduli_;
};

void Printer::value(const Value& v) {
  if (v.is(Kind::Vec))
    vector(v);
  else
    out_ += format(v, options_);
}

// The body of a value over Z/pZ, printed as its lift (used inside `[...] mod p`).
void Printer::lifted(const Value& v) {
  switch (v.kind()) {
    case Kind::Mod: out_ += fmpz_to_string(v.as_int()); break;
    case Kind::ModPoly: out_ += format_modpoly_body(v.as_modpoly(), options_); break;
    case Kind::Vec: items(v.as_vec(), true); break;
    default: value(v);
  }
}

void Printer::vector(const Value& v) {
  const ModulusPtr m = moduli_.of(v);
  if (shown_as_grid(v.as_vec(), options_))
    out_ += format_grid(v.as_vec(), m != nullptr);
  else
    items(v.as_vec(), m != nullptr);
  if (m) out_ += " mod " + m->to_string();
}

void Printer::items(const std::vector<Value>& items, bool lifted_entries) {
  out_ += "[";
  bool first = true;
  auto separate = [&] {
    if (!first) out_ += ", ";
    first = false;
  };
  for_each_shown(
      items.size(), options_,
      [&](size_t i) {
        separate();
        if (lifted_entries)
          lifted(items[i]);
        else
          value(items[i]);
      },
      [&](size_t left_out) {
        separate();
        out_ += "... " + std::to_string(left_out) + " more entries ...";
      });
  out_ += "]";
}

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    switch (ch) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default: out += ch;
    }
  }
  return out + "\"";
}

}  // namespace

std::string format_real(double d) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
  std::string s(buf, end);
  if (s.find_first_of(".eni") == std::string::npos) s += ".0";  // stays a real when read back
  return s;
}

bool is_matrix(const std::vector<Value>& rows) {
  if (rows.size() < 2 || !rows[0].is(Kind::Vec) || rows[0].as_vec().empty()) return false;
  const size_t columns = rows[0].as_vec().size();
  for (const Value& row : rows) {
    if (!row.is(Kind::Vec) || row.as_vec().size() != columns) return false;
    for (const Value& e : row.as_vec())
      if (!e.is(Kind::Int) && !e.is(Kind::Mod)) return false;
  }
  return true;
}

ModulusPtr VectorModuli::of(const Value& v) {
  if (!v.is(Kind::Vec) || v.vec_size() == 0 || v.packed_residues()) return common_modulus(v);
  if (auto known = known_.find(&v); known != known_.end()) return known->second;
  ModulusPtr m = modulus_of_entries(v.as_vec(), [this](const Value& e) { return of(e); });
  known_.emplace(&v, m);
  return m;
}

const TermNotation text_term_notation{"*", "^", "", " + ... ", " more terms ..."};

std::string format_terms(const ZPoly& p, const FormatOptions& options, const TermNotation& notation) {
  return terms(
      nonzero_exponents(p), [&](fmpz_t out, slong i) { fmpz_set(out, p.coeff(i)); }, options, notation);
}

std::string format_terms(const ModPoly& p, const FormatOptions& options, const TermNotation& notation) {
  return terms(
      nonzero_exponents(p), [&](fmpz_t out, slong i) { p.coeff(out, i); }, options, notation);
}

std::string format_zpoly(const ZPoly& p, const FormatOptions& options) {
  return format_terms(p, options, text_term_notation);
}

std::string format_modpoly_body(const ModPoly& p, const FormatOptions& options) {
  return format_terms(p, options, text_term_notation);
}

std::string format(const Value& v, const FormatOptions& options) {
  switch (v.kind()) {
    case Kind::None: return "";
    case Kind::Bool: return v.as_bool() ? "true" : "false";
    case Kind::Int: return fmpz_to_string(v.as_int());
    case Kind::Real: return format_real(v.as_real());
    case Kind::Mod: return fmpz_to_string(v.as_int()) + " mod " + v.modulus()->to_string();
    case Kind::ZPoly: return format_zpoly(v.as_zpoly(), options);
    case Kind::ModPoly: {
      std::string body = format_modpoly_body(v.as_modpoly(), options);
      const bool several_terms = body.find(" + ") != std::string::npos || body.find(" - ") != std::string::npos;
      return (several_terms ? "(" + body + ")" : body) + " mod " + v.modulus()->to_string();
    }
    case Kind::Vec: {
      Printer printer(options);
      printer.value(v);
      return printer.take();
    }
    case Kind::Str: return quote(v.as_str());
  }
  return "";
}

std::string type_description(const Value& v) {
  switch (v.kind()) {
    case Kind::None: return "nothing";
    case Kind::Bool: return "a boolean";
    case Kind::Int: return "an integer";
    case Kind::Real: return "a real number";
    case Kind::Mod: return "an element of Z/" + v.modulus()->to_string() + "Z";
    case Kind::ZPoly: return "a polynomial in Z[x]";
    case Kind::ModPoly: return "a polynomial in Z/" + v.modulus()->to_string() + "Z[x]";
    case Kind::Vec: return "a vector";
    case Kind::Str: return "a string";
  }
  return "a value";
}

namespace {

// The digits [begin, end) of `text` appended to `out`, the middle left out when there are many.
void append_digits(std::string& out, const std::string& text, size_t begin, size_t end) {
  constexpr size_t kept = 20;  // at each end
  const size_t count = end - begin;
  if (count <= max_digits_in_messages) {
    out.append(text, begin, count);
    return;
  }
  out.append(text, begin, kept);
  out += "...";
  out.append(text, end - kept, kept);
  out += " (" + std::to_string(count) + " digits)";
}

}  // namespace

std::string abbreviate_numbers(const std::string& message) {
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  std::string out;
  size_t i = 0;
  while (i < message.size()) {
    if (!is_digit(message[i])) {
      out += message[i++];
      continue;
    }
    size_t end = i;
    while (end < message.size() && is_digit(message[end])) end++;
    append_digits(out, message, i, end);
    i = end;
  }
  return out;
}

std::string format_for_message(const Value& v) {
  FormatOptions shortened;
  shortened.elide_above = 8;
  shortened.elide_keep = 2;
  return abbreviate_numbers(format(v, shortened));
}

std::string describe(const Value& v) {
  switch (v.kind()) {
    case Kind::Vec: return "a vector of length " + std::to_string(v.vec_size());
    case Kind::None: return "nothing";
    default: {
      FormatOptions shortened;
      shortened.elide_above = 8;
      shortened.elide_keep = 2;
      std::string text = format(v, shortened);
      if (text.size() <= 60) return text;
      // A long number keeps its first and last digits and its length; anything else is cut.
      std::string abbreviated = abbreviate_numbers(text);
      return abbreviated.size() < text.size() ? abbreviated : text.substr(0, 57) + "...";
    }
  }
}

}  // namespace cas
