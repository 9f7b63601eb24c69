#include "algebra/poly/euclid.hpp"

#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/poly/division.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/poly/multiply.hpp"
#include "algebra/support/flint_util.hpp"
#include "algebra/support/progress.hpp"

#include <flint/fmpz_mod_poly.h>
#include <flint/nmod_poly.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace cas {

namespace {

slong degree(const ModPoly& f) { return f.length() - 1; }  // -1 for 0

ModPoly shifted_down(const ModPoly& f, slong k) {  // f div x^k
  ModPoly r(f.modulus());
  if (f.word())
    nmod_poly_shift_right(r.nmod(), f.nmod(), k);
  else
    fmpz_mod_poly_shift_right(r.big(), f.big(), k, f.ctx());
  return r;
}

ModPoly shifted_up(const ModPoly& f, slong k) {  // f x^k
  ModPoly r(f.modulus());
  if (f.word())
    nmod_poly_shift_left(r.nmod(), f.nmod(), k);
  else
    fmpz_mod_poly_shift_left(r.big(), f.big(), k, f.ctx());
  return r;
}

ModPoly low_part(const ModPoly& f, slong k) {  // f mod x^k
  ModPoly r(f.modulus());
  if (f.word())
    nmod_poly_set_trunc(r.nmod(), f.nmod(), k);
  else
    fmpz_mod_poly_set_trunc(r.big(), f.big(), k, f.ctx());
  return r;
}

// x maps (a, b) to (x11 a + x12 b, x21 a + x22 b).
struct Matrix {
  ModPoly m11, m12, m21, m22;
};

Matrix identity(const ModulusPtr& m) {
  Fmpz unit(1);
  return {modpoly_constant(unit.get(), m), ModPoly(m), ModPoly(m), modpoly_constant(unit.get(), m)};
}

// a_i b_i for every pair, zero where an operand is: the independent products of one step side by
// side (multiply_each).
std::vector<ModPoly> products_of(const std::vector<Operands>& pairs) {
  std::vector<Operands> nonzero;
  for (const auto& [a, b] : pairs)
    if (!a->is_zero() && !b->is_zero()) nonzero.emplace_back(a, b);
  std::vector<ModPoly> computed = multiply_each(nonzero);
  std::vector<ModPoly> out;
  out.reserve(pairs.size());
  size_t next = 0;
  for (const auto& [a, b] : pairs)
    out.push_back(a->is_zero() || b->is_zero() ? ModPoly(a->modulus()) : std::move(computed[next++]));
  return out;
}

Matrix product(const Matrix& x, const Matrix& y) {
  const std::vector<ModPoly> p = products_of({{&x.m11, &y.m11}, {&x.m12, &y.m21}, {&x.m11, &y.m12}, {&x.m12, &y.m22},
                                              {&x.m21, &y.m11}, {&x.m22, &y.m21}, {&x.m21, &y.m12}, {&x.m22, &y.m22}});
  return {add(p[0], p[1]), add(p[2], p[3]), add(p[4], p[5]), add(p[6], p[7])};
}

// [[0, 1], [1, -q]] x: the division step (u, v) -> (v, u - q v) after x.
Matrix after_step(const Matrix& x, const ModPoly& q) {
  const std::vector<ModPoly> p = products_of({{&q, &x.m21}, {&q, &x.m22}});
  return {x.m21, x.m22, sub(x.m11, p[0]), sub(x.m12, p[1])};
}

// The limits of a run, and the division steps of the remainder sequence in order, for the
// resultant: the degree of each quotient and the leading coefficient of its divisor.
struct Steps {
  Steps(HalfGcdLimits l, bool record) : limits(l), recording(record) {}
  HalfGcdLimits limits;
  bool recording;
  std::vector<std::pair<slong, Fmpz>> list;
  void note(const ModPoly& quotient, const ModPoly& divisor) {
    if (!recording) return;
    Fmpz lc;
    lead(lc.get(), divisor);
    list.emplace_back(degree(quotient), std::move(lc));
  }
};

struct Reduction {
  Matrix r;      // (c, d) = r (a, b)
  ModPoly c, d;  // deg c >= ceil(deg a / 2) > deg d
};

// x (a, b) for a = a_top x^k + a_low, b likewise, when x (a_top, b_top) = (c_top, d_top) is known:
// (c_top x^k + x11 a_low + x12 b_low, d_top x^k + x21 a_low + x22 b_low).
std::pair<ModPoly, ModPoly> applied(const Matrix& x, const ModPoly& c_top, const ModPoly& d_top, const ModPoly& a,
                                    const ModPoly& b, slong k) {
  const ModPoly a_low = low_part(a, k), b_low = low_part(b, k);
  const std::vector<ModPoly> p = products_of({{&x.m11, &a_low}, {&x.m12, &b_low}, {&x.m21, &a_low}, {&x.m22, &b_low}});
  return {add(shifted_up(c_top, k), add(p[0], p[1])), add(shifted_up(d_top, k), add(p[2], p[3]))};
}

Reduction reduce_by_division(const ModPoly& a, const ModPoly& b, slong m, Steps& steps, bool want_matrix) {
  Reduction out{identity(a.modulus()), a, b};
  while (degree(out.d) >= m) {
    auto [q, r] = divrem_flint(out.c, out.d);
    steps.note(q, out.d);
    if (want_matrix) out.r = after_step(out.r, q);
    out.c = std::move(out.d);
    out.d = std::move(r);
  }
  return out;
}

// FLINT's hgcd (word-size p, no steps to record): M, A and B with (a, b) = M (A, B), det M = sign;
// so R = M^-1 = sign adj(M).
Reduction reduce_by_flint(const ModPoly& a, const ModPoly& b) {
  const ModulusPtr& m = a.modulus();
  ModPoly m11(m), m12(m), m21(m), m22(m), c(m), d(m);
  const slong sign = nmod_poly_hgcd(m11.nmod(), m12.nmod(), m21.nmod(), m22.nmod(), c.nmod(), d.nmod(), a.nmod(),
                                    b.nmod());
  if (sign > 0) return {{std::move(m22), neg(m12), neg(m21), std::move(m11)}, std::move(c), std::move(d)};
  return {{neg(m22), std::move(m12), std::move(m21), neg(m11)}, std::move(c), std::move(d)};
}

// hgcd(a, b), deg a > deg b (euclid.hpp). Without want_matrix, only (c, d) are meant.
Reduction hgcd(const ModPoly& a, const ModPoly& b, Steps& steps, bool want_matrix) {
  const slong n = degree(a), m = (n + 1) / 2;
  if (degree(b) < m) return {identity(a.modulus()), a, b};
  if (n < steps.limits.flint_below && a.word() && !steps.recording) return reduce_by_flint(a, b);
  if (n < steps.limits.basecase) return reduce_by_division(a, b, m, steps, want_matrix);
  const Reduction first = hgcd(shifted_down(a, m), shifted_down(b, m), steps, true);
  auto [a1, b1] = applied(first.r, first.c, first.d, a, b, m);
  if (degree(b1) < m) return {first.r, std::move(a1), std::move(b1)};
  auto [q, r] = divrem(a1, b1);
  steps.note(q, b1);
  const Matrix stepped = after_step(first.r, q);
  if (degree(r) < m) return {stepped, std::move(b1), std::move(r)};
  const slong k = 2 * m - degree(b1);
  const Reduction second = hgcd(shifted_down(b1, k), shifted_down(r, k), steps, true);
  auto [c, d] = applied(second.r, second.c, second.d, b1, r, k);
  return {want_matrix ? product(second.r, stepped) : identity(a.modulus()), std::move(c), std::move(d)};
}

// The Euclidean algorithm on (a, b), deg a > deg b, by half-gcd reductions each followed by one
// division, while b has limits.down_to terms or more; then (a, b) is the pair FLINT finishes.
// `total` (when given) accumulates the steps' matrix.
void reduce(ModPoly& a, ModPoly& b, Steps& steps, Matrix* total) {
  while (!b.is_zero() && static_cast<size_t>(b.length()) >= steps.limits.down_to) {
    Reduction h = hgcd(a, b, steps, total != nullptr);
    if (total) *total = product(h.r, *total);
    a = std::move(h.c);
    b = std::move(h.d);
    if (b.is_zero()) break;
    auto [q, r] = divrem(a, b);
    steps.note(q, b);
    if (total) *total = after_step(*total, q);
    a = std::move(b);
    b = std::move(r);
  }
}

// With deg a == deg b, the one division that makes deg a > deg b.
void first_step(ModPoly& a, ModPoly& b, Steps& steps, Matrix* total) {
  if (b.is_zero() || degree(a) != degree(b)) return;
  auto [q, r] = divrem(a, b);
  steps.note(q, b);
  if (total) *total = after_step(*total, q);
  a = std::move(b);
  b = std::move(r);
}

OperationDetail pair_detail(const ModPoly& a, const ModPoly& b) {
  OperationDetail d;
  d.length1 = static_cast<size_t>(a.length());
  d.length2 = static_cast<size_t>(b.length());
  const Modulus& m = *a.modulus();
  d.modulus = m.word_size() ? m.word() : 0;
  d.modulus_bits = static_cast<unsigned>(fmpz_bits(m.value()));
  return d;
}

bool half_gcd_pays(const ModPoly& a, const ModPoly& b, size_t from) {
  return static_cast<size_t>(std::min(a.length(), b.length())) >= from;
}

void require_field_operands(const ModPoly& a, const ModPoly& b, const char* what) {
  require_same(a, b);
  a.modulus()->require_field(what);
}

}  // namespace

