// cas-bench-crt: multi-modular products (algebra/multimodular/multimodular.hpp) on the GPU, end to end from
// FLINT operands to a FLINT result, against fmpz_poly_mul and mpz_mul measured in the same run.
// One table: Z[x] products of length 2^12, 2^16, 2^20 with 64- and 1000-bit coefficients, and
// integer products of 10^6, 10^7, 10^8 bits. Every result is checked against the reference.
//   cas-bench-crt [--reps N] [--flint-max-log K] [--cpu 1] [--stages 1] [--stages-at LOG,BITS] [--top-pad-mb M]
//                 [--short 1] [--pieces 1]
// --pieces 1 prints instead the products too long for one block a prime, through the blocks in
// pieces and through the passes (bench_pieces).
// --short 1 prints instead the products whose transforms fit one thread block a prime
// (gpu/block_products.cu), product lengths 2^8..2^14 (integers 2^17..2^21 bits), by the default
// rules, with the blocks and Garner one warp a coefficient (gpu/garner_warps.cu) wherever they
// fit, and with neither
// (one prime after the other through the fast transforms, a thread a coefficient), against FLINT /
// GMP, all measured in the same run; then where the time of two short products goes.
// --stages 1 adds where the time of the largest Z[x] rows goes: the host's conversions to and from
// limb matrices and the GPU call (uploads, reductions, products, Garner, download); --stages-at
// LOG,BITS (repeatable) prints only that, for operands of 2^LOG coefficients of BITS bits.
// FLINT rows above 2^K are not timed ("-"); --cpu 1 runs the same path on the CPU engine
// (nmod_poly_mul per prime), for comparison and on machines without a GPU.
#include "algebra/support/flint_util.hpp"
#include "algebra/multimodular/multimodular.hpp"
#include "gpu/crt.hpp"
#include "gpu/ntt.hpp"

#include <flint/fmpz_poly.h>
#include <flint/ulong_extras.h>
#include <gmp.h>
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

template <class F>
double median_ms(int reps, F&& f) {
  std::vector<double> t;
  for (int i = 0; i < reps; i++) {
    const auto start = Clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

struct Options {
  int reps = 3;
  int flint_max_log = 20;
  cas::ProductEngine engine = cas::ProductEngine::Gpu;
  bool stages = false;
  int top_pad_mb = 0;  // > 0: mallopt(M_TOP_PAD) first (an experiment on the page faults of new results)
  bool short_products = false;
  bool pieces = false;
  std::vector<std::pair<int, unsigned long>> stages_at;  // --stages-at LOG,BITS (repeatable)
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--reps")) o.reps = std::max(1, std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--flint-max-log")) o.flint_max_log = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--cpu") && std::atoi(argv[i + 1])) o.engine = cas::ProductEngine::Cpu;
    else if (!std::strcmp(argv[i], "--stages")) o.stages = std::atoi(argv[i + 1]) != 0;
    else if (!std::strcmp(argv[i], "--top-pad-mb")) o.top_pad_mb = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--short")) o.short_products = std::atoi(argv[i + 1]) != 0;
    else if (!std::strcmp(argv[i], "--pieces")) o.pieces = std::atoi(argv[i + 1]) != 0;
    else if (!std::strcmp(argv[i], "--stages-at")) {
      int log_n = 0;
      unsigned long bits = 0;
      if (std::sscanf(argv[i + 1], "%d,%lu", &log_n, &bits) == 2) o.stages_at.emplace_back(log_n, bits);
    }
  }
  return o;
}

void print_row(const char* what, const std::string& size, size_t primes, double reference_ms, double gpu_ms,
               bool correct) {
  char reference[32] = "-", ratio[32] = "-";
  if (reference_ms >= 0) {
    std::snprintf(reference, sizeof reference, "%.2f", reference_ms);
    std::snprintf(ratio, sizeof ratio, "%.1fx", reference_ms / gpu_ms);
  }
  std::printf("%-22s %-16s %6zu %14s %12.2f %10s %s\n", what, size.c_str(), primes, reference, gpu_ms, ratio,
              correct ? "ok" : "WRONG");
  std::fflush(stdout);
}

// n coefficients of exactly `bits` bits, random signs (the worst case of the prime count).
cas::ZPoly full_size_poly(flint_rand_t state, slong n, unsigned long bits) {
  cas::ZPoly f;
  fmpz_poly_fit_length(f.get(), n);
  for (slong i = 0; i < n; i++) {
    fmpz_randbits(f.get()->coeffs + i, state, bits);
    if (n_randint(state, 2)) fmpz_neg(f.get()->coeffs + i, f.get()->coeffs + i);
  }
  _fmpz_poly_set_length(f.get(), n);
  return f;
}

