#pragma once
// The values of the cas language. A Value is small: a kind, an inline fmpz
// (integers, booleans and the residue of a Z/pZ element; FLINT keeps small
// integers inline, so scalar arithmetic does not allocate) and a shared
// pointer to an immutable object for everything larger. Larger values are
// shared on copy and copied only when written to while shared (copy on write).
#include "flint_util.hpp"
#include "modpoly.hpp"
#include "modulus.hpp"
#include "zpoly.hpp"

#include <memory>
#include <string>
#include <vector>

namespace cas {

// Real numbers exist only so that time() and timings can be computed and printed.
enum class Kind : unsigned char { None, Bool, Int, Real, Mod, ZPoly, ModPoly, Vec, Str };

const char* kind_name(Kind k);

class Value;

struct ZPolyObject final : Object {
  ZPoly poly;
  explicit ZPolyObject(ZPoly p) : poly(std::move(p)) {}
};
struct ModPolyObject final : Object {
  ModPoly poly;
  explicit ModPolyObject(ModPoly p) : poly(std::move(p)) {}
};
struct VecObject final : Object {
  std::vector<Value> items;
};
struct RealObject final : Object {
  double value;
  explicit RealObject(double v) : value(v) {}
};
struct StrObject final : Object {
  std::string text;
  explicit StrObject(std::string t) : text(std::move(t)) {}
};

class Value {
 public:
  Value() = default;
  // Small integers are stored inline by FLINT: copy them without a call.
  Value(const Value& o) : kind_(o.kind_), obj_(o.obj_) {
    if (COEFF_IS_MPZ(o.z_))
      fmpz_init_set(&z_, &o.z_);
    else
      z_ = o.z_;
  }
  Value(Value&& o) noexcept : kind_(o.kind_), z_(o.z_), obj_(std::move(o.obj_)) {
    o.z_ = 0;
    o.kind_ = Kind::None;
  }
  Value& operator=(const Value& o) {
    kind_ = o.kind_;
    if (COEFF_IS_MPZ(z_) || COEFF_IS_MPZ(o.z_))
      fmpz_set(&z_, &o.z_);
    else
      z_ = o.z_;
    obj_ = o.obj_;
    return *this;
  }
  Value& operator=(Value&& o) noexcept {
    kind_ = o.kind_;
    std::swap(z_, o.z_);
    obj_ = std::move(o.obj_);
    return *this;
  }
  ~Value() { fmpz_clear(&z_); }

  // Constructors by kind.
  static Value boolean(bool b);
  static Value integer(slong v);
  static Value integer(const fmpz_t v);
  static Value integer(Fmpz&& v);
  static Value mod(const fmpz_t residue, ModulusPtr m);  // residue must be reduced
  static Value mod_reduce(const fmpz_t any, ModulusPtr m);
  // An element of the same Z/pZ as `like` (a Mod), from a reduced word-size residue.
  static Value mod_word(ulong residue, const Value& like);
  static Value zpoly(ZPoly p);
  static Value modpoly(ModPoly p);
  static Value vec(std::vector<Value> items);
  static Value str(std::string s);
  static Value real(double d);

  Kind kind() const { return kind_; }
  bool is(Kind k) const { return kind_ == k; }
  bool is_none() const { return kind_ == Kind::None; }

  // Accessors; each requires the matching kind.
  bool as_bool() const { return !fmpz_is_zero(&z_); }
  const fmpz* as_int() const { return &z_; }          // Int, or the residue of a Mod
  fmpz* int_mut() { return &z_; }
  const ModulusPtr modulus() const;                   // Mod, ModPoly; null otherwise
  const Modulus* modulus_raw() const { return kind_ == Kind::Mod ? &mod_context() : nullptr; }
  const Modulus& mod_context() const { return static_cast<const Modulus&>(*obj_); }  // Mod only
  const ZPoly& as_zpoly() const { return static_cast<const ZPolyObject&>(*obj_).poly; }
  const ModPoly& as_modpoly() const { return static_cast<const ModPolyObject&>(*obj_).poly; }
  const std::vector<Value>& as_vec() const { return static_cast<const VecObject&>(*obj_).items; }
  const std::string& as_str() const { return static_cast<const StrObject&>(*obj_).text; }
  double as_real() const { return static_cast<const RealObject&>(*obj_).value; }

  // Writable access, copying the shared object first if anyone else holds it.
  std::vector<Value>& vec_mut();

 private:
  Kind kind_ = Kind::None;
  fmpz z_ = 0;
  std::shared_ptr<const Object> obj_;
};

// The modulus shared by a Mod, a ModPoly, or (recursively) every entry of a
// non-empty vector; null when there is none.
ModulusPtr common_modulus(const Value& v);

}  // namespace cas
