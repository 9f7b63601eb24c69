// Vectors of word-size Z/pZ elements held packed (algebra/values/value.hpp: PackedResidues) and the
// builtins that convert between them and polynomials (coeffs, poly, concat, padded, len, v[i]),
// against FLINT's nmod_poly called directly, in FLINT's t-*.c style: a fresh modulus per trial
// (n_randtest_not_zero: 2, word-size maxima, composites), random lengths, inputs printed on
// failure, the trial count scaled by CAS_TEST_MULTIPLIER. A packed vector must be
// indistinguishable from the same entries held as Values.
#include "algebra/values/arith.hpp"
#include "algebra/support/error.hpp"
#include "algebra/values/format.hpp"
#include "algebra/support/parallel.hpp"
#include "flint_support.hpp"
#include "gpu/host_memory.hpp"
#include "interpreter_support.hpp"

#include <flint/nmod_poly.h>
#include <flint/nmod_vec.h>
#include <flint/ulong_extras.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>
#include <vector>

using cas::Fmpz;
using cas::Kind;
using cas::ModPoly;
using cas::ModulusPtr;
using cas::Value;
using cas::Words;
using cas::test::FreshRandom;
using cas::test::Session;
using cas::test::holds;
using cas::test::trials;

namespace {

// A word-size modulus biased to edge cases, as nmod_poly/test/t-mul.c draws them.
ModulusPtr random_word_modulus(flint_rand_t state) {
  ulong p = n_randtest_not_zero(state);
  return cas::make_modulus(p < 2 ? 2 : p);
}

ModPoly random_poly(flint_rand_t state, const ModulusPtr& m, slong max_length) {
  ModPoly f(m);
  nmod_poly_randtest(f.nmod(), state, static_cast<slong>(n_randint(state, static_cast<ulong>(max_length) + 1)));
  return f;
}

Words random_words(flint_rand_t state, const ModulusPtr& m, size_t n) {
  Words words(n);
  for (ulong& w : words) w = n_randint(state, m->word());  // n_randint(state, 0) spans the whole word
  return words;
}

// The same entries as Values: what every vector was before packing.
Value unpacked(const Words& words, const ModulusPtr& m) {
  std::vector<Value> items;
  for (ulong w : words) {
    Fmpz r(w);
    items.push_back(Value::mod(r.get(), m));
  }
  return Value::vec(std::move(items));
}

// True when v is a vector of elements of the Z/pZ of m with exactly these residues.
bool has_residues(const Value& v, const Words& words, const ModulusPtr& m) {
  if (!v.is(Kind::Vec) || v.as_vec().size() != words.size()) return false;
  for (size_t i = 0; i < words.size(); i++) {
    const Value& e = v.as_vec()[i];
    if (!e.is(Kind::Mod) || !cas::same_modulus(e.modulus(), m) || fmpz_cmp_ui(e.as_int(), words[i]) != 0) return false;
  }
  return true;
}

Words coefficients_of(const ModPoly& f) {
  return Words(f.nmod()->coeffs, f.nmod()->coeffs + f.nmod()->length);
}

std::string show_words(const Words& words) {
  std::string s = "[";
  for (size_t i = 0; i < words.size(); i++) s += (i ? ", " : "") + std::to_string(words[i]);
  return s + "]";
}

void set_global(Session& s, const std::string& name, Value v) { s.interp.global(s.interp.global_slot(name)) = std::move(v); }

}  // namespace

