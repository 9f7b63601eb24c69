// cas-bench-algorithms: the algorithms built on cas's products against FLINT's own, both in the
// same run on the same inputs, the results compared.
//   cas-bench-algorithms [--min K] [--max K] [--flint-max K] [--seconds S] [--gpu off] [--modulus P]
//                        [--zmin K] [--zmax K] [--zflint-max K] [--factor-max K] [--only ROW]
// Rows for n = 2^K points or terms, modulo P (default 4611685941117976577, a 62-bit prime):
//   evaluate     f of n terms at n points: FLINT's nmod_poly_evaluate_nmod_vec_fast (its subproduct
//                tree on its products) against evaluate_many (algebra/poly/multipoint.hpp)
//   interpolate  n points: nmod_poly_interpolate_nmod_vec_fast against interpolate
//   gcd          c f and c g, each of n terms with a common factor c of n/2: nmod_poly_gcd (FLINT's
//                half-gcd on its products) against gcd (algebra/poly/euclid.hpp)
//   xgcd         f and g of n terms: nmod_poly_xgcd against xgcd
//   resultant    f and g of n terms: nmod_poly_resultant against resultant
//   roots        f of n terms, half of its degree in distinct linear factors: nmod_poly_roots against
//                roots (algebra/poly/roots.hpp)
//   factor       f of n terms, random and monic, up to 2^K terms for --factor-max K (default 12):
//                nmod_poly_factor against factor (algebra/poly/factor.hpp); each run once where it
//                takes longer than S
// and in Z[x], for n = 2^K terms from --zmin to --zmax (FLINT's column up to --zflint-max; one run of
// FLINT where it takes longer than S):
//   zresultant   f and g of n terms with random signed 64-bit coefficients: fmpz_poly_resultant
//                against resultant_z (algebra/multimodular/zresultant.hpp)
// --only ROW runs that row's table alone.
// Columns: FLINT ms, cas ms (best of the runs that fit S seconds, at least 3), FLINT / cas, the
// engine of cas's largest operation, and whether the results agree. FLINT's columns stop after
// --flint-max.
#include "algebra/bench/best_time.hpp"
#include "algebra/bench/tables.hpp"
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/multimodular/zresultant.hpp"
#include "algebra/poly/euclid.hpp"
#include "algebra/poly/factor.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/poly/multiply.hpp"
#include "algebra/poly/multipoint.hpp"
#include "algebra/poly/roots.hpp"

#include <flint/fmpz_poly.h>
#include <flint/nmod_poly.h>
#include <flint/nmod_poly_factor.h>
#include <flint/ulong_extras.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Options {
  int min_log = 10, max_log = 18, flint_max_log = 18;
  int z_min_log = 5, z_max_log = 11, z_flint_max_log = 10;
  int factor_max_log = 12;
  std::string only;
  double seconds = 0.5;
  bool gpu = true;
  ulong modulus = 4611685941117976577ull;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (cas::bench::read_table_option(argv[i], argv[i + 1], o.min_log, o.max_log, o.seconds)) continue;
    if (!std::strcmp(argv[i], "--flint-max")) o.flint_max_log = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--gpu")) o.gpu = std::strcmp(argv[i + 1], "off") != 0;
    else if (!std::strcmp(argv[i], "--modulus")) o.modulus = std::strtoul(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--zmin")) o.z_min_log = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--zmax")) o.z_max_log = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--zflint-max")) o.z_flint_max_log = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--factor-max")) o.factor_max_log = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--only")) o.only = argv[i + 1];
  }
  return o;
}

std::vector<ulong> random_words(size_t n, ulong p, flint_rand_t state) {
  std::vector<ulong> w(n);
  for (ulong& x : w) x = n_randint(state, p);
  return w;
}

std::vector<cas::Fmpz> as_fmpz(const std::vector<ulong>& w) {
  std::vector<cas::Fmpz> out;
  out.reserve(w.size());
  for (ulong x : w) out.emplace_back(x);
  return out;
}

