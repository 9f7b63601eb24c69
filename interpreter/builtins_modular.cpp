// lift, centerlift, modulus, primroot, rootofunity, order: moving between
// Z and Z/pZ, and the multiplicative group of Z/pZ.
#include "algebra/values/integer_vectors.hpp"
#include "algebra/integers/integers.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "builtin_args.hpp"

namespace cas {

namespace {

// A packed vector's words straight to integers, without making its elements of Z/pZ first, on the
// cores.
Value lift_words(const PackedResidues& x, bool centred) {
  const ulong p = x.modulus->word();
  return integer_vector_from(x.words.size(),
                             [&x, p, centred](fmpz* out, size_t i) { lift_word(out, x.words[i], p, centred); });
}

// Z/pZ values become integers, (Z/pZ)[x] becomes Z[x], vectors elementwise;
// values already over Z are returned unchanged (as PARI does).
Value lift_value(const Value& v, bool centred, const char* fn) {
  switch (v.kind()) {
    case Kind::Int:
    case Kind::ZPoly: return v;
    case Kind::Mod: {
      Fmpz r;
      if (centred) fmpz_smod(r.get(), v.as_int(), v.mod_context().value());
      else fmpz_set(r.get(), v.as_int());
      return Value::integer(std::move(r));
    }
    case Kind::ModPoly: return Value::zpoly(lifted(v.as_modpoly(), centred));
    case Kind::Vec: {
      if (const PackedResidues* packed = v.packed_residues()) return lift_words(*packed, centred);
      std::vector<Value> out;
      out.reserve(v.as_vec().size());
      for (const Value& e : v.as_vec()) out.push_back(lift_value(e, centred, fn));
      return Value::vec(std::move(out));
    }
    default:
      throw DomainError(std::string(fn) + ": argument 1 must be an element or polynomial over Z/pZ (or a vector of "
                        "them), not " + describe(v));
  }
}

Value builtin_lift(CallContext& c) { return lift_value(c.args[0], false, "lift"); }
Value builtin_centerlift(CallContext& c) { return lift_value(c.args[0], true, "centerlift"); }

Value builtin_modulus(CallContext& c) {
  const Value& v = c.args[0];
  ModulusPtr m = common_modulus(v);
  if (!m) {
    if (v.is(Kind::Vec))
      throw DomainError("modulus: the vector's entries must all be over the same Z/pZ, not " + describe(v));
    throw DomainError("modulus: argument 1 must be over Z/pZ, not " + describe(v));
  }
  return Value::integer(m->value());
}

// An integer modulus argument (p >= 2) as a shared Modulus.
ModulusPtr modulus_arg(const CallContext& c, size_t i, const char* fn) {
  const fmpz* p = int_arg(c, i, fn);
  if (fmpz_cmp_ui(p, 2) < 0)
    throw DomainError(arg_name(fn, i) + " must be a modulus of at least 2, not " + fmpz_to_string(p));
  return make_modulus(p);
}

Value builtin_primroot(CallContext& c) {
  ModulusPtr m = modulus_arg(c, 0, "primroot");
  Fmpz g = primitive_root(*m);
  return Value::mod(g.get(), m);
}

Value builtin_rootofunity(CallContext& c) {
  const fmpz* n = int_arg(c, 0, "rootofunity");
  return root_of_unity(n, modulus_arg(c, 1, "rootofunity"));
}

Value builtin_order(CallContext& c) {
  const Value& a = c.args[0];
  if (!a.is(Kind::Mod))
    throw DomainError("order: argument 1 must be an element of Z/pZ, like 2 mod 17, not " + describe(a));
  return Value::integer(multiplicative_order(a.as_int(), a.mod_context()));
}

}  // namespace

void register_modular_builtins(Registry& r) {
  r.reg("lift", 1, builtin_lift,
        "lift(a): the integer in 0..p-1 representing a in Z/pZ; polynomials over Z/pZ go to Z[x], vectors "
        "entry by entry; integers and Z[x] are returned unchanged.");
  r.reg("centerlift", 1, builtin_centerlift,
        "centerlift(a): like lift, but to the symmetric range -p/2 < r <= p/2 (so 16 mod 17 gives -1).");
  r.reg("modulus", 1, builtin_modulus,
        "modulus(a): p, for a in Z/pZ, a polynomial over Z/pZ, or a vector of them.");
  r.reg("primroot", 1, builtin_primroot,
        "primroot(p): the smallest generator of the multiplicative group (Z/pZ)*, as an element of Z/pZ "
        "(primroot(17) = 3 mod 17); an error when the group is not cyclic.");
  r.reg("rootofunity", 2, builtin_rootofunity,
        "rootofunity(n, p): a primitive n-th root of unity in Z/pZ, primroot(p)^((p-1)/n); "
        "an error when p is not prime or n does not divide p-1.");
  r.reg("order", 1, builtin_order,
        "order(a): the multiplicative order of a in Z/pZ, the smallest k > 0 with a^k = 1 "
        "(order(2 mod 17) = 8); an error when a is not invertible.");
}

}  // namespace cas