TEST_CASE("a packed vector reads like its entries as Values", "[packed]") {
  FreshRandom r;
  INFO("seed " << r.seed);
  for (int trial = 0; trial < trials(200); trial++) {
    const ModulusPtr m = random_word_modulus(r.state());
    const Words words = random_words(r.state(), m, 1 + n_randint(r.state(), 40));
    INFO("p = " << m->to_string() << ", words = " << show_words(words));
    const Value packed = Value::residue_words(m, words), values = unpacked(words, m);
    REQUIRE(packed.packed_residues());
    CHECK(packed.vec_size() == words.size());
    const size_t i = n_randint(r.state(), words.size());
    CHECK(cas::equal_values(packed.vec_entry(i), values.as_vec()[i]));
    CHECK(cas::same_modulus(cas::common_modulus(packed), m));
    CHECK(cas::format(packed) == cas::format(values));
    CHECK(cas::equal_values(packed, values));
    CHECK(cas::equal_values(values, packed));
    CHECK(cas::equal_values(packed, Value::residue_words(m, words)));
    CHECK(has_residues(packed, words, m));

    // copy on write: writing to a copy leaves the original (and its words) as they were
    Value copy = packed;
    copy.vec_mut()[i] = Value::integer(slong{7});
    CHECK(!copy.packed_residues());
    CHECK(copy.as_vec()[i].is(Kind::Int));
    CHECK(has_residues(packed, words, m));
    Words changed = words;
    changed[i] = (changed[i] + 1) % m->word();
    CHECK(cas::equal_values(packed, Value::residue_words(m, changed)) == (changed[i] == words[i]));
  }
  CHECK(Value::residue_words(cas::make_modulus(17), {}).vec_size() == 0);
  CHECK(cas::format(Value::residue_words(cas::make_modulus(17), {})) == "[]");
}

// apply on two Values and on their entries as Values: the packed route against the general one.
void check_like_values(cas::BinaryOp op, const Value& a, const Value& b, const Value& a_values, const Value& b_values) {
  INFO("'" << cas::op_symbol(op) << "'");
  const Value result = cas::apply(op, a, b), expected = cas::apply(op, a_values, b_values);
  CHECK(cas::equal_values(result, expected));
  CHECK(cas::format(result) == cas::format(expected));
}

// The entrywise + - .* of packed vectors by words, and a word scaled by c, as nmod computes them.
Words entrywise(cas::BinaryOp op, const Words& x, const Words& y, const ModulusPtr& m) {
  Words out(x.size());
  for (size_t i = 0; i < x.size(); i++)
    out[i] = op == cas::BinaryOp::Add   ? nmod_add(x[i], y[i], m->nmod())
             : op == cas::BinaryOp::Sub ? nmod_sub(x[i], y[i], m->nmod())
                                        : nmod_mul(x[i], y[i], m->nmod());
  return out;
}

TEST_CASE("+, -, .* and scalar products of packed vectors stay packed and equal their Values'", "[packed][arith]") {
  using cas::BinaryOp;
  FreshRandom r;
  INFO("seed " << r.seed);
  for (int trial = 0; trial < trials(200); trial++) {
    const ModulusPtr m = random_word_modulus(r.state());
    const size_t n = 1 + n_randint(r.state(), 40);  // an empty vector is never packed
    const Words x = random_words(r.state(), m, n), y = random_words(r.state(), m, n);
    INFO("p = " << m->to_string() << ", x = " << show_words(x) << ", y = " << show_words(y));
    const Value a = Value::residue_words(m, x), b = Value::residue_words(m, y);
    const Value a_values = unpacked(x, m), b_values = unpacked(y, m);
    for (BinaryOp op : {BinaryOp::Add, BinaryOp::Sub, BinaryOp::PointMul}) {
      const Value result = cas::apply(op, a, b);
      CHECK(result.packed_residues());
      CHECK(has_residues(result, entrywise(op, x, y, m), m));
      check_like_values(op, a, b, a_values, b_values);
      check_like_values(op, a, b_values, a_values, b_values);  // one side packed
      check_like_values(op, a_values, b, a_values, b_values);
    }
    // scalars: an integer of any sign and size, an element of the same Z/pZ
    Fmpz c;
    fmpz_randtest(c.get(), r.state(), 100);
    const Value scalars[] = {Value::integer(c.get()), Value::mod_reduce(c.get(), m)};
    for (const Value& s : scalars) {
      INFO("scalar " << cas::format(s));
      for (BinaryOp op : {BinaryOp::Mul, BinaryOp::PointMul}) {
        const Value left = cas::apply(op, s, a), right = cas::apply(op, a, s);
        CHECK(left.packed_residues());
        CHECK(right.packed_residues());
        check_like_values(op, s, a, s, a_values);
        check_like_values(op, a, s, a_values, s);
      }
      // v / s: by the inverse when s is invertible; otherwise the general route and its error
      ulong inverse;
      const ulong residue = fmpz_fdiv_ui(c.get(), m->word());
      if (n_gcdinv(&inverse, residue, m->word()) == 1) {
        const Value quotient = cas::apply(BinaryOp::Div, a, s);
        CHECK(quotient.packed_residues());
        check_like_values(BinaryOp::Div, a, s, a_values, s);
      } else {
        const std::string expected = cas::test::domain_error([&] { cas::apply(BinaryOp::Div, a_values, s); });
        CHECK(!expected.empty());
        CHECK(cas::test::domain_error([&] { cas::apply(BinaryOp::Div, a, s); }) == expected);
      }
    }
    const Value negated = cas::negate(a);
    CHECK(negated.packed_residues());
    CHECK(cas::equal_values(negated, cas::negate(a_values)));
    CHECK(cas::equal_values(cas::apply(BinaryOp::Add, negated, a), Value::residue_words(m, Words(n, 0))));
  }
}

