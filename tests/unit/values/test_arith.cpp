// The algebra layer (apply, negate, reduce_mod, equal_values) against FLINT
// and GMP called directly, in FLINT's t-*.c style: many random trials, a
// fresh modulus per trial, inputs printed on failure, the trial count scaled
// by CAS_TEST_MULTIPLIER.
#include "algebra/values/arith.hpp"
#include "algebra/support/error.hpp"
#include "algebra/values/format.hpp"
#include "flint_support.hpp"
#include "interpreter_support.hpp"

#include <flint/fmpz_mod_poly.h>
#include <flint/fmpz_poly.h>
#include <flint/ulong_extras.h>

#include <string>
#include <vector>

using cas::BinaryOp;
using cas::Fmpz;
using cas::Kind;
using cas::ModPoly;
using cas::ModulusPtr;
using cas::Value;
using cas::ZPoly;
using cas::test::Random;

namespace {

Fmpz from_string(const char* decimal) {
  Fmpz z;
  fmpz_set_str(z.get(), decimal, 10);
  return z;
}

// 2^127 - 1 (a prime) and 2^70 + 1 (composite: 2^10 + 1 divides it), beyond a word;
// 2^64 - 59 (the largest word-size prime) and 2^64 (the first modulus past a word).
const char* const fixed_moduli[] = {"170141183460469231731687303715884105727", "1180591620717411303425",
                                    "18446744073709551557", "18446744073709551616"};

// A modulus for trial `i`: a few fixed ones, then random word-size (biased to
// edge cases, like n_randtest_not_zero) and random multi-word ones.
ModulusPtr modulus_for_trial(flint_rand_t state, int i) {
  Fmpz p;
  if (i < 4) {
    p = from_string(fixed_moduli[i]);
  } else if (i % 3 == 0) {
    fmpz_randtest_unsigned(p.get(), state, 65 + n_randint(state, 150));
    fmpz_add_ui(p.get(), p.get(), 2);
  } else if (i % 3 == 1) {
    fmpz_set_ui(p.get(), n_randtest_not_zero(state));
    if (fmpz_cmp_ui(p.get(), 2) < 0) fmpz_set_ui(p.get(), 2);
  } else {
    fmpz_set_ui(p.get(), n_randtest_prime(state, 0));
  }
  return cas::make_modulus(p.get());
}

Value random_int(flint_rand_t state, flint_bitcnt_t bits = 200) {
  Fmpz z;
  fmpz_randtest(z.get(), state, bits);
  return Value::integer(std::move(z));
}

Value random_mod(flint_rand_t state, const ModulusPtr& m) {
  Fmpz z;
  fmpz_randm(z.get(), state, m->value());
  return Value::mod(z.get(), m);
}

ZPoly random_zpoly(flint_rand_t state, slong max_length = 30, flint_bitcnt_t bits = 100) {
  ZPoly f;
  fmpz_poly_randtest(f.get(), state, n_randint(state, max_length), bits);
  return f;
}

// A random polynomial mod m, as FLINT's fmpz_mod_poly (the oracle) and as a cas value.
struct RandomModPoly {
  fmpz_mod_poly_t oracle;
  const fmpz_mod_ctx_struct* ctx;
  Value value;
  RandomModPoly(flint_rand_t state, const ModulusPtr& m, slong max_length = 30) : ctx(m->ctx()) {
    fmpz_mod_poly_init(oracle, ctx);
    fmpz_mod_poly_randtest(oracle, state, n_randint(state, max_length), ctx);
    ModPoly p(m);
    Fmpz c;
    for (slong i = 0; i < fmpz_mod_poly_length(oracle, ctx); i++) {
      fmpz_mod_poly_get_coeff_fmpz(c.get(), oracle, i, ctx);
      p.set_coeff(i, c.get());
    }
    value = Value::modpoly(std::move(p));
  }
  ~RandomModPoly() { fmpz_mod_poly_clear(oracle, ctx); }
  RandomModPoly(const RandomModPoly&) = delete;
  RandomModPoly& operator=(const RandomModPoly&) = delete;
};

bool same_coefficients(const Value& v, const fmpz_mod_poly_t expected, const fmpz_mod_ctx_struct* ctx) {
  if (!v.is(Kind::ModPoly)) return false;
  const ModPoly& p = v.as_modpoly();
  if (p.length() != fmpz_mod_poly_length(expected, ctx)) return false;
  Fmpz a, b;
  for (slong i = 0; i < p.length(); i++) {
    p.coeff(a.get(), i);
    fmpz_mod_poly_get_coeff_fmpz(b.get(), expected, i, ctx);
    if (!fmpz_equal(a.get(), b.get())) return false;
  }
  return true;
}

bool is_integer(const Value& v, const fmpz* expected) { return v.is(Kind::Int) && fmpz_equal(v.as_int(), expected); }

bool is_residue(const Value& v, const fmpz* expected, const ModulusPtr& m) {
  return v.is(Kind::Mod) && cas::same_modulus(v.modulus(), m) && fmpz_equal(v.as_int(), expected);
}

bool is_zpoly(const Value& v, const fmpz_poly_t expected) {
  return v.is(Kind::ZPoly) && fmpz_poly_equal(v.as_zpoly().get(), expected);
}

}  // namespace

