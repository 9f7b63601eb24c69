// The base-r digit arithmetic modulo p = r^k + 1 of the GPU transform for generalized Fermat primes
// (gpu/gf_digits.hpp), run on the host against FLINT: conversions, sums and differences, shifts by
// every power of r, butterflies and products, on random elements and on the edges: 0, 1, p - 1 =
// r^k (the one value whose top digit is r), p - 2 (every digit r - 1), r^j, r^j - 1 (carries across
// every digit below j), -r^j, and digits drawn from {0, 1, r - 2, r - 1}. The moduli are the
// seed's P3 and P4, r at both ends of the allowed range, and random even r for k = 8 and 16; the
// arithmetic never needs p prime.
#include "flint_support.hpp"
#include "interpreter_support.hpp"

#include "gpu/gf_digits.hpp"

#include <catch2/catch.hpp>
#include <flint/fmpz.h>

#include <string>
#include <vector>

namespace {

namespace gf = cas::gpu::gf;
using cas::Fmpz;
using cas::test::FreshRandom;
using cas::test::trials;
using gf::u64;

constexpr u64 r3 = (u64{1} << 63) + (u64{1} << 34);  // P3 = r3^8 + 1
constexpr u64 r4 = (u64{1} << 62) + (u64{1} << 36);  // P4 = r4^16 + 1

// One modulus r^k + 1 and FLINT's view of it.
template <int k>
struct Modulus {
  u64 r;
  gf::Radix radix;
  Fmpz radix_z, p;

  explicit Modulus(u64 base) : r(base), radix(gf::make_radix(base)), radix_z(ulong{base}) {
    fmpz_pow_ui(p.get(), radix_z.get(), k);
    fmpz_add_ui(p.get(), p.get(), 1);
  }

