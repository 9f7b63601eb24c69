#include "algebra/poly/factor.hpp"

#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/poly/division.hpp"
#include "algebra/poly/euclid.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/poly/multiply.hpp"
#include "algebra/support/ceil_log2.hpp"
#include "algebra/support/error.hpp"
#include "algebra/support/guards.hpp"
#include "algebra/support/parallel.hpp"
#include "algebra/support/progress.hpp"
#include "algebra/support/words.hpp"

#include <flint/nmod_poly_factor.h>
#include <flint/nmod_vec.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace cas {

namespace {

using Factors = std::vector<std::pair<ModPoly, slong>>;

void trim(Words& x) {
  while (!x.empty() && x.back() == 0) x.pop_back();
}

Words words_of(const ModPoly& f) { return Words(f.nmod()->coeffs, f.nmod()->coeffs + f.length()); }

ModPoly poly_of(const Words& w, const ModulusPtr& m) { return modpoly_from_words(m, w.data(), w.size()); }

// ---- products modulo a monic polynomial ---------------------------------------------------------

// x modulo x^L - 1 in L words (zeros past min(length, L)).
Words folded_to(const ulong* x, size_t length, size_t L, const nmod_t& mod) {
  Words out = folded(x, length, L, mod);
  out.resize(L, 0);
  return out;
}

// Products modulo a monic f of degree n >= 1 over a word-size Z/pZ, of reduced operands (at most
// n terms, no trailing zeros). The quotient of a product c by f comes from one inverse of rev(f)
// computed here: rev(q) = rev(c) inverse mod x^(len c - n); the remainder c - q f has at most n
// terms, so it is c - q f modulo x^L - 1 for the power of two L >= n: a cyclic product of half a
// product's length.
class ProductsModulo {
 public:
  explicit ProductsModulo(const ModPoly& f)
      : m_(f.modulus()),
        mod_(m_->nmod()),
        n_(static_cast<size_t>(f.degree())),
        wrap_(power_of_two_at_least(n_)),
        f_folded_(folded_to(f.nmod()->coeffs, n_ + 1, wrap_, mod_)) {
    const ulong* c = f.nmod()->coeffs;
    if (n_ < 2) return;
    Words h(n_ - 1);  // the first n - 1 terms of rev(f): f[n], ..., f[2]
    std::reverse_copy(c + 2, c + n_ + 1, h.begin());
    inverse_ = inverse_series(h.data(), h.size(), n_ - 1, m_);
  }

  size_t degree() const { return n_; }
  const nmod_t& mod() const { return mod_; }

  Words product(const Words& a, const Words& b) const {
    if (a.empty() || b.empty()) return {};
    const size_t length = a.size() + b.size() - 1;
    Words c(power_of_two_at_least(length));
    cyclic_product(m_, a.data(), a.size(), b.data(), b.size(), c.size(), c.data());
    c.resize(length);
    return reduced(std::move(c));
  }

  // c mod f for c of at most 2n - 1 terms.
  Words reduced(Words c) const {
    trim(c);
    if (c.size() <= n_) return c;
    const size_t nq = c.size() - n_;
    Words top(nq), q(nq), reversed_quotient(power_of_two_at_least(2 * nq - 1));
    std::reverse_copy(c.end() - static_cast<std::ptrdiff_t>(nq), c.end(), top.begin());
    cyclic_product(m_, top.data(), nq, inverse_.data(), nq, reversed_quotient.size(), reversed_quotient.data());
    std::reverse_copy(reversed_quotient.begin(), reversed_quotient.begin() + static_cast<std::ptrdiff_t>(nq),
                      q.begin());
    Words r = folded_to(c.data(), c.size(), wrap_, mod_), qf(wrap_);
    cyclic_product(m_, q.data(), nq, f_folded_.data(), wrap_, wrap_, qf.data());
    _nmod_vec_sub(r.data(), r.data(), qf.data(), static_cast<slong>(n_), mod_);
    r.resize(n_);
    trim(r);
    return r;
  }