ModPoly gcd_half(const ModPoly& a, const ModPoly& b, HalfGcdLimits limits) {
  if (a.length() < b.length()) return gcd_half(b, a, limits);
  ModPoly x = a, y = b;
  Steps none(limits, false);
  first_step(x, y, none, nullptr);
  reduce(x, y, none, nullptr);
  return gcd_flint(x, y);
}

void xgcd_half(ModPoly& g, ModPoly& s, ModPoly& t, const ModPoly& a, const ModPoly& b, HalfGcdLimits limits) {
  if (a.length() < b.length()) {
    xgcd_half(g, t, s, b, a, limits);
    return;
  }
  if (b.is_zero()) {
    xgcd_flint(g, s, t, a, b);
    return;
  }
  Matrix total = identity(a.modulus());
  ModPoly x = a, y = b;
  Steps none(limits, false);
  first_step(x, y, none, &total);
  reduce(x, y, none, &total);
  ModPoly s_last(a.modulus()), t_last(a.modulus());
  xgcd_flint(g, s_last, t_last, x, y);  // g = s_last x + t_last y, (x, y) = total (a, b)
  const std::vector<ModPoly> p =
      products_of({{&s_last, &total.m11}, {&t_last, &total.m21}, {&s_last, &total.m12}, {&t_last, &total.m22}});
  s = add(p[0], p[1]);
  t = add(p[2], p[3]);
}

