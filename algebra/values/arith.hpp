#pragma once
// The arithmetic of the language on Values: promotion between Z, Z/pZ, Z[x]
// and (Z/pZ)[x], elementwise vector operations, equality and order.
#include "algebra/values/value.hpp"

namespace cas {

enum class BinaryOp { Add, Sub, Mul, Div, FloorDiv, Rem, Pow, PointMul, Eq, Ne, Lt, Le, Gt, Ge };

const char* op_symbol(BinaryOp op);

Value apply(BinaryOp op, const Value& a, const Value& b);
Value negate(const Value& a);
// `a mod p`: integers to Z/pZ, Z[x] to (Z/pZ)[x], vectors elementwise.
Value reduce_mod(const Value& a, const Value& p);
bool equal_values(const Value& a, const Value& b);

// Conversions for builtins; each throws DomainError naming the value when impossible.
ZPoly to_zpoly(const Value& v);                           // Int or ZPoly
ModPoly to_modpoly(const Value& v, const ModulusPtr& m);  // Int, Mod, ZPoly or ModPoly
Value to_mod(const Value& v, const ModulusPtr& m);        // Int or Mod -> Mod
ulong to_exponent(const Value& e, const char* what);      // non-negative Int that fits a word

}  // namespace cas