bool same_values(const std::vector<cas::Fmpz>& a, const std::vector<ulong>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++)
    if (!fmpz_equal_ui(a[i].get(), b[i])) return false;
  return true;
}

void print_row(const char* what, int k, double flint_ms, double cas_ms, const std::string& engine, bool agree) {
  if (flint_ms > 0)
    std::printf("%-12s 2^%-3d %10.2f %10.2f %8.2fx  %-34s %s\n", what, k, flint_ms, cas_ms, flint_ms / cas_ms,
                engine.c_str(), agree ? "equal" : "DIFFERENT");
  else
    std::printf("%-12s 2^%-3d %10s %10.2f %9s  %-34s\n", what, k, "-", cas_ms, "", engine.c_str());
}

void evaluate_row(const Options& o, int k, const cas::ModulusPtr& m, flint_rand_t state) {
  const size_t n = size_t{1} << k;
  const std::vector<ulong> coefficients = random_words(n, o.modulus, state), xs = random_words(n, o.modulus, state);
  const cas::ModPoly f = cas::modpoly_from_words(m, coefficients.data(), n);
  const std::vector<cas::Fmpz> points = as_fmpz(xs);
  std::vector<cas::Fmpz> values;
  const cas::bench::EngineTiming t =
      cas::bench::time_on_engines(o.seconds, false, [&] { values = cas::evaluate_many(f, points); });
  double flint_ms = 0;
  std::vector<ulong> ys(n);
  if (k <= o.flint_max_log)
    flint_ms = cas::bench::best_ms(o.seconds, [&] {
      nmod_poly_evaluate_nmod_vec_fast(ys.data(), f.nmod(), xs.data(), static_cast<slong>(n));
    });
  print_row("evaluate", k, flint_ms, t.ms, t.engine, flint_ms == 0 || same_values(values, ys));
}

void interpolate_row(const Options& o, int k, const cas::ModulusPtr& m, flint_rand_t state) {
  const size_t n = size_t{1} << k;
  const std::vector<ulong> xs = random_words(n, o.modulus, state), ys = random_words(n, o.modulus, state);
  const std::vector<cas::Fmpz> points = as_fmpz(xs), values = as_fmpz(ys);
  cas::ModPoly ours(m), theirs(m);
  const cas::bench::EngineTiming t =
      cas::bench::time_on_engines(o.seconds, false, [&] { ours = cas::interpolate(points, values, m); });
  double flint_ms = 0;
  if (k <= o.flint_max_log)
    flint_ms = cas::bench::best_ms(o.seconds, [&] {
      nmod_poly_interpolate_nmod_vec_fast(theirs.nmod(), xs.data(), ys.data(), static_cast<slong>(n));
    });
  print_row("interpolate", k, flint_ms, t.ms, t.engine, flint_ms == 0 || cas::equal(ours, theirs));
}

cas::ModPoly random_poly(const cas::ModulusPtr& m, size_t n, flint_rand_t state) {
  std::vector<ulong> w = random_words(n, m->word(), state);
  if (n > 0 && w[n - 1] == 0) w[n - 1] = 1;
  return cas::modpoly_from_words(m, w.data(), n);
}

void gcd_row(const Options& o, int k, const cas::ModulusPtr& m, flint_rand_t state) {
  const size_t n = size_t{1} << k;
  const cas::ModPoly c = random_poly(m, n / 2, state);
  const cas::ModPoly f = cas::multiply(c, random_poly(m, n / 2 + 1, state));
  const cas::ModPoly g = cas::multiply(c, random_poly(m, n / 2 + 1, state));
  cas::ModPoly ours(m), theirs(m);
  const cas::bench::EngineTiming t = cas::bench::time_on_engines(o.seconds, false, [&] { ours = cas::gcd(f, g); });
  double flint_ms = 0;
  if (k <= o.flint_max_log)
    flint_ms = cas::bench::best_ms(o.seconds, [&] { nmod_poly_gcd(theirs.nmod(), f.nmod(), g.nmod()); });
  print_row("gcd", k, flint_ms, t.ms, t.engine, flint_ms == 0 || cas::equal(ours, theirs));
}

