#include "algebra/values/arith.hpp"

#include "algebra/poly/division.hpp"
#include "algebra/support/error.hpp"
#include "algebra/values/format.hpp"
#include "algebra/support/guards.hpp"
#include "algebra/values/integer_vectors.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/poly/multiply.hpp"
#include "algebra/support/parallel.hpp"
#include "algebra/values/vector_words.hpp"
#include "algebra/poly/zpoly_cores.hpp"

#include <flint/nmod_vec.h>
#include <flint/ulong_extras.h>

#include <cmath>
#include <optional>

namespace cas {

const char* op_symbol(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Mul: return "*";
    case BinaryOp::Div: return "/";
    case BinaryOp::FloorDiv: return "//";
    case BinaryOp::Rem: return "%";
    case BinaryOp::Pow: return "^";
    case BinaryOp::PointMul: return ".*";
    case BinaryOp::Eq: return "==";
    case BinaryOp::Ne: return "!=";
    case BinaryOp::Lt: return "<";
    case BinaryOp::Le: return "<=";
    case BinaryOp::Gt: return ">";
    case BinaryOp::Ge: return ">=";
  }
  return "?";
}

namespace {

[[noreturn]] void unsupported(BinaryOp op, const Value& a, const Value& b) {
  throw DomainError(std::string("'") + op_symbol(op) + "' is not defined between " + type_description(a) +
                    " and " + type_description(b));
}

bool is_ring(const Value& v) {
  switch (v.kind()) {
    case Kind::Int:
    case Kind::Mod:
    case Kind::ZPoly:
    case Kind::ModPoly: return true;
    default: return false;
  }
}

bool is_poly(const Value& v) { return v.is(Kind::ZPoly) || v.is(Kind::ModPoly); }

// The modulus both operands live over (null for Z and Z[x]); mixing two is an error.
ModulusPtr joint_modulus(const Value& a, const Value& b) {
  ModulusPtr ma = a.modulus(), mb = b.modulus();
  if (ma && mb && !same_modulus(ma, mb))
    throw DomainError("cannot mix Z/" + ma->to_string() + "Z and Z/" + mb->to_string() + "Z (" + describe(a) +
                      " and " + describe(b) + ")");
  return ma ? ma : mb;
}

void require_nonzero_divisor(const fmpz* b) {
  if (fmpz_is_zero(b)) throw DomainError("division by zero");
}

// ---- Z ----------------------------------------------------------------

Value int_binary(BinaryOp op, const fmpz* a, const fmpz* b) {
  Value r = Value::integer(slong{0});
  fmpz* z = r.int_mut();
  switch (op) {
    case BinaryOp::Add: fmpz_add(z, a, b); return r;
    case BinaryOp::Sub: fmpz_sub(z, a, b); return r;
    case BinaryOp::Mul:
    case BinaryOp::PointMul: multiply(z, a, b); return r;
    case BinaryOp::Div:
      require_nonzero_divisor(b);
      if (!fmpz_divisible(a, b))
        throw DomainError(fmpz_to_string(a) + " is not divisible by " + fmpz_to_string(b) +
                          " (use // for the floor quotient, or divide mod p: 1/3 mod 7 is 5 mod 7)");
      fmpz_divexact(z, a, b);
      return r;
    case BinaryOp::FloorDiv: require_nonzero_divisor(b); fmpz_fdiv_q(z, a, b); return r;
    case BinaryOp::Rem: require_nonzero_divisor(b); fmpz_fdiv_r(z, a, b); return r;
    case BinaryOp::Lt: return Value::boolean(fmpz_cmp(a, b) < 0);
    case BinaryOp::Le: return Value::boolean(fmpz_cmp(a, b) <= 0);
    case BinaryOp::Gt: return Value::boolean(fmpz_cmp(a, b) > 0);
    case BinaryOp::Ge: return Value::boolean(fmpz_cmp(a, b) >= 0);
    default: break;
  }
  throw DomainError(std::string("'") + op_symbol(op) + "' is not defined between integers");
}

// ---- Z/pZ -------------------------------------------------------------

void residue_of(fmpz_t out, const Value& v, const Modulus& m) {
  if (v.is(Kind::Mod))
    fmpz_set(out, v.as_int());
  else
    fmpz_mod(out, v.as_int(), m.value());
}

[[noreturn]] void not_invertible(const fmpz* r, const Modulus& m) {
  throw DomainError(fmpz_to_string(r) + " mod " + m.to_string() + " is not invertible");
}

void invert_residue(fmpz_t out, const fmpz* r, const Modulus& m) {
  if (fmpz_is_zero(r) || !fmpz_invmod(out, r, m.value())) not_invertible(r, m);
}

Value mod_binary(BinaryOp op, const Value& a, const Value& b, const ModulusPtr& m) {
  Fmpz x, y;
  residue_of(x.get(), a, *m);
  residue_of(y.get(), b, *m);
  Fmpz z;
  if (m->word_size()) {
    const nmod_t& n = m->nmod();
    ulong u = fmpz_get_ui(x.get()), v = fmpz_get_ui(y.get());
    switch (op) {
      case BinaryOp::Add: fmpz_set_ui(z.get(), nmod_add(u, v, n)); return Value::mod(z.get(), m);
      case BinaryOp::Sub: fmpz_set_ui(z.get(), nmod_sub(u, v, n)); return Value::mod(z.get(), m);
      case BinaryOp::Mul:
      case BinaryOp::PointMul: fmpz_set_ui(z.get(), nmod_mul(u, v, n)); return Value::mod(z.get(), m);
      default: break;
    }
  }
  switch (op) {
    case BinaryOp::Add: fmpz_mod_add(z.get(), x.get(), y.get(), m->ctx()); break;
    case BinaryOp::Sub: fmpz_mod_sub(z.get(), x.get(), y.get(), m->ctx()); break;
    case BinaryOp::Mul:
    case BinaryOp::PointMul: fmpz_mod_mul(z.get(), x.get(), y.get(), m->ctx()); break;
    case BinaryOp::Div:
      invert_residue(z.get(), y.get(), *m);
      fmpz_mod_mul(z.get(), x.get(), z.get(), m->ctx());
      break;
    default:
      throw DomainError(std::string("'") + op_symbol(op) + "' is not defined in Z/" + m->to_string() +
                        "Z (lift the values to integers first)");
  }
  return Value::mod(z.get(), m);
}

// ---- Z[x] -------------------------------------------------------------

Value zpoly_binary(BinaryOp op, const ZPoly& a, const ZPoly& b) {
  ZPoly r;
  switch (op) {
    case BinaryOp::Add: r = add_on_cores(a, b); break;
    case BinaryOp::Sub: r = sub_on_cores(a, b); break;
    case BinaryOp::Mul:
    case BinaryOp::PointMul: r = multiply(a, b); break;
    case BinaryOp::Div: {
      if (b.is_zero()) throw DomainError("division by the zero polynomial");
      std::optional<ZPoly> q = zpoly_exact_quotient(a, b);
      if (!q) throw DomainError("the division is not exact in Z[x] (use // and % for quotient and remainder)");
      r = std::move(*q);
      break;
    }
    case BinaryOp::FloorDiv:
    case BinaryOp::Rem:
      if (b.is_zero()) throw DomainError("division by the zero polynomial");
      r = op == BinaryOp::FloorDiv ? zpoly_quotient(a, b) : zpoly_remainder(a, b);
      break;
    default: throw DomainError(std::string("'") + op_symbol(op) + "' is not defined between polynomials");
  }
  return Value::zpoly(std::move(r));
}

// ---- (Z/pZ)[x] --------------------------------------------------------

Value modpoly_binary(BinaryOp op, const ModPoly& a, const ModPoly& b) {
  switch (op) {
    case BinaryOp::Add: return Value::modpoly(add(a, b));
    case BinaryOp::Sub: return Value::modpoly(sub(a, b));
    case BinaryOp::Mul:
    case BinaryOp::PointMul: return Value::modpoly(multiply(a, b, ResultPlace::KeptOnGpu));
    case BinaryOp::Div:
      if (b.length() == 1) {
        Fmpz c, inv;
        b.coeff(c.get(), 0);
        invert_residue(inv.get(), c.get(), *b.modulus());
        return Value::modpoly(scalar_mul(a, inv.get()));
      }
      return Value::modpoly(exact_div(a, b));
    case BinaryOp::FloorDiv: return Value::modpoly(quotient(a, b));
    case BinaryOp::Rem: return Value::modpoly(remainder(a, b));
    default: throw DomainError(std::string("'") + op_symbol(op) + "' is not defined between polynomials");
  }
}

// ---- powers -----------------------------------------------------------

Value int_power(const fmpz* a, const Value& e) {
  if (fmpz_is_zero(a) || fmpz_is_pm1(a)) {
    if (fmpz_is_zero(a) && fmpz_sgn(e.as_int()) < 0) throw DomainError("division by zero (0 to a negative power)");
    if (fmpz_is_zero(a)) return Value::integer(fmpz_is_zero(e.as_int()) ? 1 : 0);
    if (fmpz_is_one(a) || fmpz_is_even(e.as_int())) return Value::integer(1);
    return Value::integer(-1);
  }
  if (fmpz_sgn(e.as_int()) < 0)
    throw DomainError("an integer to a negative power is not an integer (use mod p for inverses)");
  ulong n = to_exponent(e, "the exponent");
  guard_allocation(static_cast<double>(fmpz_bits(a)) * static_cast<double>(n) / 8, "this power");
  Fmpz r;
  fmpz_pow_ui(r.get(), a, n);
  return Value::integer(std::move(r));
}

Value mod_power(const Value& a, const Value& e) {
  const ModulusPtr m = a.modulus();
  Fmpz base(a.as_int()), exponent(e.as_int());
  if (fmpz_sgn(exponent.get()) < 0) {
    invert_residue(base.get(), a.as_int(), *m);
    fmpz_neg(exponent.get(), exponent.get());
  }
  Fmpz r;
  fmpz_powm(r.get(), base.get(), exponent.get(), m->value());
  return Value::mod(r.get(), m);
}

// log2 of the 1-norm sum |a_i|. Every coefficient of a^n is at most ||a||_1^n
// in absolute value, so it needs at most n * log2 ||a||_1 bits: none beyond the
// word for x^k, n for (x + 1)^n.
double log2_one_norm(const ZPoly& p) {
  Fmpz norm, magnitude;
  for (slong i = 0; i < p.length(); i++) {
    fmpz_abs(magnitude.get(), p.coeff(i));
    fmpz_add(norm.get(), norm.get(), magnitude.get());
  }
  return fmpz_is_zero(norm.get()) ? 0.0 : fmpz_dlog(norm.get()) / std::log(2.0);
}

// FLINT raises a + b*x through all the binomial coefficients C(n, k), even
// when a = 0, so x^(10^6) would take gigabytes. The factor x^v of a is
// raised apart: a^n = (a / x^v)^n * x^(v*n), and a monomial costs one power.
ZPoly power_apart_from_x(const ZPoly& a, ulong n) {
  slong v = 0;
  while (v < a.length() && fmpz_is_zero(a.coeff(v))) v++;
  if (v == 0 || a.is_zero()) return power(a, n);
  ZPoly rest, result;
  fmpz_poly_shift_right(rest.get(), a.get(), v);
  if (rest.length() == 1) {
    Fmpz c;
    fmpz_pow_ui(c.get(), rest.coeff(0), n);
    fmpz_poly_set_fmpz(result.get(), c.get());
  } else {
    result = power(rest, n);
  }
  fmpz_poly_shift_left(result.get(), result.get(), v * static_cast<slong>(n));  // fits: the guard bounded deg(a)*n
  return result;
}

Value zpoly_power(const ZPoly& a, const Value& e) {
  if (fmpz_sgn(e.as_int()) < 0) throw DomainError("a polynomial to a negative power is not a polynomial");
  ulong n = to_exponent(e, "the exponent");
  double length = static_cast<double>(std::max<slong>(a.degree(), 0)) * static_cast<double>(n) + 1;
  double coefficient_bytes = 8 + log2_one_norm(a) * static_cast<double>(n) / 8;  // an fmpz: a word, then limbs
  guard_allocation(length * coefficient_bytes, "this power");
  return Value::zpoly(power_apart_from_x(a, n));
}

Value modpoly_power(const ModPoly& a, const Value& e) {
  if (fmpz_sgn(e.as_int()) < 0) throw DomainError("a polynomial to a negative power is not a polynomial");
  ulong n = to_exponent(e, "the exponent");
  double length = static_cast<double>(std::max<slong>(a.degree(), 0)) * static_cast<double>(n) + 1;
  double bytes = length * (static_cast<double>(fmpz_bits(a.modulus()->value())) / 8 + 8);
  guard_allocation(bytes, "this power");
  Fmpz c;  // a monomial c*x^k: FLINT's powering takes the binomial route there too
  if (is_monomial(a, c) && a.degree() > 0) {
    ModPoly result(a.modulus());
    fmpz_powm_ui(c.get(), c.get(), n, a.modulus()->value());
    result.set_coeff(a.degree() * static_cast<slong>(n), c.get());
    return Value::modpoly(std::move(result));
  }
  return Value::modpoly(power(a, n, ResultPlace::KeptOnGpu));
}

Value power_of(const Value& a, const Value& e) {
  if (!e.is(Kind::Int)) throw DomainError("the exponent must be an integer, not " + type_description(e));
  switch (a.kind()) {
    case Kind::Int: return int_power(a.as_int(), e);
    case Kind::Mod: return mod_power(a, e);
    case Kind::ZPoly: return zpoly_power(a.as_zpoly(), e);
    case Kind::ModPoly: return modpoly_power(a.as_modpoly(), e);
    default: throw DomainError("'^' is not defined for " + type_description(a));
  }
}

// ---- reals (for timings) ----

// A real is a double, so arithmetic that leaves its range is an error, not inf or nan (neither of
// which reads back). Comparisons still order an integer beyond the range correctly.
double to_double(const Value& v) { return v.is(Kind::Real) ? v.as_real() : fmpz_get_d(v.as_int()); }

double finite_real(double r, BinaryOp op, double divisor) {
  if (std::isfinite(r)) return r;
  if (op == BinaryOp::Div && divisor == 0) throw DomainError("division by zero");
  throw DomainError(std::string("the result of '") + op_symbol(op) +
                    "' is too large for a real (a double, at most about 1.8e308); integers have any size");
}

Value real_binary(BinaryOp op, const Value& a, const Value& b) {
  if ((!a.is(Kind::Real) && !a.is(Kind::Int)) || (!b.is(Kind::Real) && !b.is(Kind::Int))) unsupported(op, a, b);
  const double x = to_double(a), y = to_double(b);
  switch (op) {
    case BinaryOp::Add: return Value::real(finite_real(x + y, op, y));
    case BinaryOp::Sub: return Value::real(finite_real(x - y, op, y));
    case BinaryOp::Mul:
    case BinaryOp::PointMul: return Value::real(finite_real(x * y, op, y));
    case BinaryOp::Div: return Value::real(finite_real(x / y, op, y));
    case BinaryOp::Lt: return Value::boolean(x < y);
    case BinaryOp::Le: return Value::boolean(x <= y);
    case BinaryOp::Gt: return Value::boolean(x > y);
    case BinaryOp::Ge: return Value::boolean(x >= y);
    default: unsupported(op, a, b);
  }
}

// ---- vectors ----------------------------------------------------------

// Vectors over one word-size Z/pZ computed as words (vector_words.hpp): + - .* of two, a product
// by (or a quotient by an invertible) integer or element of that Z/pZ, and negation (in
// negate()), and the result is packed: making 2^22 entries as Values for `fft(a) .* fft(b)` costs
// 0.6-0.8 s on a 16-core host, against 2.2-3.6 ms for the words (docs/measurements.md, "Vectors
// over Z/pZ as words against entries held as Values"). Operands held as Values are converted
// first when all their entries lie in one such Z/pZ.

// Ranges of fewer words than this are not worth a thread: an nmod operation takes a nanosecond or two.
constexpr size_t word_grain = size_t{1} << 16;

// The packed vector over the Z/pZ of m of n words that fill(out, begin, end) writes, range by
// range on the machine's cores (which also fault the fresh pages in side by side).
template <class Fill>
Value words_by_ranges(const ModulusPtr& m, size_t n, Fill&& fill) {
  Words out(n);
  parallel_ranges(n, word_grain, [&](size_t begin, size_t end) { fill(out.data(), begin, end); });
  return Value::residue_words(m, std::move(out));
}

// The residue mod m of a scalar that multiplies a vector over Z/mZ entrywise; false for any
// other operand, which the general route handles (or rejects) entry by entry.
bool scalar_residue(const Value& s, const Modulus& m, ulong& residue) {
  if (s.is(Kind::Int)) {
    residue = fmpz_fdiv_ui(s.as_int(), m.word());
    return true;
  }
  if (s.is(Kind::Mod) && same_modulus(s.modulus_raw(), &m)) {
    residue = fmpz_get_ui(s.as_int());
    return true;
  }
  return false;
}

Value entrywise_words(BinaryOp op, const VectorWords& x, const VectorWords& y) {
  const nmod_t mod = x.modulus->nmod();
  const ulong *a = x.words().data(), *b = y.words().data();
  return words_by_ranges(x.modulus, x.size(), [&](ulong* out, size_t begin, size_t end) {
    const slong n = static_cast<slong>(end - begin);
    if (op == BinaryOp::Add) _nmod_vec_add(out + begin, a + begin, b + begin, n, mod);
    else if (op == BinaryOp::Sub) _nmod_vec_sub(out + begin, a + begin, b + begin, n, mod);
    else for (size_t i = begin; i < end; i++) out[i] = nmod_mul(a[i], b[i], mod);
  });
}

Value scaled_words(const VectorWords& x, ulong c) {
  const nmod_t mod = x.modulus->nmod();
  const ulong* a = x.words().data();
  return words_by_ranges(x.modulus, x.size(), [&](ulong* out, size_t begin, size_t end) {
    _nmod_vec_scalar_mul_nmod(out + begin, a + begin, static_cast<slong>(end - begin), c, mod);
  });
}

Value negated_words(const VectorWords& x) {
  const nmod_t mod = x.modulus->nmod();
  const ulong* a = x.words().data();
  return words_by_ranges(x.modulus, x.size(), [&](ulong* out, size_t begin, size_t end) {
    _nmod_vec_neg(out + begin, a + begin, static_cast<slong>(end - begin), mod);
  });
}

// The result when the operands allow the words; nullopt otherwise (mixed moduli, unequal
// lengths and non-invertible divisors included, so that their errors read as for any vector).
std::optional<Value> words_binary(BinaryOp op, const Value& a, const Value& b) {
  const bool va = a.is(Kind::Vec), vb = b.is(Kind::Vec);
  if (va && vb) {
    const bool entrywise = op == BinaryOp::Add || op == BinaryOp::Sub || op == BinaryOp::PointMul;
    if (!entrywise || a.vec_size() != b.vec_size()) return std::nullopt;
    if (std::optional<std::pair<VectorWords, VectorWords>> words = vector_words_pair(a, b))
      return entrywise_words(op, words->first, words->second);
    return std::nullopt;
  }
  const Value& scalar = va ? b : a;
  const bool divides = op == BinaryOp::Div && va;  // v / s; s / v is not defined
  if ((op != BinaryOp::Mul && op != BinaryOp::PointMul && !divides) || !(scalar.is(Kind::Int) || scalar.is(Kind::Mod)))
    return std::nullopt;
  std::optional<VectorWords> x = vector_words(va ? a : b);
  ulong c;
  if (!x || !scalar_residue(scalar, *x->modulus, c)) return std::nullopt;
  // A divisor that is not invertible (0 included) is left to the general route and its message.
  if (divides && n_gcdinv(&c, c, x->modulus->word()) != 1) return std::nullopt;
  return scaled_words(*x, c);
}

// Whether c divides every entry of x (integers), checked on the cores.
bool all_divisible(const std::vector<Value>& x, const fmpz* c) {
  return all_on_cores(x.size(), integer_grain, [&](size_t i) { return fmpz_divisible(x[i].as_int(), c); });
}

// Long vectors of integers: + - .* of two, products by an integer and divisions by one (// % /),
// entry by entry on the cores (integer_vectors.hpp): on one thread a + b of 2^20 integers of 64
// bits takes 62 ms, PARI/GP 24 ms (docs/measurements.md, "Integers on the cores: vectors of
// integers and Z[x] polynomials"). Shorter vectors, and any other entry, take the general route.
std::optional<Value> integers_binary(BinaryOp op, const Value& a, const Value& b) {
  const bool va = a.is(Kind::Vec), vb = b.is(Kind::Vec);
  const size_t n = va ? a.vec_size() : b.vec_size();
  if (n < integers_on_cores_from) return std::nullopt;
  if (va && vb) {
    if ((op != BinaryOp::Add && op != BinaryOp::Sub && op != BinaryOp::PointMul) || b.vec_size() != n ||
        !holds_integers(a) || !holds_integers(b))
      return std::nullopt;
    const std::vector<Value>&x = a.as_vec(), &y = b.as_vec();
    return integer_vector_from(n, [&x, &y, op](fmpz* out, size_t i) {
      if (op == BinaryOp::Add) fmpz_add(out, x[i].as_int(), y[i].as_int());
      else if (op == BinaryOp::Sub) fmpz_sub(out, x[i].as_int(), y[i].as_int());
      else fmpz_mul(out, x[i].as_int(), y[i].as_int());
    });
  }
  const Value& scalar = va ? b : a;
  if (!scalar.is(Kind::Int) || !holds_integers(va ? a : b)) return std::nullopt;
  const std::vector<Value>& x = (va ? a : b).as_vec();
  const fmpz* c = scalar.as_int();
  if (op == BinaryOp::Mul || op == BinaryOp::PointMul)
    return integer_vector_from(n, [&x, c](fmpz* out, size_t i) { fmpz_mul(out, x[i].as_int(), c); });
  // v // c, v % c, v / c; a zero divisor, or an entry c does not divide, is left to the general
  // route and its message.
  const bool divides = op == BinaryOp::Div || op == BinaryOp::FloorDiv || op == BinaryOp::Rem;
  if (!va || !divides || fmpz_is_zero(c) || (op == BinaryOp::Div && !all_divisible(x, c))) return std::nullopt;
  return integer_vector_from(n, [&x, c, op](fmpz* out, size_t i) {
    if (op == BinaryOp::FloorDiv) fmpz_fdiv_q(out, x[i].as_int(), c);
    else if (op == BinaryOp::Rem) fmpz_fdiv_r(out, x[i].as_int(), c);
    else fmpz_divexact(out, x[i].as_int(), c);
  });
}

Value vector_binary(BinaryOp op, const Value& a, const Value& b) {
  if (std::optional<Value> words = words_binary(op, a, b)) return std::move(*words);
  if (std::optional<Value> integers = integers_binary(op, a, b)) return std::move(*integers);
  const bool va = a.is(Kind::Vec), vb = b.is(Kind::Vec);
  std::vector<Value> out;
  if (va && vb) {
    if (op != BinaryOp::Add && op != BinaryOp::Sub && op != BinaryOp::PointMul) {
      if (op == BinaryOp::Mul)
        throw DomainError("'*' between two vectors is not defined: use .* for the pointwise product");
      unsupported(op, a, b);
    }
    const auto &x = a.as_vec(), &y = b.as_vec();
    if (x.size() != y.size())
      throw DomainError(std::string("'") + op_symbol(op) + "' needs vectors of equal length, not " +
                        std::to_string(x.size()) + " and " + std::to_string(y.size()));
    out.reserve(x.size());
    BinaryOp elementwise = op == BinaryOp::PointMul ? BinaryOp::Mul : op;
    for (size_t i = 0; i < x.size(); i++) out.push_back(apply(elementwise, x[i], y[i]));
    return Value::vec(std::move(out));
  }
  // A vector and a scalar: scalar * v, v * scalar, v / scalar, v // s, v % s.
  const bool scalar_left = vb;
  const Value& vec = scalar_left ? b : a;
  const Value& scalar = scalar_left ? a : b;
  bool allowed = op == BinaryOp::Mul || op == BinaryOp::PointMul ||
                 (!scalar_left && (op == BinaryOp::Div || op == BinaryOp::FloorDiv || op == BinaryOp::Rem));
  if (!allowed || scalar.is(Kind::Str) || scalar.is(Kind::Bool) || scalar.is_none()) unsupported(op, a, b);
  out.reserve(vec.as_vec().size());
  for (const Value& e : vec.as_vec()) out.push_back(scalar_left ? apply(op, scalar, e) : apply(op, e, scalar));
  return Value::vec(std::move(out));
}

const ModPoly& modpoly_view(const Value& v, const ModulusPtr& m, std::optional<ModPoly>& storage) {
  if (v.is(Kind::ModPoly)) return v.as_modpoly();
  return storage.emplace(to_modpoly(v, m));
}

const ZPoly& zpoly_view(const Value& v, std::optional<ZPoly>& storage) {
  if (v.is(Kind::ZPoly)) return v.as_zpoly();
  return storage.emplace(to_zpoly(v));
}

bool ring_equal(const Value& a, const Value& b) {
  if (a.is(Kind::Int) && b.is(Kind::Int)) return fmpz_equal(a.as_int(), b.as_int());
  ModulusPtr ma = a.modulus(), mb = b.modulus();
  if (ma && mb && !same_modulus(ma, mb)) return false;
  ModulusPtr m = ma ? ma : mb;
  if (!is_poly(a) && !is_poly(b)) {
    Fmpz x, y;
    residue_of(x.get(), a, *m);
    residue_of(y.get(), b, *m);
    return fmpz_equal(x.get(), y.get());
  }
  // Views, not copies: copying both sides of f == f takes 55 ms for 2^20 coefficients of 64 bits.
  if (m) {
    std::optional<ModPoly> sa, sb;
    return equal(modpoly_view(a, m, sa), modpoly_view(b, m, sb));
  }
  std::optional<ZPoly> sa, sb;
  return fmpz_poly_equal(zpoly_view(a, sa).get(), zpoly_view(b, sb).get());
}

// The scalar loop's case: + - * on word-size Z/pZ (with an integer or an
// element of the same interned modulus), without touching reference counts.
bool word_mod_fast_path(BinaryOp op, const Value& a, const Value& b, Value& out) {
  if (op != BinaryOp::Add && op != BinaryOp::Sub && op != BinaryOp::Mul) return false;
  const Value& mod_value = a.is(Kind::Mod) ? a : b;
  const Value& other = a.is(Kind::Mod) ? b : a;
  if (!mod_value.is(Kind::Mod)) return false;
  const Modulus& m = mod_value.mod_context();
  if (!m.word_size()) return false;
  if (!(other.is(Kind::Int) || (other.is(Kind::Mod) && other.modulus_raw() == &m))) return false;
  auto residue = [&](const Value& v) {
    return v.is(Kind::Mod) ? fmpz_get_ui(v.as_int()) : fmpz_fdiv_ui(v.as_int(), m.word());
  };
  const ulong x = residue(a), y = residue(b);
  const nmod_t& n = m.nmod();
  ulong r = op == BinaryOp::Add ? nmod_add(x, y, n) : op == BinaryOp::Sub ? nmod_sub(x, y, n) : nmod_mul(x, y, n);
  out = Value::mod_word(r, mod_value);
  return true;
}

}  // namespace

