#pragma once
// Printed forms of values. Each printed form is also valid input that
// evaluates to an equal value: `16 mod 17`, `3*x^4 - 4*x^2`,
// `(x^2 + 16) mod 17`, `[12, 0, 13] mod 17`.
#include "algebra/values/value.hpp"

#include <string>

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

}  // namespace cas