// ---- Z ------------------------------------------------------------------------------

TEST_CASE("integer arithmetic agrees with fmpz", "[algebra][int]") {
  Random r;
  Fmpz expected;
  for (int i = 0; i < cas::test::trials(1000); i++) {
    Value a = random_int(r.state, 1 + n_randint(r.state, 300));
    Value b = random_int(r.state, 1 + n_randint(r.state, 300));
    INFO("a = " << cas::format(a) << ", b = " << cas::format(b));
    fmpz_add(expected.get(), a.as_int(), b.as_int());
    CHECK(is_integer(apply(BinaryOp::Add, a, b), expected.get()));
    fmpz_sub(expected.get(), a.as_int(), b.as_int());
    CHECK(is_integer(apply(BinaryOp::Sub, a, b), expected.get()));
    fmpz_mul(expected.get(), a.as_int(), b.as_int());
    CHECK(is_integer(apply(BinaryOp::Mul, a, b), expected.get()));
    CHECK(is_integer(apply(BinaryOp::Div, apply(BinaryOp::Mul, a, b), fmpz_is_zero(b.as_int()) ? Value::integer(1) : b),
                     fmpz_is_zero(b.as_int()) ? expected.get() : a.as_int()));
    fmpz_neg(expected.get(), a.as_int());
    CHECK(is_integer(cas::negate(a), expected.get()));
    CHECK(apply(BinaryOp::Lt, a, b).as_bool() == (fmpz_cmp(a.as_int(), b.as_int()) < 0));
    CHECK(apply(BinaryOp::Ge, a, b).as_bool() == (fmpz_cmp(a.as_int(), b.as_int()) >= 0));
    CHECK(apply(BinaryOp::Eq, a, b).as_bool() == fmpz_equal(a.as_int(), b.as_int()));
    CHECK(apply(BinaryOp::Eq, a, a).as_bool());
    if (!fmpz_is_zero(b.as_int())) {
      fmpz_fdiv_q(expected.get(), a.as_int(), b.as_int());
      CHECK(is_integer(apply(BinaryOp::FloorDiv, a, b), expected.get()));
      fmpz_fdiv_r(expected.get(), a.as_int(), b.as_int());
      CHECK(is_integer(apply(BinaryOp::Rem, a, b), expected.get()));
      if (!fmpz_divisible(a.as_int(), b.as_int())) CHECK_THROWS_AS(apply(BinaryOp::Div, a, b), cas::DomainError);
    } else {
      CHECK_THROWS_WITH(apply(BinaryOp::Div, a, b), Catch::Contains("division by zero"));
      CHECK_THROWS_WITH(apply(BinaryOp::FloorDiv, a, b), Catch::Contains("division by zero"));
      CHECK_THROWS_WITH(apply(BinaryOp::Rem, a, b), Catch::Contains("division by zero"));
    }
    const ulong e = n_randint(r.state, 20);
    fmpz_pow_ui(expected.get(), a.as_int(), e);
    CHECK(is_integer(apply(BinaryOp::Pow, a, Value::integer(static_cast<slong>(e))), expected.get()));
  }
}

