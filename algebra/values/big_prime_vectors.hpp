#pragma once
// Vectors over Z/pZ for a multi-word p as the limb-major words of the GPU's big-prime kernels
// (algebra/fourier/big_prime_words.hpp), and back, in ranges on the cores, with no array of
// integers in between: fft of 2^20 entries of 512 bits converts 64 MiB each way, which one thread
// takes 18-39 ms to do Value by Value, and 15 ms to free (docs/measurements.md, "Vectors modulo a
// big prime as limb-major words").
#include "algebra/values/value.hpp"

#include <cstddef>
#include <vector>

namespace cas {

// The message for an entry of a vector over Z/mZ that is neither an integer nor an element of
// Z/mZ, naming the operation: "fft: the entries must be integers or elements of Z/17Z, not ...".
[[noreturn]] void throw_not_a_residue(const Value& e, const Modulus& m, const char* what);

// The residues mod m of items (integers reduced, elements of Z/mZ as they are), limb-major with
// `limbs` words each (the words of p). The first entry in order that is neither throws
// throw_not_a_residue's message.
Words residue_limbs(const std::vector<Value>& items, const Modulus& m, std::size_t limbs, const char* what);

// The vector of the `count` elements of Z/mZ whose residues are the limb-major words. Its entries
// are made on the cores (Value::vec_made_on_cores), those of one range holding m through an owner
// of their own: with one shared reference count, every core would wait on its cache line for
// every entry it makes, and again when the vector is freed.
Value vector_from_limbs(const ModulusPtr& m, const ulong* words, std::size_t count, std::size_t limbs);
// The same entries as a std::vector (a packed vector's unpacking).
std::vector<Value> values_from_limbs(const ModulusPtr& m, const ulong* words, std::size_t count, std::size_t limbs);
// Entry i of a limb-major packed vector.
Value element_from_limbs(const PackedLimbs& packed, std::size_t i);

// The limb-major residues of the vector v over Z/mZ (p of `limbs` words): a packed vector's own
// words where they are, else residue_limbs' conversion of its entries.
struct VectorLimbs {
  const Words* packed = nullptr;
  Words converted;
  const Words& words() const { return packed ? *packed : converted; }
};
VectorLimbs vector_limbs(const Value& v, const Modulus& m, std::size_t limbs, const char* what);

}  // namespace cas
