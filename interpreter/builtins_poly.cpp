// Polynomials in Z[x] and (Z/pZ)[x]: deg, coeff, coeffs, poly, lc, eval,
// deriv, divrem, resultant, roots, isirreducible, interpolate, compose, and
// random polynomials (randpoly, randzpoly, seed). gcd, lcm, xgcd, factor,
// powmod and crt serve integers and polynomials: builtins_integer.cpp.
#include "algebra/multimodular/zresultant.hpp"
#include "algebra/poly/division.hpp"
#include "algebra/poly/euclid.hpp"
#include "algebra/support/guards.hpp"
#include "algebra/values/integer_vectors.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/poly/multipoint.hpp"
#include "algebra/poly/roots.hpp"
#include "algebra/support/parallel.hpp"
#include "algebra/values/vector_words.hpp"
#include "algebra/poly/zpoly_cores.hpp"
#include "algebra/poly/zpoly_ops.hpp"
#include "poly_args.hpp"

#include <flint/flint.h>

#include <algorithm>
#include <cmath>

namespace cas {

namespace {

Value mod_value(const fmpz_t residue, const ModulusPtr& m) { return Value::mod(residue, m); }

// The length and coefficients of a polynomial argument, read in place (no copy:
// coeff(f, k) in a loop stays linear); Int and Mod are constant polynomials.
slong poly_length(const Value& f) {
  switch (f.kind()) {
    case Kind::ZPoly: return f.as_zpoly().length();
    case Kind::ModPoly: return f.as_modpoly().length();
    default: return fmpz_is_zero(f.as_int()) ? 0 : 1;
  }
}

Value coefficient_value(const Value& f, slong i, const ModulusPtr& m) {
  Fmpz c;
  if (i < poly_length(f)) {
    switch (f.kind()) {
      case Kind::ZPoly: fmpz_set(c.get(), f.as_zpoly().coeff(i)); break;
      case Kind::ModPoly: f.as_modpoly().coeff(c.get(), i); break;
      default: fmpz_set(c.get(), f.as_int()); break;
    }
  }
  return m ? mod_value(c.get(), m) : Value::integer(std::move(c));
}

// ---- shape: deg, coeff, coeffs, poly, lc ------------------------------------

Value builtin_deg(CallContext& c) {
  poly_ring(c, {0}, "deg");
  return Value::integer(poly_length(c.args[0]) - 1);
}

Value builtin_coeff(CallContext& c) {
  ModulusPtr m = poly_ring(c, {0}, "coeff");
  const fmpz* i = int_arg(c, 1, "coeff");
  if (fmpz_sgn(i) < 0) throw DomainError("coeff: argument 2 must be a non-negative index, not " + fmpz_to_string(i));
  // Beyond the degree every coefficient is 0 (also for indices too large to store).
  slong index = fmpz_fits_si(i) ? fmpz_get_si(i) : WORD_MAX;
  return coefficient_value(c.args[0], index, m);
}

// The coefficients over a word-size Z/pZ: FLINT's coefficient array, copied on several threads
// into a packed vector.
Value coefficient_words(const ModPoly& f, const ModulusPtr& m) {
  const nmod_poly_struct* g = f.nmod();
  Words words(static_cast<size_t>(g->length));
  copy_words(words.data(), g->coeffs, words.size());
  return Value::residue_words(m, std::move(words));
}

Value builtin_coeffs(CallContext& c) {
  ModulusPtr m = poly_ring(c, {0}, "coeffs");
  if (m && m->word_size())  // a polynomial argument is read in place, a constant made one
    return c.args[0].is(Kind::ModPoly) ? coefficient_words(c.args[0].as_modpoly(), m)
                                       : coefficient_words(modpoly_arg(c, 0, m), m);
  if (!m) {  // a polynomial argument is read in place, a constant made one
    const bool polynomial = c.args[0].is(Kind::ZPoly);
    const ZPoly constant = polynomial ? ZPoly() : zpoly_arg(c, 0);
    const ZPoly& f = polynomial ? c.args[0].as_zpoly() : constant;
    return integer_vector(f.get()->coeffs, static_cast<size_t>(f.length()));
  }
  std::vector<Value> out;
  Fmpz coefficient;
  ModPoly f = modpoly_arg(c, 0, m);
  out.reserve(f.length());
  for (slong i = 0; i < f.length(); i++) {
    f.coeff(coefficient.get(), i);
    out.push_back(mod_value(coefficient.get(), m));
  }
  return Value::vec(std::move(out));
}

// The Z/pZ of the entries of poly's argument (null when all are integers); DomainError for an
// entry of another kind or a second Z/pZ. Moduli are compared in place: no reference counting per entry.
ModulusPtr coefficient_ring(const std::vector<Value>& v) {
  const Value* first_mod = nullptr;
  for (size_t i = 0; i < v.size(); i++) {
    if (!v[i].is(Kind::Int) && !v[i].is(Kind::Mod))
      throw DomainError("poly: the coefficients must be integers or elements of Z/pZ, but entry " + std::to_string(i) +
                        " is " + describe(v[i]));
    if (!v[i].is(Kind::Mod)) continue;
    const Modulus* mi = v[i].modulus_raw();
    if (!first_mod) first_mod = &v[i];
    else if (!same_modulus(mi, first_mod->modulus_raw()))
      throw DomainError("poly: cannot mix Z/" + first_mod->modulus_raw()->to_string() + "Z and Z/" + mi->to_string() +
                        "Z");
  }
  return first_mod ? first_mod->modulus() : nullptr;
}

// The residue of an integer or of an element of the Z/pZ of m (p word-size) as a word.
ulong residue_word(const Value& e, const Modulus& m) {
  return e.is(Kind::Mod) ? fmpz_get_word(e.as_int()) : fmpz_fdiv_ui(e.as_int(), m.word());
}

Value poly_from_words(const std::vector<Value>& v, const ModulusPtr& m) {
  std::vector<ulong> words(v.size());
  for (size_t i = 0; i < v.size(); i++) words[i] = residue_word(v[i], *m);
  return Value::modpoly(modpoly_from_words(m, words.data(), words.size()));
}

Value builtin_poly(CallContext& c) {
  if (std::optional<VectorWords> words = vector_words(vector_value_arg(c, 0, "poly")))
    return Value::modpoly(modpoly_from_words(words->modulus, words->words().data(), words->size()));
  const std::vector<Value>& v = vec_arg(c, 0, "poly");
  ModulusPtr m = coefficient_ring(v);
  if (m && m->word_size()) return poly_from_words(v, m);
  if (m) {
    ModPoly f(m);
    f.fit_length(static_cast<slong>(v.size()));
    Fmpz residue;
    for (size_t i = v.size(); i-- > 0;) {
      fmpz_mod(residue.get(), v[i].as_int(), m->value());
      f.set_coeff(static_cast<slong>(i), residue.get());
    }
    return Value::modpoly(std::move(f));
  }
  return Value::zpoly(integer_polynomial(v));
}

Value builtin_lc(CallContext& c) {
  ModulusPtr m = poly_ring(c, {0}, "lc");
  return coefficient_value(c.args[0], std::max<slong>(poly_length(c.args[0]) - 1, 0), m);
}

// ---- eval, deriv, compose -------------------------------------------------

// eval(f, v): the points as integers (residues for Z/pZ entries), and the ring they and f share.
ModulusPtr evaluation_points(const CallContext& c, std::vector<Fmpz>& points) {
  ModulusPtr m = poly_ring(c, {0}, "eval");
  const Value& v = c.args[1];
  const auto join = [&](const ModulusPtr& entry) {
    if (m && !same_modulus(m, entry))
      throw DomainError("eval: cannot mix Z/" + m->to_string() + "Z and Z/" + entry->to_string() + "Z");
    m = entry;
  };
  if (const PackedResidues* packed = v.packed_residues()) {
    join(packed->modulus);
    points.reserve(packed->words.size());
    for (ulong w : packed->words) points.emplace_back(w);
    return m;
  }
  for (const Value& e : v.as_vec()) {
    if (!e.is(Kind::Int) && !e.is(Kind::Mod))
      throw DomainError("eval: the points must be integers or elements of Z/pZ, not " + describe(e));
    if (e.is(Kind::Mod)) join(e.modulus());
    points.emplace_back(e.as_int());
  }
  return m;
}

// f at every entry of a vector: over Z/pZ through evaluate_many (the subproduct tree for many
// points), in Z[x] one point after the other.
Value eval_at_points(CallContext& c) {
  std::vector<Fmpz> points;
  if (ModulusPtr m = evaluation_points(c, points)) {
    std::vector<Fmpz> values = evaluate_many(modpoly_arg(c, 0, m), points);
    if (m->word_size()) {
      Words words(values.size());
      for (size_t i = 0; i < values.size(); i++) words[i] = fmpz_get_ui(values[i].get());
      return Value::residue_words(m, std::move(words));
    }
    std::vector<Value> out;
    out.reserve(values.size());
    for (const Fmpz& y : values) out.push_back(mod_value(y.get(), m));
    return Value::vec(std::move(out));
  }
  const ZPoly f = zpoly_arg(c, 0);
  double bits = 0;  // a value has about deg(f) * bits(a) bits
  for (const Fmpz& a : points) bits += static_cast<double>(f.length()) * static_cast<double>(fmpz_bits(a.get()) + 1);
  guard_allocation(bits / 8, "eval");
  std::vector<Value> out;
  out.reserve(points.size());
  for (const Fmpz& a : points) {
    Fmpz y;
    fmpz_poly_evaluate_fmpz(y.get(), f.get(), a.get());
    out.push_back(Value::integer(std::move(y)));
  }
  return Value::vec(std::move(out));
}

Value builtin_eval(CallContext& c) {
  const Value& a = c.args[1];
  if (a.is(Kind::Vec)) return eval_at_points(c);
  if (!a.is(Kind::Int) && !a.is(Kind::Mod))
    throw DomainError("eval: argument 2 must be an integer, an element of Z/pZ or a vector of them, not " +
                      describe(a) + " (compose(f, g) substitutes a polynomial)");
  ModulusPtr m = poly_ring(c, {0, 1}, "eval");
  Fmpz r;
  if (m) {
    evaluate(r.get(), modpoly_arg(c, 0, m), a.as_int());
    return mod_value(r.get(), m);
  }
  ZPoly f = zpoly_arg(c, 0);
  // The value has about deg(f) * bits(a) bits.
  guard_allocation(static_cast<double>(f.length()) * static_cast<double>(fmpz_bits(a.as_int()) + 1) / 8,
                   "eval");
  fmpz_poly_evaluate_fmpz(r.get(), f.get(), a.as_int());
  return Value::integer(std::move(r));
}

Value builtin_deriv(CallContext& c) {
  if (ModulusPtr m = poly_ring(c, {0}, "deriv")) return Value::modpoly(derivative(modpoly_arg(c, 0, m)));
  if (c.args[0].is(Kind::ZPoly)) return Value::zpoly(derivative_on_cores(c.args[0].as_zpoly()));  // in place
  return Value::zpoly(derivative_on_cores(zpoly_arg(c, 0)));
}

// content and primpart over Z, as PARI's: the gcd of the coefficients (or entries), non-negative,
// and the value divided by it with its sign kept: content(-2*x - 4) is 2, primpart(-2*x - 4) is
// -x - 2. Over Z/pZ every non-zero coefficient is a unit, so there is nothing to take out.
void content_of(fmpz_t out, const Value& v, const char* fn) {
  switch (v.kind()) {
    case Kind::Int: fmpz_abs(out, v.as_int()); return;
    case Kind::ZPoly: fmpz_poly_content(out, v.as_zpoly().get()); return;
    case Kind::Vec:
      fmpz_zero(out);
      for (const Value& e : v.as_vec()) {
        if (!e.is(Kind::Int))
          throw DomainError(std::string(fn) + ": the entries must be integers, not " + describe(e));
        fmpz_gcd(out, out, e.as_int());
      }
      return;
    default:
      throw DomainError(std::string(fn) + ": needs an integer, a polynomial in Z[x] or a vector of integers, not " +
                        describe(v) + (v.modulus() ? " (over Z/pZ every non-zero coefficient is a unit)" : ""));
  }
}

Value builtin_content(CallContext& c) {
  Fmpz g;
  content_of(g.get(), c.args[0], "content");
  return Value::integer(std::move(g));
}

Value builtin_primpart(CallContext& c) {
  const Value& v = c.args[0];
  Fmpz g;
  content_of(g.get(), v, "primpart");
  if (fmpz_is_zero(g.get()) || fmpz_is_one(g.get())) return v;
  if (v.is(Kind::Int)) return Value::integer(fmpz_sgn(v.as_int()));
  if (v.is(Kind::ZPoly)) {
    ZPoly r;
    fmpz_poly_scalar_divexact_fmpz(r.get(), v.as_zpoly().get(), g.get());
    return Value::zpoly(std::move(r));
  }
  const std::vector<Value>& x = v.as_vec();
  return integer_vector_from(x.size(), [&x, &g](fmpz* out, size_t i) { fmpz_divexact(out, x[i].as_int(), g.get()); });
}

Value builtin_compose(CallContext& c) {
  ModulusPtr m = poly_ring(c, {0, 1}, "compose");
  if (m) {
    ModPoly f = modpoly_arg(c, 0, m), g = modpoly_arg(c, 1, m);
    const double length = static_cast<double>(std::max<slong>(f.degree(), 0)) * std::max<slong>(g.degree(), 0) + 1;
    guard_allocation(length * (static_cast<double>(fmpz_bits(m->value())) / 8 + 8), "compose");
    return Value::modpoly(compose(f, g));
  }
  ZPoly f = zpoly_arg(c, 0), g = zpoly_arg(c, 1);
  const double df = static_cast<double>(std::max<slong>(f.degree(), 0));
  const double length = df * static_cast<double>(std::max<slong>(g.degree(), 0)) + 1;
  const double bits = std::abs(static_cast<double>(fmpz_poly_max_bits(f.get()))) +
                      df * (std::abs(static_cast<double>(fmpz_poly_max_bits(g.get()))) +
                            std::log2(static_cast<double>(g.length()) + 1)) + 64;
  guard_allocation(length * bits / 8, "compose");
  ZPoly r;
  fmpz_poly_compose(r.get(), f.get(), g.get());
  return Value::zpoly(std::move(r));
}

// ---- division and resultant -----------------------------------------------

Value builtin_divrem(CallContext& c) {
  if (ModulusPtr m = poly_ring(c, {0, 1}, "divrem")) {
    ModPoly g = modpoly_arg(c, 1, m);
    require_invertible_lead(g, "divrem");
    auto [q, r] = divrem(modpoly_arg(c, 0, m), g);
    return Value::vec({Value::modpoly(std::move(q)), Value::modpoly(std::move(r))});
  }
  ZPoly f = zpoly_arg(c, 0), g = zpoly_arg(c, 1);
  if (g.is_zero()) throw DomainError("divrem: division by the zero polynomial");
  auto [q, r] = zpoly_divrem(f, g);
  return Value::vec({Value::zpoly(std::move(q)), Value::zpoly(std::move(r))});
}

Value builtin_resultant(CallContext& c) {
  Fmpz r;
  if (ModulusPtr m = poly_ring(c, {0, 1}, "resultant")) {
    resultant(r.get(), modpoly_arg(c, 0, m), modpoly_arg(c, 1, m));
    return mod_value(r.get(), m);
  }
  resultant_z(r.get(), zpoly_arg(c, 0), zpoly_arg(c, 1));
  return Value::integer(std::move(r));
}

// (-1)^(n(n-1)/2) resultant(f, f') / lc(f), as PARI's poldisc; constants have none.
Value builtin_discriminant(CallContext& c) {
  auto require_degree = [](slong degree) {
    if (degree < 1) throw DomainError("discriminant: needs a polynomial of degree at least 1, not a constant");
  };
  Fmpz d;
  if (ModulusPtr m = poly_ring(c, {0}, "discriminant")) {
    ModPoly f = modpoly_arg(c, 0, m);
    require_degree(f.degree());
    discriminant(d.get(), f);
    return mod_value(d.get(), m);
  }
  ZPoly f = zpoly_arg(c, 0);
  require_degree(f.degree());
  discriminant_z(d.get(), f);
  return Value::integer(std::move(d));
}

// ---- roots, irreducibility, interpolation -------------------------------------

Value builtin_roots(CallContext& c) {
  std::vector<Value> out;
  if (ModulusPtr m = poly_ring(c, {0}, "roots")) {
    for (const Fmpz& r : roots(modpoly_arg(c, 0, m))) out.push_back(mod_value(r.get(), m));
  } else {
    for (Fmpz& r : integer_roots(zpoly_arg(c, 0))) out.push_back(Value::integer(std::move(r)));
  }
  return Value::vec(std::move(out));
}

Value builtin_isirreducible(CallContext& c) {
  if (ModulusPtr m = poly_ring(c, {0}, "isirreducible")) return Value::boolean(is_irreducible(modpoly_arg(c, 0, m)));
  return Value::boolean(is_irreducible(zpoly_arg(c, 0)));
}

// The entries of xs and ys as integers (residues for Z/pZ entries), and the
// modulus they share if any has one.
ModulusPtr interpolation_points(const CallContext& c, std::vector<Fmpz>& xs, std::vector<Fmpz>& ys) {
  ModulusPtr m;
  for (size_t arg = 0; arg < 2; arg++) {
    std::vector<Fmpz>& out = arg == 0 ? xs : ys;
    for (const Value& v : vec_arg(c, arg, "interpolate")) {
      if (!v.is(Kind::Int) && !v.is(Kind::Mod))
        throw DomainError(arg_name("interpolate", arg) + " must hold integers or elements of Z/pZ, not " + describe(v));
      ModulusPtr mv = v.modulus();
      if (mv && m && !same_modulus(m, mv))
        throw DomainError("interpolate: cannot mix Z/" + m->to_string() + "Z and Z/" + mv->to_string() + "Z");
      if (mv) m = mv;
      out.emplace_back(v.as_int());
    }
  }
  if (xs.size() != ys.size())
    throw DomainError("interpolate: " + std::to_string(xs.size()) + " points but " + std::to_string(ys.size()) +
                      " values");
  return m;
}

Value builtin_interpolate(CallContext& c) {
  std::vector<Fmpz> xs, ys;
  if (ModulusPtr m = interpolation_points(c, xs, ys)) {
    return Value::modpoly(interpolate(xs, ys, m));
  }
  return Value::zpoly(interpolate(xs, ys));
}

// ---- random polynomials ------------------------------------------------------

// The one random state of the language, reseeded by seed(s).
struct RandomState {
  flint_rand_t state;
  RandomState() { flint_randinit(state); }
  ~RandomState() { flint_randclear(state); }
};

flint_rand_s* random_state() {
  static RandomState r;
  return r.state;
}

Value builtin_seed(CallContext& c) {
  const fmpz* s = int_arg(c, 0, "seed");
  Fmpz low;
  fmpz_fdiv_r_2exp(low.get(), s, FLINT_BITS);  // any integer seeds; its low word decides
  const ulong word = fmpz_get_ui(low.get());
  flint_rand_s* state = random_state();
  flint_randclear(state);
  flint_randinit(state);
  flint_randseed(state, word, word ^ UWORD(0x9e3779b97f4a7c15));
  // Large moduli draw through GMP's generator: seed it too.
  _flint_rand_init_gmp(state);
  gmp_randseed_ui(state->gmp_state, word);
  return Value();
}

Value builtin_randpoly(CallContext& c) {
  const ulong n = count_arg(c, 0, "randpoly");
  const fmpz* p = int_arg(c, 1, "randpoly");
  if (fmpz_cmp_ui(p, 2) < 0) throw DomainError("randpoly: the modulus must be at least 2, not " + fmpz_to_string(p));
  ModulusPtr m = make_modulus(p);
  guard_allocation(static_cast<double>(n) * (static_cast<double>(fmpz_bits(p)) / 8 + 8), "randpoly");
  ModPoly f(m);
  if (n == 0) return Value::modpoly(std::move(f));
  const slong len = static_cast<slong>(n);
  flint_rand_s* state = random_state();
  f.fit_length(len);
  if (f.word()) {
    nmod_poly_struct* g = f.nmod();
    for (slong i = 0; i + 1 < len; i++) g->coeffs[i] = n_randint(state, m->word());
    g->coeffs[len - 1] = 1 + n_randint(state, m->word() - 1);  // the leading coefficient is non-zero
    g->length = len;
  } else {
    fmpz_mod_poly_struct* g = f.big();
    Fmpz p_minus_1;
    fmpz_sub_ui(p_minus_1.get(), p, 1);
    for (slong i = 0; i + 1 < len; i++) fmpz_randm(g->coeffs + i, state, p);
    fmpz_randm(g->coeffs + len - 1, state, p_minus_1.get());
    fmpz_add_ui(g->coeffs + len - 1, g->coeffs + len - 1, 1);
    g->length = len;
  }
  return Value::modpoly(std::move(f));
}

Value builtin_randzpoly(CallContext& c) {
  const ulong n = count_arg(c, 0, "randzpoly");
  const ulong bits = count_arg(c, 1, "randzpoly");
  if (bits == 0) throw DomainError("randzpoly: argument 2 (bits) must be at least 1");
  guard_allocation(static_cast<double>(n) * (static_cast<double>(bits) / 8 + 8), "randzpoly");
  ZPoly f;
  if (n == 0) return Value::zpoly(std::move(f));
  const slong len = static_cast<slong>(n);
  flint_rand_s* state = random_state();
  Fmpz bound, bound_minus_1;
  fmpz_one(bound.get());
  fmpz_mul_2exp(bound.get(), bound.get(), bits);
  fmpz_sub_ui(bound_minus_1.get(), bound.get(), 1);
  fmpz_poly_fit_length(f.get(), len);
  fmpz* coeffs = f.get()->coeffs;
  for (slong i = 0; i < len; i++) {
    if (i + 1 < len) {
      fmpz_randm(coeffs + i, state, bound.get());
    } else {  // the leading coefficient is non-zero
      fmpz_randm(coeffs + i, state, bound_minus_1.get());
      fmpz_add_ui(coeffs + i, coeffs + i, 1);
    }
    if (n_randint(state, 2)) fmpz_neg(coeffs + i, coeffs + i);
  }
  _fmpz_poly_set_length(f.get(), len);
  return Value::zpoly(std::move(f));
}

}  // namespace

void register_poly_builtins(Registry& r) {
  r.reg("deg", 1, builtin_deg,
        "deg(f): the degree of a polynomial in Z[x] or (Z/pZ)[x]; deg(0) = -1 (as in FLINT). Integers and Z/pZ "
        "elements count as constant polynomials.");
  r.reg("coeff", 2, builtin_coeff,
        "coeff(f, i): the coefficient of x^i in f (0 beyond the degree); an element of Z/pZ for f over Z/pZ.");
  r.reg("coeffs", 1, builtin_coeffs,
        "coeffs(f): the coefficients of f as a vector, lowest degree first, without trailing zeros (so "
        "coeffs(0) = []); over Z/pZ a vector of Z/pZ elements. poly(coeffs(f)) == f.");
  r.reg("poly", 1, builtin_poly,
        "poly(v): the polynomial with coefficients v, lowest degree first: integers give Z[x], Z/pZ entries "
        "give (Z/pZ)[x]. poly([1, 0, 3]) = 3*x^2 + 1.");
  r.reg("lc", 1, builtin_lc, "lc(f): the leading coefficient of f (0 for the zero polynomial).");
  r.reg("eval", 2, builtin_eval,
        "eval(f, a): f evaluated at a, also written f(a). An integer for f in Z[x] and integer a; an element of "
        "Z/pZ when f or a is over Z/pZ. With a vector v of points, the vector of the values f(v[i]): over Z/pZ "
        "from the crossover algorithm.multipoint_tree (512 points unless `cas --calibrate` measured it; gpuinfo() "
        "shows it) through the subproduct tree (the remainders of f modulo the products of the points, on cas's "
        "products), O(M(n) log n).");
  r.reg("deriv", 1, builtin_deriv, "deriv(f): the derivative of f.");
  r.reg("content", 1, builtin_content,
        "content(f): the greatest common divisor of the coefficients of f in Z[x] (or of the entries of a vector "
        "of integers, or |n| for an integer), non-negative: content(-2*x - 4) is 2; content(0) is 0.");
  r.reg("primpart", 1, builtin_primpart,
        "primpart(f): f divided by its content, its sign kept (as PARI): primpart(-2*x - 4) is -x - 2; "
        "primpart(0) is 0.");
  r.reg("divrem", 2, builtin_divrem,
        "divrem(f, g): [q, r] with f = q*g + r, the same q and r as f // g and f % g. Over Z/pZ deg r < deg g "
        "(the leading coefficient of g must be invertible); from quotients of 128 and divisors of 256 terms "
        "(word-size p) or 2048 and 1024 terms (larger p), by Newton's iteration on cas's transforms or the GPU "
        "(:explain shows it), FLINT's division below. In Z[x], exact Euclidean division when g's "
        "leading coefficient is +-1 or g divides f; long ones (quotients and divisors from 256 terms, 4096 or "
        "8192 for small coefficients) go through 62-bit primes: the quotient modulo each, rebuilt by the CRT "
        "and proven by one product, as f / g does. By an integer c, every coefficient as for integers "
        "(floor quotients, remainders with the sign of c): (x^2 - 1) % 3 is x^2 + 2. Otherwise FLINT's "
        "division: from the top, each coefficient of degree >= deg g is divided by lc(g) with the floor "
        "when it is at least |lc(g)| in absolute value, and left in r when it is smaller.");
  r.reg("resultant", 2, builtin_resultant,
        "resultant(f, g): the resultant of f and g; an integer in Z[x], an element of Z/pZ over Z/pZ (p prime). "
        "Over Z/pZ from the crossover algorithm.half_gcd_resultant (2048 terms unless `cas --calibrate` measured "
        "it) by the half-gcd on cas's products; in Z[x] from algorithm.zresultant_primes (32 terms unless "
        "calibrated) through word-size primes (a Euclidean resultant a prime, thousands at once on the GPU) and "
        "the CRT under Hadamard's bound. discriminant likewise; gpuinfo() shows the crossovers.");
  r.reg("discriminant", 1, builtin_discriminant,
        "discriminant(f): the discriminant of f, (-1)^(n(n-1)/2) resultant(f, f') / lc(f) for deg f = n >= 1: an "
        "integer in Z[x], an element of Z/pZ over Z/pZ (p prime). discriminant(x^2 + b*x + c) = b^2 - 4c.");
  r.reg("roots", 1, builtin_roots,
        "roots(f): the distinct roots of f, ascending: in Z/pZ (p prime) for f over Z/pZ, the integer roots "
        "for f in Z[x]. Multiplicities are not repeated (see factor).");
  r.reg("isirreducible", 1, builtin_isirreducible,
        "isirreducible(f): true when f is irreducible: over Z/pZ (p prime), or in Z[x] (so the content must "
        "be 1: 2*x + 2 is reducible). Constants are not irreducible.");
  r.reg("interpolate", 2, builtin_interpolate,
        "interpolate(xs, ys): the polynomial of degree < len(xs) with f(xs[i]) = ys[i]. Over Z/pZ when any "
        "entry is in Z/pZ; with integers only, in Z[x], and an error when that polynomial has non-integer "
        "coefficients. The xs must be distinct. Over Z/pZ from the crossover algorithm.multipoint_tree (512 "
        "points unless `cas --calibrate` measured it; gpuinfo() shows it) through the subproduct tree, "
        "O(M(n) log n).");
  r.reg("compose", 2, builtin_compose, "compose(f, g): f(g), the polynomial f with g substituted for x (for a variable f, f(g) computes it).");
  r.reg("randpoly", 2, builtin_randpoly,
        "randpoly(n, p): a random dense polynomial over Z/pZ with n coefficients (degree n-1), uniformly "
        "distributed, the leading one non-zero. seed(s) makes the sequence reproducible.");
  r.reg("randzpoly", 2, builtin_randzpoly,
        "randzpoly(n, bits): a random polynomial in Z[x] with n coefficients, each signed with absolute value "
        "below 2^bits, the leading one non-zero. seed(s) makes the sequence reproducible.");
  r.reg("seed", 1, builtin_seed,
        "seed(s): restarts the random generator of randpoly and randzpoly from the integer s, so that the same "
        "seed gives the same polynomials.");
}

}  // namespace cas