// ---- Z/pZ ---------------------------------------------------------------------------

TEST_CASE("Z/pZ arithmetic agrees with fmpz_mod, for word-size and multi-word moduli", "[algebra][mod]") {
  Random r;
  Fmpz expected, inverse, g;
  for (int i = 0; i < cas::test::trials(1000); i++) {
    ModulusPtr m = modulus_for_trial(r.state, i);
    const fmpz_mod_ctx_struct* ctx = m->ctx();
    Value a = random_mod(r.state, m), b = random_mod(r.state, m);
    INFO("p = " << m->to_string() << ", a = " << cas::format(a) << ", b = " << cas::format(b));
    fmpz_mod_add(expected.get(), a.as_int(), b.as_int(), ctx);
    CHECK(is_residue(apply(BinaryOp::Add, a, b), expected.get(), m));
    fmpz_mod_sub(expected.get(), a.as_int(), b.as_int(), ctx);
    CHECK(is_residue(apply(BinaryOp::Sub, a, b), expected.get(), m));
    fmpz_mod_mul(expected.get(), a.as_int(), b.as_int(), ctx);
    CHECK(is_residue(apply(BinaryOp::Mul, a, b), expected.get(), m));
    fmpz_mod_mul(expected.get(), a.as_int(), a.as_int(), ctx);
    CHECK(is_residue(apply(BinaryOp::Mul, a, a), expected.get(), m));  // aliased operands
    fmpz_mod_neg(expected.get(), a.as_int(), ctx);
    CHECK(is_residue(cas::negate(a), expected.get(), m));

    fmpz_gcd(g.get(), b.as_int(), m->value());
    if (fmpz_is_one(g.get())) {
      fmpz_invmod(inverse.get(), b.as_int(), m->value());
      fmpz_mod_mul(expected.get(), a.as_int(), inverse.get(), ctx);
      CHECK(is_residue(apply(BinaryOp::Div, a, b), expected.get(), m));
      fmpz_powm_ui(expected.get(), inverse.get(), 5, m->value());
      CHECK(is_residue(apply(BinaryOp::Pow, b, Value::integer(-5)), expected.get(), m));
    } else {
      CHECK_THROWS_WITH(apply(BinaryOp::Div, a, b), Catch::Contains("is not invertible"));
    }
    Value e = random_int(r.state, 100);
    fmpz_abs(g.get(), e.as_int());
    fmpz_powm(expected.get(), a.as_int(), g.get(), m->value());
    CHECK(is_residue(apply(BinaryOp::Pow, a, Value::integer(g.get())), expected.get(), m));
    CHECK(apply(BinaryOp::Eq, a, b).as_bool() == fmpz_equal(a.as_int(), b.as_int()));
  }
}

TEST_CASE("integers are promoted into Z/pZ; two moduli do not mix", "[algebra][mod]") {
  Random r;
  Fmpz expected;
  for (int i = 0; i < cas::test::trials(500); i++) {
    ModulusPtr m = modulus_for_trial(r.state, i);
    Value a = random_mod(r.state, m);
    Value n = random_int(r.state, 250);
    Value n_mod = cas::reduce_mod(n, Value::integer(m->value()));
    INFO("p = " << m->to_string() << ", a = " << cas::format(a) << ", n = " << cas::format(n));
    fmpz_mod(expected.get(), n.as_int(), m->value());
    CHECK(is_residue(n_mod, expected.get(), m));
    for (BinaryOp op : {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul}) {
      CHECK(cas::equal_values(apply(op, a, n), apply(op, a, n_mod)));
      CHECK(cas::equal_values(apply(op, n, a), apply(op, n_mod, a)));
      CHECK(apply(op, n, a).is(Kind::Mod));
    }
    // Equality promotes the integer: n == n mod p, and n + p == n mod p.
    CHECK(cas::equal_values(n, n_mod));
    CHECK(cas::equal_values(n_mod, n));
    CHECK(cas::equal_values(apply(BinaryOp::Add, n, Value::integer(m->value())), n_mod));

    ModulusPtr other = modulus_for_trial(r.state, i + 1);
    if (!cas::same_modulus(m, other)) {
      Value b = random_mod(r.state, other);
      CHECK_THROWS_WITH(apply(BinaryOp::Add, a, b), Catch::Contains("cannot mix"));
      CHECK_FALSE(cas::equal_values(a, b));
    }
  }
}

