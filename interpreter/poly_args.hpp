#pragma once
// Polynomial arguments of builtins. A builtin that works on polynomials
// accepts integers and Z/pZ elements as constant polynomials; several
// polynomial arguments are brought into one ring: (Z/pZ)[x] as soon as one
// of them has a modulus, Z[x] otherwise.
#include "builtin_args.hpp"

#include <initializer_list>

namespace cas {

inline bool is_ring_element(const Value& v) {
  return v.is(Kind::Int) || v.is(Kind::Mod) || v.is(Kind::ZPoly) || v.is(Kind::ModPoly);
}

inline void require_poly_arg(const CallContext& c, size_t i, const char* fn) {
  if (!is_ring_element(c.args[i]))
    throw DomainError(arg_name(fn, i) + " must be a polynomial, not " + describe(c.args[i]));
}

// The modulus of the ring the listed arguments share; null for Z[x].
inline ModulusPtr poly_ring(const CallContext& c, std::initializer_list<size_t> indices, const char* fn) {
  ModulusPtr ring;
  for (size_t i : indices) {
    require_poly_arg(c, i, fn);
    ModulusPtr m = c.args[i].modulus();
    if (!m) continue;
    if (ring && !same_modulus(ring, m))
      throw DomainError(std::string(fn) + ": cannot mix Z/" + ring->to_string() + "Z and Z/" + m->to_string() + "Z");
    ring = m;
  }
  return ring;
}

// The argument as a polynomial of the ring (after poly_ring has checked it).
inline ZPoly zpoly_arg(const CallContext& c, size_t i) { return to_zpoly(c.args[i]); }
inline ModPoly modpoly_arg(const CallContext& c, size_t i, const ModulusPtr& m) { return to_modpoly(c.args[i], m); }

}  // namespace cas