TEST_CASE("packed vectors over two moduli or of two lengths fail as their Values do", "[packed][arith][errors]") {
  using cas::BinaryOp;
  using cas::test::error_message;
  const ModulusPtr m5 = cas::make_modulus(5), m7 = cas::make_modulus(7);
  const Words x = {1, 2, 3}, y = {4, 5, 6}, z = {1, 2};
  for (BinaryOp op : {BinaryOp::Add, BinaryOp::Sub, BinaryOp::PointMul}) {
    INFO("'" << cas::op_symbol(op) << "'");
    const std::string over_two_moduli =
        cas::test::domain_error([&] { cas::apply(op, unpacked(x, m5), unpacked(y, m7)); });
    REQUIRE(!over_two_moduli.empty());
    CHECK(cas::test::domain_error([&] {
            cas::apply(op, Value::residue_words(m5, x), Value::residue_words(m7, y));
          }) == over_two_moduli);
    const std::string two_lengths = cas::test::domain_error([&] { cas::apply(op, unpacked(x, m5), unpacked(z, m5)); });
    REQUIRE(!two_lengths.empty());
    CHECK(cas::test::domain_error([&] {
            cas::apply(op, Value::residue_words(m5, x), Value::residue_words(m5, z));
          }) == two_lengths);
  }
  const Value seven = Value::mod_reduce(Fmpz(3).get(), m7);
  const std::string scalar_over_other =
      cas::test::domain_error([&] { cas::apply(BinaryOp::Mul, seven, unpacked(x, m5)); });
  REQUIRE(!scalar_over_other.empty());
  CHECK(cas::test::domain_error([&] { cas::apply(BinaryOp::Mul, seven, Value::residue_words(m5, x)); }) ==
        scalar_over_other);
  CHECK(error_message("coeffs((x^2 + 2) mod 5) * coeffs((x^2 + 3) mod 5)") ==
        "'*' between two vectors is not defined: use .* for the pointwise product");
}