  Fmpz value(const gf::Digits<k>& x) const {
    Fmpz v;
    for (int i = k - 1; i >= 0; i--) {
      fmpz_mul(v.get(), v.get(), radix_z.get());
      fmpz_add_ui(v.get(), v.get(), x.d[i]);
    }
    return v;
  }
  Fmpz value(const gf::Words<k>& x) const {
    Fmpz v, word;
    for (int i = k - 1; i >= 0; i--) {
      fmpz_mul_2exp(v.get(), v.get(), 64);
      fmpz_set_ui(word.get(), x.w[i]);
      fmpz_add(v.get(), v.get(), word.get());
    }
    return v;
  }
  // The canonical digits of v mod p: base-r digits, the top one r only for r^k.
  gf::Digits<k> digits(const Fmpz& v) const {
    Fmpz rest, digit;
    fmpz_mod(rest.get(), v.get(), p.get());
    gf::Digits<k> x{};
    for (int i = 0; i < k - 1; i++) {
      fmpz_fdiv_qr(rest.get(), digit.get(), rest.get(), radix_z.get());
      x.d[i] = fmpz_get_ui(digit.get());
    }
    x.d[k - 1] = fmpz_get_ui(rest.get());
    return x;
  }
  gf::Words<k> words(const Fmpz& v) const {
    Fmpz rest, word;
    fmpz_mod(rest.get(), v.get(), p.get());
    gf::Words<k> x{};
    for (int i = 0; i < k; i++) {
      fmpz_fdiv_r_2exp(word.get(), rest.get(), 64);
      x.w[i] = fmpz_get_ui(word.get());
      fmpz_fdiv_q_2exp(rest.get(), rest.get(), 64);
    }
    return x;
  }
  Fmpz power_of_radix(int j) const {
    Fmpz v;
    fmpz_pow_ui(v.get(), radix_z.get(), j);
    return v;
  }
};

template <int k>
std::string show(const gf::Digits<k>& x) {
  std::string s;
  for (int i = k - 1; i >= 0; i--) s += std::to_string(x.d[i]) + (i ? " " : "");
  return "[" + s + "]";
}

template <int k>
bool same(const gf::Digits<k>& a, const gf::Digits<k>& b) {
  for (int i = 0; i < k; i++)
    if (a.d[i] != b.d[i]) return false;
  return true;
}

// The edge elements of r^k + 1 (as integers, reduced mod p by the caller).
template <int k>
std::vector<Fmpz> edge_values(const Modulus<k>& m) {
  std::vector<Fmpz> values;
  const auto push = [&](const Fmpz& v, slong add) {
    Fmpz x;
    if (add >= 0)
      fmpz_add_ui(x.get(), v.get(), ulong(add));
    else
      fmpz_sub_ui(x.get(), v.get(), ulong(-add));
    fmpz_mod(x.get(), x.get(), m.p.get());
    values.push_back(x);
  };
  const Fmpz zero;
  for (slong a : {0, 1, 2, -1, -2, -3}) push(zero, a);  // 0, 1, 2, r^k, r^k - 1, r^k - 2
  for (int j = 1; j < k; j++) {
    const Fmpz rj = m.power_of_radix(j);
    push(rj, 0);   // r^j
    push(rj, -1);  // digits r - 1 below j
    push(rj, 1);
    Fmpz minus;
    fmpz_sub(minus.get(), m.p.get(), rj.get());  // -r^j
    push(minus, 0);
  }
  return values;
}

// A random element: uniform, or with every digit drawn from {0, 1, r - 2, r - 1, random}, or an
// edge element.
template <int k>
gf::Digits<k> random_element(flint_rand_t state, const Modulus<k>& m, const std::vector<Fmpz>& edges) {
  switch (n_randint(state, 4)) {
    case 0: {
      Fmpz v;
      fmpz_randm(v.get(), state, m.p.get());
      return m.digits(v);
    }
    case 1: {
      gf::Digits<k> x;
      for (int i = 0; i < k; i++) {
        const u64 choices[5] = {0, 1, m.r - 2, m.r - 1, n_randint(state, m.r)};
        x.d[i] = choices[n_randint(state, 5)];
      }
      return x;
    }
    default:
      return m.digits(edges[n_randint(state, edges.size())]);
  }
}

// An even r in [2^32, 2^64): with few or many leading zeros, or near the top.
u64 random_radix(flint_rand_t state) {
  const u64 r = (u64{1} << 32) + n_randint(state, ~u64{0} - (u64{1} << 32));
  switch (n_randint(state, 3)) {
    case 0: return (r | (u64{1} << 63)) & ~u64{1};
    case 1: {
      const int bits = 32 + int(n_randint(state, 31));  // the top bit, 32 .. 62
      return ((u64{1} << bits) | (n_randtest(state) & ((u64{1} << bits) - 1))) & ~u64{1};
    }
    default: return r & ~u64{1};
  }
}

// x r^e mod p, and (a + b) r^e or (a - b) r^e, by FLINT.
template <int k>
Fmpz expected_combine(const Modulus<k>& m, const Fmpz& a, const Fmpz& b, bool add, int e) {
  Fmpz v;
  if (add)
    fmpz_add(v.get(), a.get(), b.get());
  else
    fmpz_sub(v.get(), a.get(), b.get());
  fmpz_mul(v.get(), v.get(), m.power_of_radix(e).get());
  fmpz_mod(v.get(), v.get(), m.p.get());
  return v;
}

// Every check of the digit arithmetic for one modulus, `count` random trials each.
template <int k>
void check_modulus(flint_rand_t state, u64 r, int count) {
  const Modulus<k> m(r);
  INFO("k = " << k << ", r = " << r);
  const std::vector<Fmpz> edges = edge_values(m);

  // Conversions, on every edge and random elements.
  std::vector<Fmpz> values = edges;
  for (int trial = 0; trial < count; trial++) {
    Fmpz v;
    fmpz_randm(v.get(), state, m.p.get());
    values.push_back(v);
  }
  for (const Fmpz& v : values) {
    const gf::Digits<k> digits = gf::to_digits<k>(m.words(v), m.radix);
    INFO("value " << v.to_string());
    REQUIRE(same(digits, m.digits(v)));
    const gf::Words<k> words = gf::to_words<k>(digits, r);
    REQUIRE(fmpz_equal(m.value(words).get(), v.get()));
  }

  for (int trial = 0; trial < count; trial++) {
    const gf::Digits<k> a = random_element(state, m, edges), b = random_element(state, m, edges);
    const Fmpz av = m.value(a), bv = m.value(b);
    INFO("a = " << show(a) << ", b = " << show(b));
    // Sums, differences and negations.
    CHECK(same(gf::add(a, b, r), m.digits(expected_combine(m, av, bv, true, 0))));
    CHECK(same(gf::subtract(a, b, r), m.digits(expected_combine(m, av, bv, false, 0))));
    CHECK(same(gf::negate(a, r), m.digits(expected_combine(m, Fmpz(), av, false, 0))));
    // Butterflies and shifts at every power of r.
    for (int e = 0; e < 2 * k; e++) {
      INFO("exponent " << e);
      CHECK(same(gf::combine<k>(gf::DigitsOf<k>{a}, gf::DigitsOf<k>{b}, true, e, r),
                 m.digits(expected_combine(m, av, bv, true, e))));
      CHECK(same(gf::combine<k>(gf::DigitsOf<k>{a}, gf::DigitsOf<k>{b}, false, e, r),
                 m.digits(expected_combine(m, av, bv, false, e))));
      CHECK(same(gf::shift(a, e, r), m.digits(expected_combine(m, av, Fmpz(), true, e))));
    }
    // Products.
    Fmpz product;
    fmpz_mul(product.get(), av.get(), bv.get());
    CHECK(same(gf::multiply(a, b, m.radix), m.digits(product)));
  }
}

}  // namespace