void resultant_half(fmpz_t out, const ModPoly& a, const ModPoly& b, HalfGcdLimits limits) {
  const fmpz_mod_ctx_struct* ctx = a.ctx();
  if (a.length() < 2 || b.length() < 2) {
    resultant_flint(out, a, b);
    return;
  }
  if (a.length() < b.length()) {  // res(a, b) = (-1)^(deg a deg b) res(b, a)
    resultant_half(out, b, a, limits);
    if ((degree(a) & 1) && (degree(b) & 1)) fmpz_mod_neg(out, out, ctx);
    return;
  }
  Steps steps(limits, true);
  ModPoly x = a, y = b;
  first_step(x, y, steps, nullptr);
  reduce(x, y, steps, nullptr);
  // The remainder degrees d_0 .. d_(K+1): d_j = d_(j-1) - deg q_j, and d_(K+1) = deg y.
  const size_t count = steps.list.size();
  std::vector<slong> d(count + 2);
  d[0] = degree(a);
  for (size_t j = 1; j <= count; j++) d[j] = d[j - 1] - steps.list[j - 1].first;
  if (y.is_zero() && degree(x) > 0) {  // a common factor
    fmpz_zero(out);
    return;
  }
  d[count + 1] = y.is_zero() ? 0 : degree(y);
  Fmpz result(ulong{1}), power;
  for (size_t j = 1; j <= count; j++) {
    fmpz_mod_pow_ui(power.get(), steps.list[j - 1].second.get(), static_cast<ulong>(d[j - 1] - d[j + 1]), ctx);
    fmpz_mod_mul(result.get(), result.get(), power.get(), ctx);
    if ((d[j - 1] & 1) && (d[j] & 1)) fmpz_mod_neg(result.get(), result.get(), ctx);
  }
  if (!y.is_zero()) {
    Fmpz last;
    resultant_flint(last.get(), x, y);
    fmpz_mod_mul(result.get(), result.get(), last.get(), ctx);
  }
  fmpz_set(out, result.get());
}

