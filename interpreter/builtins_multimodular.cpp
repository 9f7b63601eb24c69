// multimodular(f, g): the product in Z[x] (or Z/pZ[x]) through word-size primes and the CRT,
// with the primes and the bound it used (algebra/multimodular/multimodular.hpp), for those who learn it.
#include "algebra/multimodular/multimodular.hpp"
#include "poly_args.hpp"

namespace cas {

namespace {

Value primes_value(const std::vector<ulong>& primes) {
  std::vector<Value> items;
  items.reserve(primes.size());
  for (ulong p : primes) items.push_back(Value::integer(Fmpz(p).get()));
  return Value::vec(std::move(items));
}

Value builtin_multimodular(CallContext& c) {
  MultimodularPlan plan;
  Value product;
  if (ModulusPtr m = poly_ring(c, {0, 1}, "multimodular"))
    product = Value::modpoly(multiply_multimodular_on_best_engine(modpoly_arg(c, 0, m), modpoly_arg(c, 1, m), plan));
  else
    product = Value::zpoly(multiply_multimodular_on_best_engine(zpoly_arg(c, 0), zpoly_arg(c, 1), plan));
  return Value::vec({std::move(product), primes_value(plan.primes), Value::integer(static_cast<slong>(plan.bound_bits))});
}

}  // namespace

void register_multimodular_builtins(Registry& r) {
  r.reg("multimodular", 2, builtin_multimodular,
        "multimodular(f, g): [f*g, primes, b]: the product in Z[x] computed modulo word-size NTT primes (62 "
        "bits, 2^k | p-1 for the transform length 2^k) and recombined by the CRT in symmetric representation. "
        "b bounds the product's coefficients, |c_k| <= min(len f, len g) |f|_inf |g|_inf < 2^b, and the primes "
        "are the fewest whose product exceeds 2^(b+1) (one bit for the sign). Over Z/pZ the operands are lifted "
        "to coefficients 0..p-1 and the product reduced mod p. Runs on the GPU when there is one, else on the "
        "CPU: the result is the same. multimodular(0, f) = [0, [], 0].");
}

}  // namespace cas