void xgcd_row(const Options& o, int k, const cas::ModulusPtr& m, flint_rand_t state) {
  const size_t n = size_t{1} << k;
  const cas::ModPoly f = random_poly(m, n, state), g = random_poly(m, n - 1, state);
  cas::ModPoly a(m), s(m), t(m), a0(m), s0(m), t0(m);
  const cas::bench::EngineTiming time =
      cas::bench::time_on_engines(o.seconds, false, [&] { cas::xgcd(a, s, t, f, g); });
  double flint_ms = 0;
  if (k <= o.flint_max_log)
    flint_ms = cas::bench::best_ms(o.seconds, [&] { nmod_poly_xgcd(a0.nmod(), s0.nmod(), t0.nmod(), f.nmod(), g.nmod()); });
  const bool agree = flint_ms == 0 || (cas::equal(a, a0) && cas::equal(s, s0) && cas::equal(t, t0));
  print_row("xgcd", k, flint_ms, time.ms, time.engine, agree);
}

void resultant_row(const Options& o, int k, const cas::ModulusPtr& m, flint_rand_t state) {
  const size_t n = size_t{1} << k;
  const cas::ModPoly f = random_poly(m, n, state), g = random_poly(m, n - 1, state);
  cas::Fmpz ours;
  ulong theirs = 0;
  const cas::bench::EngineTiming t =
      cas::bench::time_on_engines(o.seconds, false, [&] { cas::resultant(ours.get(), f, g); });
  double flint_ms = 0;
  if (k <= o.flint_max_log)
    flint_ms = cas::bench::best_ms(o.seconds, [&] { theirs = nmod_poly_resultant(f.nmod(), g.nmod()); });
  print_row("resultant", k, flint_ms, t.ms, t.engine, flint_ms == 0 || fmpz_equal_ui(ours.get(), theirs));
}

void roots_row(const Options& o, int k, const cas::ModulusPtr& m, flint_rand_t state) {
  const size_t n = size_t{1} << k;
  const std::vector<ulong> xs = random_words(n / 2, o.modulus, state);
  cas::ModPoly f(m);
  nmod_poly_product_roots_nmod_vec(f.nmod(), xs.data(), static_cast<slong>(xs.size()));
  f = cas::multiply(f, random_poly(m, n / 2, state));
  std::vector<cas::Fmpz> ours;
  const cas::bench::EngineTiming t = cas::bench::time_on_engines(o.seconds, false, [&] { ours = cas::roots(f); });
  double flint_ms = 0;
  nmod_poly_factor_t theirs;
  nmod_poly_factor_init(theirs);
  if (k <= o.flint_max_log)
    flint_ms = cas::bench::best_ms(o.seconds, [&] { nmod_poly_roots(theirs, f.nmod(), 0); });
  bool agree = flint_ms == 0 || static_cast<slong>(ours.size()) == theirs->num;
  nmod_poly_factor_clear(theirs);
  print_row("roots", k, flint_ms, t.ms, t.engine, agree);
}

// n terms of random signed 64-bit coefficients, the last one nonzero.
cas::ZPoly random_zpoly(size_t n, flint_rand_t state) {
  cas::ZPoly f;
  for (size_t i = 0; i < n; i++) {
    cas::Fmpz c(n_randtest(state));
    if (n_randint(state, 2)) fmpz_neg(c.get(), c.get());
    if (i + 1 == n && fmpz_is_zero(c.get())) fmpz_one(c.get());
    fmpz_poly_set_coeff_fmpz(f.get(), static_cast<slong>(i), c.get());
  }
  return f;
}