void bench_polynomials(const Options& o, flint_rand_t state) {
  for (int log_length : {12, 16, 20})
    for (unsigned long bits : {64ul, 1000ul}) {
      const slong n = slong{1} << (log_length - 1);  // two operands of 2^(k-1): product length ~2^k
      const cas::ZPoly a = full_size_poly(state, n, bits), b = full_size_poly(state, n, bits);
      cas::ZPoly expected;
      cas::MultimodularPlan plan;
      std::vector<cas::ZPoly> results;  // kept, so that freeing the previous result is not timed
      results.reserve(static_cast<size_t>(o.reps) + 1);
      results.push_back(cas::multiply_multimodular(a, b, o.engine, &plan));  // warm-up
      const double gpu = median_ms(o.reps, [&] { results.push_back(cas::multiply_multimodular(a, b, o.engine)); });
      const cas::ZPoly& c = results.back();
      double flint = -1;
      if (log_length <= o.flint_max_log)
        flint = median_ms(log_length >= 20 ? 1 : o.reps, [&] { fmpz_poly_mul(expected.get(), a.get(), b.get()); });
      else
        fmpz_poly_mul(expected.get(), a.get(), b.get());
      print_row("Z[x] fmpz_poly_mul", "2^" + std::to_string(log_length) + " x " + std::to_string(bits) + "b",
                plan.primes.size(), flint, gpu, fmpz_poly_equal(c.get(), expected.get()));
    }
}

void bench_integers(const Options& o, flint_rand_t state) {
  for (unsigned long bits : {1000000ul, 10000000ul, 100000000ul}) {
    cas::Fmpz a, b, c, expected;
    fmpz_randbits(a.get(), state, bits);
    fmpz_randbits(b.get(), state, bits);
    mpz_t x, y, z;
    mpz_inits(x, y, z, nullptr);
    fmpz_get_mpz(x, a.get());
    fmpz_get_mpz(y, b.get());
    cas::MultimodularPlan plan;
    cas::multiply_integers_multimodular(c.get(), a.get(), b.get(), o.engine, &plan);  // warm-up
    const double gpu = median_ms(o.reps, [&] {
      cas::multiply_integers_multimodular(c.get(), a.get(), b.get(), o.engine);
    });
    const double gmp = median_ms(o.reps, [&] { mpz_mul(z, x, y); });
    fmpz_set_mpz(expected.get(), z);
    print_row("Z mpz_mul", "10^" + std::to_string(static_cast<int>(std::to_string(bits).size() - 1)) + " bits",
              plan.primes.size(), gmp, gpu, fmpz_equal(c.get(), expected.get()));
    mpz_clears(x, y, z, nullptr);
  }
}

// One row of the --short table: the reference; the GPU by the default rules, with the block products
// and Garner by warps wherever they fit, and with neither (one prime after the other, a thread a
// coefficient).
void print_short_row(const char* what, const std::string& size, size_t primes, double reference_ms,
                     const double (&gpu_ms)[3], bool correct) {
  std::printf("%-6s %-14s %6zu %10.3f %10.3f %10.3f %10.3f %8.2fx %8.2fx %s\n", what, size.c_str(), primes,
              reference_ms, gpu_ms[0], gpu_ms[1], gpu_ms[2], reference_ms / gpu_ms[0], gpu_ms[2] / gpu_ms[0],
              correct ? "ok" : "WRONG");
  std::fflush(stdout);
}

// The median times of f in the three settings of print_short_row; f(setting) keeps its result.
template <class F>
void time_short_settings(int reps, F&& f, double (&ms)[3]) {
  const size_t limits[3][2] = {{SIZE_MAX, SIZE_MAX}, {size_t{1} << 14, size_t{1} << 15}, {0, 0}};
  for (int setting = 0; setting < 3; setting++) {
    const size_t saved_blocks = cas::gpu::set_block_products_limit(limits[setting][0]);
    const size_t saved_warps = cas::gpu::set_warp_garner_limit(limits[setting][1]);
    f(setting);  // warm-up: twiddles, pools
    ms[setting] = median_ms(reps, [&] { f(setting); });
    cas::gpu::set_block_products_limit(saved_blocks);
    cas::gpu::set_warp_garner_limit(saved_warps);
  }
}