TEST_CASE("gf digits: division by r matches 128-bit division", "[gf_digits]") {
  FreshRandom random;
  INFO("seed " << random.seed);
  std::vector<u64> radices = {r3, r4, 2, 3, u64{1} << 32, (u64{1} << 32) + 2, ~u64{0} - 1, ~u64{0}, u64{1} << 63};
  for (int trial = 0; trial < trials(200); trial++) radices.push_back(1 + n_randtest(random.state()) % ~u64{0});
  for (u64 r : radices) {
    const gf::Radix radix = gf::make_radix(r);
    INFO("r = " << r);
    for (int trial = 0; trial < 50; trial++) {
      const u64 high = trial == 0 ? r - 1 : trial == 1 ? 0 : n_randint(random.state(), r);
      const u64 low = trial == 0 ? ~u64{0} : n_randtest(random.state());
      const unsigned __int128 u = (static_cast<unsigned __int128>(high) << 64) | low;
      u64 remainder;
      const u64 q = gf::divide_by_radix(high, low, radix, remainder);
      INFO("high = " << high << ", low = " << low);
      CHECK(q == u64(u / r));
      CHECK(remainder == u64(u % r));
    }
  }
}

TEST_CASE("gf digits: the small corrections wrap around r^k = -1", "[gf_digits]") {
  const u64 r = r3;
  const Modulus<8> m(r);
  const auto settled = [&](gf::Digits<8> y, gf::s64 delta) {
    gf::settle(y, delta, r);
    return y;
  };
  gf::Digits<8> zero{}, top{};
  for (auto& d : top.d) d = r - 1;  // r^8 - 1 = p - 2
  gf::Digits<8> minus_one{};
  gf::set_minus_one(minus_one, r);
  CHECK(same(settled(zero, -1), minus_one));                   // 0 - 1 = r^8
  CHECK(same(settled(zero, -2), top));                         // 0 - 2 = r^8 - 1
  CHECK(same(settled(top, 1), minus_one));                     // r^8 - 1 + 1, carried through every digit
  CHECK(same(settled(top, 2), zero));                          // r^8 + 1 = p
  CHECK(same(settled(top, 3), gf::small_digits<8>(1)));        // p + 1
  CHECK(same(settled(gf::small_digits<8>(1), -3), top));      // 1 - 3 = p - 2
  gf::Digits<8> y = top;
  CHECK(gf::add_small_at(y, 5, 1, r) == 1);  // r^8 - 1 + r^5 carries out of the top, leaving r^5 - 1
  Fmpz below = m.power_of_radix(5);
  fmpz_sub_ui(below.get(), below.get(), 1);
  CHECK(same(y, m.digits(below)));
  CHECK(same(gf::one_half<8>(r), m.digits([&] {
          Fmpz half;
          fmpz_add_ui(half.get(), m.p.get(), 1);
          fmpz_fdiv_q_2exp(half.get(), half.get(), 1);
          return half;
        }())));
}

TEST_CASE("gf digits: P3 and P4, conversions, butterflies and products against FLINT", "[gf_digits]") {
  FreshRandom random;
  INFO("seed " << random.seed);
  check_modulus<8>(random.state(), r3, trials(200));
  check_modulus<16>(random.state(), r4, trials(100));
}

TEST_CASE("gf digits: r at the ends of its range and random even r", "[gf_digits]") {
  FreshRandom random;
  INFO("seed " << random.seed);
  for (u64 r : {u64{1} << 32, ~u64{0} - 1, u64{0x100000306b0}, u64{0x2000033c0}}) {
    check_modulus<8>(random.state(), r, trials(40));
    check_modulus<16>(random.state(), r, trials(20));
  }
  for (int trial = 0; trial < trials(10); trial++) {
    check_modulus<8>(random.state(), random_radix(random.state()), 20);
    check_modulus<16>(random.state(), random_radix(random.state()), 10);
  }
}

TEST_CASE("gf digits: powers, and the exponent of a power of r", "[gf_digits]") {
  const Modulus<8> m(r3);
  for (int e = 0; e < 16; e++) {
    const gf::Digits<8> x = gf::shift(gf::small_digits<8>(1), e, r3);
    CHECK(gf::exponent_of_radix(x, r3) == e);
    // r^e = (r^(e mod 8)) (-1)^(e / 8)
    Fmpz v = m.power_of_radix(e);
    fmpz_mod(v.get(), v.get(), m.p.get());
    CHECK(same(x, m.digits(v)));
  }
  CHECK(gf::exponent_of_radix(gf::small_digits<8>(2), r3) == -1);
  const gf::Digits<8> r_digits = gf::shift(gf::small_digits<8>(1), 1, r3);
  CHECK(same(gf::power(r_digits, 16, m.radix), gf::small_digits<8>(1)));  // r has order 2k
  gf::Digits<8> minus_one{};
  gf::set_minus_one(minus_one, r3);
  CHECK(same(gf::power(r_digits, 8, m.radix), minus_one));
  CHECK(same(gf::multiply(gf::one_half<8>(r3), gf::small_digits<8>(2), m.radix), gf::small_digits<8>(1)));
}