TEST_CASE("word-size and multi-word storage agree at the 2^64 boundary", "[algebra][mod]") {
  // 2^64 - 1 fits a word (nmod); 2^64 + 1 does not (fmpz_mod). Both must give the same residues.
  Fmpz p_small = from_string("18446744073709551615"), p_big = from_string("18446744073709551617");
  ModulusPtr small = cas::make_modulus(p_small.get()), big = cas::make_modulus(p_big.get());
  CHECK(small->word_size());
  CHECK_FALSE(big->word_size());
  Value minus_one = Value::integer(-1);
  CHECK(cas::format(cas::reduce_mod(minus_one, Value::integer(p_small.get()))) ==
        "18446744073709551614 mod 18446744073709551615");
  CHECK(cas::format(cas::reduce_mod(minus_one, Value::integer(p_big.get()))) ==
        "18446744073709551616 mod 18446744073709551617");
  Value a = cas::reduce_mod(minus_one, Value::integer(p_small.get()));
  CHECK(cas::format(apply(BinaryOp::Mul, a, a)) == "1 mod 18446744073709551615");
  CHECK(cas::format(apply(BinaryOp::Add, a, a)) == "18446744073709551613 mod 18446744073709551615");
}

// ---- Z[x] ---------------------------------------------------------------------------

TEST_CASE("Z[x] arithmetic agrees with fmpz_poly", "[algebra][zpoly]") {
  Random r;
  ZPoly expected, q, rem;
  for (int i = 0; i < cas::test::trials(300); i++) {
    ZPoly f = random_zpoly(r.state), g = random_zpoly(r.state);
    Value a = Value::zpoly(f), b = Value::zpoly(g);
    INFO("a = " << cas::format(a) << ", b = " << cas::format(b));
    auto same = [&](const Value& v) {
      // A constant result may come back as a polynomial or not; compare as polynomials.
      return cas::equal_values(v, Value::zpoly(expected)) && (v.is(Kind::ZPoly) || v.is(Kind::Int));
    };
    fmpz_poly_add(expected.get(), f.get(), g.get());
    CHECK(same(apply(BinaryOp::Add, a, b)));
    fmpz_poly_sub(expected.get(), f.get(), g.get());
    CHECK(same(apply(BinaryOp::Sub, a, b)));
    fmpz_poly_mul(expected.get(), f.get(), g.get());
    CHECK(is_zpoly(apply(BinaryOp::Mul, a, b), expected.get()));
    fmpz_poly_sqr(expected.get(), f.get());
    CHECK(is_zpoly(apply(BinaryOp::Mul, a, a), expected.get()));
    fmpz_poly_neg(expected.get(), f.get());
    CHECK(is_zpoly(cas::negate(a), expected.get()));
    const ulong e = n_randint(r.state, 6);
    fmpz_poly_pow(expected.get(), f.get(), e);
    CHECK(is_zpoly(apply(BinaryOp::Pow, a, Value::integer(static_cast<slong>(e))), expected.get()));
    CHECK(cas::equal_values(a, a));
    CHECK(cas::equal_values(a, b) == fmpz_poly_equal(f.get(), g.get()));
    if (!g.is_zero()) {
      // Exact division undoes a product; // and % are FLINT's divrem, by a constant the floor
      // division of every coefficient (a = b*q + r).
      Value product = apply(BinaryOp::Mul, a, b);
      CHECK(is_zpoly(apply(BinaryOp::Div, product, b), f.get()));
      cas::test::zpoly_divrem_oracle(q.get(), rem.get(), f.get(), g.get());
      CHECK(cas::equal_values(apply(BinaryOp::FloorDiv, a, b), Value::zpoly(q)));
      CHECK(cas::equal_values(apply(BinaryOp::Rem, a, b), Value::zpoly(rem)));
      Value rebuilt = apply(BinaryOp::Add, apply(BinaryOp::Mul, b, apply(BinaryOp::FloorDiv, a, b)),
                            apply(BinaryOp::Rem, a, b));
      CHECK(cas::equal_values(rebuilt, a));
    } else {
      CHECK_THROWS_WITH(apply(BinaryOp::Div, a, b), Catch::Contains("zero polynomial"));
      CHECK_THROWS_WITH(apply(BinaryOp::Rem, a, b), Catch::Contains("zero polynomial"));
    }
    // An integer is a constant polynomial.
    Value n = random_int(r.state, 80);
    fmpz_poly_scalar_mul_fmpz(expected.get(), f.get(), n.as_int());
    CHECK(same(apply(BinaryOp::Mul, n, a)));
    CHECK(same(apply(BinaryOp::Mul, a, n)));
  }
}