void bench_short(const Options& o, flint_rand_t state) {
  std::printf("%-6s %-14s %6s %10s %10s %10s %10s %9s %9s %s\n", "ring", "size", "primes", "ref ms", "rules ms",
              "forced", "old ms", "ref/rule", "old/rule", "check");
  for (unsigned long bits : {64ul, 300ul, 600ul, 1000ul, 4000ul})
    for (int log_length = 8; log_length <= 14; log_length++) {
      const slong n = slong{1} << (log_length - 1);
      const cas::ZPoly a = full_size_poly(state, n, bits), b = full_size_poly(state, n, bits);
      cas::ZPoly expected, results[3];
      cas::MultimodularPlan plan;
      cas::multiply_multimodular(a, b, o.engine, &plan);
      double ms[3];
      time_short_settings(o.reps, [&](int s) { results[s] = cas::multiply_multimodular(a, b, o.engine); }, ms);
      const double flint = median_ms(o.reps, [&] { fmpz_poly_mul(expected.get(), a.get(), b.get()); });
      bool correct = true;
      for (const cas::ZPoly& c : results) correct = correct && fmpz_poly_equal(c.get(), expected.get());
      print_short_row("Z[x]", "2^" + std::to_string(log_length) + " x " + std::to_string(bits) + "b",
                      plan.primes.size(), flint, ms, correct);
    }
  for (int log_bits = 17; log_bits <= 21; log_bits++) {
    cas::Fmpz a, b, expected, results[3];
    fmpz_randbits(a.get(), state, 1ul << log_bits);
    fmpz_randbits(b.get(), state, 1ul << log_bits);
    cas::MultimodularPlan plan;
    cas::multiply_integers_multimodular(results[0].get(), a.get(), b.get(), o.engine, &plan);
    double ms[3];
    time_short_settings(o.reps, [&](int s) {
      cas::multiply_integers_multimodular(results[s].get(), a.get(), b.get(), o.engine);
    }, ms);
    const double gmp = median_ms(o.reps, [&] { fmpz_mul(expected.get(), a.get(), b.get()); });
    bool correct = true;
    for (const cas::Fmpz& c : results) correct = correct && fmpz_equal(c.get(), expected.get());
    print_short_row("Z", "2^" + std::to_string(log_bits) + " bits", plan.primes.size(), gmp, ms, correct);
  }
}

