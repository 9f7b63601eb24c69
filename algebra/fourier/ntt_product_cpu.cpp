#include "algebra/fourier/ntt_product_cpu.hpp"

#include "algebra/support/budget_cache.hpp"
#include "algebra/support/ceil_log2.hpp"
#include "algebra/multimodular/multimodular.hpp"
#include "algebra/fourier/ntt_cpu.hpp"
#include "algebra/support/parallel.hpp"
#include "algebra/support/words.hpp"

#include "gpu/crt_words.hpp"
#include "gpu/ntt.hpp"

#include <flint/ulong_extras.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

namespace cas {

namespace {

// Passes over arrays of at least this many words run on several threads.
constexpr std::size_t parallel_grain = std::size_t{1} << 16;
// Transforms of lengths in [side_by_side_from, side_by_side_below) run side by side on threads when
// they are independent (a product's two operands, a CRT product's primes), long enough to pay for
// handing one to a worker. Up to 2^18, for one prime, that is faster on 2 cores than one after the
// other, each on the cores itself (ntt_cpu.cpp splits from 2^16 words): 2^16-coefficient operands
// modulo 998244353 0.83-0.91 against 1.02 ms; for three CRT primes slower, 9.9 against 8.4 ms
// (docs/measurements.md, "The CPU transform's twiddle tables and threads").
constexpr std::size_t side_by_side_from = std::size_t{1} << 13, side_by_side_below = std::size_t{1} << 18;

bool side_by_side(std::size_t n) { return n >= side_by_side_from && n < side_by_side_below; }

// One transform modulo q: its length n, its plan at a root w of order n (forward, and inverse by
// inverse_into), with 1/n and its Shoup companion (q < 2^63) for the pointwise step.
struct ResidueTransforms {
  nmod_t q;
  CpuTransform forward;
  ulong n_inverse, n_inverse_shoup;

  std::size_t bytes() const { return sizeof(*this) + forward.bytes(); }

  // x mod q for x < 4q (and q < 2^62) or x < q.
  ulong below_q(ulong x) const {
    if (q.n < (ulong{1} << 62) && x >= 2 * q.n) x -= 2 * q.n;
    return x >= q.n ? x - q.n : x;
  }

  ResidueTransforms(std::size_t n, const nmod_t& mod, ulong w)
      : q(mod),
        forward(n, w, mod),
        n_inverse(n_invmod(static_cast<ulong>(n % mod.n), mod.n)),
        n_inverse_shoup(mod.n < (ulong{1} << 63) ? n_mulmod_precomp_shoup(n_inverse, mod.n) : 0) {}

  // x y / n mod q, for x, y < 4q (a lazy transform's output).
  ulong scaled_product(ulong x, ulong y) const {
    const ulong xy = nmod_mul(below_q(x), below_q(y), q);
    return n_inverse_shoup ? n_mulmod_shoup(n_inverse, xy, n_inverse_shoup, q.n) : nmod_mul(xy, n_inverse, q);
  }
};

// The tables used last stay, up to this many bytes: 2^22-word transforms modulo three primes
// (a Z[x] product of 2^21-coefficient operands) take 192 MiB. Short transforms are many and small,
// hence the bound on their number too.
constexpr std::size_t cache_bytes = std::size_t{256} << 20;
constexpr std::size_t cache_entries = 32;

// The transforms of length n modulo q at the root w of order n (gpu::root_of_unity's by default),
// built once while they stay among those used last (budget_cache.hpp).
std::shared_ptr<const ResidueTransforms> transforms_for(std::size_t n, ulong q, ulong w = 0) {
  static BudgetCache<std::tuple<std::size_t, ulong, ulong>, ResidueTransforms> cache(cache_bytes, cache_entries);
  if (!w) w = gpu::root_of_unity(q, n);
  return cache.get({n, q, w}, [&] {
    nmod_t mod;
    nmod_init(&mod, q);
    return std::make_shared<const ResidueTransforms>(n, mod, w);
  });
}

// multimodular_primes, remembered: finding NTT primes tests dozens of candidates.
std::vector<ulong> remembered_primes(ulong bound_bits, unsigned log2_length) {
  static std::mutex lock;
  static std::map<std::pair<ulong, unsigned>, std::vector<ulong>> known;
  const std::lock_guard<std::mutex> hold(lock);
  auto [place, fresh] = known.try_emplace({bound_bits, log2_length});
  if (fresh) place->second = multimodular_primes(bound_bits, log2_length);
  return place->second;
}

// Multiplies words by r^i for i = begin, begin + 1, ... in turn: the weights that turn a negacyclic
// convolution into a cyclic one (r = psi), and back (r = psi^-1). r = 0: no weights.
class Weights {
 public:
  Weights(ulong r, std::size_t begin, const nmod_t& q)
      : q_(q),
        r_(r),
        r_shoup_(r && shoup() ? n_mulmod_precomp_shoup(r, q.n) : 0),
        power_(r ? n_powmod2_ui_preinv(r, begin, q.n, q.ninv) : 1) {}

