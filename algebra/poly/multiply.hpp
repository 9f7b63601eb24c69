#pragma once
// Polynomial products and powers: the one place that decides which engine
// runs a multiplication (FLINT, cas's transforms and primes on the cores, or
// the GPU engine), so that the interpreter never knows.
#include "algebra/poly/modpoly.hpp"
#include "algebra/poly/zpoly.hpp"
#include "algebra/support/parallel.hpp"

#include <cstddef>
#include <exception>
#include <utility>
#include <vector>

namespace cas {

// Where a product or power that the GPU computes over a word-size prime field leaves its result:
// on the host (the steps of an algorithm, which read it next), or kept on the GPU (a value of the
// language: the next product reads it there, and the host copies it when it needs it, see
// algebra/dispatch/resident.hpp). Operands the GPU holds are read there either way.
enum class ResultPlace { Host, KeptOnGpu };

ModPoly multiply(const ModPoly& a, const ModPoly& b, ResultPlace place = ResultPlace::Host);
// The same without asking the GPU: cas's transforms on the cores, or FLINT (after the GPU failed).
ModPoly multiply_on_cpu(const ModPoly& a, const ModPoly& b);
// Independent products a_i b_i (the steps of an algorithm), each on the engine multiply() picks:
// those the GPU takes one after the other on this thread, the others side by side on the cores
// (each_on_cores), where a long one spreads further. The same results as multiply() one by one.
// Short ones (fewer than side_by_side_from_terms operand terms in all) run one after the other:
// handing them to the workers costs more than they do.
using Operands = std::pair<const ModPoly*, const ModPoly*>;
std::vector<ModPoly> multiply_each(const std::vector<Operands>& products);
constexpr size_t side_by_side_from_terms = 4096;

// What multiply_each and remainder_each share: for the pairs with on_gpu(a, b), gpu_op(a, b) one
// after the other on this thread; for the others cpu_op(a, b), side by side on the cores from
// side_by_side_from_terms operand terms in all (on this thread too below that).
template <class OnGpu, class GpuOp, class CpuOp>
std::vector<ModPoly> each_pair(const std::vector<Operands>& pairs, OnGpu&& on_gpu, GpuOp&& gpu_op, CpuOp&& cpu_op) {
  std::vector<ModPoly> out;
  out.reserve(pairs.size());
  std::vector<size_t> on_cores;
  size_t terms = 0;
  for (size_t i = 0; i < pairs.size(); i++) {
    const auto [a, b] = pairs[i];
    const bool gpu = on_gpu(*a, *b);
    out.push_back(gpu ? gpu_op(*a, *b) : ModPoly(a->modulus()));
    if (gpu) continue;
    on_cores.push_back(i);
    terms += static_cast<size_t>(a->length() + b->length());
  }
  const auto compute = [&](size_t k) {
    out[on_cores[k]] = cpu_op(*pairs[on_cores[k]].first, *pairs[on_cores[k]].second);
  };
  if (terms < side_by_side_from_terms) {
    for (size_t k = 0; k < on_cores.size(); k++) compute(k);
  } else {
    each_on_cores(on_cores.size(), compute);
  }
  return out;
}
ZPoly multiply(const ZPoly& a, const ZPoly& b);
// The same without asking the GPU: through the primes on the cores, or FLINT (after the GPU failed).
ZPoly multiply_on_cpu(const ZPoly& a, const ZPoly& b);
// Whether multiply(a, b) sends the product to the GPU: product.z's crossover against the product's
// length weighted by the size of the coefficients (z_product_weight in dispatch.hpp).
bool z_product_goes_to_gpu(const ZPoly& a, const ZPoly& b);
// out = a * b: GMP (fmpz_mul), or the multi-modular GPU product for huge factors.
void multiply(fmpz_t out, const fmpz_t a, const fmpz_t b);
ModPoly power(const ModPoly& a, ulong e, ResultPlace place = ResultPlace::Host);
// Whether one transform modulo p itself takes a product (or cyclic product, or power) of `length`
// terms: p a word-size prime and the power of two >= length dividing p - 1. The Modulus form
// asks the modulus's cached primality; the word form tests p.
bool one_transform_modulo(const Modulus& m, std::size_t length);
bool one_transform_modulo(ulong p, std::size_t length);
// Whether multiply takes a product in Z/pZ[x] for a multi-word p (m) of `length` terms, its shorter
// operand of `shorter`, away from FLINT: to the GPU's big-prime convolution (p prime with the roots
// of unity), the GPU's or the cores' multi-modular product.
bool big_modulus_product_leaves_flint(const Modulus& m, std::size_t length, std::size_t shorter);
// The one-line notice when the GPU could not compute `what` ("the product", "an integer product",
// ...) of this length (coefficients; bits for an integer product): out of memory, or another failure.
void gpu_failure_notice(const std::exception& e, std::size_t length, const char* what);
ZPoly power(const ZPoly& a, ulong e);

}  // namespace cas