Value apply(BinaryOp op, const Value& a, const Value& b) {
  if (a.is(Kind::Int) && b.is(Kind::Int) && op != BinaryOp::Pow && op != BinaryOp::Eq && op != BinaryOp::Ne)
    return int_binary(op, a.as_int(), b.as_int());
  if (Value fast; word_mod_fast_path(op, a, b, fast)) return fast;
  if ((a.is(Kind::Real) || b.is(Kind::Real)) && op != BinaryOp::Eq && op != BinaryOp::Ne && !a.is(Kind::Vec) &&
      !b.is(Kind::Vec))
    return real_binary(op, a, b);
  switch (op) {
    case BinaryOp::Eq: return Value::boolean(equal_values(a, b));
    case BinaryOp::Ne: return Value::boolean(!equal_values(a, b));
    case BinaryOp::Lt:
    case BinaryOp::Le:
    case BinaryOp::Gt:
    case BinaryOp::Ge:
      throw DomainError(std::string("'") + op_symbol(op) + "' compares integers only, not " +
                        type_description(a) + " and " + type_description(b));
    case BinaryOp::Pow: return power_of(a, b);
    default: break;
  }
  if (op == BinaryOp::Add && (a.is(Kind::Str) || b.is(Kind::Str)))
    return Value::str((a.is(Kind::Str) ? a.as_str() : format(a)) + (b.is(Kind::Str) ? b.as_str() : format(b)));
  if (a.is(Kind::Vec) || b.is(Kind::Vec)) return vector_binary(op, a, b);
  if (!is_ring(a) || !is_ring(b)) unsupported(op, a, b);
  ModulusPtr m = joint_modulus(a, b);
  const bool poly = is_poly(a) || is_poly(b);
  if (m && !poly) return mod_binary(op, a, b, m);
  // Polynomial operands are used in place; only a scalar side is converted.
  if (m) {
    std::optional<ModPoly> converted_a, converted_b;
    return modpoly_binary(op, modpoly_view(a, m, converted_a), modpoly_view(b, m, converted_b));
  }
  std::optional<ZPoly> converted_a, converted_b;
  return zpoly_binary(op, zpoly_view(a, converted_a), zpoly_view(b, converted_b));
}

