#pragma once
// Products in Z[x], and of huge integers, through word-size NTT primes: reduce both operands
// modulo k primes, multiply modulo each prime on an engine (the GPU, or on the CPU cas's transforms
// and below their crossover FLINT's nmod_poly_mul), and reconstruct every coefficient by the CRT in
// symmetric representation. k comes from a proven bound on the product's coefficients, so the
// result always equals fmpz_poly_mul's (resp. fmpz_mul's), on either engine.
#include "algebra/poly/modpoly.hpp"
#include "algebra/poly/zpoly.hpp"

#include "gpu/crt_words.hpp"
#include "gpu/limb_blocks.hpp"

#include <flint/fmpz.h>

#include <vector>

namespace cas {

// Cpu: FLINT's products and reconstruction straight from the fmpz coefficients, the fastest on
// the CPU. Gpu: the GPU engine. HostKernels: the GPU pipeline's word-level steps (reduction,
// Garner, limb-major layout: gpu/crt_words.hpp) run on the host, so that the tests check on
// every machine the arithmetic the GPU kernels execute.
enum class ProductEngine { Cpu, Gpu, HostKernels };

// How the residues become integers again: Garner's mixed-radix form (digits by word-size Shoup
// products, then a Horner loop on limbs) or FLINT's product tree (fmpz_comb_t, fmpz_multi_CRT_ui);
// Automatic picks the faster for the prime count (measured: see multimodular.cpp).
enum class CrtMethod { Automatic, Garner, ProductTree };
const char* crt_method_name(CrtMethod method);
CrtMethod fastest_crt_method(size_t prime_count);

// The transform primes have 62 bits: below 2^62 the GPU's 64-bit kernels keep values lazily in
// [0, 2p) (gpu/modarith.cuh), and a 62-bit prime carries twice the bits of a 31-bit one. The 31-bit
// kernels are about twice as fast per transform (half the bytes), but the host-to-host product
// is bound by the PCIe transfers, which take 64-bit words either way, and by the reduction and
// the CRT on the CPU, which cost per prime: half as many primes wins end to end.
constexpr int multimodular_prime_bits = 62;

struct MultimodularPlan {
  std::vector<ulong> primes;  // largest first; 2^log2_length divides every p - 1
  ulong bound_bits = 0;       // |c_k| < 2^bound_bits for every coefficient of the product
  unsigned log2_length = 0;   // ceil(log2(length of the product))
  // Filled by the Gpu engine after its call: the primes each device took (gpu::last_split), one
  // entry when one device did it all; empty on the other engines.
  std::vector<size_t> primes_per_device;
};

// The primes for a product of these operands: |c_k| <= min(len a, len b) |a|_inf |b|_inf
// < 2^bound_bits, and the primes' product M >= 2^(bound_bits + 1) > 2 |c_k| (one bit for the
// sign), so the symmetric residue mod M is c_k. Empty for a zero operand.
MultimodularPlan plan_multimodular(const ZPoly& a, const ZPoly& b);
// The primes plan_multimodular would pick for this bound and product length.
std::vector<ulong> multimodular_primes(ulong bound_bits, unsigned log2_length);

// a * b; plan_out (may be null) receives the plan. Throws what the GPU engine throws
// (gpu::OutOfMemory, gpu::Error) on the Gpu engine.
ZPoly multiply_multimodular(const ZPoly& a, const ZPoly& b, ProductEngine engine,
                            MultimodularPlan* plan_out = nullptr);
// The cyclic convolution of length n of a and b (their product modulo x^n - 1), or with negacyclic
// the negacyclic one (modulo x^n + 1): n a power of two, len a, len b <= n. The primes have
// 2n | p - 1 for the negacyclic one's weights; the bound is the product's (each coefficient is
// a sum of at most min(len a, len b) products a_i b_j, with signs).
MultimodularPlan plan_convolution(const ZPoly& a, const ZPoly& b, size_t n, bool negacyclic);
// That convolution through these primes on the CPU: per prime, one transform of length n per
// operand and one inverse (convolve_words_mod_prime), where a product would take length 2n.
ZPoly convolve_with_primes(const ZPoly& a, const ZPoly& b, size_t n, bool negacyclic,
                           const std::vector<ulong>& primes);

// The same through the product's primes (plan_multimodular; plan_out receives the plan) by the GPU
// pipeline (gpu::convolve_limb_sources: each prime's product folded modulo x^n -+ 1 on the device,
// n coefficients rebuilt and brought back, not 2n - 1), or with HostKernels its steps on the host.
// Throws what the GPU engine throws on the Gpu engine.
ZPoly convolve_through_product(const ZPoly& a, const ZPoly& b, size_t n, bool negacyclic, ProductEngine engine,
                               MultimodularPlan* plan_out = nullptr);

// f^e, e >= 1: a coefficient of f^e is a sum of at most n^(e-1) products of e coefficients of f
// (n = len f), so |c_k| <= n^(e-1) |f|_inf^e < 2^bound_bits with bound_bits = e bits(|f|_inf) +
// (e - 1) ceil(log2 n). Empty for f = 0.
MultimodularPlan plan_multimodular_power(const ZPoly& f, ulong e);
MultimodularPlan plan_multimodular_power(const ZPoly& f, ulong e, ulong bound_bits);  // the bound known
ulong power_bound_bits(const ZPoly& f, ulong e);  // that bound_bits, without the primes
// f^e through those primes, each prime's power in ONE forward and one inverse transform (the
// transformed f is raised to the e-th power pointwise; no transform of an intermediate power).
// Gpu: on the GPU; HostKernels and Cpu: the same steps on the host, FLINT's nmod_poly_pow for the
// powers modulo each prime. e = 0 gives 1.
ZPoly power_multimodular(const ZPoly& f, ulong e, ProductEngine engine, MultimodularPlan* plan_out = nullptr);
// The same through the caller's primes (the plan's, or any whose product exceeds twice the bound).
ZPoly power_with_primes(const ZPoly& f, ulong e, const std::vector<ulong>& primes, ProductEngine engine);

// Z/pZ[x] (any p; meant for p above 64 bits): both operands lifted to Z[x] with coefficients
// 0..p-1, multiplied as above, reduced mod p. plan_out receives the Z[x] plan.
ModPoly multiply_multimodular(const ModPoly& a, const ModPoly& b, ProductEngine engine,
                              MultimodularPlan* plan_out = nullptr);
// a * b through the primes on the GPU when one is usable and not switched off (gpu("off")), else
// on the cores: the result is the same. A GPU failure falls back to the cores with a notice. The
// product is noted for :timer and :explain ("gpu crt", "cpu crt"). For the builtin multimodular.
ZPoly multiply_multimodular_on_best_engine(const ZPoly& a, const ZPoly& b, MultimodularPlan& plan);
ModPoly multiply_multimodular_on_best_engine(const ModPoly& a, const ModPoly& b, MultimodularPlan& plan);
// The same with the caller's primes (each < 2^63, pairwise coprime, 2^log2(length) | p - 1 on the
// GPU engine): the symmetric residue of a * b modulo their product, exact only when the product
// exceeds 2 |c_k|. For tests and the benchmark.
ZPoly multiply_with_primes(const ZPoly& a, const ZPoly& b, const std::vector<ulong>& primes, ProductEngine engine,
                           CrtMethod method = CrtMethod::Automatic);

// out[i] = the symmetric residue (in (-M/2, M/2), M the primes' product) of the residues
// residues[j * length + i] modulo primes[j], for i < length; in parallel over coefficient ranges.
void reconstruct_symmetric(fmpz* out, const ulong* residues, size_t length,
                           const std::vector<ulong>& primes, CrtMethod method = CrtMethod::Automatic);

// Coefficients as the GPU's limb-major matrices (gpu/crt_words.hpp) and blocks of them
// (gpu/limb_blocks.hpp), and back, in parallel over the coefficients. A matrix's width is the most
// limbs of any coefficient (at least 1).
crt::LimbMatrix to_limb_matrix(const fmpz* coeffs, size_t count);
// out[i] = entry i of m, i < m.count.
void from_limb_matrix(fmpz* out, const crt::LimbMatrix& m);
// The block's coefficients, coeffs[block.first .. block.first + block.size), written into it.
void write_limb_block(const fmpz* coeffs, const gpu::LimbBlock& block);
// out[block.first + b] = entry b of the block.
void read_limb_block(fmpz* out, const gpu::ConstLimbBlock& block);
// The count coefficients (which must outlive it) as a source of limb blocks.
gpu::LimbSource limb_source(const fmpz* coeffs, size_t count);

// The product of two polynomials given as limb matrices, modulo the primes' product, in
// symmetric representation (as multiply_with_primes), by the GPU pipeline's steps on the host.
crt::LimbMatrix multiply_limb_matrices_on_host(const crt::LimbMatrix& a, const crt::LimbMatrix& b,
                                               const std::vector<ulong>& primes);

// out = sum over w of (summed[w] + carry_w-1) 2^(64 w): `words` sums followed by their 2-bit
// carries (crt::summed_words_entry, crt::carry_out_of), the last word's carry zero; the result
// must fit in `words` words. ranges: how many pieces are added in parallel (0: one per core, pieces
// of at least 4096 words).
void finish_summed_words(fmpz_t out, const ulong* summed, size_t words, size_t ranges = 0);

// out = a * b for integers: |a| and |b| cut into chunks of b = integer_limb_bits bits (polynomials
// at x = 2^b, every chunk reduced straight from the limbs), one product modulo each of three
// primes, Garner, and the coefficients evaluated back at 2^b as three packed sums (disjoint bit
// fields) added word by word (crt::summed_words_entry) and then with carries (finish_summed_words).
void multiply_integers_multimodular(fmpz_t out, const fmpz_t a, const fmpz_t b, ProductEngine engine,
                                    MultimodularPlan* plan_out = nullptr);
// The limb size for factors of these bit sizes: the largest that keeps the product in 3 primes.
ulong integer_limb_bits(ulong bits_a, ulong bits_b);

}  // namespace cas
