// cas-bench-division: division with remainder and powmod in Z/pZ[x] by Newton's iteration on cas's
// products (algebra/poly/division.hpp) against FLINT's nmod_poly_divrem and nmod_poly_powmod_fmpz_binexp,
// both measured in the same run, the results compared.
//   cas-bench-division [--min K] [--max K] [--flint-max K] [--powmod-max K] [--seconds S] [--gpu off]
//                      [--grid 1] [--moduli P,Q,...] [--big-bits B,C,...] [--lengths L,M,...]
// divrem rows: a dividend of 2^K coefficients by a divisor of 2^(K-1) (a quotient of 2^(K-1) + 1);
// powmod rows: x + (a random polynomial) to the power p modulo a polynomial of 2^K coefficients.
// --lengths L,M,...: dividends and moduli of L, M, ... coefficients instead (crossovers between
// powers of two).
// Best of the runs that fit S seconds (at least 3); with a GPU, cas's time with the GPU off too (cpu
// ms); engine: the largest operation of cas's last run (algebra/dispatch/engine.hpp); choice: what divrem and
// powmod choose at that size. --grid 1 prints
// instead, per modulus, FLINT's time over Newton's for quotients and divisors of 2^min..2^max terms
// (where the crossover of division.cpp comes from). --big-bits adds multi-word moduli, the first
// primes above 2^B, 2^C, ... (--moduli 0 leaves out the word-size ones): FLINT's fmpz_mod_poly
// divrem and powmod against Newton's iteration on cas's products.
#include "algebra/bench/best_time.hpp"
#include "algebra/bench/tables.hpp"
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/poly/division.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/poly/modpoly_ops.hpp"

#include <flint/nmod_poly.h>
#include <flint/ulong_extras.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using cas::bench::comma_separated;

struct Options {
  int min_log = 10, max_log = 20, flint_max_log = 20, powmod_max_log = 14;
  double seconds = 0.3;
  bool gpu = true;
  bool grid = false;
  std::vector<ulong> moduli{998244353, 1000000007, (ulong{1} << 61) - 1, 4611686018326724609ull};
  std::vector<ulong> big_bits;
  std::vector<ulong> divrem_lengths, powmod_lengths;  // 2^min..2^max and 2^min..2^powmod_max unless --lengths
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (cas::bench::read_table_option(argv[i], argv[i + 1], o.min_log, o.max_log, o.seconds)) continue;
    if (!std::strcmp(argv[i], "--flint-max")) o.flint_max_log = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--powmod-max")) o.powmod_max_log = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--gpu")) o.gpu = std::strcmp(argv[i + 1], "off") != 0;
    else if (!std::strcmp(argv[i], "--grid")) o.grid = std::atoi(argv[i + 1]) != 0;
    else if (!std::strcmp(argv[i], "--moduli")) o.moduli = comma_separated(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--big-bits")) o.big_bits = comma_separated(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--lengths")) o.divrem_lengths = o.powmod_lengths = comma_separated(argv[i + 1]);
  }
  if (o.divrem_lengths.empty())
    for (int k = o.min_log; k <= o.max_log; k++) o.divrem_lengths.push_back(ulong{1} << k);
  if (o.powmod_lengths.empty())
    for (int k = o.min_log; k <= o.powmod_max_log; k++) o.powmod_lengths.push_back(ulong{1} << k);
  return o;
}

using cas::bench::best_ms;

// `length` uniform residues, the leading one nonzero (a unit: the moduli are prime).
cas::ModPoly random_poly(const cas::ModulusPtr& m, size_t length, flint_rand_t state) {
  if (!m->word_size()) {
    cas::ModPoly f(m);
    cas::Fmpz c;
    for (size_t i = 0; i < length; i++) {
      do fmpz_randm(c.get(), state, m->value());
      while (i + 1 == length && fmpz_is_zero(c.get()));
      f.set_coeff(static_cast<slong>(i), c.get());
    }
    return f;
  }
  std::vector<ulong> w(length);
  for (ulong& x : w) x = n_randint(state, m->word());
  w.back() = 1 + n_randint(state, m->word() - 1);
  return cas::modpoly_from_words(m, w.data(), w.size());
}

using Timing = cas::bench::EngineTiming;

// Newton's time with the GPU allowed and, when one is there, without it.
template <class F>
Timing time_newton(const Options& o, F&& f) {
  return cas::bench::time_on_engines(o.seconds, o.gpu, f);
}

// p in decimal, or 2^b+c for multi-word moduli (the next prime above 2^b).
std::string modulus_name(const cas::ModulusPtr& m) {
  if (m->word_size()) return std::to_string(m->word());
  const ulong bits = fmpz_bits(m->value()) - 1;
  cas::Fmpz offset;
  fmpz_one(offset.get());
  fmpz_mul_2exp(offset.get(), offset.get(), bits);
  fmpz_sub(offset.get(), m->value(), offset.get());
  return "2^" + std::to_string(bits) + "+" + std::to_string(fmpz_get_ui(offset.get()));
}

// Whether divrem takes Newton's iteration at these lengths.
bool division_takes_newton(const cas::ModulusPtr& m, size_t quotient_length, size_t divisor_length) {
  return m->word_size() ? cas::newton_division_pays(quotient_length, divisor_length, m->word())
                        : cas::big_newton_division_pays(quotient_length, divisor_length);
}

