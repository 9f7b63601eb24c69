#include "value.hpp"

#include "error.hpp"

namespace cas {

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::None: return "none";
    case Kind::Bool: return "bool";
    case Kind::Int: return "int";
    case Kind::Real: return "real";
    case Kind::Mod: return "intmod";
    case Kind::ZPoly: return "zpoly";
    case Kind::ModPoly: return "modpoly";
    case Kind::Vec: return "vector";
    case Kind::Str: return "string";
  }
  return "?";
}

Value Value::boolean(bool b) {
  Value v;
  v.kind_ = Kind::Bool;
  fmpz_set_ui(&v.z_, b ? 1 : 0);
  return v;
}

Value Value::integer(slong x) {
  Value v;
  v.kind_ = Kind::Int;
  fmpz_set_si(&v.z_, x);
  return v;
}

Value Value::integer(const fmpz_t x) {
  Value v;
  v.kind_ = Kind::Int;
  fmpz_set(&v.z_, x);
  return v;
}

Value Value::integer(Fmpz&& x) {
  Value v;
  v.kind_ = Kind::Int;
  fmpz_swap(&v.z_, x.get());
  return v;
}

Value Value::mod(const fmpz_t residue, ModulusPtr m) {
  Value v;
  v.kind_ = Kind::Mod;
  fmpz_set(&v.z_, residue);
  v.obj_ = std::move(m);
  return v;
}

Value Value::mod_reduce(const fmpz_t any, ModulusPtr m) {
  Value v;
  v.kind_ = Kind::Mod;
  fmpz_mod(&v.z_, any, m->value());
  v.obj_ = std::move(m);
  return v;
}

Value Value::mod_word(ulong residue, const Value& like) {
  Value v;
  v.kind_ = Kind::Mod;
  fmpz_set_ui(&v.z_, residue);
  v.obj_ = like.obj_;
  return v;
}

Value Value::zpoly(ZPoly p) {
  Value v;
  v.kind_ = Kind::ZPoly;
  v.obj_ = std::make_shared<ZPolyObject>(std::move(p));
  return v;
}

Value Value::modpoly(ModPoly p) {
  Value v;
  v.kind_ = Kind::ModPoly;
  v.obj_ = std::make_shared<ModPolyObject>(std::move(p));
  return v;
}

Value Value::vec(std::vector<Value> items) {
  Value v;
  v.kind_ = Kind::Vec;
  auto obj = std::make_shared<VecObject>();
  obj->items = std::move(items);
  v.obj_ = std::move(obj);
  return v;
}

Value Value::real(double d) {
  Value v;
  v.kind_ = Kind::Real;
  v.obj_ = std::make_shared<RealObject>(d);
  return v;
}

Value Value::str(std::string s) {
  Value v;
  v.kind_ = Kind::Str;
  v.obj_ = std::make_shared<StrObject>(std::move(s));
  return v;
}

const ModulusPtr Value::modulus() const {
  if (kind_ == Kind::Mod) return std::static_pointer_cast<const Modulus>(obj_);
  if (kind_ == Kind::ModPoly) return as_modpoly().modulus();
  return nullptr;
}

std::vector<Value>& Value::vec_mut() {
  if (obj_.use_count() > 1) {
    auto copy = std::make_shared<VecObject>();
    copy->items = as_vec();
    obj_ = std::move(copy);
  }
  return const_cast<VecObject&>(static_cast<const VecObject&>(*obj_)).items;
}

ModulusPtr common_modulus(const Value& v) {
  if (v.is(Kind::Mod) || v.is(Kind::ModPoly)) return v.modulus();
  if (!v.is(Kind::Vec) || v.as_vec().empty()) return nullptr;
  ModulusPtr first;
  for (const Value& e : v.as_vec()) {
    ModulusPtr m = common_modulus(e);
    if (!m) return nullptr;
    if (!first)
      first = m;
    else if (!same_modulus(first, m))
      return nullptr;
  }
  return first;
}

}  // namespace cas
