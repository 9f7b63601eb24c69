// Vectors over Z/pZ for a multi-word p to and from the limb-major words of the GPU's big-prime
// kernels (algebra/values/big_prime_vectors.hpp): elements as they are, integers of either sign
// and any size reduced, the message for any other entry as fft's CPU route gives it, and vectors
// made on the cores that read, print, copy, change and free like any other.
#include "algebra/fourier/big_prime_words.hpp"
#include "algebra/values/arith.hpp"
#include "algebra/values/big_prime_vectors.hpp"
#include "algebra/values/format.hpp"
#include "flint_support.hpp"

#include <string>
#include <vector>

using cas::Fmpz;
using cas::Kind;
using cas::ModulusPtr;
using cas::Value;
using cas::test::Random;

namespace {

ModulusPtr p3() {
  Fmpz p = cas::test::two_powers(63, 34);
  fmpz_pow_ui(p.get(), p.get(), 8);
  fmpz_add_ui(p.get(), p.get(), 1);
  return cas::make_modulus(p.get());
}

// Word d of entry i of limb-major words against the residue x.
bool holds(const cas::Words& words, size_t i, size_t count, size_t limbs, const fmpz* x) {
  std::vector<fmpz> out(1, 0);
  cas::get_limbs(&out[0], words.data(), i, count, limbs);
  const bool same = fmpz_equal(&out[0], x);
  fmpz_clear(&out[0]);
  return same;
}

}  // namespace

TEST_CASE("big-prime vectors: elements and integers into limb-major words", "[values][big_prime]") {
  Random r;
  const ModulusPtr m = p3();
  const size_t limbs = cas::big_prime_limbs(*m);
  for (size_t n : {size_t{1}, size_t{6}, size_t{50000}}) {
    INFO("n = " << n);
    std::vector<Fmpz> expected(n);
    std::vector<Value> items;
    for (size_t i = 0; i < n; i++) {
      Fmpz x;
      fmpz_randtest(x.get(), r.state, 1200);  // either sign, up to twice p's size
      if (i % 3 == 0) {
        fmpz_mod(x.get(), x.get(), m->value());
        items.push_back(Value::mod(x.get(), m));
      } else {
        items.push_back(Value::integer(x.get()));
      }
      fmpz_mod(expected[i].get(), x.get(), m->value());
    }
    const cas::Words words = cas::residue_limbs(items, *m, limbs, "fft");
    REQUIRE(words.size() == limbs * n);
    bool all = true;
    for (size_t i = 0; i < n; i++) all = all && holds(words, i, n, limbs, expected[i].get());
    CHECK(all);
  }
}

TEST_CASE("big-prime vectors: limb-major words into a vector and back", "[values][big_prime]") {
  Random r;
  const ModulusPtr m = p3();
  const size_t limbs = cas::big_prime_limbs(*m);
  for (size_t n : {size_t{0}, size_t{1}, size_t{5}, size_t{70000}}) {
    INFO("n = " << n);
    std::vector<Fmpz> residues = cas::test::random_residues(r, m, n);
    if (n > 1) fmpz_sub_ui(residues[1].get(), m->value(), 1);
    if (n > 2) fmpz_zero(residues[2].get());
    std::vector<Value> items;
    for (const Fmpz& x : residues) items.push_back(Value::mod(x.get(), m));
    const Value v = Value::vec(items);
    const cas::Words words = cas::residue_limbs(v.as_vec(), *m, limbs, "fft");
    const Value back = cas::vector_from_limbs(m, words.data(), n, limbs);
    REQUIRE(back.is(Kind::Vec));
    CHECK(cas::equal_values(back, v));
    bool elements = true;
    for (const Value& e : back.as_vec()) elements = elements && e.is(Kind::Mod) && e.modulus_raw() == m.get();
    CHECK(elements);
    if (n > 0 && n < 10) CHECK(cas::format(back) == cas::format(v));
    if (n == 0) continue;
    // A copy changed in one place leaves the vector as it was; both free on their own.
    Value changed = back;
    changed.vec_mut()[0] = Value::integer(slong{7});
    CHECK_FALSE(cas::equal_values(changed, back));
    CHECK(cas::equal_values(back, v));
  }
}

TEST_CASE("big-prime vectors: any other entry gives the message of fft's CPU route", "[values][big_prime]") {
  const ModulusPtr m = p3();
  const size_t limbs = cas::big_prime_limbs(*m);
  Fmpz w;
  REQUIRE(cas::find_root_of_unity(w, *m, 1 << 16));
  const Value root = Value::mod(w.get(), m);
  std::vector<Value> items(size_t{1} << 16, Value::integer(slong{3}));
  items[40000] = Value::mod_reduce(Fmpz(slong{3}).get(), cas::make_modulus(17));
  items[50000] = Value::str("x");
  items[60000] = Value::mod_reduce(Fmpz(slong{3}).get(), cas::make_modulus(19));
  const Value v = Value::vec(items);
  cas::test::ModeGuard cpu(cas::GpuMode::Off);
  const std::string message = cas::test::domain_error([&] { cas::fft(v, root); });
  CHECK(message == "fft: the entries must be integers or elements of Z/" + m->to_string() + "Z, not 3 mod 17");
  CHECK(cas::test::domain_error([&] { cas::residue_limbs(v.as_vec(), *m, limbs, "fft"); }) == message);
  items[40000] = Value::integer(slong{3});
  const std::string string_message = cas::test::domain_error([&] { cas::residue_limbs(items, *m, limbs, "ifft"); });
  CHECK(string_message.rfind("ifft: the entries must be integers or elements of Z/", 0) == 0);
  CHECK(string_message.find("Z, not \"x\"") != std::string::npos);
}

TEST_CASE("big-prime vectors held packed, limb-major: entries, equality, printing and changes", "[values][big_prime]") {
  Random r;
  const ModulusPtr m = p3();
  const size_t limbs = cas::big_prime_limbs(*m);
  const size_t n = 3000;
  std::vector<Value> items;
  for (size_t i = 0; i < n; i++) {
    Fmpz x;
    fmpz_randm(x.get(), r.state, m->value());
    items.push_back(Value::mod(x.get(), m));
  }
  const Value plain = Value::vec(items);
  cas::Words words = cas::residue_limbs(items, *m, limbs, "fft");
  const Value packed = Value::residue_limbs(m, limbs, words);
  REQUIRE(packed.packed_limbs() != nullptr);
  CHECK(packed.vec_size() == n);
  CHECK(packed.packed_limbs() != nullptr);  // the size is read without making the Values
  for (size_t i : {size_t{0}, size_t{1}, n / 2, n - 1}) CHECK(cas::equal_values(packed.vec_entry(i), items[i]));
  CHECK(cas::equal_values(packed, Value::residue_limbs(m, limbs, words)));  // word for word
  CHECK(cas::equal_values(packed, plain));                                   // entry by entry
  CHECK(cas::format(packed) == cas::format(plain));
  // The words read in place by the kernels' input, not converted.
  const cas::VectorLimbs input = cas::vector_limbs(packed, *m, limbs, "fft");
  CHECK(input.packed == &packed.packed_limbs()->words);
  // Writing to a copy leaves the original as it was.
  Value changed = packed;
  changed.vec_mut()[0] = Value::integer(slong{7});
  CHECK(cas::equal_values(packed, plain));
  CHECK(!cas::equal_values(changed, plain));
}
