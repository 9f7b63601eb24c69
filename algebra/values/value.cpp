#include "algebra/values/value.hpp"

#include "algebra/values/big_prime_vectors.hpp"

#include "algebra/support/error.hpp"
#include "algebra/support/parallel.hpp"

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
  v.obj_ = std::make_shared<VecObject>(std::move(items));
  return v;
}

Value Value::vec_made_on_cores(std::vector<Value> items) {
  Value v;
  v.kind_ = Kind::Vec;
  v.obj_ = std::make_shared<VecObject>(std::move(items), true);
  return v;
}

Value Value::residue_words(const ModulusPtr& m, Words words) {
  if (words.empty()) return vec({});  // no modulus to show: [] like any empty vector
  Value v;
  v.kind_ = Kind::Vec;
  v.obj_ = std::make_shared<VecObject>(PackedResidues{m, std::move(words)});
  return v;
}

Value Value::residue_limbs(const ModulusPtr& m, size_t limbs, Words words) {
  if (words.empty()) return vec({});
  Value v;
  v.kind_ = Kind::Vec;
  v.obj_ = std::make_shared<VecObject>(PackedLimbs{m, limbs, std::move(words)});
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

Value Value::vec_entry(size_t i) const {
  if (const PackedLimbs* packed = packed_limbs()) return element_from_limbs(*packed, i);
  const PackedResidues* packed = packed_residues();
  if (!packed) return as_vec()[i];
  Value v;
  v.kind_ = Kind::Mod;
  fmpz_set_ui(&v.z_, packed->words[i]);
  v.obj_ = packed->modulus;
  return v;
}

std::vector<Value>& Value::vec_mut() {
  if (obj_.use_count() > 1) obj_ = vec_object().copy();
  return const_cast<VecObject&>(vec_object()).items_mut();
}

VecObject::VecObject(std::vector<Value> items, bool made_on_cores)
    : items_(std::move(items)), unpacked_(true), made_on_cores_(made_on_cores) {}

namespace {
// Frees the integer entries and the elements of Z/pZ on the cores; the vector's own destructor then
// finds only empty Values. Elements of Z/pZ made on the cores hold their modulus through an owner
// per range (big_prime_vectors.hpp), so the cores release them without queueing on one count.
void free_integers_on_cores(std::vector<Value>& items) {
  parallel_ranges(items.size(), integer_grain, [&items](size_t begin, size_t end) {
    for (size_t i = begin; i < end; i++)
      if (items[i].is(Kind::Int) || items[i].is(Kind::Mod)) items[i] = Value();
  });
}
}  // namespace

VecObject::~VecObject() {
  if (made_on_cores_ && items_.size() >= integers_on_cores_from) free_integers_on_cores(items_);
}

VecObject::VecObject(PackedResidues packed) : packed_(std::move(packed)), unpacked_(false) {}

// The Values a limb-major vector unpacks into are made on the cores (big_prime_vectors.hpp).
VecObject::VecObject(PackedLimbs packed) : limbs_(std::move(packed)), unpacked_(false), made_on_cores_(true) {}

// Every entry starts as a copy of one element of the Z/pZ (so the modulus is shared, never
// looked up) and takes its residue in place.
void VecObject::unpack() const {
  std::lock_guard<std::mutex> lock(unpacking_);
  if (unpacked_.load(std::memory_order_relaxed)) return;
  if (limbs_.modulus) {
    items_ = values_from_limbs(limbs_.modulus, limbs_.words.data(), limbs_.count(), limbs_.limbs);
    unpacked_.store(true, std::memory_order_release);
    return;
  }
  const Value zero = Value::mod_reduce(Fmpz().get(), packed_.modulus);
  reserve_values(items_, packed_.words.size());
  for (ulong word : packed_.words) fmpz_set_ui(items_.emplace_back(zero).int_mut(), word);
  unpacked_.store(true, std::memory_order_release);
}

std::vector<Value>& VecObject::items_mut() {
  items();
  packed_ = PackedResidues{};
  limbs_ = PackedLimbs{};
  return items_;
}

std::shared_ptr<VecObject> VecObject::copy() const {
  if (packed_.modulus) return std::make_shared<VecObject>(packed_);
  if (limbs_.modulus) return std::make_shared<VecObject>(limbs_);
  return std::make_shared<VecObject>(items());
}

void reserve_values(std::vector<Value>& items, size_t n) {
  const bool fresh = items.capacity() < n;
  items.reserve(n);
  if (fresh && items.empty()) advise_huge_pages_if_large(items.data(), items.capacity() * sizeof(Value));
}

ModulusPtr common_modulus(const Value& v) {
  if (v.is(Kind::Mod) || v.is(Kind::ModPoly)) return v.modulus();
  if (!v.is(Kind::Vec) || v.vec_size() == 0) return nullptr;
  if (const PackedResidues* packed = v.packed_residues()) return packed->modulus;
  if (const PackedLimbs* packed = v.packed_limbs()) return packed->modulus;
  return modulus_of_entries(v.as_vec(), [](const Value& e) { return common_modulus(e); });
}

}  // namespace cas