 private:
  ModulusPtr m_;
  nmod_t mod_;
  size_t n_, wrap_;
  Words f_folded_, inverse_;
};

Words plus(const Words& a, const Words& b, const nmod_t& mod) {
  const Words& longer = a.size() >= b.size() ? a : b;
  const Words& shorter = a.size() >= b.size() ? b : a;
  Words r = longer;
  _nmod_vec_add(r.data(), r.data(), shorter.data(), static_cast<slong>(shorter.size()), mod);
  trim(r);
  return r;
}

Words minus(const Words& a, const Words& b, const nmod_t& mod) {
  Words r(std::max(a.size(), b.size()), 0);
  std::copy(a.begin(), a.end(), r.begin());
  _nmod_vec_sub(r.data(), r.data(), b.data(), static_cast<slong>(b.size()), mod);
  trim(r);
  return r;
}

// ---- modular composition (Brent and Kung) ----------------------------------------------------

// b^e mod f, e >= 1.
Words power(const Words& b, size_t e, const ProductsModulo& ring) {
  Words r = b;
  for (int bit = static_cast<int>(FLINT_BIT_COUNT(e)) - 2; bit >= 0; bit--) {
    r = ring.product(r, r);
    if ((e >> bit) & 1) r = ring.product(r, b);
  }
  return r;
}

// What composing with h modulo f needs: h^0..h^(s-1) mod f as the columns of an n by s matrix
// (row c holds the coefficients of x^c, n rounded up to even, so that the matrix product reads
// both operands along rows), and H = h^s mod f for Horner's rule. Horner's rule over the blocks of
// one polynomial runs in pieces of piece_rows blocks side by side on the cores, piece q then
// multiplied by shifts[q] = H^(q piece_rows).
struct PowerTable {
  size_t s = 0, n_even = 0;
  Words columns;
  Words top;
  size_t piece_rows = 0;
  std::vector<Words> shifts;
};

PowerTable power_table(const Words& h, size_t s, const ProductsModulo& ring) {
  const size_t n = ring.degree();
  std::vector<Words> powers(s + 1);
  powers[0] = Words{1};
  powers[1] = h;
  // h^(k + i) = h^(k - 1) h^(i + 1) for i < k - 1, once h^0..h^(k-1) are known: side by side.
  for (size_t k = 2; k <= s;) {
    const size_t count = std::min(k - 1, s + 1 - k);
    each_on_cores(count, [&](size_t i) { powers[k + i] = ring.product(powers[k - 1], powers[i + 1]); });
    k += count;
  }
  PowerTable t{s, n + n % 2, Words((n + n % 2) * s, 0), std::move(powers[s]), 0, {}};
  for (size_t i = 0; i < s; i++)
    for (size_t c = 0; c < powers[i].size(); c++) t.columns[c * s + i] = powers[i][c];
  const size_t blocks = (n + s - 1) / s, pieces = std::min(core_count(), blocks);
  t.piece_rows = (blocks + pieces - 1) / pieces;
  t.shifts.push_back(Words{1});
  if (pieces > 1) t.shifts.push_back(power(t.top, t.piece_rows, ring));
  while (t.shifts.size() < pieces) t.shifts.push_back(ring.product(t.shifts.back(), t.shifts[1]));
  return t;
}

// (sum, top) += x: a sum of products of two words kept in three.
inline void accumulate(unsigned __int128& sum, ulong& top, unsigned __int128 x) {
  sum += x;
  top += sum < x;
}

inline ulong reduced_sum(unsigned __int128 sum, ulong top, const nmod_t& mod) {
  ulong high, r;
  NMOD_RED(high, top, mod);
  NMOD_RED3(r, high, static_cast<ulong>(sum >> 64), static_cast<ulong>(sum), mod);
  return r;
}

// out[r n + c] = sum_i a[r s + i] b[c s + i] mod p for r < rows (even), c < n (even): two rows by
// two columns at a time, the products of a run of `run` terms summed in two words (p^2 run < 2^128)
// before they join three-word sums. About 1.0 ns a term on one core against 3.0 for FLINT 2.9's
// nmod_mat_mul (62-bit p, 12 by 181 times 181 by 2048: a composition modulo degree 2048).
void matrix_product(const ulong* a, size_t rows, size_t s, const ulong* b, size_t n, size_t run, const nmod_t& mod,
                    ulong* out) {
  parallel_ranges(n / 2, 64, [&](size_t begin, size_t end) {
    for (size_t c = 2 * begin; c < 2 * end; c += 2) {
      const ulong *b0 = b + c * s, *b1 = b0 + s;
      for (size_t r = 0; r < rows; r += 2) {
        const ulong *a0 = a + r * s, *a1 = a0 + s;
        unsigned __int128 s00 = 0, s01 = 0, s10 = 0, s11 = 0;
        ulong t00 = 0, t01 = 0, t10 = 0, t11 = 0;
        for (size_t i0 = 0; i0 < s; i0 += run) {
          unsigned __int128 r00 = 0, r01 = 0, r10 = 0, r11 = 0;
          for (size_t i = i0; i < std::min(s, i0 + run); i++) {
            r00 += static_cast<unsigned __int128>(a0[i]) * b0[i];
            r01 += static_cast<unsigned __int128>(a0[i]) * b1[i];
            r10 += static_cast<unsigned __int128>(a1[i]) * b0[i];
            r11 += static_cast<unsigned __int128>(a1[i]) * b1[i];
          }
          accumulate(s00, t00, r00);
          accumulate(s01, t01, r01);
          accumulate(s10, t10, r10);
          accumulate(s11, t11, r11);
        }
        out[r * n + c] = reduced_sum(s00, t00, mod);
        out[r * n + c + 1] = reduced_sum(s01, t01, mod);
        out[(r + 1) * n + c] = reduced_sum(s10, t10, mod);
        out[(r + 1) * n + c + 1] = reduced_sum(s11, t11, mod);
      }
    }
  });
}

// How many products of two residues mod p sum in two words: 2^128 / (p - 1)^2, at least 1.
size_t products_in_two_words(ulong p) {
  const unsigned bits = FLINT_BIT_COUNT(p - 1);
  return bits > 63 ? 1 : size_t{1} << std::min(2 * (64 - bits), 20u);
}

// Horner's rule in t.top over the sums of rows [begin, end) (each of t.n_even words, n used).
Words horner(const Words& sums, size_t begin, size_t end, size_t n, const PowerTable& t, const ProductsModulo& ring) {
  Words r;
  for (size_t row = end; row-- > begin;) {
    const ulong* sum = sums.data() + row * t.n_even;
    Words term(sum, sum + n);
    trim(term);
    r = plus(ring.product(r, t.top), term, ring.mod());
  }
  return r;
}

// g_k(h) mod f for every g_k (reduced): the products of each g's blocks of s coefficients with
// h^0..h^(s-1) as one matrix product, then Horner's rule in h^s, the polynomials (or, fewer than
// the cores, the pieces of each) side by side on the cores.
std::vector<Words> compose_each(const std::vector<const Words*>& gs, const PowerTable& t, const ProductsModulo& ring) {
  const size_t n = ring.degree(), s = t.s;
  std::vector<size_t> first_row(gs.size() + 1, 0);
  for (size_t k = 0; k < gs.size(); k++) first_row[k + 1] = first_row[k] + (gs[k]->size() + s - 1) / s;
  const size_t rows = first_row.back() + first_row.back() % 2;
  Words blocks(rows * s, 0), sums(rows * t.n_even);
  for (size_t k = 0; k < gs.size(); k++)
    std::copy(gs[k]->begin(), gs[k]->end(), blocks.begin() + static_cast<std::ptrdiff_t>(first_row[k] * s));
  matrix_product(blocks.data(), rows, s, t.columns.data(), t.n_even, products_in_two_words(ring.mod().n), ring.mod(),
                 sums.data());
  struct Piece {
    size_t k, q, begin, end;
  };
  const size_t piece_rows = gs.size() < core_count() ? t.piece_rows : rows;
  std::vector<Piece> pieces;
  for (size_t k = 0; k < gs.size(); k++)
    for (size_t q = 0, row = first_row[k]; row < first_row[k + 1]; q++, row += piece_rows)
      pieces.push_back({k, q, row, std::min(row + piece_rows, first_row[k + 1])});
  std::vector<Words> partial(pieces.size());
  each_on_cores(pieces.size(), [&](size_t i) {
    const Piece& p = pieces[i];
    partial[i] = horner(sums, p.begin, p.end, n, t, ring);
    if (p.q > 0) partial[i] = ring.product(partial[i], t.shifts[p.q]);
  });
  std::vector<Words> out(gs.size());
  for (size_t i = 0; i < pieces.size(); i++) out[pieces[i].k] = plus(out[pieces[i].k], partial[i], ring.mod());
  return out;
}

Words compose(const Words& g, const PowerTable& t, const ProductsModulo& ring) {
  return std::move(compose_each({&g}, t, ring)[0]);
}

// The matrix's inner dimension for composing `count` polynomials with one h modulo a polynomial
// of degree n: the powers cost s products, Horner's rule count n / s, so s = (count n)^(1/2), at
// most 4 n^(1/2), and with the table's n s words at most max(2^23, n^(3/2)).
size_t table_size(size_t n, size_t count) {
  const double root = std::sqrt(static_cast<double>(n));
  const double most = std::min(4 * root, std::max(root, static_cast<double>(size_t{1} << 23) / static_cast<double>(n)));
  return std::max<size_t>(2,
                          static_cast<size_t>(std::ceil(std::min(std::sqrt(static_cast<double>(count)) * root, most))));
}

// ---- distinct-degree factorisation ------------------------------------------------------------

struct DegreePart {
  ModPoly product;  // of every irreducible factor of this degree
  slong degree;
};

// x^p mod f by cas's powmod.
Words x_to_the_p(const ModPoly& f) {
  const ModPoly x = modpoly_x(f.modulus());
  return words_of(powmod(x, f.modulus()->value(), f));
}

// h[i] = x^(p^i) mod f for i <= l: h[i] = h[i - 1](x^p), compositions with one table, or
// h[i - 1]^p where that takes no more products than the composition's Horner's rule (small p).
std::vector<Words> baby_steps(const Words& xp, size_t l, const ProductsModulo& ring) {
  std::vector<Words> h(l + 1);
  h[0] = Words{0, 1};
  h[1] = xp;
  if (l < 2) return h;
  const size_t n = ring.degree(), s = table_size(n, l - 1);
  const ulong p = ring.mod().n;
  if (FLINT_BIT_COUNT(p) + static_cast<size_t>(__builtin_popcountl(p)) <= (n + s - 1) / s) {
    for (size_t i = 2; i <= l; i++) h[i] = power(h[i - 1], p, ring);
    return h;
  }
  const PowerTable frobenius = power_table(xp, s, ring);
  for (size_t i = 2; i <= l; i++) h[i] = compose(h[i - 1], frobenius, ring);
  return h;
}

// prod (H - h[i]) mod f for i in [first, last): one run of products per core, then their product.
Words interval_product(const Words& H, const std::vector<Words>& h, size_t first, size_t last,
                       const ProductsModulo& ring) {
  const size_t count = last - first, runs = std::min(core_count(), count);
  std::vector<Words> partial(runs);
  each_on_cores(runs, [&](size_t r) {
    Words p{1};
    for (size_t i = first + count * r / runs; i < first + count * (r + 1) / runs; i++)
      p = ring.product(p, minus(H, h[i], ring.mod()));
    partial[r] = std::move(p);
  });
  Words p{1};
  for (const Words& q : partial) p = ring.product(p, q);
  return p;
}

// Splits `found`, the product of v's factors of degree in (l j, l (j + 1)], by degree:
// gcd(g, H - h[i]) takes those of degree l (j + 1) - i, the lower degrees being gone. H and h are
// modulo a multiple of `found`.
void split_interval(const ModPoly& found, size_t j, size_t l, const Words& H, const std::vector<Words>& h,
                    std::vector<DegreePart>& out) {
  const size_t top = l * (j + 1);
  if (j > 0 && static_cast<size_t>(found.degree()) <= top) {  // two such factors would exceed it
    out.push_back({found, found.degree()});
    return;
  }
  const ModulusPtr& m = found.modulus();
  ModPoly g = found;
  for (size_t i = l; i-- > 0 && g.degree() > 0;) {
    ModPoly c = gcd(g, poly_of(minus(H, h[i], m->nmod()), m));
    if (c.degree() <= 0) continue;
    g = exact_div(g, c);
    out.push_back({std::move(c), static_cast<slong>(top - i)});
  }
}

// The baby steps' count l = (n/2)^(1/2), FLINT's n^beta with beta = (1 - log 2 / log n) / 2, and
// as many giant steps up to degree n / 2: half or twice as many baby steps take 2-24% longer.
size_t baby_step_count(size_t n) {
  return std::max<size_t>(1, static_cast<size_t>(std::ceil(std::sqrt(static_cast<double>(n) / 2))));
}

// The giant steps up to degree n / 2.
size_t giant_step_count(size_t n, size_t l) { return std::max<size_t>(1, (n / 2 + l - 1) / l); }

// The distinct-degree factorisation of f (monic, squarefree, degree >= 2), giant step after giant
// step: FLINT's algorithm on cas's products and matrix product, 0.36-0.61 s for random f of degree
// 2048 modulo a 62-bit prime on two cores against 3.1-4.1 s for FLINT 2.9's
// nmod_poly_factor_distinct_deg_threaded on two threads (4.6-6.6 s on one), whose products modulo
// f take 10 times as long at that degree. v, what is left of f, has no factor of degree below d.
// The work stays modulo f while the factors found leave most of it (v divides f, so
// gcd(v, I mod f) = gcd(v, I)), and moves to v below 3/4 of the degree. The gcd with v is taken once
// for the product of `batch` intervals' products, then split among them only when it is not 1:
// most intervals hold no factor.
class DistinctDegree {
 public:
  explicit DistinctDegree(const ModPoly& f)
      : m_(f.modulus()),
        l_(baby_step_count(static_cast<size_t>(f.degree()))),
        ring_(guarded_ring(f, l_)),
        h_(baby_steps(x_to_the_p(f), l_, *ring_)),
        v_(f) {
    giant_table();
  }