TEST_CASE("powers of polynomials divisible by x, and of monomials, agree with FLINT", "[algebra][zpoly][modpoly]") {
  Random r;
  ZPoly expected;
  for (int i = 0; i < cas::test::trials(200); i++) {
    ZPoly f = random_zpoly(r.state, i % 2 ? 2 : 6);  // often a constant: then f * x^v is a monomial
    fmpz_poly_shift_left(f.get(), f.get(), static_cast<slong>(n_randint(r.state, 5)));
    const ulong e = n_randint(r.state, 7);
    Value a = Value::zpoly(f);
    INFO("a = " << cas::format(a) << ", e = " << e);
    fmpz_poly_pow(expected.get(), f.get(), e);
    CHECK(cas::equal_values(apply(BinaryOp::Pow, a, Value::integer(static_cast<slong>(e))), Value::zpoly(expected)));

    ModulusPtr m = modulus_for_trial(r.state, i);
    Value p = Value::integer(m->value());
    Value a_mod = cas::reduce_mod(a, p);
    CHECK(cas::equal_values(apply(BinaryOp::Pow, a_mod, Value::integer(static_cast<slong>(e))),
                            cas::reduce_mod(Value::zpoly(expected), p)));
  }
}

// ---- (Z/pZ)[x] ----------------------------------------------------------------------

