#include "algebra/multimodular/multimodular.hpp"

#include "algebra/support/ceil_log2.hpp"
#include "algebra/support/error.hpp"
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/support/flint_util.hpp"
#include "algebra/fourier/ntt_product_cpu.hpp"
#include "algebra/support/parallel.hpp"
#include "algebra/support/progress.hpp"
#include "algebra/support/words.hpp"

#include "gpu/crt.hpp"
#include "gpu/crt_words.hpp"
#include "gpu/ntt.hpp"

#include <flint/fmpz_vec.h>
#include <flint/nmod_poly.h>
#include <flint/ulong_extras.h>
#include <gmp.h>

#include <algorithm>
#include <cstring>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>

namespace cas {

const char* crt_method_name(CrtMethod method) {
  switch (method) {
    case CrtMethod::Automatic: return "automatic";
    case CrtMethod::Garner: return "garner";
    case CrtMethod::ProductTree: return "product tree";
  }
  return "?";
}

// Garner's k^2/2 word products and limb products (gpu/crt_words.hpp) win while the numbers are a
// few limbs; FLINT's product tree's subquadratic recombination from about 14 primes, where the two
// are even (the reconstruction alone of 2^16 coefficients on two threads: 26 against 27 ms; 33
// primes 141 against 73). `cas_unit_tests "[timing]"`: docs/measurements.md, "CRT reconstruction
// on the CPU: Garner against FLINT's product tree". (On the GPU, Garner runs for every prime count:
// no allocation.)
CrtMethod fastest_crt_method(size_t prime_count) {
  return prime_count < 14 ? CrtMethod::Garner : CrtMethod::ProductTree;
}

namespace {

// FLINT's product tree over the primes (fmpz_comb_t); one temporary per thread.
class Comb {
 public:
  explicit Comb(const std::vector<ulong>& primes) { fmpz_comb_init(comb_, primes.data(), static_cast<slong>(primes.size())); }
  ~Comb() { fmpz_comb_clear(comb_); }
  Comb(const Comb&) = delete;
  Comb& operator=(const Comb&) = delete;
  const fmpz_comb_struct* get() const { return comb_; }

 private:
  fmpz_comb_t comb_;
};

class CombTemp {
 public:
  explicit CombTemp(const Comb& comb) { fmpz_comb_temp_init(temp_, comb.get()); }
  ~CombTemp() { fmpz_comb_temp_clear(temp_); }
  CombTemp(const CombTemp&) = delete;
  CombTemp& operator=(const CombTemp&) = delete;
  fmpz_comb_temp_struct* get() { return temp_; }