  std::vector<DegreePart> parts() {
    Words H = h_[l_];
    for (size_t j = 0; 2 * d_ <= static_cast<size_t>(v_.degree()); j++) {
      if (j > 0) H = compose(H, giant_, *ring_);
      // The degrees d..last: top - i is the degree of H - h[i].
      const size_t top = l_ * (j + 1), last = std::min(top, static_cast<size_t>(v_.degree()) / 2);
      pending_.push_back({j, interval_product(H, h_, top - last, top - d_ + 1, *ring_), H});
      d_ = last + 1;
      if (pending_.size() == batch || 2 * d_ > static_cast<size_t>(v_.degree())) H = take_factors(std::move(H));
    }
    if (v_.degree() > 0) out_.push_back({v_, v_.degree()});
    return std::move(out_);
  }

 private:
  static constexpr size_t batch = 4;

  struct Interval {
    size_t j;
    Words product;  // of H - h[i] over the interval's degrees
    Words H;        // x^(p^(l (j + 1))) mod the ring's modulus
  };

  // The ring modulo f, once the baby steps and a table of powers (n words each) fit in memory.
  static std::unique_ptr<ProductsModulo> guarded_ring(const ModPoly& f, size_t l) {
    const size_t n = static_cast<size_t>(f.degree());
    guard_allocation(8.0 * static_cast<double>(n) * static_cast<double>(l + 1 + table_size(n, l)),
                     "the distinct-degree factorisation");
    return std::make_unique<ProductsModulo>(f);
  }

