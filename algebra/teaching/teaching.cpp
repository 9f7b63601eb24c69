#include "algebra/teaching/teaching.hpp"

#include "algebra/support/error.hpp"
#include "algebra/fourier/fourier.hpp"
#include "algebra/integers/generalized_fermat.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/poly/multipoint.hpp"

#include <optional>
#include <string>

namespace cas::teaching {

namespace {

// w^e for e = 0..count-1.
Residues powers_of(const fmpz* w, size_t count, const Modulus& m) {
  Residues out(count);
  if (count) fmpz_mod_set_ui(out[0].get(), 1, m.ctx());
  for (size_t e = 1; e < count; e++) fmpz_mod_mul(out[e].get(), out[e - 1].get(), w, m.ctx());
  return out;
}

size_t log2_of(size_t n) {
  size_t k = 0;
  while ((size_t{1} << k) < n) k++;
  return k;
}

// Applies the butterflies of a stage (powers[k] = w^k) to `before`.
Residues apply_butterflies(const Residues& before, const std::vector<Butterfly>& butterflies,
                           const Residues& powers, const Modulus& m) {
  Residues after(before.size());
  Fmpz product;
  for (const Butterfly& b : butterflies) {
    fmpz_mod_mul(product.get(), before[b.read_bottom].get(), powers[b.twiddle_exponent].get(), m.ctx());
    fmpz_mod_add(after[b.write_top].get(), before[b.read_top].get(), product.get(), m.ctx());
    fmpz_mod_sub(after[b.write_bottom].get(), before[b.read_top].get(), product.get(), m.ctx());
  }
  return after;
}

// Stage s of the iterative Cooley-Tukey FFT (as ntt_words_cpu in ntt_cpu.cpp): blocks of length
// 2^s, pairs (i + j, i + j + 2^(s-1)) in place, twiddle w^(j n / 2^s).
std::vector<Butterfly> cooley_tukey_butterflies(size_t n, size_t stage) {
  const size_t length = size_t{1} << stage, half = length / 2, stride = n / length;
  std::vector<Butterfly> out;
  for (size_t i = 0; i < n; i += length)
    for (size_t j = 0; j < half; j++)
      out.push_back({i + j, i + j + half, i + j, i + j + half, j * stride});
  return out;
}

// Stage s of the Stockham FFT, formula (12) of Moreno Maza & Pan with i = k - s and chunks of
// c = n / 2^s entries. The stride permutation puts the even chunks first, so the butterfly j
// reads the chunk pair (2q, 2q + 1), q = j / c, at offset j mod c; the twiddle of the second
// half is w^(q c); the results go to j and j + n/2.
std::vector<Butterfly> stockham_butterflies(size_t n, size_t stage) {
  const size_t chunk = n >> stage;
  std::vector<Butterfly> out;
  for (size_t j = 0; j < n / 2; j++) {
    const size_t q = j / chunk, top = 2 * q * chunk + j % chunk;
    out.push_back({top, top + chunk, j, j + n / 2, q * chunk});
  }
  return out;
}

}  // namespace

std::vector<size_t> bit_reversal(size_t n) {
  const size_t bits = log2_of(n);
  std::vector<size_t> rev(n);
  for (size_t i = 0; i < n; i++)
    for (size_t b = 0; b < bits; b++)
      if (i & (size_t{1} << b)) rev[i] |= size_t{1} << (bits - 1 - b);
  return rev;
}

FftTrace trace_fft(const Value& v, const Value& w, FftOrdering ordering, const char* what) {
  FftTrace t;
  t.input = radix2_input(v, w, what);  // checks v and w first
  t.ordering = ordering;
  t.modulus = w.modulus();
  t.w = Fmpz(w.as_int());
  const size_t n = t.input.size(), stages = log2_of(n);
  const Residues powers = powers_of(t.w.get(), n, *t.modulus);
  t.first_stage_input = t.input;
  if (ordering == FftOrdering::CooleyTukey) {
    t.bit_reversal = bit_reversal(n);
    for (size_t i = 0; i < n; i++) t.first_stage_input[i] = t.input[t.bit_reversal[i]];
  }
  Residues current = t.first_stage_input;
  for (size_t s = 1; s <= stages; s++) {
    FftStage stage;
    stage.span = ordering == FftOrdering::CooleyTukey ? size_t{1} << (s - 1) : n >> s;
    stage.butterflies = ordering == FftOrdering::CooleyTukey ? cooley_tukey_butterflies(n, s)
                                                             : stockham_butterflies(n, s);
    stage.before = current;
    stage.after = apply_butterflies(current, stage.butterflies, powers, *t.modulus);
    current = stage.after;
    t.stages.push_back(std::move(stage));
  }
  return t;
}

namespace {

// The base-r digits of b, least significant first: k of them for b < r^k, and k + 1 (a leading
// 1) for b = r^k, the one residue p - 1 that k digits cannot hold.
std::vector<Fmpz> base_digits(const Fmpz& b, const Fmpz& r, ulong k) {
  std::vector<Fmpz> digits(k);
  Fmpz rest = b;
  for (ulong i = 0; i < k; i++) fmpz_fdiv_qr(rest.get(), digits[i].get(), rest.get(), r.get());
  if (!fmpz_is_zero(rest.get())) digits.push_back(rest);
  return digits;
}

// sum digits[i] r^i, by Horner's rule.
Fmpz digits_value(const std::vector<Fmpz>& digits, const Fmpz& r) {
  Fmpz value;
  for (size_t i = digits.size(); i-- > 0;) {
    fmpz_mul(value.get(), value.get(), r.get());
    fmpz_add(value.get(), value.get(), digits[i].get());
  }
  return value;
}

}  // namespace

// b = sum d_i r^i, so r^j b = sum d_i r^(i+j); a place i + j >= k holds r^(i+j) = -r^(i+j-k),
// since r^k = -1: the digit comes back at place i + j - k, negated.
ShiftedProduct shifted_product(const Fmpz& b, ulong j, const Fmpz& r, ulong k, const Fmpz& p) {
  ShiftedProduct out;
  out.shift = j;
  out.digits = base_digits(b, r, k);
  out.shifted.resize(k);
  for (ulong i = 0; i < out.digits.size(); i++) {
    const ulong place = i + j;
    if (place < k)
      fmpz_add(out.shifted[place].get(), out.shifted[place].get(), out.digits[i].get());
    else
      fmpz_sub(out.shifted[place - k].get(), out.shifted[place - k].get(), out.digits[i].get());
  }
  out.value = digits_value(out.shifted, r);
  fmpz_mod(out.product.get(), out.value.get(), p.get());
  return out;
}

namespace {

// The r with r^k = m, if there is one (k >= 1).
std::optional<Fmpz> exact_root(const Fmpz& m, ulong k) {
  Fmpz root, power;
  fmpz_root(root.get(), m.get(), static_cast<slong>(k));
  fmpz_pow_ui(power.get(), root.get(), k);
  if (!fmpz_equal(power.get(), m.get())) return std::nullopt;
  return root;
}

std::string fermat_text(const Fmpz& p, const Fmpz& r, ulong k) {
  return p.to_string() + " = " + r.to_string() + "^" + std::to_string(k) + " + 1";
}

// Why w is not the base of p = w^k + 1, and which base is: the r of p = r^(n/2) + 1 for the n
// entries of v, or else the r of p's generalized Fermat form (with the length it needs).
[[noreturn]] void refuse_base(const Fmpz& p, const Fmpz& w, size_t n, const char* what) {
  const std::string need = std::string(what) + ": \"shifts\" needs p = w^k + 1 with w the base r";
  Fmpz m;
  fmpz_sub_ui(m.get(), p.get(), 1);
  if (n >= 4 && n % 2 == 0)
    if (std::optional<Fmpz> r = exact_root(m, n / 2))
      throw DomainError(need + ": " + fermat_text(p, *r, n / 2) + ", so w = " + r->to_string() +
                        " (an element of order " + std::to_string(n) + "), not " + w.to_string());
  if (std::optional<GeneralizedFermat> form = generalized_fermat_form(p))
    throw DomainError(need + ": " + fermat_text(p, Fmpz(form->r), form->k) + ", so w = " + std::to_string(form->r) +
                      " (an element of order " + std::to_string(2 * form->k) + ", for " +
                      std::to_string(2 * form->k) + " entries), not " + w.to_string());
  throw DomainError(need + ", and " + p.to_string() +
                    " is not r^k + 1 for any r < 2^64 and k >= 2 a power of two (65537 = 16^4 + 1 is)");
}

// p = w^k + 1 and n = 2k; returns k.
ulong require_shift_base(const Fmpz& p, const Fmpz& w, size_t n, const char* what) {
  ulong k = 0;
  if (!is_shift_root(p, w, k)) refuse_base(p, w, n, what);
  if (n != 2 * k)
    throw DomainError(std::string(what) + ": \"shifts\" at w = " + w.to_string() + " is one DFT of length 2k = " +
                      std::to_string(2 * k) + ", as " + fermat_text(p, w, k) + "; v has " + std::to_string(n) +
                      " entries");
  return k;
}

}  // namespace

ShiftTrace trace_shift_fft(const Value& v, const Value& w, const char* what) {
  const size_t n = residues_at_root(v, w, what).size();  // checks w and v first
  const Fmpz p(w.modulus()->value()), base(w.as_int());
  ShiftTrace t;
  t.k = require_shift_base(p, base, n, what);
  t.fft = trace_fft(v, w, FftOrdering::CooleyTukey, what);
  for (const FftStage& stage : t.fft.stages) {
    std::vector<ShiftedProduct> products;
    for (const Butterfly& b : stage.butterflies)
      products.push_back(shifted_product(stage.before[b.read_bottom], b.twiddle_exponent, base, t.k, p));
    t.products.push_back(std::move(products));
  }
  return t;
}

namespace {

// The DFT of x at `root` by its definition: X_k = sum_j x_j root^(j k). The six-step
// algorithm's inner transforms are short, and any length is allowed.
Residues dft_by_definition(const Residues& x, const fmpz* root, const Modulus& m) {
  const size_t n = x.size();
  const Residues powers = powers_of(root, n, m);
  Residues out(n);
  Fmpz term;
  for (size_t k = 0; k < n; k++)
    for (size_t j = 0; j < n; j++) {
      fmpz_mod_mul(term.get(), x[j].get(), powers[(j * k) % n].get(), m.ctx());
      fmpz_mod_add(out[k].get(), out[k].get(), term.get(), m.ctx());
    }
  return out;
}

Residues column(const Matrix& a, size_t c) {
  Residues out;
  for (size_t r = 0; r < a.rows; r++) out.push_back(a.at(r, c));
  return out;
}

Residues row(const Matrix& a, size_t r) {
  return Residues(a.entries.begin() + static_cast<long>(r * a.cols),
                  a.entries.begin() + static_cast<long>((r + 1) * a.cols));
}

Matrix column_dfts(const Matrix& a, const fmpz* root, const Modulus& m) {
  Matrix out = a;
  for (size_t c = 0; c < a.cols; c++) {
    Residues transformed = dft_by_definition(column(a, c), root, m);
    for (size_t r = 0; r < a.rows; r++) out.at(r, c) = transformed[r];
  }
  return out;
}

Matrix row_dfts(const Matrix& a, const fmpz* root, const Modulus& m) {
  Matrix out = a;
  for (size_t r = 0; r < a.rows; r++) {
    Residues transformed = dft_by_definition(row(a, r), root, m);
    for (size_t c = 0; c < a.cols; c++) out.at(r, c) = transformed[c];
  }
  return out;
}

Matrix transpose(const Matrix& a) {
  Matrix out{a.cols, a.rows, Residues(a.entries.size())};
  for (size_t r = 0; r < a.rows; r++)
    for (size_t c = 0; c < a.cols; c++) out.at(c, r) = a.at(r, c);
  return out;
}

// Entry (r, c) is w^(r c): the twiddle factors of step 3 (the matrix D_(J,K) of the lecture).
Matrix twiddle_factors(size_t J, size_t K, const Residues& powers) {
  Matrix out{J, K, Residues(J * K)};
  for (size_t r = 0; r < J; r++)
    for (size_t c = 0; c < K; c++) out.at(r, c) = powers[(r * c) % powers.size()];
  return out;
}

Matrix pointwise_product(const Matrix& a, const Matrix& b, const Modulus& m) {
  Matrix out = a;
  for (size_t i = 0; i < a.entries.size(); i++)
    fmpz_mod_mul(out.entries[i].get(), a.entries[i].get(), b.entries[i].get(), m.ctx());
  return out;
}

void require_factorisation(size_t n, size_t J, size_t K, const char* what) {
  if (J == 0 || K == 0 || J * K != n)
    throw DomainError(std::string(what) + ": J*K = " + std::to_string(J) + "*" + std::to_string(K) + " = " +
                      std::to_string(J * K) + " must be the length " + std::to_string(n) + " of v");
}

}  // namespace

SixStepTrace trace_six_step(const Value& v, const Value& w, size_t J, size_t K, const char* what) {
  Residues input = residues_at_root(v, w, what);
  require_factorisation(input.size(), J, K, what);
  require_primitive_root(w, input.size(), what);
  SixStepTrace t;
  t.modulus = w.modulus();
  t.w = Fmpz(w.as_int());
  t.J = J;
  t.K = K;
  const Modulus& m = *t.modulus;
  const Residues powers = powers_of(t.w.get(), input.size(), m);
  t.reshaped = Matrix{J, K, std::move(input)};
  t.column_dfts = column_dfts(t.reshaped, powers[K % powers.size()].get(), m);
  t.twiddle_factors = twiddle_factors(J, K, powers);
  t.twiddled = pointwise_product(t.column_dfts, t.twiddle_factors, m);
  t.row_dfts = row_dfts(t.twiddled, powers[J % powers.size()].get(), m);
  t.transposed = transpose(t.row_dfts);
  t.result = t.transposed.entries;
  return t;
}

EvaluationTable evaluation_table(const ModPoly& f, const Value& w, size_t n, const char* what) {
  require_primitive_root(w, n, what);
  if (static_cast<size_t>(f.length()) > n)
    throw DomainError(std::string(what) + ": deg f = " + std::to_string(f.degree()) + " must be less than n = " +
                      std::to_string(n) + " (a DFT of length n holds n coefficients)");
  EvaluationTable t{w.modulus(), Fmpz(w.as_int()), powers_of(w.as_int(), n, w.mod_context()), Residues(n),
                    ModPoly(w.modulus())};
  for (size_t i = 0; i < n; i++) evaluate(t.values[i].get(), f, t.points[i].get());
  t.interpolated = interpolate(t.points, t.values, t.modulus);
  return t;
}

std::vector<std::vector<ulong>> dft_exponents(size_t n) {
  std::vector<std::vector<ulong>> out(n, std::vector<ulong>(n));
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) out[i][j] = (i * j) % n;
  return out;
}

Matrix dft_matrix(const Value& w, size_t n, const char* what) {
  require_primitive_root(w, n, what);
  const Residues powers = powers_of(w.as_int(), n, w.mod_context());
  Matrix out{n, n, Residues(n * n)};
  const auto exponents = dft_exponents(n);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) out.at(i, j) = powers[exponents[i][j]];
  return out;
}

}  // namespace cas::teaching