// The --pieces table: products too long for one block a prime (product lengths 2^15..2^18), by the
// default rules, forced through the blocks in pieces of transforms of 2^12 and of 2^13 words, one
// prime after the other through the fast transforms, and by the rules with Garner forced a warp a
// coefficient and a thread a coefficient: the GPU's share (multiply_limb_sources
// with idle callbacks), each setting's whole product checked once; FLINT's whole product where it
// is at most 2^K coefficients (--flint-max-log), all in the same run.
void bench_pieces(const Options& o, flint_rand_t state) {
  struct Setting {
    size_t blocks, pieces, warps;
  };
  const Setting settings[] = {{SIZE_MAX, SIZE_MAX, SIZE_MAX},
                              {size_t{1} << 12, SIZE_MAX - 1, SIZE_MAX},
                              {size_t{1} << 13, SIZE_MAX - 1, SIZE_MAX},
                              {SIZE_MAX, 0, SIZE_MAX},
                              {SIZE_MAX, SIZE_MAX, SIZE_MAX - 1},
                              {SIZE_MAX, SIZE_MAX, 0}};
  constexpr size_t count = std::size(settings);
  std::printf("%-6s %-18s %6s %10s %10s %10s %10s %10s %10s %10s %9s %s\n", "ring", "size", "primes", "flint ms",
              "rules gpu", "pieces/12", "pieces/13", "passes", "warps", "threads", "pass/rule", "check");
  const std::pair<slong, slong> lengths[] = {{1 << 14, 1 << 14}, {1 << 15, 1 << 15}, {1 << 16, 1 << 16},
                                             {1 << 17, 1 << 17}, {1 << 17, 1 << 12}};
  for (unsigned long bits : {64ul, 300ul, 600ul, 1000ul, 2000ul, 4000ul})
    for (const auto& [na, nb] : lengths) {
      if (bits >= 4000 && na >= (1 << 17)) continue;
      const cas::ZPoly a = full_size_poly(state, na, bits), b = full_size_poly(state, nb, bits);
      cas::ZPoly expected, results[count];
      cas::MultimodularPlan plan;
      cas::multiply_multimodular(a, b, o.engine, &plan);
      // the GPU's share alone: sources and sink that do nothing (the host's conversions, the same
      // in every setting, moved these rows by up to 2x between runs)
      cas::gpu::LimbSource idle_a = cas::limb_source(a.get()->coeffs, static_cast<size_t>(na));
      cas::gpu::LimbSource idle_b = cas::limb_source(b.get()->coeffs, static_cast<size_t>(nb));
      idle_a.write = idle_b.write = [](const cas::gpu::LimbBlock&) {};
      const cas::gpu::LimbSink idle_sink = [](const cas::gpu::ConstLimbBlock&) {};
      double ms[count];
      for (size_t i = 0; i < count; i++) {
        const size_t saved_blocks = cas::gpu::set_block_products_limit(settings[i].blocks);
        const size_t saved_pieces = cas::gpu::set_piece_products_limit(settings[i].pieces);
        const size_t saved_warps = cas::gpu::set_warp_garner_limit(settings[i].warps);
        results[i] = cas::multiply_multimodular(a, b, o.engine);  // checked below; a warm-up
        ms[i] = median_ms(o.reps, [&] { cas::gpu::multiply_limb_sources(idle_a, idle_b, plan.primes, idle_sink); });
        cas::gpu::set_block_products_limit(saved_blocks);
        cas::gpu::set_piece_products_limit(saved_pieces);
        cas::gpu::set_warp_garner_limit(saved_warps);
      }
      const bool timed = na + nb - 1 <= (slong{1} << o.flint_max_log);
      const double flint = timed ? median_ms(o.reps, [&] { fmpz_poly_mul(expected.get(), a.get(), b.get()); }) : -1;
      if (!timed) fmpz_poly_mul(expected.get(), a.get(), b.get());
      bool correct = true;
      for (const cas::ZPoly& c : results) correct = correct && fmpz_poly_equal(c.get(), expected.get());
      const std::string size = std::to_string(na) + "x" + std::to_string(nb) + " " + std::to_string(bits) + "b";
      std::printf("%-6s %-18s %6zu %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f %8.2fx %s\n", "Z[x]", size.c_str(),
                  plan.primes.size(), flint, ms[0], ms[1], ms[2], ms[3], ms[4], ms[5], ms[3] / ms[0],
                  correct ? "ok" : "WRONG");
      std::fflush(stdout);
    }
}

