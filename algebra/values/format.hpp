#pragma once
// Printed forms of values. Each printed form is also valid input that
// evaluates to an equal value: `16 mod 17`, `3*x^4 - 4*x^2`,
// `(x^2 + 16) mod 17`, `[12, 0, 13] mod 17`.
#include "algebra/values/value.hpp"

#include <string>
#include <unordered_map>
#include <vector>

namespace cas {

struct FormatOptions {
  // The REPL elides values with more terms or entries than this; 0 = never.
  size_t elide_above = 0;
  size_t elide_keep = 5;  // terms kept at each end when eliding
  // A matrix (a vector of two or more vectors of one length, holding integers or elements of
  // Z/pZ) is laid out as an aligned grid, a row a line; still valid input. For the REPL.
  bool grid = false;
};

std::string format(const Value& v, const FormatOptions& options = {});
// How a value is named in error messages: "the integer 7", "16 mod 17", "a vector of length 3".
std::string describe(const Value& v);
// A value quoted in an error message: long polynomials and vectors elided, long integers
// abbreviated as by abbreviate_numbers. Results are printed whole; only messages shorten.
std::string format_for_message(const Value& v);
// A message with every run of more than max_digits digits shortened to its first and last
// digits and its length, "20035299304068464649...45587596709861539156736 (19729 digits)", so
// that an error quoting 2^65536 stays readable.
constexpr size_t max_digits_in_messages = 200;
std::string abbreviate_numbers(const std::string& message);
// The type in words: "an integer", "an element of Z/17Z", "a polynomial in Z[x]".
std::string type_description(const Value& v);

std::string format_zpoly(const ZPoly& p, const FormatOptions& options = {});
// Coefficients as integers in 0..p-1, without the " mod p".
std::string format_modpoly_body(const ModPoly& p, const FormatOptions& options = {});

// The pieces every printed form shares (this file's text, latex.hpp's LaTeX), so that both show
// the same terms and entries, elide the same ones and lay out the same matrices.

// Calls show(i) for each of `count` items (terms or entries) in order, or, when `options` elides
// them, for the first and last elide_keep only, with elided(left_out) once in their place.
template <class Show, class Elided>
void for_each_shown(size_t count, const FormatOptions& options, Show&& show, Elided&& elided) {
  const size_t keep = options.elide_keep;
  const bool elide = options.elide_above && count > options.elide_above && count > 2 * keep;
  for (size_t i = 0; i < count; i++) {
    if (elide && i == keep) {
      elided(count - 2 * keep);
      i = count - keep - 1;
      continue;
    }
    show(i);
  }
}

// How the terms c*x^i of a polynomial are written: in text "3*x^4 - x + ... 5 more terms ...".
struct TermNotation {
  const char* times;        // between a coefficient other than 1 and x: "*"
  const char* power_open;   // before an exponent above 1: "^"
  const char* power_close;  // after it: ""
  const char* elided_open;  // before the number of terms left out: " + ... "
  const char* elided_close;  // after it: " more terms ..."
};
extern const TermNotation text_term_notation;
// The non-zero terms, highest degree first, in `notation`, eliding as `options` asks; "0" for the
// zero polynomial. Over Z/pZ the coefficients are written as integers in 0..p-1.
std::string format_terms(const ZPoly& p, const FormatOptions& options, const TermNotation& notation);
std::string format_terms(const ModPoly& p, const FormatOptions& options, const TermNotation& notation);

// A matrix: two or more vectors of one length (at least 1), holding integers or elements of Z/pZ.
bool is_matrix(const std::vector<Value>& rows);

// A real's shortest digits that read back to it ("0.25", "1e+20"), with ".0" after an integral one.
std::string format_real(double d);

// The common moduli of the vectors met while printing one value: common_modulus(v), each vector's
// found once and remembered by its address, since asking common_modulus at every level of nested
// vectors would read all the levels below again (quadratic in the depth). The vectors must outlive it.
class VectorModuli {
 public:
  ModulusPtr of(const Value& v);

 private:
  std::unordered_map<const Value*, ModulusPtr> known_;
};

}  // namespace cas