 private:
  fmpz_comb_temp_t temp_;
};

// The magnitude of an fmpz as limbs (a view of its mpz, or of `small`) and its sign.
struct Limbs {
  const ulong* limbs;
  size_t count;
  bool negative;
};

Limbs limbs_of(const fmpz_t c, ulong& small) {
  if (!COEFF_IS_MPZ(*c)) {
    small = static_cast<ulong>(*c < 0 ? -*c : *c);
    return {&small, 1, *c < 0};
  }
  const __mpz_struct* z = COEFF_TO_PTR(*c);
  return {z->_mp_d, static_cast<size_t>(z->_mp_size < 0 ? -z->_mp_size : z->_mp_size), z->_mp_size < 0};
}

// out = (-1)^negative |limbs| for `width` limbs (high zero limbs allowed).
void set_from_limbs(fmpz_t out, const ulong* limbs, size_t width, bool negative) {
  while (width > 0 && limbs[width - 1] == 0) width--;
  if (width == 0) {
    fmpz_zero(out);
    return;
  }
  fmpz_set_ui_array(out, limbs, static_cast<slong>(width));
  if (negative) fmpz_neg(out, out);
}

// Coefficients a thread takes at least when a loop over coefficients goes to the cores, for work
// of about `words` words a coefficient: 4096 for a few words; wide ones in ranges of 2^15 words, so
// that 2^12 coefficients of 4000 bits are not two ranges on two cores (the 8 MB result of 2^12 x
// 2^12 terms of 4000 bits becomes fmpz's in 1.6 ms on a 16-core host, 5.9 ms as two ranges:
// docs/measurements.md, "Host conversions of multi-modular products by coefficient ranges").
size_t coefficient_grain(size_t words) {
  return std::clamp<size_t>((size_t{1} << 15) / std::max<size_t>(words, 1), 64, 4096);
}

// The passes over coefficients (reduction modulo the primes, reconstruction) count them as the
// running operation's steps from this many: shorter ones take milliseconds, and the stage before
// them stays on show. They count a chunk at a time, one atomic add a chunk.
constexpr size_t coefficient_steps_from = size_t{1} << 14;
constexpr size_t coefficient_step_chunk = 1024;

// The steps of a pass over `count` coefficients, named `name` (a static string).
ProgressSteps coefficient_steps(const char* name, size_t count) {
  return ProgressSteps(name, count >= coefficient_steps_from ? count : 0);
}

// visit(i) for every i in [begin, end), counted in `steps` chunk by chunk.
template <class Visit>
void visit_counted(size_t begin, size_t end, const ProgressSteps& steps, Visit&& visit) {
  for (size_t first = begin; first < end; first += coefficient_step_chunk) {
    const size_t last = std::min(end, first + coefficient_step_chunk);
    for (size_t i = first; i < last; i++) visit(i);
    steps.advance(last - first);
  }
}

// The "reduction" steps of both operands' coefficients.
ProgressSteps reduction_steps(size_t count) { return coefficient_steps("reduction", count); }

// residues[j count + i] = entry(i, q_j, residues + j count) for every prime q_j: the reduction
// kernels' bodies, run on the host, coefficient by coefficient (its limbs stay in cache across
// the primes), each counted in `steps`.
template <class Entry>
Words residues_on_host(size_t count, const std::vector<ulong>& primes, const ProgressSteps& steps, Entry&& entry) {
  std::vector<crt::ReductionPrime> reduction;
  for (ulong p : primes) reduction.push_back(crt::reduction_prime(p));
  Words residues(primes.size() * count);  // every entry written, on the threads that fault its pages in
  parallel_ranges(count, coefficient_grain(primes.size()), [&](size_t begin, size_t end) {
    visit_counted(begin, end, steps, [&](size_t i) {
      for (size_t j = 0; j < primes.size(); j++) entry(i, reduction[j], residues.data() + j * count);
    });
  });
  return residues;
}

// residues[j * length + i] = coeffs[i] mod primes[j], straight from the fmpz's limbs.
Words reduce_operand(const fmpz* coeffs, size_t length, const std::vector<ulong>& primes, const ProgressSteps& steps) {
  return residues_on_host(length, primes, steps, [coeffs](size_t i, const crt::ReductionPrime& q, ulong* out) {
    ulong small;
    const Limbs c = limbs_of(coeffs + i, small);
    out[i] = crt::residue_of_limbs(c.limbs, c.count, 1, c.negative, q);
  });
}

struct Residues {
  const ulong* a;
  size_t length_a;
  const ulong* b;
  size_t length_b;
};

// products[j * (na + nb - 1) ...] = the product modulo primes[j] on the CPU, the primes split over
// the cores (each product is independent): cas's transforms (ntt_product_cpu.hpp; the primes have
// the roots of unity for the length) above their crossover, FLINT's nmod_poly_mul below.
Words products_on_cpu(const Residues& r, const std::vector<ulong>& primes) {
  const ProgressSteps steps("primes", primes.size());
  const size_t length = r.length_a + r.length_b - 1;
  Words products(primes.size() * length);  // every entry written
  parallel_ranges(primes.size(), 1, [&](size_t begin, size_t end) {
    for (size_t j = begin; j < end; j++) {
      nmod_t mod;
      nmod_init(&mod, primes[j]);
      const ulong* a = r.a + j * r.length_a;
      const ulong* b = r.b + j * r.length_b;
      ulong* out = products.data() + j * length;
      const bool one_transform = cpu_product_primes(r.length_a, r.length_b, primes[j]).size() == 1;
      if (use_cpu_ntt(one_transform, primes[j], length))
        multiply_words_cpu_ntt(a, r.length_a, b, r.length_b, mod, out);
      else if (r.length_a >= r.length_b)  // _nmod_poly_mul wants the longer operand first
        _nmod_poly_mul(out, a, static_cast<slong>(r.length_a), b, static_cast<slong>(r.length_b), mod);
      else
        _nmod_poly_mul(out, b, static_cast<slong>(r.length_b), a, static_cast<slong>(r.length_a), mod);
      steps.advance();
    }
  });
  return products;
}

// ---- Garner's mixed-radix reconstruction ------------------------------------------------

// Reconstruction of one coefficient by gpu/crt_words.hpp's code, the same the GPU runs.
class Garner {
 public:
  explicit Garner(const std::vector<ulong>& primes) : tables_(primes) {}

  size_t scratch_size() const { return tables_.primes.size() + tables_.width(); }

  // out = the symmetric residue of (r_0, ..., r_{k-1}) (residues r_j = residues[j * stride]).
  void reconstruct(fmpz_t out, const ulong* residues, size_t stride, ulong* scratch) const {
    const size_t k = tables_.primes.size(), width = tables_.width();
    ulong* digits = scratch;
    ulong* x = scratch + k;
    for (size_t j = 0; j < k; j++) digits[j] = residues[j * stride];
    crt::mixed_radix_digits(digits, 1, k, tables_.primes.data(), tables_.inverse.data(), tables_.inverse_shoup.data());
    crt::digits_to_limbs(x, 1, width, digits, 1, k, tables_.primes.data());
    const bool negative = crt::make_symmetric(x, 1, width, tables_.modulus.data(), tables_.half.data());
    set_from_limbs(out, x, width, negative);
  }