  void giant_table() {
    const size_t n = ring_->degree();
    giant_ = power_table(h_[l_], table_size(n, giant_step_count(n, l_)), *ring_);
  }

  // The factors of v in the pending intervals, split among them in order (each interval's
  // product also vanishes on the lower degrees of the ones before); returns H modulo the ring.
  Words take_factors(Words H) {
    Words all{1};
    for (const Interval& in : pending_) all = ring_->product(all, in.product);
    ModPoly found = gcd(v_, poly_of(all, m_));
    if (found.degree() > 0) {
      v_ = exact_div(v_, found);
      for (const Interval& in : pending_) {
        ModPoly part = gcd(found, poly_of(in.product, m_));
        if (part.degree() <= 0) continue;
        found = exact_div(found, part);
        split_interval(part, in.j, l_, in.H, h_, out_);
      }
      if (4 * static_cast<size_t>(v_.degree()) < 3 * ring_->degree() && v_.degree() >= 2) H = move_to_v(H);
    }
    pending_.clear();
    return H;
  }

  // The ring, the baby steps and the giant steps' table modulo v; returns H modulo v.
  Words move_to_v(const Words& H) {
    ring_ = std::make_unique<ProductsModulo>(v_);
    for (Words& w : h_) w = words_of(remainder(poly_of(w, m_), v_));
    giant_table();
    return words_of(remainder(poly_of(H, m_), v_));
  }