Value negate(const Value& a) {
  switch (a.kind()) {
    case Kind::Int: {
      Fmpz r;
      fmpz_neg(r.get(), a.as_int());
      return Value::integer(std::move(r));
    }
    case Kind::Mod: {
      Fmpz r;
      fmpz_mod_neg(r.get(), a.as_int(), a.modulus()->ctx());
      return Value::mod(r.get(), a.modulus());
    }
    case Kind::ZPoly: return Value::zpoly(neg_on_cores(a.as_zpoly()));
    case Kind::ModPoly: return Value::modpoly(neg(a.as_modpoly()));
    case Kind::Real: return Value::real(-a.as_real());
    case Kind::Vec: {
      if (std::optional<VectorWords> words = vector_words(a)) return negated_words(*words);
      if (a.vec_size() >= integers_on_cores_from && holds_integers(a)) {
        const std::vector<Value>& x = a.as_vec();
        return integer_vector_from(x.size(), [&x](fmpz* out, size_t i) { fmpz_neg(out, x[i].as_int()); });
      }
      std::vector<Value> out;
      out.reserve(a.as_vec().size());
      for (const Value& e : a.as_vec()) out.push_back(negate(e));
      return Value::vec(std::move(out));
    }
    default: throw DomainError("unary '-' is not defined for " + type_description(a));
  }
}