 private:
  crt::GarnerTables tables_;
};

// The bits of the largest |coefficient|, in ranges on the cores: each coefficient above 62 bits
// is a pointer to follow (2^19 of 64 bits: 5.5 ms on one core; docs/measurements.md, "Integers on
// the cores: vectors of integers and Z[x] polynomials").
ulong max_coefficient_bits(const ZPoly& f) {
  std::mutex lock;
  ulong most = 0;
  parallel_ranges(static_cast<size_t>(f.length()), size_t{1} << 15, [&](size_t begin, size_t end) {
    const slong bits = _fmpz_vec_max_bits(f.get()->coeffs + begin, static_cast<slong>(end - begin));
    const std::lock_guard<std::mutex> hold(lock);
    most = std::max(most, static_cast<ulong>(bits < 0 ? -bits : bits));
  });
  return most;
}

}  // namespace

void reconstruct_symmetric(fmpz* out, const ulong* products, size_t length, const std::vector<ulong>& primes,
                 CrtMethod method) {
  const size_t k = primes.size();
  if (method == CrtMethod::Automatic) method = fastest_crt_method(k);
  const ProgressSteps steps = coefficient_steps("crt", length);
  if (method == CrtMethod::Garner) {
    const Garner garner(primes);
    parallel_ranges(length, 1024, [&](size_t begin, size_t end) {
      std::vector<ulong> scratch(garner.scratch_size());
      visit_counted(begin, end, steps,
                    [&](size_t i) { garner.reconstruct(out + i, products + i, length, scratch.data()); });
    });
    return;
  }
  const Comb comb(primes);
  parallel_ranges(length, 1024, [&](size_t begin, size_t end) {
    CombTemp temp(comb);
    std::vector<ulong> column(k);
    visit_counted(begin, end, steps, [&](size_t i) {
      for (size_t j = 0; j < k; j++) column[j] = products[j * length + i];
      fmpz_multi_CRT_ui(out + i, column.data(), comb.get(), temp.get(), 1);
    });
  });
}

// The limb-major matrices are transposed in blocks of this many coefficients: each limb row of a
// block is one contiguous run (2 KB) instead of one word per page, which the TLB punishes.
constexpr size_t transpose_block = 256;

void write_limb_block(const fmpz* coeffs, const gpu::LimbBlock& block) {
  coeffs += block.first;
  parallel_ranges(block.size, coefficient_grain(block.width), [&](size_t begin, size_t end) {
    std::vector<Limbs> limbs(transpose_block);
    std::vector<ulong> small(transpose_block);
    for (size_t first = begin; first < end; first += transpose_block) {
      const size_t size = std::min(transpose_block, end - first);
      for (size_t b = 0; b < size; b++) {
        limbs[b] = limbs_of(coeffs + first + b, small[b]);
        block.negative[first + b] = limbs[b].negative;
      }
      for (size_t l = 0; l < block.width; l++) {
        ulong* row = block.limbs + l * block.size + first;
        for (size_t b = 0; b < size; b++) row[b] = l < limbs[b].count ? limbs[b].limbs[l] : 0;
      }
    }
  });
}

void read_limb_block(fmpz* out, const gpu::ConstLimbBlock& block) {
  out += block.first;
  parallel_ranges(block.size, coefficient_grain(block.width), [&](size_t begin, size_t end) {
    // Each coefficient becomes an mpz of about `width` limbs and GMP's header.
    reserve_thread_heap((end - begin) * (block.width + 3) * sizeof(ulong));
    std::vector<ulong> coefficient_major(transpose_block * block.width);
    for (size_t first = begin; first < end; first += transpose_block) {
      const size_t size = std::min(transpose_block, end - first);
      for (size_t l = 0; l < block.width; l++) {
        const ulong* row = block.limbs + l * block.size + first;
        for (size_t b = 0; b < size; b++) coefficient_major[b * block.width + l] = row[b];
      }
      for (size_t b = 0; b < size; b++)
        set_from_limbs(out + first + b, coefficient_major.data() + b * block.width, block.width,
                       block.negative[first + b] != 0);
    }
  });
}

size_t limb_width(const fmpz* coeffs, size_t count) {
  return std::max<size_t>(1, static_cast<size_t>(_fmpz_vec_max_limbs(coeffs, static_cast<slong>(count))));
}

gpu::LimbSource limb_source(const fmpz* coeffs, size_t count) {
  return {count, limb_width(coeffs, count), [coeffs](const gpu::LimbBlock& block) { write_limb_block(coeffs, block); }};
}

// A matrix is one block of all its coefficients.
crt::LimbMatrix to_limb_matrix(const fmpz* coeffs, size_t count) {
  crt::LimbMatrix m;
  m.count = count;
  m.width = limb_width(coeffs, count);
  m.limbs.resize(m.width * count);
  m.negative.resize(count);
  write_limb_block(coeffs, gpu::LimbBlock{0, count, m.width, m.limbs.data(), m.negative.data()});
  return m;
}

void from_limb_matrix(fmpz* out, const crt::LimbMatrix& m) {
  read_limb_block(out, gpu::ConstLimbBlock{0, m.count, m.width, m.limbs.data(), m.negative.data()});
}

std::vector<ulong> multimodular_primes(ulong bound_bits, unsigned log2_length) {
  // M >= 2^(bound_bits + 1) exactly when M (odd, > 1) has at least bound_bits + 2 bits.
  const ulong needed_bits = bound_bits + 2;
  const size_t estimate = static_cast<size_t>(needed_bits / (multimodular_prime_bits - 1) + 1);
  std::vector<ulong> candidates = gpu::ntt_primes(multimodular_prime_bits, static_cast<int>(log2_length), estimate);
  std::vector<ulong> primes;
  Fmpz product(ulong{1});
  for (ulong p : candidates) {
    if (fmpz_bits(product.get()) >= needed_bits) break;
    primes.push_back(p);
    fmpz_mul_ui(product.get(), product.get(), p);
  }
  if (fmpz_bits(product.get()) < needed_bits)
    throw DomainError("not enough " + std::to_string(multimodular_prime_bits) + "-bit NTT primes for a product of " +
                      "length 2^" + std::to_string(log2_length) + " with coefficients of " +
                      std::to_string(bound_bits) + " bits");
  return primes;
}

namespace {

// The plan for sums of products a_i b_j, at most min(len a, len b) of them a sum (a product's
// coefficients, or a cyclic or negacyclic convolution's), with transforms of length 2^log2_length.
MultimodularPlan plan_sums_of_products(const ZPoly& a, const ZPoly& b, unsigned log2_length) {
  MultimodularPlan plan;
  if (a.is_zero() || b.is_zero()) return plan;
  const ulong shorter = static_cast<ulong>(std::min(a.length(), b.length()));
  plan.bound_bits = max_coefficient_bits(a) + max_coefficient_bits(b) + ceil_log2(shorter);
  plan.log2_length = log2_length;
  plan.primes = multimodular_primes(plan.bound_bits, plan.log2_length);
  return plan;
}

}  // namespace

MultimodularPlan plan_multimodular(const ZPoly& a, const ZPoly& b) {
  if (a.is_zero() || b.is_zero()) return {};
  return plan_sums_of_products(a, b, ceil_log2(static_cast<ulong>(a.length() + b.length() - 1)));
}

MultimodularPlan plan_convolution(const ZPoly& a, const ZPoly& b, size_t n, bool negacyclic) {
  return plan_sums_of_products(a, b, ceil_log2(n) + (negacyclic ? 1 : 0));
}

namespace {

// Garner on the host, coefficient by coefficient (reconstruct_entry), into a limb matrix.
crt::LimbMatrix reconstruct_on_host(ulong* products, size_t length, const std::vector<ulong>& primes) {
  const crt::GarnerTables tables(primes);
  crt::LimbMatrix c;
  c.count = length;
  c.width = tables.width();
  c.limbs.assign(c.width * length, 0);
  c.negative.assign(length, 0);
  const ProgressSteps steps = coefficient_steps("crt", length);
  parallel_ranges(length, 1024, [&](size_t begin, size_t end) {
    visit_counted(begin, end, steps, [&](size_t i) {
      crt::reconstruct_entry(i, products, length, tables.view(), c.limbs.data(), c.negative.data());
    });
  });
  return c;
}

// residues[j m.count + i] = entry i of m mod primes[j] (reduce_entry).
Words matrix_residues(const crt::LimbMatrix& m, const std::vector<ulong>& primes, const ProgressSteps& steps) {
  return residues_on_host(m.count, primes, steps, [&m](size_t i, const crt::ReductionPrime& q, ulong* out) {
    crt::reduce_entry(i, m.limbs.data(), m.negative.data(), m.count, m.width, q, out);
  });
}

}  // namespace

namespace {
// HostKernels pulls operands and pushes results in blocks of this many coefficients: small, so
// that the CPU's tests cross block boundaries as the GPU's (32 MiB) blocks do.
constexpr size_t host_block = 1000;

// The `length` coefficients that produce(sink) hands to the sink, block by block.
template <class Produce>
ZPoly zpoly_from_blocks(size_t length, Produce&& produce) {
  ZPoly c;
  fmpz_poly_fit_length(c.get(), static_cast<slong>(length));
  produce(gpu::LimbSink([&c](const gpu::ConstLimbBlock& block) { read_limb_block(c.get()->coeffs, block); }));
  c.mark_made_on_cores();
  _fmpz_poly_set_length(c.get(), static_cast<slong>(length));
  _fmpz_poly_normalise(c.get());
  return c;
}

// After the Gpu engine's call (the plan's primes nonempty: the call was made), how it divided the
// primes among the devices, for :explain. gpu::last_split is the calling thread's record.
void note_split(MultimodularPlan& plan, ProductEngine engine) {
  if (engine == ProductEngine::Gpu && !plan.primes.empty()) plan.primes_per_device = gpu::last_split().primes_per_device;
}
}  // namespace

crt::LimbMatrix multiply_limb_matrices_on_host(const crt::LimbMatrix& a, const crt::LimbMatrix& b,
                                               const std::vector<ulong>& primes) {
  const ProgressSteps reduced = reduction_steps(a.count + b.count);
  const Words ra = matrix_residues(a, primes, reduced), rb = matrix_residues(b, primes, reduced);
  Words products = products_on_cpu(Residues{ra.data(), a.count, rb.data(), b.count}, primes);
  return reconstruct_on_host(products.data(), a.count + b.count - 1, primes);
}

namespace {

// The convolution modulo M by the GPU pipeline's steps on the host: the product's residues
// (multiply_limb_matrices_on_host's), each prime's row folded by fold_entry, reconstruct_entry.
crt::LimbMatrix convolve_limb_matrices_on_host(const crt::LimbMatrix& a, const crt::LimbMatrix& b, size_t n,
                                               bool negacyclic, const std::vector<ulong>& primes) {
  const ProgressSteps reduced = reduction_steps(a.count + b.count);
  const Words ra = matrix_residues(a, primes, reduced), rb = matrix_residues(b, primes, reduced);
  const Words products = products_on_cpu(Residues{ra.data(), a.count, rb.data(), b.count}, primes);
  const size_t length = a.count + b.count - 1;
  Words folded(primes.size() * n);
  for (size_t j = 0; j < primes.size(); j++)
    for (size_t i = 0; i < n; i++)
      crt::fold_entry(i, products.data() + j * length, length, n, negacyclic, primes[j], folded.data() + j * n);
  return reconstruct_on_host(folded.data(), n, primes);
}

// f^e modulo M by the GPU pipeline's steps on the host: reduce_entry, the power modulo each prime
// (the primes split over the cores; in one transform above the CPU's crossover, else FLINT's
// nmod_poly_pow), reconstruct_entry.
crt::LimbMatrix power_limb_matrix_on_host(const crt::LimbMatrix& f, ulong e, const std::vector<ulong>& primes) {
  const Words residues = matrix_residues(f, primes, reduction_steps(f.count));
  const size_t length = static_cast<size_t>(e) * (f.count - 1) + 1;
  Words powers(primes.size() * length);  // every entry written
  const ProgressSteps steps("primes", primes.size());
  parallel_ranges(primes.size(), 1, [&](size_t begin, size_t end) {
    for (size_t j = begin; j < end; j++) {
      nmod_t mod;
      nmod_init(&mod, primes[j]);
      const ulong* base = residues.data() + j * f.count;
      if (e == 1)  // _nmod_poly_pow wants e > 1
        std::copy(base, base + f.count, powers.data() + j * length);
      else if (cpu_power_in_one_transform(f.count, e, primes[j]) && use_cpu_ntt(true, primes[j], length))
        power_words_cpu_ntt(base, f.count, e, mod, powers.data() + j * length);
      else
        _nmod_poly_pow(powers.data() + j * length, base, static_cast<slong>(f.count), e, mod);
      steps.advance();
    }
  });
  return reconstruct_on_host(powers.data(), length, primes);
}

// The polynomial of `length` coefficients whose residues modulo the primes are
// residues[j * length + i], in symmetric representation, reconstructed on the cores.
ZPoly zpoly_from_residues(const Words& residues, size_t length, const std::vector<ulong>& primes,
                          CrtMethod method) {
  ZPoly c;
  fmpz_poly_fit_length(c.get(), static_cast<slong>(length));
  reconstruct_symmetric(c.get()->coeffs, residues.data(), length, primes, method);
  c.mark_made_on_cores();
  _fmpz_poly_set_length(c.get(), static_cast<slong>(length));
  _fmpz_poly_normalise(c.get());
  return c;
}

}  // namespace

ZPoly multiply_with_primes(const ZPoly& a, const ZPoly& b, const std::vector<ulong>& primes, ProductEngine engine,
                           CrtMethod method) {
  ZPoly c;
  if (a.is_zero() || b.is_zero() || primes.empty()) return c;
  progress_primes(primes.size());
  const size_t la = static_cast<size_t>(a.length()), lb = static_cast<size_t>(b.length());
  const size_t length = la + lb - 1;
  if (engine != ProductEngine::Cpu) {  // the word-level pipeline, on the GPU or its steps on the host
    const gpu::LimbSource sa = limb_source(a.get()->coeffs, la), sb = limb_source(b.get()->coeffs, lb);
    return zpoly_from_blocks(length, [&](const gpu::LimbSink& sink) {
      if (engine == ProductEngine::Gpu) return gpu::multiply_limb_sources(sa, sb, primes, sink);
      const crt::LimbMatrix c = multiply_limb_matrices_on_host(gpu::pull_matrix(sa, host_block),
                                                               gpu::pull_matrix(sb, host_block), primes);
      gpu::push_matrix(c, host_block, sink);
    });
  }
  Words products;
  {
    const ProgressSteps reduced = reduction_steps(la + lb);
    const Words ra = reduce_operand(a.get()->coeffs, la, primes, reduced);
    const Words rb = reduce_operand(b.get()->coeffs, lb, primes, reduced);
    const Residues residues{ra.data(), la, rb.data(), lb};
    products = products_on_cpu(residues, primes);
  }
  return zpoly_from_residues(products, length, primes, method);
}

ZPoly convolve_through_product(const ZPoly& a, const ZPoly& b, size_t n, bool negacyclic, ProductEngine engine,
                               MultimodularPlan* plan_out) {
  MultimodularPlan plan = plan_multimodular(a, b);
  ZPoly c;
  if (!plan.primes.empty()) {
    progress_primes(plan.primes.size());
    const gpu::LimbSource sa = limb_source(a.get()->coeffs, static_cast<size_t>(a.length()));
    const gpu::LimbSource sb = limb_source(b.get()->coeffs, static_cast<size_t>(b.length()));
    c = zpoly_from_blocks(n, [&](const gpu::LimbSink& sink) {
      if (engine == ProductEngine::Gpu) return gpu::convolve_limb_sources(sa, sb, n, negacyclic, plan.primes, sink);
      const crt::LimbMatrix folded = convolve_limb_matrices_on_host(
          gpu::pull_matrix(sa, host_block), gpu::pull_matrix(sb, host_block), n, negacyclic, plan.primes);
      gpu::push_matrix(folded, host_block, sink);
    });
    note_split(plan, engine);
  }
  if (plan_out) *plan_out = std::move(plan);
  return c;
}

ZPoly convolve_with_primes(const ZPoly& a, const ZPoly& b, size_t n, bool negacyclic,
                           const std::vector<ulong>& primes) {
  if (a.is_zero() || b.is_zero() || primes.empty()) return ZPoly();
  progress_primes(primes.size());
  const size_t la = static_cast<size_t>(a.length()), lb = static_cast<size_t>(b.length());
  Words convolutions(primes.size() * n);  // every entry written
  {
    const ProgressSteps reduced = reduction_steps(la + lb);
    const Words ra = reduce_operand(a.get()->coeffs, la, primes, reduced);
    const Words rb = reduce_operand(b.get()->coeffs, lb, primes, reduced);
    const ProgressSteps steps("primes", primes.size());
    parallel_ranges(primes.size(), 1, [&](size_t begin, size_t end) {
      for (size_t j = begin; j < end; j++) {
        convolve_words_mod_prime(ra.data() + j * la, la, rb.data() + j * lb, lb, n, negacyclic, primes[j],
                                 convolutions.data() + j * n);
        steps.advance();
      }
    });
  }
  return zpoly_from_residues(convolutions, n, primes, CrtMethod::Automatic);
}

ZPoly multiply_multimodular(const ZPoly& a, const ZPoly& b, ProductEngine engine, MultimodularPlan* plan_out) {
  MultimodularPlan plan = plan_multimodular(a, b);
  ZPoly c = multiply_with_primes(a, b, plan.primes, engine);
  note_split(plan, engine);
  if (plan_out) *plan_out = std::move(plan);
  return c;
}

ulong power_bound_bits(const ZPoly& f, ulong e) {
  return e * max_coefficient_bits(f) + (e - 1) * ceil_log2(static_cast<ulong>(f.length()));
}

MultimodularPlan plan_multimodular_power(const ZPoly& f, ulong e) {
  if (f.is_zero() || e == 0) return {};
  return plan_multimodular_power(f, e, power_bound_bits(f, e));
}

MultimodularPlan plan_multimodular_power(const ZPoly& f, ulong e, ulong bound_bits) {
  MultimodularPlan plan;
  if (f.is_zero() || e == 0) return plan;
  const ulong n = static_cast<ulong>(f.length());
  plan.bound_bits = bound_bits;
  plan.log2_length = ceil_log2(e * (n - 1) + 1);
  plan.primes = multimodular_primes(plan.bound_bits, plan.log2_length);
  return plan;
}

ZPoly power_multimodular(const ZPoly& f, ulong e, ProductEngine engine, MultimodularPlan* plan_out) {
  MultimodularPlan plan = plan_multimodular_power(f, e);
  ZPoly c = power_with_primes(f, e, plan.primes, engine);
  note_split(plan, engine);
  if (plan_out) *plan_out = std::move(plan);
  return c;
}

ZPoly power_with_primes(const ZPoly& f, ulong e, const std::vector<ulong>& primes, ProductEngine engine) {
  ZPoly c;
  if (e == 0) {
    fmpz_poly_set_ui(c.get(), 1);
  } else if (!f.is_zero()) {
    progress_primes(primes.size());
    const size_t n = static_cast<size_t>(f.length());
    const gpu::LimbSource source = limb_source(f.get()->coeffs, n);
    c = zpoly_from_blocks(static_cast<size_t>(e) * (n - 1) + 1, [&](const gpu::LimbSink& sink) {
      if (engine == ProductEngine::Gpu) return gpu::power_limb_source(source, e, primes, sink);
      gpu::push_matrix(power_limb_matrix_on_host(gpu::pull_matrix(source, host_block), e, primes), host_block, sink);
    });
  }
  return c;
}

namespace {
// A polynomial over Z/pZ as one in Z[x] with coefficients 0..p-1.
ZPoly lift(const ModPoly& f) {
  ZPoly z;
  Fmpz c;
  fmpz_poly_fit_length(z.get(), f.length());
  for (slong i = 0; i < f.length(); i++) {
    f.coeff(c.get(), i);
    fmpz_set(z.get()->coeffs + i, c.get());
  }
  _fmpz_poly_set_length(z.get(), f.length());
  return z;
}
}  // namespace

ModPoly multiply_multimodular(const ModPoly& a, const ModPoly& b, ProductEngine engine, MultimodularPlan* plan_out) {
  const ZPoly c = multiply_multimodular(lift(a), lift(b), engine, plan_out);
  ModPoly r(a.modulus());
  if (r.word())
    fmpz_poly_get_nmod_poly(r.nmod(), c.get());
  else
    fmpz_mod_poly_set_fmpz_poly(r.big(), c.get(), r.ctx());
  return r;
}

ulong integer_limb_bits(ulong bits_a, ulong bits_b) {
  // Three primes of more than 61 bits hold 183 bits: 2b + ceil(log2(limbs of the shorter
  // factor)) + 1 (the sign bit of the bound) must stay below, with at least 64-bit limbs counted.
  // Fewer, shorter limbs with two primes cost about the same (2/50 against 3/80 transforms per
  // input bit); three keep the limbs above a word.
  const ulong shorter_limbs = std::min(bits_a, bits_b) / 64 + 1;
  return (182 - ceil_log2(shorter_limbs)) / 2;
}

namespace {

// Words enough for P_0, P_1, P_2 of `length` coefficients below 2^(3b) at t = 2^b.
size_t packed_words(size_t length, unsigned b) { return static_cast<size_t>(b) * (length + 2) / 64 + 2; }

// P_0 + P_1 + P_2 before the carries between words (crt::summed_words_entry): `words` sums, then
// crt::summed_groups(words) words of 2-bit carries, into `summed`.
void summed_words_on_host(const crt::LimbMatrix& c, unsigned b, size_t words, ulong* summed) {
  const size_t groups = crt::summed_groups(words);
  parallel_ranges(groups, 1024, [&](size_t begin, size_t end) {
    for (size_t g = begin; g < end; g++)
      crt::summed_words_entry(g, c.limbs.data(), c.count, c.width, b, words, summed, summed + words);
  });
}

// |a| |b| as summed words (summed_words_on_host) by the GPU pipeline's steps on the host: b-bit
// chunks reduced modulo each prime, the products, Garner into a limb matrix, the packed sums
// added word by word, into `summed`.
void multiply_magnitudes_on_host(const Limbs& a, size_t chunks_a, const Limbs& b, size_t chunks_b, unsigned limb_bits,
                                 const std::vector<ulong>& primes, size_t words, ulong* summed) {
  auto chunk_residues = [limb_bits](const Limbs& x) {
    return [&x, limb_bits](size_t i, const crt::ReductionPrime& q, ulong* residues) {
      crt::chunk_residue_entry(i, x.limbs, x.count, limb_bits, q, residues);
    };
  };
  const ProgressSteps reduced = reduction_steps(chunks_a + chunks_b);
  const Words ra = residues_on_host(chunks_a, primes, reduced, chunk_residues(a));
  const Words rb = residues_on_host(chunks_b, primes, reduced, chunk_residues(b));
  Words products = products_on_cpu(Residues{ra.data(), chunks_a, rb.data(), chunks_b}, primes);
  summed_words_on_host(reconstruct_on_host(products.data(), chunks_a + chunks_b - 1, primes), limb_bits, words, summed);
}

// The plan for b-bit chunks: every chunk is below 2^b.
MultimodularPlan plan_for_chunks(size_t chunks_a, size_t chunks_b, ulong limb_bits) {
  MultimodularPlan plan;
  plan.bound_bits = 2 * limb_bits + ceil_log2(std::min(chunks_a, chunks_b));
  plan.log2_length = ceil_log2(chunks_a + chunks_b - 1);
  plan.primes = multimodular_primes(plan.bound_bits, plan.log2_length);
  return plan;
}

}  // namespace

// Straight into out's limbs: ranges of words in parallel, each adding the carries inside it; each
// range's carry out (at most 3) then added into the next range in order.
void finish_summed_words(fmpz_t out, const ulong* summed, size_t words, size_t ranges) {
  mpz_ptr z = _fmpz_promote(out);
  mpz_realloc2(z, static_cast<mp_bitcnt_t>(words) * 64);
  ulong* x = z->_mp_d;
  // A new integer's limbs are fresh memory, first touched by the ranges below: with huge pages
  // asked for, a product of two 10^8-bit integers takes 5.3-5.6 ms in cas, 7.4-7.9 without
  // (docs/measurements.md, "A product in cas against the engine's figure").
  advise_huge_pages_if_large(x, words * sizeof(ulong));
  const ulong* sums = summed;
  const ulong* carry_bits = sums + words;
  const size_t grain = 4096;
  if (ranges == 0) ranges = std::min<size_t>(core_count(), words / grain);
  ranges = std::max<size_t>(1, std::min(ranges, words));
  auto begin = [&](size_t r) { return words * r / ranges; };
  std::vector<ulong> carry(ranges);
  parallel_ranges(ranges, 1, [&](size_t first, size_t last) {
    for (size_t r = first; r < last; r++) {
      const size_t b = begin(r), e = begin(r + 1);
      ulong in = 0;  // into word w: the carry out of word w - 1 and 1 if its addition overflowed
      for (size_t w = b; w < e; w++) {
        const ulong sum = sums[w] + in;
        x[w] = sum;
        in = crt::carry_out_of(carry_bits, w) + (sum < in ? 1 : 0);
      }
      carry[r] = in;
    }
  });
  for (size_t r = 1; r < ranges; r++)
    if (carry[r - 1] != 0)
      carry[r] += mpn_add_1(x + begin(r), x + begin(r), static_cast<mp_size_t>(begin(r + 1) - begin(r)), carry[r - 1]);
  size_t size = words;
  while (size > 0 && x[size - 1] == 0) size--;
  z->_mp_size = static_cast<int>(size);
  _fmpz_demote_val(out);  // a small value goes back into the fmpz word
}

void multiply_integers_multimodular(fmpz_t out, const fmpz_t a, const fmpz_t b, ProductEngine engine,
                                    MultimodularPlan* plan_out) {
  if (fmpz_is_zero(a) || fmpz_is_zero(b)) {
    fmpz_zero(out);
    if (plan_out) *plan_out = MultimodularPlan{};
    return;
  }
  const int sign = fmpz_sgn(a) * fmpz_sgn(b);
  const ulong limb_bits = integer_limb_bits(fmpz_bits(a), fmpz_bits(b));
  // Every engine takes the word-level route: for three primes Garner is the faster reconstruction
  // anyway, and the limbs need no fmpz in between.
  ulong small_a, small_b;
  const Limbs la = limbs_of(a, small_a), lb = limbs_of(b, small_b);
  const size_t chunks_a = (fmpz_bits(a) + limb_bits - 1) / limb_bits;
  const size_t chunks_b = (fmpz_bits(b) + limb_bits - 1) / limb_bits;
  MultimodularPlan plan = plan_for_chunks(chunks_a, chunks_b, limb_bits);
  progress_primes(plan.primes.size());
  const unsigned bits = static_cast<unsigned>(limb_bits);
  const size_t words = packed_words(chunks_a + chunks_b - 1, bits);
  // Every entry written by the engine; a reused block, not fresh memory, from the second product
  // of a size on (words.hpp).
  Words summed(words + crt::summed_groups(words));
  if (engine == ProductEngine::Gpu) {
    gpu::multiply_magnitudes_summed(la.limbs, la.count, chunks_a, lb.limbs, lb.count, chunks_b, bits, plan.primes,
                                    words, summed.data());
    note_split(plan, engine);
  } else {
    multiply_magnitudes_on_host(la, chunks_a, lb, chunks_b, bits, plan.primes, words, summed.data());
  }
  Fmpz product;  // out may alias a or b
  finish_summed_words(product.get(), summed.data(), words);
  fmpz_swap(out, product.get());
  if (sign < 0) fmpz_neg(out, out);
  if (plan_out) *plan_out = plan;
}

namespace {

// The product on one engine, noted for :timer and :explain.
template <class Poly>
Poly multimodular_product_noted(const Poly& a, const Poly& b, ProductEngine engine, MultimodularPlan& plan) {
  const ProgressScope progress(engine == ProductEngine::Gpu ? "gpu crt product" : "cpu crt product",
                               static_cast<double>(a.length() + b.length() - 1));
  Poly c = multiply_multimodular(a, b, engine, &plan);
  OperationDetail d;
  d.length1 = static_cast<size_t>(a.length());
  d.length2 = static_cast<size_t>(b.length());
  d.primes = static_cast<unsigned>(plan.primes.size());
  d.bound_bits = plan.bound_bits;
  if constexpr (std::is_same_v<Poly, ModPoly>) d.modulus_bits = static_cast<unsigned>(fmpz_bits(a.modulus()->value()));
  note_primes_per_device(d, plan.primes_per_device);
  if (!plan.primes.empty())
    engine_note(engine == ProductEngine::Gpu ? "gpu crt" : "cpu crt", static_cast<double>(a.length() + b.length() - 1), d);
  return c;
}

template <class Poly>
Poly multimodular_on_best_engine(const Poly& a, const Poly& b, MultimodularPlan& plan) {
  if (gpu_usable() && gpu_mode() != GpuMode::Off) {
    try {
      return multimodular_product_noted(a, b, ProductEngine::Gpu, plan);
    } catch (const gpu::Error& e) {
      post_notice(std::string("the GPU failed (") + e.what() + "); multimodular ran on the CPU");
    }
  }
  return multimodular_product_noted(a, b, ProductEngine::Cpu, plan);
}

}  // namespace

ZPoly multiply_multimodular_on_best_engine(const ZPoly& a, const ZPoly& b, MultimodularPlan& plan) {
  return multimodular_on_best_engine(a, b, plan);
}

ModPoly multiply_multimodular_on_best_engine(const ModPoly& a, const ModPoly& b, MultimodularPlan& plan) {
  return multimodular_on_best_engine(a, b, plan);
}

}  // namespace cas