  ModulusPtr m_;
  size_t l_;
  std::unique_ptr<ProductsModulo> ring_;
  std::vector<Words> h_;
  PowerTable giant_;
  ModPoly v_;
  size_t d_ = 1;
  std::vector<Interval> pending_;
  std::vector<DegreePart> out_;
};

std::vector<DegreePart> distinct_degree_parts(const ModPoly& f) { return DistinctDegree(f).parts(); }

// ---- equal-degree factorisation ---------------------------------------------------------------

// FLINT's random state, seeded alike for every call: the splitting's choices, and so its time,
// repeat from run to run (its result does not depend on them).
struct SplittingRandom {
  flint_rand_t state;
  SplittingRandom() { flint_randinit(state); }
  ~SplittingRandom() { flint_randclear(state); }
  SplittingRandom(const SplittingRandom&) = delete;
  SplittingRandom& operator=(const SplittingRandom&) = delete;
};

// What splitting g (every factor of degree d >= 2) takes from the Frobenius x -> x^p: g's ring
// and the table of x^p mod g.
struct Frobenius {
  ProductsModulo ring;
  Words xp;
  PowerTable table;
  explicit Frobenius(const ModPoly& g)
      : ring(g), xp(x_to_the_p(g)), table(power_table(xp, table_size(ring.degree(), 2), ring)) {}
};

// a a^p ... a^(p^(d-1)) mod g (the norm), or for `trace` a + a^p + ... + a^(p^(d-1)), from the
// pairs (b_k, x^(p^k)) with b_k the norm or trace of k terms: b_2k = b_k * b_k(x^(p^k)),
// b_(k+1) = a * b_k(x^p), following d's bits (* the product for the norm, the sum for the trace).
Words norm_or_trace(const Words& a, slong d, const Frobenius& frobenius, bool trace) {
  const ProductsModulo& ring = frobenius.ring;
  const auto combine = [&](const Words& x, const Words& y) {
    return trace ? plus(x, y, ring.mod()) : ring.product(x, y);
  };
  Words b = a, xk = frobenius.xp;
  for (int bit = static_cast<int>(FLINT_BIT_COUNT(static_cast<ulong>(d))) - 2; bit >= 0; bit--) {
    std::vector<Words> twice = compose_each({&b, &xk}, power_table(xk, frobenius.table.s, ring), ring);
    b = combine(b, twice[0]);
    xk = std::move(twice[1]);
    if (!((static_cast<ulong>(d) >> bit) & 1)) continue;
    std::vector<Words> once = compose_each({&b, &xk}, frobenius.table, ring);
    b = combine(a, once[0]);
    xk = std::move(once[1]);
  }
  return b;
}

// A random polynomial of degree below n.
Words random_reduced(size_t n, const nmod_t& mod, SplittingRandom& random) {
  Words a(n);
  for (ulong& c : a) c = n_randint(random.state, mod.n);
  trim(a);
  return a;
}

void split_equal_degree(const ModPoly& g, slong d, FactorLimits limits, SplittingRandom& random,
                        std::vector<ModPoly>& out);

// Splits g (every factor of degree d) once by a random a: gcd(N(a)^((p-1)/2) - 1, g), or
// gcd(trace(a), g) for p = 2. Linear factors take a = x + c, as roots.cpp does (N(a) = a, and
// powmod of a linear base costs a squaring a bit).
void split_by_random_element(const ModPoly& g, slong d, FactorLimits limits, SplittingRandom& random,
                             std::vector<ModPoly>& out) {
  const ModulusPtr& m = g.modulus();
  const bool two = m->word() == 2;
  const std::unique_ptr<Frobenius> frobenius = d > 1 ? std::make_unique<Frobenius>(g) : nullptr;
  Fmpz half, c;
  fmpz_sub_ui(half.get(), m->value(), 1);
  fmpz_fdiv_q_2exp(half.get(), half.get(), 1);
  for (;;) {
    ModPoly w = modpoly_x(m);
    if (frobenius) {
      w = poly_of(norm_or_trace(random_reduced(frobenius->ring.degree(), m->nmod(), random), d, *frobenius, two), m);
    } else {
      fmpz_randm(c.get(), random.state, m->value());
      w.set_coeff(0, c.get());
    }
    if (!two) w = sub(powmod(w, half.get(), g), modpoly_constant(Fmpz(1).get(), m));
    ModPoly factor = gcd(w, g);
    if (factor.degree() <= 0 || factor.degree() == g.degree()) continue;
    const ModPoly rest = exact_div(g, factor);
    split_equal_degree(factor, d, limits, random, out);
    split_equal_degree(rest, d, limits, random, out);
    return;
  }
}

// The irreducible factors of g (monic, squarefree, every factor of degree d).
void split_equal_degree(const ModPoly& g, slong d, FactorLimits limits, SplittingRandom& random,
                        std::vector<ModPoly>& out) {
  if (g.degree() == d) {
    out.push_back(g);
    return;
  }
  if (g.length() >= limits.equal_degree_flint_below) return split_by_random_element(g, d, limits, random, out);
  nmod_poly_factor_t fac;
  nmod_poly_factor_init(fac);
  nmod_poly_factor_equal_deg(fac, g.nmod(), d);
  for (slong i = 0; i < fac->num; i++) {
    ModPoly q(g.modulus());
    nmod_poly_make_monic(q.nmod(), fac->p + i);
    out.push_back(std::move(q));
  }
  nmod_poly_factor_clear(fac);
}

// ---- squarefree decomposition -----------------------------------------------------------------

// The coefficients of f at multiples of p: the p-th root of f when f' = 0.
ModPoly pth_root(const ModPoly& f) {
  const ulong p = f.modulus()->word();
  const size_t terms = static_cast<size_t>(f.degree()) / p + 1;
  Words r(terms);
  for (size_t i = 0; i < terms; i++) r[i] = f.nmod()->coeffs[i * p];
  return poly_of(r, f.modulus());
}

// Appends the squarefree parts of f (monic) with their multiplicities times `multiplicity`.
void squarefree_parts(const ModPoly& f, slong multiplicity, Factors& out) {
  if (f.degree() <= 0) return;
  const slong p = static_cast<slong>(f.modulus()->word());
  const ModPoly derived = derivative(f);
  if (derived.is_zero()) return squarefree_parts(pth_root(f), multiplicity * p, out);
  ModPoly g = gcd(f, derived), w = exact_div(f, g);
  for (slong i = 1; w.degree() > 0; i++) {
    ModPoly y = gcd(w, g);
    ModPoly z = exact_div(w, y);
    if (z.degree() > 0) out.emplace_back(std::move(z), i * multiplicity);
    g = exact_div(g, y);
    w = std::move(y);
  }
  if (g.degree() > 0) squarefree_parts(pth_root(g), multiplicity * p, out);
}

// FLINT's factors of a squarefree v (each of multiplicity 1).
void factor_squarefree_by_flint(const ModPoly& v, std::vector<ModPoly>& out) {
  nmod_poly_factor_t fac;
  nmod_poly_factor_init(fac);
  nmod_poly_factor(fac, v.nmod());
  for (slong i = 0; i < fac->num; i++) {
    ModPoly q(v.modulus());
    nmod_poly_set(q.nmod(), fac->p + i);
    out.push_back(std::move(q));
  }
  nmod_poly_factor_clear(fac);
}

// The irreducible factors of v (monic, squarefree).
std::vector<ModPoly> irreducible_factors(const ModPoly& v, FactorLimits limits, SplittingRandom& random) {
  std::vector<ModPoly> out;
  if (v.degree() == 1) {
    out.push_back(v);
  } else if (v.length() < limits.flint_below) {
    factor_squarefree_by_flint(v, out);
  } else {
    for (const DegreePart& part : distinct_degree_parts(v))
      split_equal_degree(part.product, part.degree, limits, random, out);
  }
  return out;
}

}  // namespace

