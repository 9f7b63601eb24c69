#include "algebra/values/vector_words.hpp"

#include "algebra/support/flint_util.hpp"
#include "algebra/support/parallel.hpp"

#include <atomic>

namespace cas {

namespace {

// Reading a Value (32 bytes) and writing its word is a few nanoseconds: ranges of fewer
// entries than this are not worth a thread.
constexpr size_t conversion_grain = size_t{1} << 15;

bool in_ring(const Value& e, const Modulus* m) {
  return e.is(Kind::Mod) && (e.modulus_raw() == m || same_modulus(e.modulus_raw(), m));
}

// out[i] = word_of(items[i]) on all cores, where word_of(e, word) sets the word and says whether
// e converts; false (out partly written) when one entry does not.
template <class WordOf>
bool convert_entries(const std::vector<Value>& items, Words& out, WordOf&& word_of) {
  std::atomic<bool> all_convert{true};
  parallel_ranges(items.size(), conversion_grain, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; i++) {
      if (!word_of(items[i], out[i])) {
        all_convert.store(false, std::memory_order_relaxed);
        return;
      }
    }
  });
  return all_convert.load();
}

}  // namespace

std::optional<VectorWords> vector_words(const Value& v, const Modulus* over) {
  if (!v.is(Kind::Vec) || v.vec_size() == 0) return std::nullopt;
  if (const PackedResidues* packed = v.packed_residues()) {
    if (over && !same_modulus(packed->modulus.get(), over)) return std::nullopt;
    return VectorWords{packed->modulus, &packed->words, {}};
  }
  if (v.packed_limbs()) return std::nullopt;  // a multi-word p
  const std::vector<Value>& items = v.as_vec();
  const Value& first = items.front();
  if (!first.is(Kind::Mod) || !first.modulus_raw()->word_size()) return std::nullopt;
  const Modulus* m = over ? over : first.modulus_raw();
  // The ends first: a vector that is not all over one Z/pZ is usually told by them, at no cost.
  if (!in_ring(first, m) || !in_ring(items.back(), m)) return std::nullopt;
  VectorWords out{first.modulus(), nullptr, Words(items.size())};
  const bool converted = convert_entries(items, out.converted, [m](const Value& e, ulong& word) {
    if (!in_ring(e, m)) return false;
    word = fmpz_get_word(e.as_int());
    return true;
  });
  if (!converted) return std::nullopt;
  return out;
}

std::optional<std::pair<VectorWords, VectorWords>> vector_words_pair(const Value& a, const Value& b) {
  std::optional<VectorWords> x = vector_words(a);
  if (!x) return std::nullopt;
  std::optional<VectorWords> y = vector_words(b, x->modulus.get());
  if (!y) return std::nullopt;
  return std::pair{std::move(*x), std::move(*y)};
}

std::optional<Words> integer_residue_words(const std::vector<Value>& items, const Modulus& m) {
  if (items.empty() || !m.word_size() || !items.front().is(Kind::Int) || !items.back().is(Kind::Int))
    return std::nullopt;
  Words out(items.size());
  const bool converted = convert_entries(items, out, [p = m.word()](const Value& e, ulong& word) {
    if (!e.is(Kind::Int)) return false;
    word = fmpz_fdiv_ui(e.as_int(), p);
    return true;
  });
  if (!converted) return std::nullopt;
  return out;
}

}  // namespace cas