  // x r^i mod q (x < q) for the current i, which then moves on.
  ulong next(ulong x) {
    if (!r_) return x;
    x = nmod_mul(x, power_, q_);
    power_ = shoup() ? n_mulmod_shoup(r_, power_, r_shoup_, q_.n) : nmod_mul(power_, r_, q_);
    return x;
  }

 private:
  bool shoup() const { return q_.n < (ulong{1} << 63); }  // the next power by r's Shoup companion

  nmod_t q_;
  ulong r_, r_shoup_, power_;
};

// x[0, n) = the words src[0, count) mod q, weighted by psi^i (Weights), zero-padded (count <= n).
void load_residues(ulong* x, std::size_t n, const ulong* src, std::size_t count, const nmod_t& q, ulong psi = 0) {
  const crt::ReductionPrime r = crt::reduction_prime(q.n);
  const bool reduce = q.n < (ulong{1} << 63);  // a modulus of 64 bits: the operands are below it
  parallel_ranges(n, parallel_grain, [&](std::size_t begin, std::size_t end) {
    const std::size_t filled = std::clamp(count, begin, end);
    Weights weights(psi, begin, q);
    for (std::size_t i = begin; i < filled; i++)
      x[i] = weights.next(reduce ? crt::mul_shoup(src[i], 1, r.one_shoup, r.p) : src[i]);
    std::fill(x + filled, x + end, ulong{0});
  });
}

// The inverse transform of the pointwise products y (scaled by 1/n), in bit-reversed order, into
// out[0, length) reduced below q, weighted by psi_inverse^i (Weights) and then shifted by `shift`
// (mod q). It runs the forward transform's tables (at w, not w^-1), which leave sum_j y_j w^(ij) =
// c_(-i mod n) at i: the copy reads them in reverse. A second set of tables would cost up to a
// transform's time again (2^20 words, companions in a table of their own: 3.8 ms against a
// transform's 2.9; docs/measurements.md, "The CPU transform's twiddle tables and threads").
void inverse_into(ulong* out, Words& y, std::size_t length, const ResidueTransforms& t, ulong psi_inverse = 0,
                  ulong shift = 0) {
  t.forward.bit_reversed_to_natural(y.data(), CpuTransform::Output::Below4p);
  const std::size_t mask = t.forward.length() - 1;
  parallel_ranges(length, parallel_grain, [&](std::size_t begin, std::size_t end) {
    Weights weights(psi_inverse, begin, t.q);
    for (std::size_t i = begin; i < end; i++) out[i] = nmod_add(weights.next(t.below_q(y[(0 - i) & mask])), shift, t.q);
  });
}

// What a negacyclic convolution adds to a cyclic one (residue_product): psi of order 2n, psi^2 the
// transforms' root (0 for none), and a shift of the result (convolve_words_cpu_ntt).
struct Negacyclic {
  ulong psi = 0, shift = 0;
};

// out[0, length) = a b mod (q, x^n - 1), n the transforms' length (their cyclic convolution, the
// product itself when length = na + nb - 1 <= n), length <= n; x and y the transforms' work
// arrays. Operand words may exceed q (they are reduced). With a psi, a b mod x^n + 1 instead: the
// operands weighted by psi^i, the result by psi^-i, then shifted; the weights ride on the passes
// that load the operands and copy the result.
void residue_product(const ulong* a, std::size_t na, const ulong* b, std::size_t nb, const ResidueTransforms& t,
                     Words& x, Words& y, ulong* out, std::size_t length, Negacyclic negacyclic = {}) {
  const std::size_t n = t.forward.length();
  const bool square = a == b && na == nb;
  auto forward = [&](Words& work, const ulong* operand, std::size_t count) {
    load_residues(work.data(), n, operand, count, t.q, negacyclic.psi);
    t.forward.natural_to_bit_reversed(work.data(), CpuTransform::Output::Below4p);
  };
  if (square) {
    forward(x, a, na);
  } else if (side_by_side(n)) {
    parallel_ranges(2, 1, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; i++) i == 0 ? forward(x, a, na) : forward(y, b, nb);
    });
  } else {
    forward(x, a, na);
    forward(y, b, nb);
  }
  const ulong* other = square ? x.data() : y.data();
  parallel_ranges(n, parallel_grain, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; i++) x[i] = t.scaled_product(x[i], other[i]);
  });
  const ulong psi_inverse = negacyclic.psi ? n_invmod(negacyclic.psi, t.q.n) : 0;
  inverse_into(out, x, length, t, psi_inverse, negacyclic.shift);
}