std::vector<std::pair<ModPoly, slong>> factor_by_stages(const ModPoly& f, fmpz_t unit_out, FactorLimits limits) {
  lead(unit_out, f);
  Factors parts, out;
  squarefree_parts(make_monic(f), 1, parts);
  SplittingRandom random;
  for (const auto& [part, multiplicity] : parts)
    for (ModPoly& q : irreducible_factors(part, limits, random)) out.emplace_back(std::move(q), multiplicity);
  return out;
}

std::size_t factor_from_modulo(ulong p) {
  return algorithm_crossover(p < small_factor_modulus ? AlgorithmCrossover::FactorSmallP : AlgorithmCrossover::Factor);
}

std::vector<std::pair<ModPoly, slong>> factor(const ModPoly& f, fmpz_t unit_out) {
  f.modulus()->require_field("factor");
  if (f.is_zero()) throw DomainError("factor: the zero polynomial has no factorisation");
  if (!f.word() || static_cast<size_t>(f.length()) < factor_from_modulo(f.modulus()->word()))
    return factor_flint(f, unit_out);
  OperationDetail d;
  d.length1 = static_cast<size_t>(f.length());
  d.modulus = f.modulus()->word();
  d.modulus_bits = static_cast<unsigned>(fmpz_bits(f.modulus()->value()));
  engine_explain("factor by ddf and edf", static_cast<double>(f.length()), d);
  const ProgressScope progress("factor by ddf and edf", static_cast<double>(f.length()));
  return factor_by_stages(f, unit_out);
}

}  // namespace cas