TEST_CASE("Z/pZ[x] arithmetic agrees with fmpz_mod_poly, for word-size and multi-word moduli", "[algebra][modpoly]") {
  Random r;
  for (int i = 0; i < cas::test::trials(300); i++) {
    ModulusPtr m = modulus_for_trial(r.state, i);
    const fmpz_mod_ctx_struct* ctx = m->ctx();
    RandomModPoly f(r.state, m), g(r.state, m);
    const Value &a = f.value, &b = g.value;
    INFO("p = " << m->to_string() << ", a = " << cas::format(a) << ", b = " << cas::format(b));
    fmpz_mod_poly_t expected, q, rem;
    fmpz_mod_poly_init(expected, ctx);
    fmpz_mod_poly_init(q, ctx);
    fmpz_mod_poly_init(rem, ctx);

    fmpz_mod_poly_add(expected, f.oracle, g.oracle, ctx);
    CHECK(same_coefficients(apply(BinaryOp::Add, a, b), expected, ctx));
    fmpz_mod_poly_sub(expected, f.oracle, g.oracle, ctx);
    CHECK(same_coefficients(apply(BinaryOp::Sub, a, b), expected, ctx));
    fmpz_mod_poly_mul(expected, f.oracle, g.oracle, ctx);
    CHECK(same_coefficients(apply(BinaryOp::Mul, a, b), expected, ctx));
    fmpz_mod_poly_mul(expected, f.oracle, f.oracle, ctx);
    CHECK(same_coefficients(apply(BinaryOp::Mul, a, a), expected, ctx));
    fmpz_mod_poly_neg(expected, f.oracle, ctx);
    CHECK(same_coefficients(cas::negate(a), expected, ctx));
    const ulong e = n_randint(r.state, 8);
    fmpz_mod_poly_pow(expected, f.oracle, e, ctx);
    CHECK(same_coefficients(apply(BinaryOp::Pow, a, Value::integer(static_cast<slong>(e))), expected, ctx));
    CHECK(cas::equal_values(a, b) == fmpz_mod_poly_equal(f.oracle, g.oracle, ctx));

    // Division where the leading coefficient of b is invertible (any p).
    Fmpz lead, gcd;
    if (!g.value.as_modpoly().is_zero()) {
      fmpz_mod_poly_get_coeff_fmpz(lead.get(), g.oracle, fmpz_mod_poly_degree(g.oracle, ctx), ctx);
      fmpz_gcd(gcd.get(), lead.get(), m->value());
    }
    if (!g.value.as_modpoly().is_zero() && fmpz_is_one(gcd.get())) {
      fmpz_mod_poly_divrem(q, rem, f.oracle, g.oracle, ctx);
      CHECK(same_coefficients(apply(BinaryOp::FloorDiv, a, b), q, ctx));
      CHECK(same_coefficients(apply(BinaryOp::Rem, a, b), rem, ctx));
      CHECK(cas::equal_values(apply(BinaryOp::Div, apply(BinaryOp::Mul, a, b), b), a));
    }
    fmpz_mod_poly_clear(expected, ctx);
    fmpz_mod_poly_clear(q, ctx);
    fmpz_mod_poly_clear(rem, ctx);
  }
}

TEST_CASE("Z[x] and integers are promoted into Z/pZ[x]", "[algebra][modpoly]") {
  Random r;
  for (int i = 0; i < cas::test::trials(200); i++) {
    ModulusPtr m = modulus_for_trial(r.state, i);
    Value p = Value::integer(m->value());
    RandomModPoly f(r.state, m);
    Value z = Value::zpoly(random_zpoly(r.state, 20, 300));
    Value z_mod = cas::reduce_mod(z, p);
    Value n = random_int(r.state, 250);
    INFO("p = " << m->to_string() << ", f = " << cas::format(f.value) << ", z = " << cas::format(z));
    REQUIRE(z_mod.is(Kind::ModPoly));
    for (BinaryOp op : {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul}) {
      CHECK(cas::equal_values(apply(op, f.value, z), apply(op, f.value, z_mod)));
      CHECK(cas::equal_values(apply(op, z, f.value), apply(op, z_mod, f.value)));
      CHECK(cas::equal_values(apply(op, n, f.value), apply(op, cas::reduce_mod(n, p), f.value)));
      CHECK(apply(op, z, f.value).is(Kind::ModPoly));
    }
    // x mod p times a Z/pZ scalar is a polynomial mod p.
    Value c = random_mod(r.state, m);
    Value cx = apply(BinaryOp::Mul, c, cas::reduce_mod(Value::zpoly(ZPoly::x()), p));
    CHECK(cas::equal_values(cx, apply(BinaryOp::Mul, Value::zpoly(ZPoly::x()), c)));
    // Equality promotes: z == z mod p.
    CHECK(cas::equal_values(z, z_mod));
    CHECK(cas::equal_values(z_mod, z));
  }
}

// ---- vectors ------------------------------------------------------------------------