std::pair<ModPoly, ModPoly> half_gcd_pair(const ModPoly& a, const ModPoly& b, HalfGcdLimits limits) {
  Steps none(limits, false);
  Reduction h = hgcd(a, b, none, false);
  return {std::move(h.c), std::move(h.d)};
}

ModPoly gcd(const ModPoly& a, const ModPoly& b) {
  require_field_operands(a, b, "gcd");
  if (!half_gcd_pays(a, b, algorithm_crossover(AlgorithmCrossover::HalfGcd))) return gcd_flint(a, b);
  engine_explain("half-gcd gcd", static_cast<double>(std::max(a.length(), b.length())), pair_detail(a, b));
  const ProgressScope progress("half-gcd gcd", static_cast<double>(std::max(a.length(), b.length())));
  return gcd_half(a, b);
}

void xgcd(ModPoly& g, ModPoly& s, ModPoly& t, const ModPoly& a, const ModPoly& b) {
  require_field_operands(a, b, "xgcd");
  if (!half_gcd_pays(a, b, algorithm_crossover(AlgorithmCrossover::HalfGcd))) return xgcd_flint(g, s, t, a, b);
  engine_explain("half-gcd xgcd", static_cast<double>(std::max(a.length(), b.length())), pair_detail(a, b));
  const ProgressScope progress("half-gcd xgcd", static_cast<double>(std::max(a.length(), b.length())));
  xgcd_half(g, s, t, a, b);
}

void resultant(fmpz_t out, const ModPoly& a, const ModPoly& b) {
  require_field_operands(a, b, "resultant");
  if (!half_gcd_pays(a, b, algorithm_crossover(AlgorithmCrossover::HalfGcdResultant)))
    return resultant_flint(out, a, b);
  engine_explain("half-gcd resultant", static_cast<double>(std::max(a.length(), b.length())), pair_detail(a, b));
  const ProgressScope progress("half-gcd resultant", static_cast<double>(std::max(a.length(), b.length())));
  resultant_half(out, a, b);
}

// (-1)^(n(n-1)/2) res(f, f') / lc(f), n = deg f, when f' has degree n - 1 (p does not divide n lc(f)).
void discriminant(fmpz_t out, const ModPoly& f) {
  f.modulus()->require_field("discriminant");
  const ModPoly derivative_f = derivative(f);
  const slong n = degree(f);
  if (!half_gcd_pays(f, derivative_f, algorithm_crossover(AlgorithmCrossover::HalfGcdResultant)) ||
      degree(derivative_f) != n - 1)
    return discriminant_flint(out, f);
  engine_explain("half-gcd resultant", static_cast<double>(f.length()), pair_detail(f, derivative_f));
  const ProgressScope progress("half-gcd discriminant", static_cast<double>(f.length()));
  Fmpz lc, inverse;
  lead(lc.get(), f);
  fmpz_mod_inv(inverse.get(), lc.get(), f.ctx());
  resultant_half(out, f, derivative_f);
  fmpz_mod_mul(out, out, inverse.get(), f.ctx());
  if ((n * (n - 1) / 2) & 1) fmpz_mod_neg(out, out, f.ctx());
}

}  // namespace cas