TEST_CASE("vectors held as Values over one Z/pZ are computed as words and give packed vectors", "[packed][arith]") {
  using cas::BinaryOp;
  FreshRandom r;
  INFO("seed " << r.seed);
  for (int trial = 0; trial < trials(200); trial++) {
    const ModulusPtr m = random_word_modulus(r.state());
    const size_t n = 1 + n_randint(r.state(), 40);
    const Words x = random_words(r.state(), m, n), y = random_words(r.state(), m, n);
    INFO("p = " << m->to_string() << ", x = " << show_words(x) << ", y = " << show_words(y));
    const Value a = unpacked(x, m), b = unpacked(y, m), b_packed = Value::residue_words(m, y);
    for (BinaryOp op : {BinaryOp::Add, BinaryOp::Sub, BinaryOp::PointMul}) {
      INFO("'" << cas::op_symbol(op) << "'");
      for (const Value& other : {b, b_packed}) {
        const Value result = cas::apply(op, a, other), swapped = cas::apply(op, other, a);
        CHECK(result.packed_residues());
        CHECK(swapped.packed_residues());
        CHECK(has_residues(result, entrywise(op, x, y, m), m));
        CHECK(has_residues(swapped, entrywise(op, y, x, m), m));
      }
    }
    const ulong c = n_randint(r.state(), 0);
    const Value scalar = Value::integer(Fmpz(c).get());
    Words scaled(n), negated(n);
    for (size_t i = 0; i < n; i++) {
      scaled[i] = nmod_mul(x[i], c % m->word(), m->nmod());
      negated[i] = nmod_neg(x[i], m->nmod());
    }
    const Value product = cas::apply(BinaryOp::Mul, scalar, a), negation = cas::negate(a);
    CHECK(product.packed_residues());
    CHECK(has_residues(product, scaled, m));
    CHECK(negation.packed_residues());
    CHECK(has_residues(negation, negated, m));
    CHECK(has_residues(a, x, m));  // the operands are as they were
    CHECK(!a.packed_residues());
  }
}

TEST_CASE("vectors not all over one word-size Z/pZ keep the general route and its messages", "[packed][arith][errors]") {
  using cas::test::error_message;
  using cas::test::Session;
  Session s;
  // an integer among the entries: entry by entry, and the result is not packed
  const Value mixed = s.eval("[1 mod 5, 2, 3 mod 5] .* [2 mod 5, 2 mod 5, 2 mod 5]");
  CHECK(!mixed.packed_residues());
  CHECK(cas::format(mixed) == "[2, 4, 1] mod 5");
  CHECK(!s.eval("-[1 mod 5, 2, 3 mod 5]").packed_residues());
  CHECK(!s.eval("3 * [1 mod 5, 2, 3 mod 5]").packed_residues());
  // a modulus above a word: FLINT's fmpz_mod, not words
  s.eval("big = [1, 2] mod (2^80 + 13)");
  CHECK(!s.eval("big + big").packed_residues());
  CHECK(s.show("big .* big") == "[1, 4] mod 1208925819614629174706189");
  // the ends over one Z/pZ and a middle entry over another
  CHECK(error_message("[1 mod 5, 2 mod 7, 3 mod 5] + [1 mod 5, 1 mod 5, 1 mod 5]") ==
        "cannot mix Z/7Z and Z/5Z (2 mod 7 and 1 mod 5)");
  CHECK(error_message("[1 mod 5, 2 mod 5] + [1 mod 7, 1 mod 5]") == "cannot mix Z/5Z and Z/7Z (1 mod 5 and 1 mod 7)");
  CHECK(error_message("[1 mod 5, 2 mod 5] .* [1 mod 5, 2 mod 5, 3 mod 5]") ==
        "'.*' needs vectors of equal length, not 2 and 3");
  CHECK(error_message("[1 mod 5, 2 mod 5] / (5 mod 5)") == "0 mod 5 is not invertible");
  CHECK(error_message("[1 mod 5, 2 mod 5] * (1 mod 7)") == "cannot mix Z/5Z and Z/7Z (1 mod 5 and 1 mod 7)");
}

