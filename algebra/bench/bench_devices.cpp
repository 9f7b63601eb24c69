// cas-bench-devices: multi-modular work on every GPU of the host against one GPU of it, in the same
// run on the same inputs (gpu/crt.hpp, "several GPUs"), the results compared.
//   cas-bench-devices [--seconds S] [--only ROW] [--threshold WORDS]
// Rows (the GPU engine, host conversions included, as cas runs them):
//   zx        Z[x] products a * b, both operands of 2^K terms of B-bit signed coefficients
//   zx-gpu    the same products' GPU share alone: sources that write nothing and a sink that reads
//             nothing (uploads, residues, products, exchanges, Garner, downloads)
//   zp        products modulo the 62-bit prime 4611685941117976577 (gpu::multiply_mod, host to
//             host): one prime, shared between two GPUs as products modulo x^M - 1 and x^M + 1
//             (cas shares them only when one GPU lacks the memory; here always)
//   ntt       one forward transform modulo the same prime (gpu::forward_into, host to host): one
//             transform on one GPU against the four-step decomposition shared by all of them
//             (cas shares one only past 2^30 words, or when one GPU lacks the memory)
//   power     f^e in Z[x]
//   integer   integer products of B bits by B bits
//   zres      Z[x] resultants of two 2^K-term polynomials of 64-bit coefficients
// Columns: 1 GPU ms, N GPUs ms (best of the runs that fit S seconds, at least 3), 1 GPU / N GPUs,
// the primes on each device, and whether the two results agree. --threshold sets the split's
// threshold in residue words (gpu::set_split_threshold) for the N-GPU column.
// Under mpirun (one GPU a rank: mpirun -n 2 cas-bench-devices) the N GPUs are the ranks' and the
// one-GPU column is rank 0's alone (nothing shared); the zp and ntt rows, shared only within a
// process, are left out.
#include "algebra/bench/best_time.hpp"
#include "algebra/multimodular/multimodular.hpp"
#include "algebra/multimodular/zresultant.hpp"
#include "algebra/support/flint_util.hpp"

#include "gpu/crt.hpp"
#include "gpu/ntt.hpp"
#include "gpu/ranks.hpp"

#include <flint/fmpz_poly.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>
#include <string>

namespace {

struct Options {
  double seconds = 2.0;
  std::string only;
  long threshold = -1;  // the library's own
};

// The GPUs that share work: the MPI ranks' (one each) or this process's (set in main).
struct Gpus {
  bool ranks = false;
  int count = 1;
  size_t shared_from = 0;  // the split threshold of the N-GPU column

