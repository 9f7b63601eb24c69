#include "algebra/values/big_prime_vectors.hpp"

#include "algebra/fourier/big_prime_words.hpp"
#include "algebra/support/error.hpp"
#include "algebra/support/parallel.hpp"
#include "algebra/values/format.hpp"

#include <algorithm>
#include <atomic>
#include <memory>

namespace cas {

void throw_not_a_residue(const Value& e, const Modulus& m, const char* what) {
  throw DomainError(std::string(what) + ": the entries must be integers or elements of Z/" + m.to_string() +
                    "Z, not " + describe(e));
}

namespace {

// Entry i of items into the limb-major words, reduced mod m; false for an entry of another kind.
bool put_residue(const Value& e, const Modulus& m, ulong* words, std::size_t i, std::size_t count, std::size_t limbs,
                 Fmpz& scratch) {
  if (e.is(Kind::Mod) && same_modulus(e.modulus_raw(), &m)) {
    put_limbs(e.as_int(), words, i, count, limbs);
    return true;
  }
  if (!e.is(Kind::Int)) return false;
  fmpz_mod(scratch.get(), e.as_int(), m.value());
  put_limbs(scratch.get(), words, i, count, limbs);
  return true;
}

// An element 0 of Z/mZ holding m through an owner of its own (the aliasing constructor: the same
// Modulus, a reference count apart), so that copies of it made on one core count references there.
Value zero_with_own_count(const ModulusPtr& m) {
  const ModulusPtr own(std::make_shared<ModulusPtr>(m), m.get());
  return Value::mod(Fmpz().get(), own);
}

}  // namespace

Words residue_limbs(const std::vector<Value>& items, const Modulus& m, std::size_t limbs, const char* what) {
  const std::size_t count = items.size();
  Words out(limbs * count);
  ulong* words = out.data();
  std::atomic<std::size_t> first_refused{count};
  parallel_ranges(count, limb_element_grain, [&](std::size_t begin, std::size_t end) {
    Fmpz scratch;
    for (std::size_t i = begin; i < end; i++)
      if (!put_residue(items[i], m, words, i, count, limbs, scratch)) {
        std::size_t known = first_refused.load(std::memory_order_relaxed);
        while (i < known && !first_refused.compare_exchange_weak(known, i, std::memory_order_relaxed)) {
        }
        return;
      }
  });
  if (const std::size_t i = first_refused.load(); i < count) throw_not_a_residue(items[i], m, what);
  return out;
}

std::vector<Value> values_from_limbs(const ModulusPtr& m, const ulong* words, std::size_t count, std::size_t limbs) {
  std::vector<Value> items;
  reserve_values(items, count);
  items.resize(count);
  parallel_ranges(count, limb_element_grain, [&](std::size_t begin, std::size_t end) {
    // Each entry's residue becomes an mpz of about `limbs` limbs and GMP's header.
    reserve_thread_heap((end - begin) * (limbs + 3) * sizeof(ulong));
    const Value zero = zero_with_own_count(m);
    for (std::size_t i = begin; i < end; i++) {
      items[i] = zero;
      get_limbs(items[i].int_mut(), words, i, count, limbs);
    }
  });
  return items;
}

Value vector_from_limbs(const ModulusPtr& m, const ulong* words, std::size_t count, std::size_t limbs) {
  return Value::vec_made_on_cores(values_from_limbs(m, words, count, limbs));
}

Value element_from_limbs(const PackedLimbs& packed, std::size_t i) {
  Value e = Value::mod(Fmpz().get(), packed.modulus);
  get_limbs(e.int_mut(), packed.words.data(), i, packed.count(), packed.limbs);
  return e;
}

VectorLimbs vector_limbs(const Value& v, const Modulus& m, std::size_t limbs, const char* what) {
  if (const PackedLimbs* packed = v.packed_limbs(); packed && packed->limbs == limbs && *packed->modulus == m)
    return VectorLimbs{&packed->words, {}};
  return VectorLimbs{nullptr, residue_limbs(v.as_vec(), m, limbs, what)};
}

}  // namespace cas