TEST_CASE("reduce_mod reduces every entry of a (nested) vector", "[algebra][vector]") {
  Random r;
  Fmpz expected;
  for (int i = 0; i < cas::test::trials(200); i++) {
    ModulusPtr m = modulus_for_trial(r.state, i);
    Value p = Value::integer(m->value());
    std::vector<Value> items, nested;
    const slong length = n_randint(r.state, 10);
    for (slong k = 0; k < length; k++) items.push_back(random_int(r.state, 250));
    nested.push_back(Value::vec(items));
    nested.push_back(Value::vec({}));
    nested.push_back(Value::zpoly(random_zpoly(r.state, 5)));
    Value v = Value::vec(items), reduced = cas::reduce_mod(v, p);
    INFO("p = " << m->to_string() << ", v = " << cas::format(v));
    REQUIRE(reduced.is(Kind::Vec));
    REQUIRE(reduced.as_vec().size() == items.size());
    for (size_t k = 0; k < items.size(); k++) {
      fmpz_mod(expected.get(), items[k].as_int(), m->value());
      CHECK(is_residue(reduced.as_vec()[k], expected.get(), m));
    }
    CHECK(cas::equal_values(reduced, v));  // entrywise promotion
    if (length > 0) CHECK(cas::common_modulus(reduced) == m);

    Value nested_reduced = cas::reduce_mod(Value::vec(nested), p);
    CHECK(cas::equal_values(nested_reduced.as_vec()[0], reduced));
    CHECK(nested_reduced.as_vec()[1].as_vec().empty());
    CHECK(nested_reduced.as_vec()[2].is(Kind::ModPoly));
    // Elementwise operations keep the modulus.
    Value doubled = apply(BinaryOp::Add, reduced, reduced);
    CHECK(cas::equal_values(doubled, apply(BinaryOp::Mul, Value::integer(2), reduced)));
    CHECK(cas::equal_values(apply(BinaryOp::PointMul, reduced, reduced), apply(BinaryOp::PointMul, v, reduced)));
  }
}

TEST_CASE("vector arithmetic checks lengths and kinds", "[algebra][vector]") {
  Value a = Value::vec({Value::integer(1), Value::integer(2)});
  Value b = Value::vec({Value::integer(1)});
  CHECK_THROWS_WITH(apply(BinaryOp::Add, a, b), Catch::Contains("equal length"));
  CHECK_THROWS_WITH(apply(BinaryOp::Mul, a, a), Catch::Contains("use .*"));
  CHECK_THROWS_WITH(apply(BinaryOp::Add, a, Value::integer(1)), Catch::Contains("not defined"));
  CHECK(cas::format(apply(BinaryOp::Mul, Value::integer(3), a)) == "[3, 6]");
  CHECK(cas::format(apply(BinaryOp::Mul, a, Value::integer(3))) == "[3, 6]");
  CHECK(cas::format(apply(BinaryOp::Rem, a, Value::integer(2))) == "[1, 0]");
}

TEST_CASE("require_field names a non-invertible element, and never p itself", "[algebra][mod]") {
  Fmpz fifteen(slong{15});
  CHECK_THROWS_WITH(cas::make_modulus(fifteen.get())->require_field("gcd"),
                    "gcd needs a field, but 15 is not prime (3 mod 15 is not invertible)");
  // (2^61 - 1)^2: the perfect power is found.
  Fmpz square = from_string("5316911983139663487003542222693990401");
  CHECK_THROWS_WITH(cas::make_modulus(square.get())->require_field("factor"),
                    Catch::Contains("(2305843009213693951 mod 5316911983139663487003542222693990401 is not invertible)"));
  // (2^61 - 1)(2^89 - 1): no factor below 2^32, so none is named (and not "N mod N").
  Fmpz semiprime = from_string("1427247692705959880439315947500961989719490561");
  CHECK_THROWS_WITH(cas::make_modulus(semiprime.get())->require_field("roots"),
                    "roots needs a field, but 1427247692705959880439315947500961989719490561 is not prime");
  CHECK_NOTHROW(cas::make_modulus(from_string("170141183460469231731687303715884105727").get())->require_field("gcd"));
}