// Lengths that the threads split unevenly (2^16 words a range at least; 2^15 entries for a conversion).
TEST_CASE("vector arithmetic split over threads equals FLINT's on every word", "[packed][arith][parallel]") {
  using cas::BinaryOp;
  FreshRandom r;
  INFO("seed " << r.seed);
  for (int trial = 0; trial < trials(3); trial++) {
    const ModulusPtr m = cas::make_modulus(n_randtest_prime(r.state(), 0));
    const size_t n = 3 * (size_t(1) << 16) + 1 + n_randint(r.state(), 1000);
    const Words x = random_words(r.state(), m, n), y = random_words(r.state(), m, n);
    INFO("p = " << m->to_string() << ", n = " << n);
    const Value a = Value::residue_words(m, x), b = unpacked(y, m);
    for (BinaryOp op : {BinaryOp::Add, BinaryOp::Sub, BinaryOp::PointMul}) {
      INFO("'" << cas::op_symbol(op) << "'");
      const Value result = cas::apply(op, a, b);
      REQUIRE(result.packed_residues());
      CHECK(result.packed_residues()->words == entrywise(op, x, y, m));
    }
    const ulong c = n_randint(r.state(), m->word());
    Words scaled(n), negated(n);
    _nmod_vec_scalar_mul_nmod(scaled.data(), y.data(), static_cast<slong>(n), c, m->nmod());
    _nmod_vec_neg(negated.data(), y.data(), static_cast<slong>(n), m->nmod());
    const Value product = cas::apply(BinaryOp::Mul, b, Value::mod_reduce(Fmpz(c).get(), m));
    REQUIRE(product.packed_residues());
    CHECK(product.packed_residues()->words == scaled);
    REQUIRE(cas::negate(b).packed_residues());
    CHECK(cas::negate(b).packed_residues()->words == negated);
  }
}

TEST_CASE("parallel_ranges covers every index once", "[parallel]") {
  for (size_t count : {size_t(0), size_t(1), size_t(999), size_t(1000), size_t(1001), size_t(7777)}) {
    for (size_t grain : {size_t(0), size_t(1), size_t(1000), size_t(5000)}) {
      INFO("count " << count << ", grain " << grain);
      std::vector<std::atomic<int>> seen(count);
      std::atomic<int> ranges{0};
      std::atomic<bool> long_enough{true};
      cas::parallel_ranges(count, grain, [&](size_t begin, size_t end) {
        ranges++;
        if (end - begin < std::min(grain, count)) long_enough = false;
        for (size_t i = begin; i < end; i++) seen[i]++;
      });
      CHECK(std::all_of(seen.begin(), seen.end(), [](const std::atomic<int>& k) { return k == 1; }));
      CHECK(long_enough);
      CHECK(ranges >= 1);
      CHECK(size_t(ranges) <= std::max<size_t>(1, std::thread::hardware_concurrency()));
    }
  }
}

TEST_CASE("large word arrays ask for huge pages and keep what they hold", "[packed][words]") {
  // 12 MiB: above gpu::huge_pages_worth_it, so allocate() gives the hint before the first touch
  const size_t n = (size_t(12) << 20) / sizeof(ulong) + 3;
  Words words(n);
  for (size_t i = 0; i < n; i++) words[i] = i * 0x9e3779b97f4a7c15ull;
  // the hint again on written memory (and on a misaligned piece of it) changes no word
  cas::gpu::advise_huge_pages(words.data(), n * sizeof(ulong));
  cas::gpu::advise_huge_pages(reinterpret_cast<char*>(words.data()) + 5, (size_t(3) << 20) - 7);
  bool kept = true;
  for (size_t i = 0; i < n; i++) kept = kept && words[i] == i * 0x9e3779b97f4a7c15ull;
  CHECK(kept);
  Words copy = words;
  copy.resize(2 * n);  // grows through allocate() again; the new half is not written
  CHECK(std::equal(words.begin(), words.end(), copy.begin()));
}

TEST_CASE("two threads that read a packed vector's Values see one vector", "[packed]") {
  const ModulusPtr m = cas::make_modulus(998244353);
  Words words(1 << 16);
  for (size_t i = 0; i < words.size(); i++) words[i] = (i * 2654435761u) % m->word();
  const Value packed = Value::residue_words(m, words);
  const std::vector<Value>* seen[2] = {nullptr, nullptr};
  std::thread other([&] { seen[1] = &packed.as_vec(); });
  seen[0] = &packed.as_vec();
  other.join();
  CHECK(seen[0] == seen[1]);
  CHECK(has_residues(packed, words, m));
}