// 2^k for a power of two, else the number.
std::string length_name(size_t n) {
  if (n != 0 && (n & (n - 1)) == 0) return "2^" + std::to_string(__builtin_ctzll(n));
  return std::to_string(n);
}

void print_row(const char* what, const cas::ModulusPtr& p, size_t length, double flint, const Timing& ours,
               bool same, bool newton) {
  char flint_text[16] = "-", ratio_text[16] = "-", cpu_text[16] = "-", cpu_ratio_text[16] = "-";
  if (flint > 0) {
    std::snprintf(flint_text, sizeof flint_text, "%.3f", flint);
    std::snprintf(ratio_text, sizeof ratio_text, "%.2fx", flint / ours.ms);
  }
  if (ours.cpu_ms > 0) {
    std::snprintf(cpu_text, sizeof cpu_text, "%.3f", ours.cpu_ms);
    if (flint > 0) std::snprintf(cpu_ratio_text, sizeof cpu_ratio_text, "%.2fx", flint / ours.cpu_ms);
  }
  std::printf("%-7s %-21s %-5s %12s %12.3f %9s %12s %9s %6s %-7s %s\n", what, modulus_name(p).c_str(),
              length_name(length).c_str(), flint_text, ours.ms,
              ratio_text, cpu_text, cpu_ratio_text, flint > 0 ? (same ? "ok" : "DIFFER") : "-",
              newton ? "newton" : "flint", ours.engine.c_str());
}

void division_rows(const Options& o, const cas::ModulusPtr& m, flint_rand_t state) {
  for (const ulong n : o.divrem_lengths) {
    const cas::ModPoly f = random_poly(m, n, state), g = random_poly(m, n / 2, state);
    std::pair<cas::ModPoly, cas::ModPoly> flint{cas::ModPoly(m), cas::ModPoly(m)}, ours = flint;
    const double flint_ms =
        n <= (ulong{1} << o.flint_max_log) ? best_ms(o.seconds, [&] { flint = cas::divrem_flint(f, g); }) : 0;
    const Timing timing = time_newton(o, [&] { ours = cas::divrem_newton(f, g); });
    const bool same = cas::equal(flint.first, ours.first) && cas::equal(flint.second, ours.second);
    print_row("divrem", m, n, flint_ms, timing, same, division_takes_newton(m, n - n / 2 + 1, n / 2));
  }
}

void powmod_rows(const Options& o, const cas::ModulusPtr& m, flint_rand_t state) {
  cas::Fmpz e(m->value());  // e = p
  for (const ulong n : o.powmod_lengths) {
    const cas::ModPoly modulus = random_poly(m, n, state), f = random_poly(m, n - 1, state);
    cas::ModPoly flint(m), ours(m);
    const double flint_ms = n <= (ulong{1} << o.flint_max_log)
                                ? best_ms(o.seconds, [&] { flint = cas::powmod_flint(f, e.get(), modulus); })
                                : 0;
    const Timing timing = time_newton(o, [&] { ours = cas::powmod_newton(f, e.get(), modulus); });
    const bool newton = m->word_size() ? cas::newton_powmod_pays(n, m->word()) : cas::big_newton_powmod_pays(n, *m);
    print_row("powmod", m, n, flint_ms, timing, cas::equal(flint, ours), newton);
  }
}

// Rows: quotient lengths 2^i; columns: divisor lengths 2^j; entries FLINT's time / Newton's.
void division_grid(const Options& o, const cas::ModulusPtr& m, flint_rand_t state) {
  std::printf("mod %s: FLINT's divrem time / Newton's, quotient 2^i (rows) by divisor 2^j (columns)\n",
              modulus_name(m).c_str());
  cas::bench::print_ratio_grid(o.min_log, o.max_log, [&](size_t nq, size_t nb) {
    const cas::ModPoly f = random_poly(m, nq + nb - 1, state), g = random_poly(m, nb, state);
    const double flint = best_ms(o.seconds, [&] { cas::divrem_flint(f, g); });
    return flint / best_ms(o.seconds, [&] { cas::divrem_newton(f, g); });
  });
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  cas::bench::start_tables(o.gpu);
  flint_rand_t state;
  flint_randinit(state);
  std::printf("%-7s %-21s %-5s %12s %12s %9s %12s %9s %6s %-7s %s\n", "what", "p", "N", "flint ms", "cas ms",
              "flint/cas", "cas cpu ms", "flint/cpu", "same", "choice", "engine (cas)");
  std::vector<cas::ModulusPtr> moduli;
  for (ulong p : o.moduli)
    if (p >= 2) moduli.push_back(cas::make_modulus(p));  // --moduli 0: none
  for (ulong bits : o.big_bits) {
    cas::Fmpz p;
    fmpz_one(p.get());
    fmpz_mul_2exp(p.get(), p.get(), bits);
    fmpz_nextprime(p.get(), p.get(), 1);
    moduli.push_back(cas::make_modulus(p.get()));
  }
  for (const cas::ModulusPtr& m : moduli) {
    if (o.grid) {
      division_grid(o, m, state);
      continue;
    }
    division_rows(o, m, state);
    powmod_rows(o, m, state);
  }
  flint_randclear(state);
}