namespace {

// a mod the modulus of m, entries of vectors included.
Value reduce_into(const Value& a, const ModulusPtr& m) {
  switch (a.kind()) {
    case Kind::Int: return Value::mod_reduce(a.as_int(), m);
    case Kind::Mod:
    case Kind::ModPoly:
      if (same_modulus(a.modulus(), m)) return a;
      throw DomainError(describe(a) + " is already reduced mod " + a.modulus()->to_string() +
                        "; lift it first to reduce mod " + m->to_string());
    case Kind::ZPoly: return Value::modpoly(modpoly_from_fmpz_poly(a.as_zpoly().get(), m));
    case Kind::Vec: {
      if (const PackedResidues* packed = a.packed_residues()) {
        if (!same_modulus(packed->modulus, m)) reduce_into(a.vec_entry(0), m);  // throws the entries' message
        return a;
      }
      // Integers mod a word-size p: the words on all cores, and a packed vector (2^20 of them as
      // Values, looking the modulus up per entry, take 72-86 ms on two cores, the words 7-10 ms:
      // docs/measurements.md, "Vectors over Z/pZ as words against entries held as Values").
      if (std::optional<Words> words = integer_residue_words(a.as_vec(), *m))
        return Value::residue_words(m, std::move(*words));
      std::vector<Value> out;
      out.reserve(a.as_vec().size());
      for (const Value& e : a.as_vec()) out.push_back(reduce_into(e, m));
      return Value::vec(std::move(out));
    }
    default: throw DomainError("'mod' is not defined for " + type_description(a));
  }
}

}  // namespace

