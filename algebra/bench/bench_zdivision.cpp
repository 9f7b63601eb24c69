// cas-bench-zdivision: division in Z[x] through primes (algebra/poly/zpoly_division.hpp) against
// FLINT's fmpz_poly_divrem and fmpz_poly_divides, both measured in the same run, the results
// compared (with a GPU, ours with the GPU off too: cas cpu ms).
//   cas-bench-zdivision [--min K] [--max K] [--bits B,C,...] [--seconds S] [--gpu off] [--grid 1]
// Rows: f = g h + r with g monic of 2^(K-1) coefficients, h of 2^(K-1) + 1 and r of 2^(K-2), all
// of B bits (signed): divrem(f, g), then the exact division of 3 g h by 3 g (content 3, leading
// coefficient 3). --grid 1 prints instead, per size B, FLINT's divrem time over ours for quotients
// of 2^i (rows) and divisors of 2^j (columns) coefficients, i, j from K_min to K_max (where the
// crossover of zpoly_division.cpp comes from).
#include "algebra/bench/best_time.hpp"
#include "algebra/bench/tables.hpp"
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/support/flint_util.hpp"
#include "algebra/poly/multiply.hpp"
#include "algebra/poly/zpoly_division.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

using cas::bench::comma_separated;

struct Options {
  int min_log = 10, max_log = 18;
  double seconds = 0.3;
  bool gpu = true;
  bool grid = false;
  std::vector<ulong> bits{16, 64, 256};
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (cas::bench::read_table_option(argv[i], argv[i + 1], o.min_log, o.max_log, o.seconds)) continue;
    if (!std::strcmp(argv[i], "--gpu")) o.gpu = std::strcmp(argv[i + 1], "off") != 0;
    else if (!std::strcmp(argv[i], "--grid")) o.grid = std::atoi(argv[i + 1]) != 0;
    else if (!std::strcmp(argv[i], "--bits")) o.bits = comma_separated(argv[i + 1]);
  }
  return o;
}

using cas::bench::best_ms;

// `length` uniform coefficients of at most `bits` bits with random signs, the leading one nonzero
// (1 when monic).
cas::ZPoly random_zpoly(size_t length, ulong bits, bool monic, flint_rand_t state) {
  cas::ZPoly f;
  cas::Fmpz c;
  for (size_t i = 0; i + 1 < length; i++) {
    fmpz_randbits(c.get(), state, static_cast<flint_bitcnt_t>(bits));  // random sign
    fmpz_poly_set_coeff_fmpz(f.get(), static_cast<slong>(i), c.get());
  }
  do fmpz_randbits(c.get(), state, static_cast<flint_bitcnt_t>(bits));
  while (fmpz_is_zero(c.get()));
  if (monic) fmpz_one(c.get());
  fmpz_poly_set_coeff_fmpz(f.get(), static_cast<slong>(length - 1), c.get());
  return f;
}

void division_rows(const Options& o, ulong bits, flint_rand_t state) {
  for (int k = o.min_log; k <= o.max_log; k++) {
    const size_t n = size_t{1} << k;
    const cas::ZPoly g = random_zpoly(n / 2, bits, true, state), h = random_zpoly(n / 2 + 1, bits, false, state),
                     r = random_zpoly(n / 4, bits, false, state);
    cas::ZPoly gh = cas::multiply(g, h), f, g3, gh3;
    fmpz_poly_add(f.get(), gh.get(), r.get());
    fmpz_poly_scalar_mul_ui(g3.get(), g.get(), 3);
    fmpz_poly_scalar_mul_ui(gh3.get(), gh.get(), 3);
    cas::ZPoly flint_q, flint_r, flint_exact;
    const double flint_ms =
        best_ms(o.seconds, [&] { fmpz_poly_divrem(flint_q.get(), flint_r.get(), f.get(), g.get()); });
    std::optional<std::pair<cas::ZPoly, cas::ZPoly>> ours;
    const cas::bench::EngineTiming timing =
        cas::bench::time_on_engines(o.seconds, o.gpu, [&] { ours = cas::divrem_through_primes(f, g); });
    const bool same = ours && fmpz_poly_equal(ours->first.get(), flint_q.get()) &&
                      fmpz_poly_equal(ours->second.get(), flint_r.get());
    const double flint_exact_ms =
        best_ms(o.seconds, [&] { fmpz_poly_divides(flint_exact.get(), gh3.get(), g3.get()); });
    cas::ExactQuotient exact;
    const double exact_ms = best_ms(o.seconds, [&] { exact = cas::exact_quotient_through_primes(gh3, g3); });
    const bool exact_agrees =
        exact.exactness == cas::Exactness::Exact && fmpz_poly_equal(exact.quotient.get(), flint_exact.get());
    char cpu_text[16] = "-";
    if (timing.cpu_ms > 0) std::snprintf(cpu_text, sizeof cpu_text, "%.3f", timing.cpu_ms);
    std::printf("2^%-3d %6lu %12.3f %12.3f %9.2fx %10s %6s %12.3f %12.3f %9.2fx %6s  %s\n", k, bits, flint_ms,
                timing.ms, flint_ms / timing.ms, cpu_text, same ? "ok" : "DIFFER", flint_exact_ms, exact_ms,
                flint_exact_ms / exact_ms, exact_agrees ? "ok" : "DIFFER", timing.engine.c_str());
  }
}

// Rows: quotient lengths 2^i; columns: divisor lengths 2^j; entries FLINT's divrem time / ours.
void division_grid(const Options& o, ulong bits, flint_rand_t state) {
  std::printf("%lu bits: FLINT's divrem time / ours, quotient 2^i (rows) by divisor 2^j (columns)\n", bits);
  cas::bench::print_ratio_grid(o.min_log, o.max_log, [&](size_t nq, size_t nb) {
    const cas::ZPoly g = random_zpoly(nb, bits, true, state), h = random_zpoly(nq, bits, false, state);
    cas::ZPoly f = cas::multiply(g, h), q, r;
    const double flint = best_ms(o.seconds, [&] { fmpz_poly_divrem(q.get(), r.get(), f.get(), g.get()); });
    return flint / best_ms(o.seconds, [&] { cas::divrem_through_primes(f, g); });
  });
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  cas::bench::start_tables(o.gpu);
  flint_rand_t state;
  flint_randinit(state);
  if (!o.grid)
    std::printf("%-5s %6s %12s %12s %10s %10s %6s %12s %12s %10s %6s  %s\n", "N", "bits", "flint ms", "cas ms",
                "flint/cas", "cas cpu ms", "same", "exact flint", "exact cas", "flint/cas", "same",
                "engine (cas divrem)");
  for (ulong bits : o.bits) {
    if (o.grid) division_grid(o, bits, state);
    else division_rows(o, bits, state);
  }
  flint_randclear(state);
}
