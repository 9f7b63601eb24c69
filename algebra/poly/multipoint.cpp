#include "algebra/poly/multipoint.hpp"

#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/poly/division.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/poly/multiply.hpp"
#include "algebra/support/error.hpp"

#include <flint/fmpz_mod_poly.h>
#include <flint/nmod_poly.h>
#include <flint/nmod_vec.h>

#include <algorithm>
#include <type_traits>

namespace cas {

// A vector of Fmpz is an array of fmpz (FLINT's vector functions take one): Fmpz holds nothing else.
static_assert(sizeof(Fmpz) == sizeof(fmpz) && std::is_standard_layout_v<Fmpz>);

namespace {

// Points a leaf holds: its product, remainders and sums are short enough for FLINT's quadratic
// loops, and the tree above them has 1/32 as many nodes as with single points.
constexpr size_t leaf_points = 32;

std::vector<ulong> words_of(const std::vector<Fmpz>& v, size_t first, size_t end) {
  std::vector<ulong> w(end - first);
  for (size_t i = first; i < end; i++) w[i - first] = fmpz_get_ui(v[i].get());
  return w;
}

// 1 / v_i for every i (all nonzero mod p, p prime), by Montgomery's trick: one inversion and three
// products an entry. DomainError naming `what` when one is zero.
std::vector<Fmpz> inverses(const std::vector<Fmpz>& v, const Modulus& m, const char* what) {
  const size_t n = v.size();
  std::vector<Fmpz> prefix(n + 1), out(n);
  fmpz_one(prefix[0].get());
  for (size_t i = 0; i < n; i++) {
    if (fmpz_is_zero(v[i].get())) throw DomainError(std::string(what) + ": a weight is zero (the points repeat)");
    fmpz_mod_mul(prefix[i + 1].get(), prefix[i].get(), v[i].get(), m.ctx());
  }
  Fmpz running;
  fmpz_mod_inv(running.get(), prefix[n].get(), m.ctx());
  for (size_t i = n; i-- > 0;) {
    fmpz_mod_mul(out[i].get(), running.get(), prefix[i].get(), m.ctx());
    fmpz_mod_mul(running.get(), running.get(), v[i].get(), m.ctx());
  }
  return out;
}

ModPoly one(const ModulusPtr& m) {
  Fmpz unit(1);
  return modpoly_constant(unit.get(), m);
}

// f mod g, or f itself when it is already shorter than g.
ModPoly reduced(const ModPoly& f, const ModPoly& g) { return f.length() < g.length() ? f : remainder(f, g); }

// reduced() of every pair, the divisions side by side (remainder_each).
std::vector<ModPoly> reduced_each(const std::vector<Operands>& pairs) {
  std::vector<Operands> divisions;
  for (const auto& [f, g] : pairs)
    if (f->length() >= g->length()) divisions.emplace_back(f, g);
  std::vector<ModPoly> remainders = remainder_each(divisions);
  std::vector<ModPoly> out;
  out.reserve(pairs.size());
  size_t next = 0;
  for (const auto& [f, g] : pairs) out.push_back(f->length() >= g->length() ? std::move(remainders[next++]) : *f);
  return out;
}

OperationDetail tree_detail(size_t points, const Modulus& m) {
  OperationDetail d;
  d.length1 = points;
  d.modulus = m.word_size() ? m.word() : 0;
  d.modulus_bits = static_cast<unsigned>(fmpz_bits(m.value()));
  return d;
}

}  // namespace

SubproductTree::SubproductTree(std::vector<Fmpz> points, ModulusPtr m) : m_(std::move(m)), points_(std::move(points)) {
  const size_t n = points_.size();
  std::vector<ModPoly> leaves;
  for (size_t first = 0; first < n; first += leaf_points) {
    const Block b{first, std::min(n, first + leaf_points)};
    blocks_.push_back(b);
    ModPoly leaf(m_);
    if (m_->word_size()) {
      const std::vector<ulong> xs = words_of(points_, b.first, b.end);
      nmod_poly_product_roots_nmod_vec(leaf.nmod(), xs.data(), static_cast<slong>(xs.size()));
    } else {
      fmpz_mod_poly_product_roots_fmpz_vec(leaf.big(), points_[b.first].get(), static_cast<slong>(b.end - b.first),
                                           m_->ctx());
    }
    leaves.push_back(std::move(leaf));
  }
  if (leaves.empty()) leaves.push_back(one(m_));
  levels_.push_back(std::move(leaves));
  while (levels_.back().size() > 1) {
    const std::vector<ModPoly>& below = levels_.back();
    std::vector<Operands> pairs;
    for (size_t k = 0; 2 * k + 1 < below.size(); k++) pairs.emplace_back(&below[2 * k], &below[2 * k + 1]);
    std::vector<ModPoly> above = multiply_each(pairs);
    if (below.size() % 2) above.push_back(below.back());
    levels_.push_back(std::move(above));
  }
}

std::vector<Fmpz> SubproductTree::leaf_values(const ModPoly& r, const Block& b) const {
  const size_t k = b.end - b.first;
  std::vector<Fmpz> out(k);
  if (m_->word_size()) {
    const std::vector<ulong> xs = words_of(points_, b.first, b.end);
    std::vector<ulong> ys(k);
    _nmod_poly_evaluate_nmod_vec_iter(ys.data(), r.nmod()->coeffs, r.length(), xs.data(), static_cast<slong>(k),
                                      m_->nmod());
    for (size_t i = 0; i < k; i++) fmpz_set_ui(out[i].get(), ys[i]);
  } else {
    std::vector<fmpz> ys(k, 0);
    fmpz_mod_poly_evaluate_fmpz_vec_iter(ys.data(), r.big(), points_[b.first].get(), static_cast<slong>(k), m_->ctx());
    for (size_t i = 0; i < k; i++) fmpz_swap(out[i].get(), &ys[i]);
    for (fmpz& y : ys) fmpz_clear(&y);
  }
  return out;
}

std::vector<Fmpz> SubproductTree::evaluate(const ModPoly& f) const {
  if (points_.empty()) return {};
  std::vector<ModPoly> above{reduced(f, product())};
  for (size_t level = levels_.size() - 1; level-- > 0;) {
    const std::vector<ModPoly>& nodes = levels_[level];
    std::vector<Operands> divisions;
    for (size_t j = 0; j < nodes.size(); j++) divisions.emplace_back(&above[j / 2], &nodes[j]);
    above = reduced_each(divisions);
  }
  std::vector<Fmpz> values;
  values.reserve(points_.size());
  for (size_t b = 0; b < blocks_.size(); b++)
    for (Fmpz& v : leaf_values(above[b], blocks_[b])) values.push_back(std::move(v));
  return values;
}

// sum over the block's points of c_i leaf / (x - x_i): each quotient by synthetic division.
ModPoly SubproductTree::leaf_combination(const ModPoly& leaf, const Block& b, const std::vector<Fmpz>& c) const {
  const slong k = static_cast<slong>(b.end - b.first);
  ModPoly sum(m_);
  sum.fit_length(k);
  if (m_->word_size()) {
    std::vector<ulong> quotient(static_cast<size_t>(k)), total(static_cast<size_t>(k), 0);
    for (size_t i = b.first; i < b.end; i++) {
      _nmod_poly_div_root(quotient.data(), leaf.nmod()->coeffs, k + 1, fmpz_get_ui(points_[i].get()), m_->nmod());
      _nmod_vec_scalar_addmul_nmod(total.data(), quotient.data(), k, fmpz_get_ui(c[i].get()), m_->nmod());
    }
    return modpoly_from_words(m_, total.data(), total.size());
  }
  std::vector<Fmpz> total(static_cast<size_t>(k));
  Fmpz carry, coefficient, term;
  for (size_t i = b.first; i < b.end; i++) {
    // leaf = (x - x_i) q: q_(k-1) = leaf_k, q_(j-1) = leaf_j + x_i q_j.
    fmpz_zero(carry.get());
    for (slong j = k; j >= 1; j--) {
      leaf.coeff(coefficient.get(), j);
      fmpz_mod_mul(term.get(), carry.get(), points_[i].get(), m_->ctx());
      fmpz_mod_add(carry.get(), coefficient.get(), term.get(), m_->ctx());
      fmpz_mod_mul(term.get(), carry.get(), c[i].get(), m_->ctx());
      fmpz_mod_add(total[j - 1].get(), total[j - 1].get(), term.get(), m_->ctx());
    }
  }
  for (slong j = 0; j < k; j++) sum.set_coeff(j, total[j].get());
  return sum;
}

ModPoly SubproductTree::interpolate(const std::vector<Fmpz>& values) const {
  if (points_.empty()) return ModPoly(m_);
  const std::vector<Fmpz> weights = inverses(evaluate(derivative(product())), *m_, "interpolate");
  std::vector<Fmpz> c(points_.size());
  for (size_t i = 0; i < c.size(); i++) fmpz_mod_mul(c[i].get(), values[i].get(), weights[i].get(), m_->ctx());
  std::vector<ModPoly> sums;
  for (size_t b = 0; b < blocks_.size(); b++) sums.push_back(leaf_combination(levels_[0][b], blocks_[b], c));
  for (size_t level = 0; level + 1 < levels_.size(); level++) {
    const std::vector<ModPoly>& nodes = levels_[level];
    std::vector<Operands> pairs;
    for (size_t k = 0; 2 * k + 1 < nodes.size(); k++) {
      pairs.emplace_back(&sums[2 * k], &nodes[2 * k + 1]);
      pairs.emplace_back(&sums[2 * k + 1], &nodes[2 * k]);
    }
    const std::vector<ModPoly> products = multiply_each(pairs);
    std::vector<ModPoly> above;
    for (size_t k = 0; 2 * k + 1 < nodes.size(); k++) above.push_back(add(products[2 * k], products[2 * k + 1]));
    if (nodes.size() % 2) above.push_back(std::move(sums.back()));
    sums = std::move(above);
  }
  return std::move(sums.front());
}

namespace {

std::vector<Fmpz> residues(const std::vector<Fmpz>& v, const Modulus& m) {
  std::vector<Fmpz> out(v.size());
  for (size_t i = 0; i < v.size(); i++) fmpz_mod(out[i].get(), v[i].get(), m.value());
  return out;
}

// Sorted, so that n points cost n log n comparisons.
void require_distinct(const std::vector<Fmpz>& points, const Modulus& m) {
  std::vector<const Fmpz*> sorted;
  sorted.reserve(points.size());
  for (const Fmpz& x : points) sorted.push_back(&x);
  std::sort(sorted.begin(), sorted.end(), [](const Fmpz* a, const Fmpz* b) { return fmpz_cmp(a->get(), b->get()) < 0; });
  for (size_t i = 1; i < sorted.size(); i++)
    if (fmpz_equal(sorted[i - 1]->get(), sorted[i]->get()))
      throw DomainError("interpolate: the point " + sorted[i]->to_string() + " mod " + m.to_string() + " occurs twice");
}

// Newton's divided differences and Horner's rule, O(n^2), for short inputs modulo a multi-word p.
ModPoly interpolate_by_newton(const std::vector<Fmpz>& xs, const std::vector<Fmpz>& ys, const ModulusPtr& m) {
  const size_t n = xs.size();
  std::vector<Fmpz> c(ys);
  Fmpz difference, denominator;
  for (size_t k = 1; k < n; k++)
    for (size_t i = n - 1; i >= k; i--) {
      fmpz_mod_sub(difference.get(), c[i].get(), c[i - 1].get(), m->ctx());
      fmpz_mod_sub(denominator.get(), xs[i].get(), xs[i - k].get(), m->ctx());
      fmpz_mod_inv(denominator.get(), denominator.get(), m->ctx());
      fmpz_mod_mul(c[i].get(), difference.get(), denominator.get(), m->ctx());
    }
  ModPoly result(m);
  for (size_t k = n; k-- > 0;) {  // result = result (x - xs[k]) + c[k]
    ModPoly linear(m);
    Fmpz minus, unit(1);
    fmpz_mod_neg(minus.get(), xs[k].get(), m->ctx());
    linear.set_coeff(0, minus.get());
    linear.set_coeff(1, unit.get());
    result = add(mul_flint(result, linear), modpoly_constant(c[k].get(), m));
  }
  return result;
}

}  // namespace

std::vector<Fmpz> evaluate_many(const ModPoly& f, const std::vector<Fmpz>& points) {
  const size_t n = points.size();
  const Modulus& m = *f.modulus();
  std::vector<Fmpz> xs = residues(points, m);
  if (n >= algorithm_crossover(AlgorithmCrossover::MultipointTree)) {
    engine_explain("subproduct tree evaluation", static_cast<double>(n), tree_detail(n, m));
    return SubproductTree(std::move(xs), f.modulus()).evaluate(f);
  }
  std::vector<Fmpz> out(n);
  if (m.word_size()) {
    const std::vector<ulong> x = words_of(xs, 0, n);
    std::vector<ulong> y(n);
    nmod_poly_evaluate_nmod_vec(y.data(), f.nmod(), x.data(), static_cast<slong>(n));
    for (size_t i = 0; i < n; i++) fmpz_set_ui(out[i].get(), y[i]);
  } else {
    for (size_t i = 0; i < n; i++) evaluate(out[i].get(), f, xs[i].get());
  }
  return out;
}

ModPoly interpolate(const std::vector<Fmpz>& xs, const std::vector<Fmpz>& ys, const ModulusPtr& m) {
  m->require_field("interpolate");
  const size_t n = xs.size();
  std::vector<Fmpz> points = residues(xs, *m), values = residues(ys, *m);
  require_distinct(points, *m);
  if (n >= algorithm_crossover(AlgorithmCrossover::MultipointTree)) {
    engine_explain("subproduct tree interpolation", static_cast<double>(n), tree_detail(n, *m));
    return SubproductTree(std::move(points), m).interpolate(values);
  }
  if (!m->word_size()) return interpolate_by_newton(points, values, m);
  const std::vector<ulong> x = words_of(points, 0, n), y = words_of(values, 0, n);
  ModPoly r(m);
  nmod_poly_interpolate_nmod_vec(r.nmod(), x.data(), y.data(), static_cast<slong>(n));
  return r;
}

}  // namespace cas