// The words of the second operand's work array: none for a square, whose one transform serves both.
std::size_t second_operand_words(const ulong* a, std::size_t na, const ulong* b, std::size_t nb, std::size_t n) {
  return a == b && na == nb ? 0 : n;
}

// product(j, x, y) for each of `count` primes, x and y work arrays of n and y_words words: short
// transforms side by side, each range of primes with its own work arrays; long ones use the cores
// themselves, one prime after the other.
template <class Product>
void for_each_prime(std::size_t count, std::size_t n, std::size_t y_words, Product&& product) {
  const bool concurrent = side_by_side(n);
  parallel_ranges(concurrent ? count : 1, 1, [&](std::size_t begin, std::size_t end) {
    Words x(n), y(y_words);
    const std::size_t first = concurrent ? begin : 0, last = concurrent ? end : count;
    for (std::size_t j = first; j < last; j++) product(j, x, y);
  });
}

// The transforms of a cyclic convolution of length n modulo the prime q (at its root of order n),
// or of a negacyclic one (at psi^2, psi of order 2n, whose powers weigh the operands).
struct ConvolutionTransforms {
  ulong psi;  // 0 for the cyclic one
  std::shared_ptr<const ResidueTransforms> transforms;

  ConvolutionTransforms(std::size_t n, bool negacyclic, ulong q)
      : psi(negacyclic ? gpu::root_of_unity(q, 2 * n) : 0),
        transforms(transforms_for(n, q, negacyclic ? gpu::mul_mod(psi, psi, q) : gpu::root_of_unity(q, n))) {}
};

// out[i] = the product's coefficient i mod n from its residues residues[j length + i] modulo the
// primes (overwritten by Garner's digits v_j): c = v_0 + q_0 (v_1 + q_1 v_2 ...), so
// c mod n = sum_j v_j (q_0 ... q_(j-1) mod n).
void residues_to_modulus(std::vector<ulong>& residues, std::size_t length, const std::vector<ulong>& primes,
                         const nmod_t& mod, ulong* out) {
  const crt::GarnerTables tables(primes);
  const std::size_t k = primes.size();
  std::vector<ulong> radix_mod_n(k);  // q_0 ... q_(j-1) mod n
  ulong radix = 1 % mod.n;
  for (std::size_t j = 0; j < k; j++) {
    radix_mod_n[j] = radix;
    radix = nmod_mul(radix, primes[j] % mod.n, mod);
  }
  parallel_ranges(length, parallel_grain / 4, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; i++) {
      ulong* digits = residues.data() + i;
      crt::mixed_radix_digits(digits, length, k, tables.primes.data(), tables.inverse.data(),
                              tables.inverse_shoup.data());
      ulong c = 0;
      for (std::size_t j = 0; j < k; j++)  // v_j < 2^62 and radix_mod_n[j] < n: nmod_mul's bound holds
        c = nmod_add(c, nmod_mul(digits[j * length], radix_mod_n[j], mod), mod);
      out[i] = c;
    }
  });
}

}  // namespace

std::vector<ulong> cpu_product_primes(std::size_t na, std::size_t nb, ulong n) {
  const unsigned log2_length = ceil_log2(na + nb - 1);
  if (n > 2 && log2_length < 64 && (n - 1) % (ulong{1} << log2_length) == 0 && n_is_prime(n)) return {n};
  const ulong bound_bits = ceil_log2(std::min(na, nb)) + 2 * static_cast<ulong>(FLINT_BIT_COUNT(n - 1));
  return remembered_primes(bound_bits, log2_length);
}

void multiply_words_cpu_ntt(const ulong* a, std::size_t na, const ulong* b, std::size_t nb, const nmod_t& mod,
                            ulong* out) {
  const std::size_t length = na + nb - 1, n = std::size_t{1} << ceil_log2(length);
  const std::vector<ulong> primes = cpu_product_primes(na, nb, mod.n);
  const std::size_t y_words = second_operand_words(a, na, b, nb, n);
  if (primes.size() == 1 && primes[0] == mod.n) {
    Words x(n), y(y_words);
    residue_product(a, na, b, nb, *transforms_for(n, mod.n), x, y, out, length);
    return;
  }
  std::vector<ulong> residues(primes.size() * length);
  for_each_prime(primes.size(), n, y_words, [&](std::size_t j, Words& x, Words& y) {
    residue_product(a, na, b, nb, *transforms_for(n, primes[j]), x, y, residues.data() + j * length, length);
  });
  residues_to_modulus(residues, length, primes, mod, out);
}

