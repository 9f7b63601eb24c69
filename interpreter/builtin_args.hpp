#pragma once
// Argument checks shared by the builtins: each returns the argument in the
// wanted form or throws DomainError naming the function, the argument and
// what it got (the evaluator adds the call's position).
#include "algebra/values/arith.hpp"
#include "algebra/support/error.hpp"
#include "algebra/values/format.hpp"
#include "builtins.hpp"

#include <string>

namespace cas {

inline std::string arg_name(const char* fn, size_t i) {
  return std::string(fn) + ": argument " + std::to_string(i + 1);
}

inline const fmpz* int_arg(const CallContext& c, size_t i, const char* fn) {
  const Value& v = c.args[i];
  if (!v.is(Kind::Int)) throw DomainError(arg_name(fn, i) + " must be an integer, not " + describe(v));
  return v.as_int();
}

// A non-negative integer that fits a machine word (lengths, counts, bit sizes).
inline ulong count_arg(const CallContext& c, size_t i, const char* fn) {
  const fmpz* z = int_arg(c, i, fn);
  if (fmpz_sgn(z) < 0 || !fmpz_abs_fits_ui(z) || fmpz_cmp_ui(z, 1ul << 62) > 0)
    throw DomainError(arg_name(fn, i) + " must be a non-negative integer of reasonable size, not " + fmpz_to_string(z));
  return fmpz_get_ui(z);
}

// The vector argument itself, whose entries may be packed (see Value::packed_residues).
inline const Value& vector_value_arg(const CallContext& c, size_t i, const char* fn) {
  const Value& v = c.args[i];
  if (!v.is(Kind::Vec)) throw DomainError(arg_name(fn, i) + " must be a vector, not " + describe(v));
  return v;
}

inline const std::vector<Value>& vec_arg(const CallContext& c, size_t i, const char* fn) {
  return vector_value_arg(c, i, fn).as_vec();
}

inline const std::string& str_arg(const CallContext& c, size_t i, const char* fn) {
  const Value& v = c.args[i];
  if (!v.is(Kind::Str)) throw DomainError(arg_name(fn, i) + " must be a string, not " + describe(v));
  return v.as_str();
}

inline bool is_poly(const Value& v) { return v.is(Kind::ZPoly) || v.is(Kind::ModPoly); }

}  // namespace cas
