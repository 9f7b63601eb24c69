#pragma once
// The values of the cas language. A Value is small: a kind, an inline fmpz
// (integers, booleans and the residue of a Z/pZ element; FLINT keeps small
// integers inline, so scalar arithmetic does not allocate) and a shared
// pointer to an immutable object for everything larger. Larger values are
// shared on copy and copied only when written to while shared (copy on write).
#include "algebra/support/flint_util.hpp"
#include "algebra/poly/modpoly.hpp"
#include "algebra/integers/modulus.hpp"
#include "algebra/support/words.hpp"
#include "algebra/poly/zpoly.hpp"

#include <atomic>
#include <memory>
#include <mutex>
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
// The residues of elements of one word-size Z/pZ, packed as machine words (reduced mod p).
struct PackedResidues {
  ModulusPtr modulus;
  Words words;  // not zero-filled when made: a transform's result is written whole by the GPU
};

// The residues of elements of one Z/pZ for a p of several words, packed limb-major as the GPU's
// big-prime kernels read and write them: limb d of entry i at words[d * count + i].
struct PackedLimbs {
  ModulusPtr modulus;
  size_t limbs = 0;
  Words words;
  size_t count() const { return limbs ? words.size() / limbs : 0; }
};

// The entries of a vector. A vector of elements of one word-size Z/pZ may be held packed, as
// fft, coeffs and convolve make them: 8 bytes an entry instead of a 32-byte Value, and no
// reference count of the modulus to bump per entry, which at 2^22 entries costs more than the
// transform itself; over a multi-word p, as fft and convolve make them, limb-major (PackedLimbs):
// making 2^20 Values of 512 bits takes 23-30 ms on 16 cores, five times the GPU's transform. Its
// Values are made on first need (once, kept beside the words), so code that reads items() sees an
// ordinary vector.
class VecObject final : public Object {
 public:
  // made_on_cores: the entries' integers were made on the pool's threads (parallel_ranges), so a
  // long vector frees them there too (ZPoly::mark_made_on_cores says why).
  explicit VecObject(std::vector<Value> items, bool made_on_cores = false);
  explicit VecObject(PackedResidues packed);
  explicit VecObject(PackedLimbs packed);
  ~VecObject() override;
  VecObject(const VecObject&) = delete;
  VecObject& operator=(const VecObject&) = delete;

  size_t size() const;
  // The words, while the entries are the packed residues; null otherwise.
  const PackedResidues* packed() const { return packed_.modulus ? &packed_ : nullptr; }
  const PackedLimbs* packed_limbs() const { return limbs_.modulus ? &limbs_ : nullptr; }
  const std::vector<Value>& items() const;
  // For an owner that writes entries: the words are dropped, since they would go stale.
  std::vector<Value>& items_mut();
  // An unshared copy to write to, packed if this one is.
  std::shared_ptr<VecObject> copy() const;

 private:
  void unpack() const;
  PackedResidues packed_;
  PackedLimbs limbs_;
  mutable std::vector<Value> items_;
  mutable std::atomic<bool> unpacked_;
  mutable std::mutex unpacking_;
  bool made_on_cores_ = false;
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
  // A vector whose integer entries were made on the pool's threads (see VecObject).
  static Value vec_made_on_cores(std::vector<Value> items);
  // The vector of the elements of Z/pZ (p = m, word-size) with these reduced residues, held packed.
  static Value residue_words(const ModulusPtr& m, Words words);
  // The vector of the elements of Z/pZ (p = m of `limbs` words) with these reduced residues, limb-major, held packed.
  static Value residue_limbs(const ModulusPtr& m, size_t limbs, Words words);
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
  const std::vector<Value>& as_vec() const { return vec_object().items(); }
  size_t vec_size() const { return vec_object().size(); }  // without making the Values of a packed vector
  Value vec_entry(size_t i) const;                          // the same; i < vec_size()
  const PackedResidues* packed_residues() const { return vec_object().packed(); }  // Vec only; null unless packed
  const PackedLimbs* packed_limbs() const { return vec_object().packed_limbs(); }    // the same, multi-word p
  const std::string& as_str() const { return static_cast<const StrObject&>(*obj_).text; }
  double as_real() const { return static_cast<const RealObject&>(*obj_).value; }

  // Writable access, copying the shared object first if anyone else holds it.
  std::vector<Value>& vec_mut();

 private:
  const VecObject& vec_object() const { return static_cast<const VecObject&>(*obj_); }
  Kind kind_ = Kind::None;
  fmpz z_ = 0;
  std::shared_ptr<const Object> obj_;
};

inline const std::vector<Value>& VecObject::items() const {
  if (!unpacked_.load(std::memory_order_acquire)) unpack();
  return items_;
}

inline size_t VecObject::size() const {
  if (packed_.modulus) return packed_.words.size();
  return limbs_.modulus ? limbs_.count() : items().size();
}

// Reserves room for n Values and, for a large array, asks for huge pages before anything touches
// it (as Words do): at 2^22 entries (128 MiB) the page faults are otherwise most of the time spent
// making them (docs/measurements.md, "Word arrays: huge pages and reused blocks").
void reserve_values(std::vector<Value>& items, size_t n);

// The modulus shared by a Mod, a ModPoly, or (recursively) every entry of a
// non-empty vector; null when there is none.
ModulusPtr common_modulus(const Value& v);

// The one modulus of a vector's entries, or null: entry_modulus(e) gives an entry's own (common_modulus,
// or a caller's memo of it). Entries that are elements of Z/pZ are compared by their raw moduli:
// copying a ModulusPtr per entry (an atomic count up and down) would make this a slow
// single-threaded pass at 2^22 entries.
template <class EntryModulus>
ModulusPtr modulus_of_entries(const std::vector<Value>& entries, EntryModulus&& entry_modulus) {
  ModulusPtr first;
  for (const Value& e : entries) {
    if (first && e.is(Kind::Mod)) {
      if (!same_modulus(e.modulus_raw(), first.get())) return nullptr;
      continue;
    }
    ModulusPtr m = entry_modulus(e);
    if (!m) return nullptr;
    if (!first)
      first = std::move(m);
    else if (!same_modulus(first, m))
      return nullptr;
  }
  return first;
}

}  // namespace cas