TEST_CASE("coeffs gives FLINT's coefficients, poly rebuilds the polynomial", "[packed][builtins][poly]") {
  FreshRandom r;
  INFO("seed " << r.seed);
  for (int trial = 0; trial < trials(150); trial++) {
    Session s;
    const ModulusPtr m = random_word_modulus(r.state());
    const ModPoly f = random_poly(r.state(), m, trial % 10 ? 40 : 2000);
    const Words expected = coefficients_of(f);
    INFO("p = " << m->to_string() << ", coefficients " << show_words(expected));
    set_global(s, "f", Value::modpoly(f));
    const Value c = s.eval("c = coeffs(f)");
    CHECK(has_residues(c, expected, m));
    CHECK(s.show("len(c)") == std::to_string(expected.size()));
    if (expected.empty()) {  // no entry names a modulus: poly([]) is the integer 0
      CHECK(s.show("c") == "[]");
      CHECK(s.show("poly(c)") == "0");
      continue;
    }
    CHECK(s.show("c[" + std::to_string(expected.size() - 1) + "]") == cas::format(c.as_vec().back()));
    const Value g = s.eval("poly(c)");
    REQUIRE(g.is(Kind::ModPoly));
    CHECK(nmod_poly_equal(g.as_modpoly().nmod(), f.nmod()));
    CHECK(cas::same_modulus(g.modulus(), m));
    // the same entries as Values, and as unreduced integers of either sign, give the same polynomial
    set_global(s, "u", unpacked(expected, m));
    CHECK(nmod_poly_equal(s.eval("poly(u)").as_modpoly().nmod(), f.nmod()));
    CHECK(holds(s, "poly(u) == f and u == c and c == u"));
    CHECK(holds(s, "k = 3 mod " + m->to_string() + "; poly(concat([k], lift(u))) == k + x * f"));
    CHECK(holds(s, "poly(concat(-lift(u), [k])) == k * x^len(u) - f"));
  }
}

TEST_CASE("padded and concat keep vectors over Z/pZ packed", "[packed][builtins][vector]") {
  FreshRandom r;
  INFO("seed " << r.seed);
  for (int trial = 0; trial < trials(100); trial++) {
    Session s;
    const ModulusPtr m = random_word_modulus(r.state());
    const ModPoly f = random_poly(r.state(), m, 30), g = random_poly(r.state(), m, 30);
    const Words a = coefficients_of(f), b = coefficients_of(g);
    INFO("p = " << m->to_string() << ", f " << show_words(a) << ", g " << show_words(b));
    set_global(s, "f", Value::modpoly(f));
    set_global(s, "g", Value::modpoly(g));
    Words joined = a;
    joined.insert(joined.end(), b.begin(), b.end());
    CHECK(has_residues(s.eval("concat(coeffs(f), coeffs(g))"), joined, m));
    CHECK(has_residues(s.eval("padded(coeffs(f), len(coeffs(f)))"), a, m));
    // padding appends zeros of Z/pZ after entries of Z/pZ (integer zeros after none), as words
    Words zero_padded = a;
    zero_padded.resize(a.size() + 2, 0);
    const Value p = s.eval("padded(coeffs(f), len(coeffs(f)) + 2)");
    if (a.empty()) {
      CHECK(s.show("padded(coeffs(f), 2)") == "[0, 0]");
    } else {
      CHECK(p.packed_residues());
      CHECK(has_residues(p, zero_padded, m));
    }
    if (!a.empty())  // writing to a concatenation leaves its operand as it was
      CHECK(holds(s, "c = coeffs(f); d = concat(c, []); d[0] = 1; e = concat([], c); c == coeffs(f) and e == c"));
  }
}

