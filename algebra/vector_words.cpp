#include "vector_words.hpp"

#include "flint_util.hpp"
#include "parallel.hpp"

#include <atomic>

namespace cas {

namespace {

// Reading a Value (32 bytes) and writing its word is a few nanoseconds: ranges of fewer
// entries than this are not worth a thread.
constexpr size_t conversion_grain = size_t{1} << 15;

bool in_ring(const Value& e, const Modulus* m) {
  return e.is(Kind::Mod) && (e.modulus_raw() == m || same_modulus(e.modulus_raw(), m));
}

// The residues of items, all elements of the Z/pZ of m, into out; false (out partly written)
// when one of them is anything else.
bool convert_residues(const std::vector<Value>& items, const Modulus* m, Words& out) {
  std::atomic<bool> all_in_ring{true};
  parallel_ranges(items.size(), conversion_grain, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; i++) {
      if (!in_ring(items[i], m)) {
        all_in_ring.store(false, std::memory_order_relaxed);
        return;
      }
      out[i] = fmpz_get_word(items[i].as_int());
    }
  });
  return all_in_ring.load();
}

}  // namespace

std::optional<VectorWords> vector_words(const Value& v, const Modulus* over) {
  if (!v.is(Kind::Vec) || v.vec_size() == 0) return std::nullopt;
  if (const PackedResidues* packed = v.packed_residues()) {
    if (over && !same_modulus(packed->modulus.get(), over)) return std::nullopt;
    return VectorWords{packed->modulus, &packed->words, {}};
  }
  const std::vector<Value>& items = v.as_vec();
  const Value& first = items.front();
  if (!first.is(Kind::Mod) || !first.modulus_raw()->word_size()) return std::nullopt;
  const Modulus* m = over ? over : first.modulus_raw();
  // The ends first: a vector that is not all over one Z/pZ is usually told by them, at no cost.
  if (!in_ring(first, m) || !in_ring(items.back(), m)) return std::nullopt;
  VectorWords out{first.modulus(), nullptr, Words(items.size())};
  if (!convert_residues(items, m, out.converted)) return std::nullopt;
  return out;
}

}  // namespace cas