// The Z[x] pipeline of multiply_multimodular, step by step, for two operands of n coefficients:
// the host's conversions into and out of limb blocks, each on its own, and the GPU's share (copies
// through the pinned blocks, reductions, products, Garner) with host callbacks that do nothing.
void bench_stages(const Options& o, flint_rand_t state, slong n, unsigned long bits) {
  const cas::ZPoly a = full_size_poly(state, n, bits), b = full_size_poly(state, n, bits);
  const cas::MultimodularPlan plan = cas::plan_multimodular(a, b);
  const double planning = median_ms(o.reps, [&] { cas::plan_multimodular(a, b); });
  const double tables = median_ms(o.reps, [&] { cas::crt::GarnerTables garner(plan.primes); });
  std::printf("stages 2 x 2^%d x %lub on the host: the plan %.3f ms, Garner's tables %.3f ms\n",
              static_cast<int>(std::log2(static_cast<double>(n))), bits, planning, tables);
  cas::crt::LimbMatrix ma, mb;
  const double to_matrices = median_ms(o.reps, [&] {
    ma = cas::to_limb_matrix(a.get()->coeffs, static_cast<size_t>(n));
    mb = cas::to_limb_matrix(b.get()->coeffs, static_cast<size_t>(n));
  });
  const cas::gpu::LimbSource idle_a{ma.count, ma.width, [](const cas::gpu::LimbBlock&) {}};
  const cas::gpu::LimbSource idle_b{mb.count, mb.width, [](const cas::gpu::LimbBlock&) {}};
  const cas::gpu::LimbSink idle_sink = [](const cas::gpu::ConstLimbBlock&) {};
  const double on_gpu = median_ms(o.reps, [&] { cas::gpu::multiply_limb_sources(idle_a, idle_b, plan.primes, idle_sink); });
  const cas::gpu::LimbSource source_a = cas::limb_source(a.get()->coeffs, static_cast<size_t>(n));
  const cas::gpu::LimbSource source_b = cas::limb_source(b.get()->coeffs, static_cast<size_t>(n));
  const double with_writes =
      median_ms(o.reps, [&] { cas::gpu::multiply_limb_sources(source_a, source_b, plan.primes, idle_sink); });
  std::vector<cas::ZPoly> read_into;  // kept, so that freeing them is not timed
  read_into.reserve(static_cast<size_t>(o.reps));
  const double with_reads = median_ms(o.reps, [&] {
    read_into.emplace_back();
    fmpz_poly_fit_length(read_into.back().get(), 2 * n - 1);
    fmpz* out = read_into.back().get()->coeffs;
    cas::gpu::multiply_limb_sources(idle_a, idle_b, plan.primes,
                                    [out](const cas::gpu::ConstLimbBlock& block) { cas::read_limb_block(out, block); });
  });
  std::printf("stages 2 x 2^%d x %lub: GPU share with the host's writes %.2f ms, with its reads into new fmpz %.2f ms\n",
              static_cast<int>(std::log2(static_cast<double>(n))), bits, with_writes, with_reads);
  cas::crt::LimbMatrix product;
  const size_t length = ma.count + mb.count - 1;
  cas::gpu::multiply_limb_sources(cas::gpu::source_of(ma), cas::gpu::source_of(mb), plan.primes,
                                  cas::gpu::sink_into(product, length, cas::crt::GarnerTables(plan.primes).width()));
  cas::ZPoly c;
  const double from_matrix = median_ms(o.reps, [&] {
    cas::ZPoly fresh;  // as the pipeline does: every coefficient a new fmpz
    fmpz_poly_fit_length(fresh.get(), static_cast<slong>(product.count));
    cas::from_limb_matrix(fresh.get()->coeffs, product);
    _fmpz_poly_set_length(fresh.get(), static_cast<slong>(product.count));
    _fmpz_poly_normalise(fresh.get());
    c = std::move(fresh);
  });
  std::vector<cas::ZPoly> results;  // kept, so that freeing a result is not timed
  results.reserve(static_cast<size_t>(o.reps));
  const double end_to_end =
      median_ms(o.reps, [&] { results.push_back(cas::multiply_multimodular(a, b, cas::ProductEngine::Gpu)); });
  const cas::ZPoly& whole = results.back();
  cas::ZPoly expected;
  fmpz_poly_mul(expected.get(), a.get(), b.get());
  std::printf("stages 2 x 2^%d x %lub, %zu primes: to limb matrices %.2f ms, GPU share %.2f ms (%.0f MB up, %.0f MB "
              "down), from limb matrix %.2f ms, streamed end to end %.2f ms, %s\n",
              static_cast<int>(std::log2(static_cast<double>(n))), bits, plan.primes.size(), to_matrices, on_gpu,
              8e-6 * static_cast<double>(ma.limbs.size() + mb.limbs.size()),
              8e-6 * static_cast<double>(product.limbs.size()), from_matrix, end_to_end,
              fmpz_poly_equal(c.get(), expected.get()) && fmpz_poly_equal(whole.get(), expected.get()) ? "ok"
                                                                                                      : "WRONG");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  if (o.top_pad_mb > 0) mallopt(M_TOP_PAD, o.top_pad_mb << 20);
  const bool on_gpu = o.engine == cas::ProductEngine::Gpu;
  if (on_gpu && !cas::gpu::available()) {
    std::printf("SKIPPED: %s\n", cas::gpu::describe().c_str());
    return 0;
  }
  std::printf("# engine %s: %s; FLINT %s one core, GMP %s; medians of %d runs (FLINT 2^20: one run), ms end to end\n",
              on_gpu ? "gpu" : "cpu", cas::gpu::describe().c_str(), FLINT_VERSION, gmp_version, o.reps);
  flint_rand_t state;
  flint_randinit(state);
  if (!o.stages_at.empty()) {
    for (const auto& [log_n, bits] : o.stages_at) bench_stages(o, state, slong{1} << log_n, bits);
  } else if (o.pieces) {
    bench_pieces(o, state);
  } else if (o.short_products) {
    bench_short(o, state);
    bench_stages(o, state, slong{1} << 7, 4000);
    bench_stages(o, state, slong{1} << 9, 1000);
  } else {
    std::printf("%-22s %-16s %6s %14s %12s %10s %s\n", "product (reference)", "size", "primes", "reference ms",
                "crt ms", "ref/crt", "check");
    bench_polynomials(o, state);
    bench_integers(o, state);
    if (o.stages && on_gpu)
      for (unsigned long bits : {64ul, 1000ul}) bench_stages(o, state, slong{1} << 19, bits);
  }
  flint_randclear(state);
  flint_cleanup();
  return 0;
}