TEST_CASE("vector(n, e) repeats e, as words for an element of a word-size Z/pZ", "[packed][builtins][vector]") {
  using cas::test::error_message;
  Session s;
  const Value v = s.eval("vector(5, 3 mod 17)");
  REQUIRE(v.packed_residues());
  CHECK(has_residues(v, Words(5, 3), cas::make_modulus(17)));
  CHECK(s.show("vector(5, 3 mod 17)") == "[3, 3, 3, 3, 3] mod 17");
  CHECK(s.show("vector(3)") == "[0, 0, 0]");
  CHECK(s.show("vector(2, x + 1)") == "[x + 1, x + 1]");
  CHECK(s.show("vector(0, 1 mod 5)") == "[]");
  CHECK(!s.eval("vector(2, 1 mod (2^70 + 25))").packed_residues());  // above a word: Values
  CHECK(s.show("vector(2, 1 mod (2^70 + 25))") == "[1, 1] mod 1180591620717411303449");
  // writing to one entry leaves the others as they were
  CHECK(s.show("w = vector(3, 1 mod 5); w[1] = 2 mod 5; w") == "[1, 2, 1] mod 5");
  // large: split over threads
  const Value big = s.eval("vector(300001, 7 mod 998244353)");
  REQUIRE(big.packed_residues());
  CHECK(big.packed_residues()->words == Words(300001, 7));
  CHECK(error_message("vector(2, print(1))") == "vector: argument 2 has no value");
  CHECK(error_message("vector(-1, 0)") ==
        "vector: argument 1 must be a non-negative integer of reasonable size, not -1");
}

TEST_CASE("vecsum adds the entries, over one word-size Z/pZ as words", "[packed][builtins][vector]") {
  using cas::test::error_message;
  FreshRandom r;
  INFO("seed " << r.seed);
  for (int trial = 0; trial < trials(200); trial++) {
    Session s;
    const ModulusPtr m = trial % 2 ? random_word_modulus(r.state()) : cas::make_modulus(n_randtest_prime(r.state(), 0));
    const size_t n = trial % 50 == 0 ? 300001 : 1 + n_randint(r.state(), 40);
    const Words x = random_words(r.state(), m, n);
    INFO("p = " << m->to_string() << ", n = " << n);
    ulong expected = 0;
    for (ulong w : x) expected = nmod_add(expected, w, m->nmod());
    for (const Value& v : {Value::residue_words(m, x), unpacked(x, m)}) {
      set_global(s, "v", v);
      const Value total = s.eval("vecsum(v)");
      REQUIRE(total.is(Kind::Mod));
      CHECK(cas::same_modulus(total.modulus(), m));
      CHECK(fmpz_cmp_ui(total.as_int(), expected) == 0);
    }
  }
  Session s;
  CHECK(s.show("vecsum([])") == "0");
  CHECK(s.show("vecsum([5])") == "5");
  CHECK(s.show("vecsum([1, 2, 3])") == "6");
  CHECK(s.show("vecsum([x, x^2, 3])") == "x^2 + x + 3");
  CHECK(s.show("vecsum([[1, 2], [3, 4]])") == "[4, 6]");
  CHECK(s.show("vecsum([1, 2 mod 5])") == "3 mod 5");
  CHECK(s.show("a = [1, 2, 3] mod 11; vecsum(a .* a)") == "3 mod 11");
  CHECK(s.show("vecsum(vector(1000, (2^64 - 60) mod (2^64 - 59)))") == "18446744073709550557 mod 18446744073709551557");
  CHECK(error_message("vecsum(3)") == "vecsum: argument 1 must be a vector, not 3");
  CHECK(error_message("vecsum([1 mod 5, 2 mod 7])") == "cannot mix Z/5Z and Z/7Z (1 mod 5 and 2 mod 7)");
}