Value reduce_mod(const Value& a, const Value& p) {
  if (!p.is(Kind::Int))
    throw DomainError("the modulus after 'mod' must be an integer, not " + type_description(p));
  return reduce_into(a, make_modulus(p.as_int()));
}

namespace {

// Two packed vectors over one Z/pZ compare as words, without making their Values.
bool equal_vectors(const Value& a, const Value& b) {
  const PackedResidues *packed_a = a.packed_residues(), *packed_b = b.packed_residues();
  if (packed_a && packed_b && same_modulus(packed_a->modulus, packed_b->modulus))
    return packed_a->words == packed_b->words;
  const PackedLimbs *limbs_a = a.packed_limbs(), *limbs_b = b.packed_limbs();
  if (limbs_a && limbs_b && same_modulus(limbs_a->modulus, limbs_b->modulus) && limbs_a->limbs == limbs_b->limbs)
    return limbs_a->words == limbs_b->words;
  const auto &x = a.as_vec(), &y = b.as_vec();
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); i++)
    if (!equal_values(x[i], y[i])) return false;
  return true;
}

}  // namespace

bool equal_values(const Value& a, const Value& b) {
  if (is_ring(a) && is_ring(b)) return ring_equal(a, b);
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Kind::None: return true;
    case Kind::Bool: return a.as_bool() == b.as_bool();
    case Kind::Real: return a.as_real() == b.as_real();
    case Kind::Str: return a.as_str() == b.as_str();
    case Kind::Vec: return equal_vectors(a, b);
    default: return false;
  }
}