bool cpu_power_in_one_transform(std::size_t na, ulong e, ulong n) {
  if (na == 0 || e == 0 || n < 3) return false;
  const double length = static_cast<double>(na - 1) * static_cast<double>(e) + 1;
  if (length > 0x1p40) return false;
  const unsigned log2_length = ceil_log2(static_cast<std::size_t>(length));
  return (n - 1) % (ulong{1} << log2_length) == 0 && n_is_prime(n);
}

void power_words_cpu_ntt(const ulong* a, std::size_t na, ulong e, const nmod_t& mod, ulong* out) {
  const std::size_t length = (na - 1) * e + 1, n = std::size_t{1} << ceil_log2(length);
  // Held for the whole call: another thread's products may evict it from the cache meanwhile.
  const std::shared_ptr<const ResidueTransforms> held = transforms_for(n, mod.n);
  const ResidueTransforms& t = *held;
  Words x(n);
  load_residues(x.data(), n, a, na, mod);
  t.forward.natural_to_bit_reversed(x.data(), CpuTransform::Output::Below4p);
  parallel_ranges(n, parallel_grain / 16, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; i++)
      x[i] = t.scaled_product(n_powmod2_preinv(t.below_q(x[i]), e, mod.n, mod.ninv), 1);
  });
  inverse_into(out, x, length, t);
}

void convolve_words_mod_prime(const ulong* a, std::size_t na, const ulong* b, std::size_t nb, std::size_t n,
                              bool negacyclic, ulong q, ulong* out) {
  const ConvolutionTransforms t(n, negacyclic, q);
  Words x(n), y(second_operand_words(a, na, b, nb, n));
  residue_product(a, na, b, nb, *t.transforms, x, y, out, n, {t.psi, 0});
}

void weight_by_powers(ulong* x, std::size_t count, ulong r, const nmod_t& q) {
  parallel_ranges(count, parallel_grain, [&](std::size_t begin, std::size_t end) {
    Weights weights(r, begin, q);
    for (std::size_t i = begin; i < end; i++) x[i] = weights.next(x[i]);
  });
}

std::vector<ulong> cpu_convolution_primes(std::size_t na, std::size_t nb, std::size_t n, bool negacyclic, ulong p) {
  const unsigned log2_order = ceil_log2(n) + (negacyclic ? 1 : 0);
  if (p > 2 && (p - 1) % (ulong{1} << log2_order) == 0 && n_is_prime(p)) return {p};
  return remembered_primes(cpu_convolution_bound_bits(na, nb, p), log2_order);
}

unsigned long cpu_convolution_bound_bits(std::size_t na, std::size_t nb, ulong p) {
  // |c_k| < B = min(na, nb) (p - 1)^2 <= 2^bound_bits over Z. As p <= 2^bits(p - 1), the negacyclic
  // ones' shift D = min(na, nb) p^2 (convolve_words_cpu_ntt) is at most 2^bound_bits too, and the
  // shifted entries lie in [0, 2^(bound_bits + 1)): below the primes' product M >= 2^(bound_bits + 1)
  // (multimodular_primes) either way.
  return ceil_log2(std::min(na, nb)) + 2 * static_cast<ulong>(FLINT_BIT_COUNT(p - 1));
}

void convolve_words_cpu_ntt(const ulong* a, std::size_t na, const ulong* b, std::size_t nb, std::size_t n,
                            bool negacyclic, const nmod_t& mod, ulong* out) {
  const std::vector<ulong> primes = cpu_convolution_primes(na, nb, n, negacyclic, mod.n);
  if (primes.size() == 1 && primes[0] == mod.n) {
    convolve_words_mod_prime(a, na, b, nb, n, negacyclic, mod.n, out);
    return;
  }
  // Over Z the negacyclic entries lie in (-D, D), D = min(na, nb) p^2: shifted by D, which is
  // 0 mod p, they lie in [0, 2D) as residues_to_modulus wants them.
  const ulong shorter = std::min(na, nb);
  std::vector<ulong> residues(primes.size() * n);
  for_each_prime(primes.size(), n, second_operand_words(a, na, b, nb, n), [&](std::size_t j, Words& x, Words& y) {
    const ConvolutionTransforms t(n, negacyclic, primes[j]);
    const nmod_t& q = t.transforms->q;
    const ulong p_mod_q = mod.n % q.n;
    const ulong shift = negacyclic ? nmod_mul(nmod_mul(p_mod_q, p_mod_q, q), shorter % q.n, q) : 0;
    residue_product(a, na, b, nb, *t.transforms, x, y, residues.data() + j * n, n, {t.psi, shift});
  });
  residues_to_modulus(residues, n, primes, mod, out);
}

}  // namespace cas