  // One GPU, or all of them, for what follows.
  void use(bool all) const {
    if (ranks)
      cas::gpu::set_split_threshold(all ? shared_from : SIZE_MAX);
    else
      cas::gpu::set_devices_used(all ? count : 1);
  }
};
Gpus gpus;

std::string shares(const cas::gpu::SplitRecord& split) {
  std::string text;
  for (size_t primes : split.primes_per_device) text += (text.empty() ? "" : " + ") + std::to_string(primes);
  return text;
}

// Times run() on one GPU and on all of them; same() compares the two results it kept.
void row(const Options& o, const char* name, const std::string& size, const std::function<void(int devices)>& run,
         const std::function<bool()>& same) {
  const int all = gpus.count;
  gpus.use(false);
  run(1);  // warm-up: tables, pools, pinned buffers
  const double one = cas::bench::best_ms(o.seconds, [&] { run(1); });
  gpus.use(true);
  run(all);
  const double many = cas::bench::best_ms(o.seconds, [&] { run(all); });
  const std::string split = shares(cas::gpu::last_split());
  std::printf("| %s | %s | %.2f | %.2f | %.2fx | %s | %s |\n", name, size.c_str(), one, many, one / many, split.c_str(),
              same() ? "yes" : "NO");
  std::fflush(stdout);
}

cas::ZPoly random_zpoly(flint_rand_t state, slong length, flint_bitcnt_t bits) {
  cas::ZPoly f;
  fmpz_poly_randtest(f.get(), state, length, bits);
  fmpz_poly_set_coeff_ui(f.get(), length - 1, 1 + n_randint(state, 1000));  // the full length
  return f;
}

void zx_rows(const Options& o, flint_rand_t state) {
  for (auto [log_n, bits] : {std::pair{20, 1000ul}, {22, 64ul}, {22, 1000ul}}) {
    const cas::ZPoly a = random_zpoly(state, slong(1) << log_n, bits), b = random_zpoly(state, slong(1) << log_n, bits);
    cas::ZPoly c[2];
    row(o, "zx", "2^" + std::to_string(log_n) + " x " + std::to_string(bits) + " bits",
        [&](int devices) { c[devices > 1] = cas::multiply_multimodular(a, b, cas::ProductEngine::Gpu); },
        [&] { return fmpz_poly_equal(c[0].get(), c[1].get()) != 0; });
  }
}

void zx_gpu_rows(const Options& o, flint_rand_t state) {
  const cas::ZPoly a = random_zpoly(state, slong(1) << 22, 1000), b = random_zpoly(state, slong(1) << 22, 1000);
  cas::MultimodularPlan plan;
  cas::multiply_multimodular(a, b, cas::ProductEngine::Gpu, &plan);
  cas::gpu::LimbSource idle_a = cas::limb_source(a.get()->coeffs, size_t{1} << 22);
  cas::gpu::LimbSource idle_b = cas::limb_source(b.get()->coeffs, size_t{1} << 22);
  idle_a.write = idle_b.write = [](const cas::gpu::LimbBlock&) {};
  const cas::gpu::LimbSink idle_sink = [](const cas::gpu::ConstLimbBlock&) {};
  row(o, "zx-gpu", "2^22 x 1000 bits",
      [&](int) { cas::gpu::multiply_limb_sources(idle_a, idle_b, plan.primes, idle_sink); }, [] { return true; });
}

void zp_rows(const Options& o, flint_rand_t state) {
  const ulong p = 4611685941117976577ull;
  for (int log_n : {23, 25, 27}) {
    const size_t n = size_t{1} << log_n;
    std::vector<ulong> a(n), b(n), c[2];
    for (size_t i = 0; i < n; i++) {
      a[i] = n_randint(state, p);
      b[i] = n_randint(state, p);
    }
    c[0].resize(2 * n - 1);
    c[1].resize(2 * n - 1);
    row(o, "zp", "2^" + std::to_string(log_n) + " x 2^" + std::to_string(log_n),
        [&](int devices) { cas::gpu::multiply_mod(a.data(), n, b.data(), n, p, c[devices > 1].data()); },
        [&] { return c[0] == c[1]; });
  }
}

void transform_rows(const Options& o, flint_rand_t state) {
  const ulong p = 4611685941117976577ull;
  for (int log_n : {26, 28, 30}) {
    const size_t n = size_t{1} << log_n;
    const ulong w = cas::gpu::root_of_unity(p, n);
    std::vector<ulong> x(n), X[2];
    for (ulong& v : x) v = n_randint(state, p);
    X[0].resize(n);
    X[1].resize(n);
    row(o, "ntt", "2^" + std::to_string(log_n),
        [&](int devices) {
          const size_t saved = cas::gpu::set_prime_split_threshold(devices > 1 ? 0 : SIZE_MAX);
          cas::gpu::forward_into(x.data(), X[devices > 1].data(), n, n, p, w);
          cas::gpu::set_prime_split_threshold(saved);
        },
        [&] { return X[0] == X[1]; });
  }
}

void power_rows(const Options& o, flint_rand_t state) {
  const cas::ZPoly f = random_zpoly(state, slong(1) << 18, 500);
  cas::ZPoly c[2];
  row(o, "power", "(2^18 x 500 bits)^4",
      [&](int devices) { c[devices > 1] = cas::power_multimodular(f, 4, cas::ProductEngine::Gpu); },
      [&] { return fmpz_poly_equal(c[0].get(), c[1].get()) != 0; });
}

void integer_rows(const Options& o, flint_rand_t state) {
  for (ulong bits : {100000000ul, 1000000000ul}) {
    cas::Fmpz x, y, z[2];
    fmpz_randbits(x.get(), state, bits);
    fmpz_randbits(y.get(), state, bits);
    row(o, "integer", std::to_string(bits) + " bits",
        [&](int devices) { cas::multiply_integers_multimodular(z[devices > 1].get(), x.get(), y.get(), cas::ProductEngine::Gpu); },
        [&] { return fmpz_equal(z[0].get(), z[1].get()) != 0; });
  }
}

void resultant_rows(const Options& o, flint_rand_t state) {
  for (int log_n : {10, 11, 12}) {
    const cas::ZPoly a = random_zpoly(state, slong(1) << log_n, 64), b = random_zpoly(state, (slong(1) << log_n) - 1, 64);
    cas::Fmpz r[2];
    row(o, "zres", "2^" + std::to_string(log_n) + " x 64 bits",
        [&](int devices) { cas::resultant_multimodular(r[devices > 1].get(), a, b, cas::ProductEngine::Gpu); },
        [&] { return fmpz_equal(r[0].get(), r[1].get()) != 0; });
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (!cas::gpu::join_ranks(&argc, &argv)) return 0;
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--seconds")) o.seconds = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--only")) o.only = argv[i + 1];
    else if (!std::strcmp(argv[i], "--threshold")) o.threshold = std::atol(argv[i + 1]);
    else {
      std::fprintf(stderr, "cas-bench-devices: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  gpus.ranks = cas::gpu::sharing_ranks() > 1;
  gpus.count = gpus.ranks ? cas::gpu::sharing_ranks() : cas::gpu::device_count();
  std::string why;
  if (!gpus.ranks && !cas::gpu::devices_share_work(&why)) {
    std::printf("cas-bench-devices: nothing to compare (%s)\n", why.c_str());
    return 0;
  }
  gpus.shared_from = o.threshold >= 0 ? size_t(o.threshold) : cas::gpu::set_split_threshold(0);
  cas::gpu::set_split_threshold(gpus.shared_from);
  cas::gpu::set_prime_split_threshold(0);  // the zp rows' N-GPU column: shared whatever their length
  std::printf("devices: %d x %s%s\n\n", gpus.count, cas::gpu::describe().c_str(), gpus.ranks ? ", one a rank" : "");
  std::printf("| row | size | 1 GPU ms | %d GPUs ms | 1 / %d | primes a device | same |\n", gpus.count, gpus.count);
  std::printf("| --- | --- | --- | --- | --- | --- | --- |\n");
  flint_rand_t state;
  flint_randinit(state);
  if (o.only.empty() || o.only == "zx") zx_rows(o, state);
  if (o.only.empty() || o.only == "zx-gpu") zx_gpu_rows(o, state);
  if (!gpus.ranks && (o.only.empty() || o.only == "zp")) zp_rows(o, state);
  if (!gpus.ranks && (o.only.empty() || o.only == "ntt")) transform_rows(o, state);
  if (o.only.empty() || o.only == "power") power_rows(o, state);
  if (o.only.empty() || o.only == "integer") integer_rows(o, state);
  if (o.only.empty() || o.only == "zres") resultant_rows(o, state);
  flint_randclear(state);
  return 0;
}