// The best of the runs that fit `seconds`, or one run when that one takes longer.
template <class F>
double best_or_one_ms(double seconds, F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  const double once = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return once > 1000 * seconds ? once : std::min(once, cas::bench::best_ms(seconds, f));
}

// Whether FLINT's factorisation lists the same factors with the same multiplicities as ours.
bool same_factorisation(const std::vector<std::pair<cas::ModPoly, slong>>& ours, const nmod_poly_factor_t theirs) {
  if (static_cast<slong>(ours.size()) != theirs->num) return false;
  for (slong i = 0; i < theirs->num; i++) {
    const auto found = std::find_if(ours.begin(), ours.end(), [&](const auto& factor) {
      return factor.second == theirs->exp[i] && nmod_poly_equal(factor.first.nmod(), theirs->p + i);
    });
    if (found == ours.end()) return false;
  }
  return true;
}

void factor_row(const Options& o, int k, const cas::ModulusPtr& m, flint_rand_t state) {
  if (k > o.factor_max_log) return;
  const size_t n = size_t{1} << k;
  const cas::ModPoly f = cas::make_monic(random_poly(m, n, state));
  std::vector<std::pair<cas::ModPoly, slong>> ours;
  cas::Fmpz unit;
  cas::engine_reset();
  const double ms = best_or_one_ms(o.seconds, [&] { ours = cas::factor(f, unit.get()); });
  const std::string engine = cas::engine_last();
  double flint_ms = 0;
  nmod_poly_factor_t theirs;
  nmod_poly_factor_init(theirs);
  if (k <= o.flint_max_log)
    flint_ms = best_or_one_ms(o.seconds, [&] {
      nmod_poly_factor_clear(theirs);  // nmod_poly_factor adds to what it is given
      nmod_poly_factor_init(theirs);
      nmod_poly_factor(theirs, f.nmod());
    });
  const bool agree = flint_ms == 0 || same_factorisation(ours, theirs);
  nmod_poly_factor_clear(theirs);
  print_row("factor", k, flint_ms, ms, engine, agree);
}

void zresultant_row(const Options& o, int k, flint_rand_t state) {
  const size_t n = size_t{1} << k;
  const cas::ZPoly f = random_zpoly(n, state), g = random_zpoly(n, state);
  cas::Fmpz ours, theirs;
  const cas::bench::EngineTiming t =
      cas::bench::time_on_engines(o.seconds, false, [&] { cas::resultant_z(ours.get(), f, g); });
  double flint_ms = 0;
  if (k <= o.z_flint_max_log)
    flint_ms = best_or_one_ms(o.seconds, [&] { fmpz_poly_resultant(theirs.get(), f.get(), g.get()); });
  print_row("zresultant", k, flint_ms, t.ms, t.engine, flint_ms == 0 || fmpz_equal(ours.get(), theirs.get()));
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  cas::bench::start_tables(o.gpu);
  const cas::ModulusPtr m = cas::make_modulus(o.modulus);
  std::printf("modulus %lu, FLINT %s on one core\n", o.modulus, FLINT_VERSION);
  std::printf("%-12s %-5s %10s %10s %9s  %-34s %s\n", "operation", "n", "flint ms", "cas ms", "flint/cas", "engine",
              "check");
  flint_rand_t state;
  flint_randinit(state);
  const std::pair<const char*, void (*)(const Options&, int, const cas::ModulusPtr&, flint_rand_t)> rows[] = {
      {"evaluate", evaluate_row}, {"interpolate", interpolate_row}, {"gcd", gcd_row},
      {"xgcd", xgcd_row},         {"resultant", resultant_row},     {"roots", roots_row},
      {"factor", factor_row}};
  for (const auto& [name, row] : rows)
    if (o.only.empty() || o.only == name)
      for (int k = o.min_log; k <= o.max_log; k++) row(o, k, m, state);
  if (o.only.empty() || o.only == "zresultant")
    for (int k = o.z_min_log; k <= o.z_max_log; k++) zresultant_row(o, k, state);
  flint_randclear(state);
}