TEST_CASE("a vector of integers mod a word-size p is reduced as words", "[packed][arith]") {
  FreshRandom r;
  INFO("seed " << r.seed);
  for (int trial = 0; trial < trials(100); trial++) {
    const ModulusPtr m = random_word_modulus(r.state());
    const size_t n = trial % 25 == 0 ? 300001 : 1 + n_randint(r.state(), 40);
    std::vector<Value> items;
    Words expected(n);
    Fmpz z;
    for (size_t i = 0; i < n; i++) {
      fmpz_randtest(z.get(), r.state(), 200);  // either sign, beyond a word
      items.push_back(Value::integer(z.get()));
      expected[i] = fmpz_fdiv_ui(z.get(), m->word());
    }
    INFO("p = " << m->to_string() << ", n = " << n);
    const Value reduced = cas::reduce_mod(Value::vec(std::move(items)), Value::integer(Fmpz(m->word()).get()));
    REQUIRE(reduced.packed_residues());
    CHECK(cas::same_modulus(reduced.packed_residues()->modulus, m));
    CHECK(reduced.packed_residues()->words == expected);
  }
  Session s;
  CHECK(s.show("[1, -2, 10^30] mod 7") == "[1, 5, 1] mod 7");
  CHECK(!s.eval("[1, x, 3] mod 5").packed_residues());  // not all integers: entry by entry
  CHECK(s.show("[1, x, 3] mod 5") == "[1, x, 3] mod 5");
  CHECK(s.show("c = coeffs((x + 1) mod 5); c mod 5 == c") == "true");
  CHECK(cas::test::error_message("coeffs((x + 1) mod 5) mod 7") ==
        "1 mod 5 is already reduced mod 5; lift it first to reduce mod 7");
  CHECK(cas::test::error_message("[1, \"a\"] mod 5") == "'mod' is not defined for a string");
}

TEST_CASE("lift and centerlift of a packed vector read its words", "[packed][builtins]") {
  FreshRandom r;
  INFO("seed " << r.seed);
  for (int trial = 0; trial < trials(200); trial++) {
    Session s;
    const ModulusPtr m = random_word_modulus(r.state());
    // The first trial long enough for several ranges on the cores.
    const size_t n = trial == 0 ? (size_t{1} << 15) + 3 : 1 + n_randint(r.state(), 40);
    const Words x = random_words(r.state(), m, n);
    INFO("p = " << m->to_string() << ", x = " << (n > 40 ? "(long)" : show_words(x)));
    set_global(s, "a", Value::residue_words(m, x));
    const Value lifted = s.eval("lift(a)"), centred = s.eval("centerlift(a)");
    REQUIRE(lifted.vec_size() == x.size());
    REQUIRE(centred.vec_size() == x.size());
    Fmpz expected, residue;
    for (size_t i = 0; i < x.size(); i++) {
      fmpz_set_ui(residue.get(), x[i]);
      CHECK(lifted.as_vec()[i].is(Kind::Int));
      CHECK(fmpz_equal(lifted.as_vec()[i].as_int(), residue.get()));
      fmpz_smod(expected.get(), residue.get(), m->value());  // FLINT's symmetric residue
      CHECK(fmpz_equal(centred.as_vec()[i].as_int(), expected.get()));
    }
  }
}

TEST_CASE("conversions of vectors over two moduli fail as before", "[packed][errors]") {
  using cas::test::error_message;
  CHECK(error_message("poly(concat(coeffs((x + 2) mod 5), coeffs((x + 3) mod 7)))") ==
        "poly: cannot mix Z/5Z and Z/7Z");
  CHECK(error_message("poly(concat(coeffs((x + 2) mod 5), [x]))") ==
        "poly: the coefficients must be integers or elements of Z/pZ, but entry 2 is x");
  CHECK(error_message("fft(coeffs((x + 2) mod 17), 96 mod 97)") ==
        "fft: the entries must be integers or elements of Z/97Z, not 2 mod 17");
  CHECK(error_message("convolve(coeffs((x + 1) mod 5), coeffs((x + 3) mod 17))") ==
        "convolve: the entries must be integers or elements of Z/5Z, not 3 mod 17");
  CHECK(error_message("negaconvolve(coeffs((x + 1) mod 5), coeffs((x^2 + x + 3) mod 5))") ==
        "negaconvolve: the vectors must have one length, not 2 and 3");
  CHECK(error_message("v = coeffs((x + 1) mod 5); v[2]") ==
        "index 2 is out of range for a vector of length 2 (indices start at 0)");
}
