// vector, len, concat, vecsum, prod. The arithmetic on vectors (+ - * .*) lives in algebra/values/arith.cpp.
#include "algebra/values/arith.hpp"
#include "algebra/support/guards.hpp"
#include "algebra/values/integer_vectors.hpp"
#include "algebra/support/parallel.hpp"
#include "algebra/values/vector_words.hpp"
#include "builtin_args.hpp"

#include <flint/ulong_extras.h>

#include <algorithm>
#include <mutex>
#include <optional>

namespace cas {

namespace {

// n copies of an element of a word-size Z/pZ, held packed: one word each.
Value repeated_word(ulong n, const Value& e) {
  guard_allocation(static_cast<double>(n) * sizeof(ulong), "vector(" + std::to_string(n) + ", ...)");
  const ulong word = fmpz_get_word(e.as_int());
  Words words(n);
  parallel_ranges(n, size_t{1} << 17, [&](size_t begin, size_t end) {
    std::fill(words.begin() + static_cast<std::ptrdiff_t>(begin), words.begin() + static_cast<std::ptrdiff_t>(end), word);
  });
  return Value::residue_words(e.modulus(), std::move(words));
}

Value vector(CallContext& c) {
  const ulong n = count_arg(c, 0, "vector");
  const Value fill = c.args.size() > 1 ? c.args[1] : Value::integer(slong{0});
  if (fill.is_none()) throw DomainError("vector: argument 2 has no value");
  if (n > 0 && fill.is(Kind::Mod) && fill.modulus_raw()->word_size()) return repeated_word(n, fill);
  // Refuse before allocating: n Values, each at least sizeof(Value) bytes.
  guard_allocation(static_cast<double>(n) * sizeof(Value), "vector(" + std::to_string(n) + ")");
  std::vector<Value> items;
  reserve_values(items, n);
  items.assign(n, fill);
  return Value::vec(std::move(items));
}

Value len(CallContext& c) {
  const Value& v = c.args[0];
  if (v.is(Kind::Vec)) return Value::integer(static_cast<slong>(v.vec_size()));
  if (v.is(Kind::Str)) return Value::integer(static_cast<slong>(v.as_str().size()));
  throw DomainError("len: argument 1 must be a vector or a string, not " + describe(v) +
                    " (deg gives the degree of a polynomial)");
}

// The sum of x's words modulo its word-size p: 128-bit totals of ranges on all cores, added up
// (2^64 words below 2^64 cannot overflow one), reduced once.
Value sum_of_words(const VectorWords& x) {
  const ulong* words = x.words().data();
  unsigned __int128 total = 0;
  std::mutex adding;
  parallel_ranges(x.size(), size_t{1} << 17, [&](size_t begin, size_t end) {
    unsigned __int128 part = 0;
    for (size_t i = begin; i < end; i++) part += words[i];
    std::lock_guard<std::mutex> guard(adding);
    total += part;
  });
  const nmod_t& mod = x.modulus->nmod();
  const ulong high = static_cast<ulong>(total >> 64) % mod.n, low = static_cast<ulong>(total);
  const Fmpz residue(n_ll_mod_preinv(high, low, mod.n, mod.ninv));
  return Value::mod(residue.get(), x.modulus);
}

// The sum of a long vector of integers: a total a range on the cores, then their sum.
Value sum_of_integers(const std::vector<Value>& items) {
  Fmpz total;
  std::mutex adding;
  parallel_ranges(items.size(), integer_grain, [&](size_t begin, size_t end) {
    Fmpz part;
    for (size_t i = begin; i < end; i++) fmpz_add(part.get(), part.get(), items[i].as_int());
    std::lock_guard<std::mutex> guard(adding);
    fmpz_add(total.get(), total.get(), part.get());
  });
  return Value::integer(std::move(total));
}

Value vecsum(CallContext& c) {
  const Value& v = c.args[0];
  if (!v.is(Kind::Vec)) throw DomainError("vecsum: argument 1 must be a vector, not " + describe(v));
  if (std::optional<VectorWords> words = vector_words(v)) return sum_of_words(*words);
  if (v.vec_size() >= integers_on_cores_from && holds_integers(v)) return sum_of_integers(v.as_vec());
  const std::vector<Value>& items = v.as_vec();
  if (items.empty()) return Value::integer(slong{0});
  Value total = items.front();  // not 0 + ...: entries may be vectors
  for (size_t i = 1; i < items.size(); i++) total = apply(BinaryOp::Add, total, items[i]);
  return total;
}

// The product of items[begin, end) as a balanced tree: the factors of each product have similar
// sizes, so a product of many polynomials or integers reaches the fast multiplications (FFT, GPU)
// instead of a chain of long-by-short ones.
Value product_tree(const std::vector<Value>& items, size_t begin, size_t end) {
  if (end - begin == 1) return items[begin];
  const size_t middle = begin + (end - begin) / 2;
  return apply(BinaryOp::Mul, product_tree(items, begin, middle), product_tree(items, middle, end));
}

Value prod(CallContext& c) {
  const Value& v = c.args[0];
  if (!v.is(Kind::Vec)) throw DomainError("prod: argument 1 must be a vector, not " + describe(v));
  if (v.as_vec().empty()) return Value::integer(slong{1});
  return product_tree(v.as_vec(), 0, v.as_vec().size());
}

// Two packed vectors over one Z/pZ join as words; nothing (none) otherwise.
Value concat_packed(const Value& a, const Value& b) {
  const PackedResidues *x = a.packed_residues(), *y = b.packed_residues();
  if (!x || !y || !same_modulus(x->modulus, y->modulus)) return Value();
  Words words(x->words.size() + y->words.size());
  copy_words(words.data(), x->words.data(), x->words.size());
  copy_words(words.data() + x->words.size(), y->words.data(), y->words.size());
  return Value::residue_words(x->modulus, std::move(words));
}

Value concat(CallContext& c) {
  const Value &a = c.args[0], &b = c.args[1];
  if (a.is(Kind::Str) && b.is(Kind::Str)) return Value::str(a.as_str() + b.as_str());
  vector_value_arg(c, 0, "concat");
  vector_value_arg(c, 1, "concat");
  // With one side empty the result shares the other's entries (copy on write): padded(v, len(v)) copies none.
  if (b.vec_size() == 0) return a;
  if (a.vec_size() == 0) return b;
  if (Value joined = concat_packed(a, b); !joined.is_none()) return joined;
  const std::vector<Value>&first = a.as_vec(), &second = b.as_vec();
  const size_t n = first.size() + second.size();
  if (n >= integers_on_cores_from && holds_integers(a) && holds_integers(b))
    return integer_vector_from(n, [&](fmpz* out, size_t i) {
      fmpz_set(out, i < first.size() ? first[i].as_int() : second[i - first.size()].as_int());
    });
  std::vector<Value> items;
  items.reserve(first.size() + second.size());
  items.insert(items.end(), first.begin(), first.end());
  items.insert(items.end(), second.begin(), second.end());
  return Value::vec(std::move(items));
}

}  // namespace

void register_vector_builtins(Registry& r) {
  r.reg("vector", 1, 2, vector,
        "vector(n): a vector of n zeros, [0, 0, ..., 0]; fill it with v[i] = e (indices 0..n-1). "
        "vector(n, e): n copies of e, e.g. vector(4, 0 mod 17) is [0, 0, 0, 0] mod 17.");
  r.reg("len", 1, len, "len(v): the number of entries of the vector v (or of characters of a string).");
  r.reg("prod", 1, prod,
        "prod(v): the product of the entries of v (integers, elements of Z/pZ or polynomials), multiplied "
        "as a balanced tree so that large factors meet factors of their own size; prod([]) = 1.");
  r.reg("vecsum", 1, vecsum,
        "vecsum(v): the sum of the entries of v (integers, elements of Z/pZ, polynomials or vectors of one "
        "length), as PARI's vecsum; vecsum([]) = 0. vecsum(a .* b) is the dot product of a and b.");
  r.reg("concat", 2, concat,
        "concat(a, b): the vector of the entries of a followed by those of b; "
        "concat([1, 2], [3]) is [1, 2, 3]. Also joins two strings.");
}

}  // namespace cas
