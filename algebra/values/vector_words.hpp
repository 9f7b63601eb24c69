#pragma once
// A vector's entries as machine words, for the operations that run on words (+ - .* and scalar
// products of vectors, negation, fft, convolve): a packed vector's own words where they are, or
// the residues of its Values converted into an array of their own. Vectors written entry by
// entry (`v[i] = ...`) are held as Values; converting 2^20 of them costs a few milliseconds,
// where the same operation made Value by Value costs 60-80 ms (docs/measurements.md, "Vectors over
// Z/pZ as words against entries held as Values").
#include "algebra/values/value.hpp"

#include <optional>
#include <utility>

namespace cas {

struct VectorWords {
  ModulusPtr modulus;
  const Words* packed = nullptr;  // the packed vector's own words; `converted` when null
  Words converted;

  const Words& words() const { return packed ? *packed : converted; }
  size_t size() const { return words().size(); }
  bool empty() const { return words().empty(); }
  // Words to write to: a copy of a packed vector's, or the converted ones themselves.
  Words take() { return packed ? *packed : std::move(converted); }
};

// v's entries as words when v is a non-empty vector whose entries all lie in one word-size
// Z/pZ (the one of `over`, when it is given); nullopt for anything else, which the caller
// leaves to its general route and that route's messages.
std::optional<VectorWords> vector_words(const Value& v, const Modulus* over = nullptr);

// The words of a and of b when all entries of both lie in one word-size Z/pZ (a's ring); nullopt
// otherwise. b is not read when a does not convert.
std::optional<std::pair<VectorWords, VectorWords>> vector_words_pair(const Value& a, const Value& b);

// The residues mod m (word-size) of items when they are all integers, as words (`v mod p` for a
// vector of integers); nullopt for an empty vector, a larger m or any other entry.
std::optional<Words> integer_residue_words(const std::vector<Value>& items, const Modulus& m);

}  // namespace cas