ZPoly to_zpoly(const Value& v) {
  if (v.is(Kind::ZPoly)) return v.as_zpoly();
  if (v.is(Kind::Int)) {
    ZPoly r;
    fmpz_poly_set_fmpz(r.get(), v.as_int());
    return r;
  }
  throw DomainError("expected a polynomial in Z[x], not " + type_description(v));
}

ModPoly to_modpoly(const Value& v, const ModulusPtr& m) {
  switch (v.kind()) {
    case Kind::ModPoly:
      if (!same_modulus(v.modulus(), m))
        throw DomainError("cannot mix Z/" + v.modulus()->to_string() + "Z and Z/" + m->to_string() + "Z");
      return v.as_modpoly();
    case Kind::ZPoly: return modpoly_from_fmpz_poly(v.as_zpoly().get(), m);
    case Kind::Int: return modpoly_constant(v.as_int(), m);
    case Kind::Mod:
      if (!same_modulus(v.modulus(), m))
        throw DomainError("cannot mix Z/" + v.modulus()->to_string() + "Z and Z/" + m->to_string() + "Z");
      return modpoly_constant(v.as_int(), m);
    default: throw DomainError("expected a polynomial mod " + m->to_string() + ", not " + type_description(v));
  }
}

Value to_mod(const Value& v, const ModulusPtr& m) {
  if (v.is(Kind::Int)) return Value::mod_reduce(v.as_int(), m);
  if (v.is(Kind::Mod)) {
    if (!same_modulus(v.modulus(), m))
      throw DomainError("cannot mix Z/" + v.modulus()->to_string() + "Z and Z/" + m->to_string() + "Z");
    return v;
  }
  throw DomainError("expected an element of Z/" + m->to_string() + "Z, not " + type_description(v));
}

ulong to_exponent(const Value& e, const char* what) {
  if (!e.is(Kind::Int)) throw DomainError(std::string(what) + " must be an integer, not " + type_description(e));
  if (fmpz_sgn(e.as_int()) < 0) throw DomainError(std::string(what) + " must be non-negative");
  if (!fmpz_abs_fits_ui(e.as_int()))
    throw DomainError(std::string(what) + " " + fmpz_to_string(e.as_int()) + " is too large");
  return fmpz_get_ui(e.as_int());
}

}  // namespace cas
