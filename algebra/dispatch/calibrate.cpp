#include "algebra/dispatch/calibrate.hpp"

#include "algebra/support/error.hpp"
#include "algebra/fourier/big_prime_words.hpp"
#include "algebra/fourier/fourier.hpp"
#include "algebra/multimodular/zresultant.hpp"
#include "algebra/poly/euclid.hpp"
#include "algebra/poly/factor.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/poly/multiply.hpp"
#include "algebra/poly/multipoint.hpp"
#include "algebra/poly/roots.hpp"

#include "gpu/ntt.hpp"

#include <flint/nmod_poly.h>
#include <flint/ulong_extras.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <ostream>
#include <string>

namespace cas {

namespace {

using Clock = std::chrono::steady_clock;

// The seconds of one run of f.
template <class F>
double seconds_of(F&& f) {
  const auto start = Clock::now();
  f();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The median of `runs` timings of f, in seconds.
template <class F>
double median_seconds(int runs, F&& f) {
  std::vector<double> t;
  for (int i = 0; i < runs; i++) t.push_back(seconds_of(f));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// n uniform coefficients mod p, the leading one nonzero: a product of the length it claims
// (nmod_poly_randtest picks a length up to n, which makes a row's timings jump between 0 and the
// true time).
ModPoly random_poly(const ModulusPtr& m, slong n, flint_rand_t state) {
  ModPoly f(m);
  nmod_poly_fit_length(f.nmod(), n);
  for (slong i = 0; i < n; i++) f.nmod()->coeffs[i] = n_randint(state, m->word());
  if (f.nmod()->coeffs[n - 1] == 0) f.nmod()->coeffs[n - 1] = 1;
  f.nmod()->length = n;
  return f;
}

using Timing = EngineTiming;

// `operation` timed with the GPU off, then on (after one warm-up run for twiddles and
// allocations): the median of `runs` each.
template <class F>
Timing time_engines(size_t length, int runs, F&& operation) {
  set_gpu_mode(GpuMode::Off);
  const double cpu = median_seconds(runs, operation);
  set_gpu_mode(GpuMode::On);
  operation();
  const double gpu = median_seconds(runs, operation);
  return {length, cpu, gpu};
}

// The short-operand limits (dispatch.hpp): a long operand times one of m coefficients on the CPU,
// FLINT forced (every shorter length stays with it) against the transforms forced (none does),
// each after a warm-up, median of 5. The product is made fresh each time, as `*` makes it.
template <class F>
Timing time_short_operand(ShortOperandClass c, size_t m, F&& product) {
  Crossovers forced = crossovers();
  auto time_with = [&](size_t longest_for_flint) {
    forced.flint_short_operand[static_cast<size_t>(c)] = longest_for_flint;
    set_crossovers(forced);
    product();
    return median_seconds(5, product);
  };
  const double flint = time_with(never_on_gpu);
  return {m, flint, time_with(0)};
}

// Times the product of two polynomials of n coefficients on each engine.
Timing time_product(const ModulusPtr& m, slong n, flint_rand_t state) {
  ModPoly a = random_poly(m, n, state), b = random_poly(m, n, state);
  const int runs = n <= (1 << 16) ? 7 : 3;
  return time_engines(static_cast<size_t>(2 * n - 1), runs, [&] { multiply(a, b); });
}

// Times fft of a random vector of length n, as the user calls it (conversions included).
Timing time_transform(const ModulusPtr& m, ulong n, flint_rand_t state) {
  const Value zero = Value::mod(Fmpz(ulong{0}).get(), m);
  std::vector<Value> items;
  items.reserve(n);
  for (ulong i = 0; i < n; i++) items.push_back(Value::mod_word(n_randint(state, m->word()), zero));
  const Value v = Value::vec(std::move(items));
  Fmpz w(static_cast<ulong>(gpu::root_of_unity(m->word(), n)));
  const Value root = Value::mod(w.get(), m);
  const int runs = n <= (1 << 16) ? 7 : 3;
  return time_engines(static_cast<size_t>(n), runs, [&] { fft(v, root); });
}

// The prime of the big-prime rows: P3 = (2^63 + 2^34)^8 + 1 of the big-prime-field seed, 505 bits
// (8 words), 2^272 | p - 1.
ModulusPtr big_prime_of_rows() {
  Fmpz p(ulong{1});
  fmpz_mul_2exp(p.get(), p.get(), 63);
  fmpz_add_ui(p.get(), p.get(), ulong{1} << 34);
  fmpz_pow_ui(p.get(), p.get(), 8);
  fmpz_add_ui(p.get(), p.get(), 1);
  return make_modulus(p.get());
}

// n uniform residues modulo a multi-word p, as fmpz's.
std::vector<Fmpz> random_big_residues(const ModulusPtr& m, size_t n, flint_rand_t state) {
  std::vector<Fmpz> out(n);
  for (Fmpz& x : out) fmpz_randm(x.get(), state, m->value());
  return out;
}

// Times fft of a random vector of length n modulo a multi-word prime, as the user calls it: the
// CPU's radix-2 transform in fmpz_mod arithmetic against the GPU's big-prime transform.
Timing time_big_prime_transform(const ModulusPtr& m, ulong n, flint_rand_t state) {
  std::vector<Value> items;
  items.reserve(n);
  for (const Fmpz& x : random_big_residues(m, n, state)) items.push_back(Value::mod(x.get(), m));
  const Value v = Value::vec(std::move(items));
  Fmpz w;
  find_root_of_unity(w, *m, n);
  const Value root = Value::mod(w.get(), m);
  const int runs = n <= (1 << 12) ? 7 : 3;
  return time_engines(static_cast<size_t>(n), runs, [&] { fft(v, root); });
}

// Times the product of two polynomials of n coefficients modulo a multi-word prime, in auto mode
// on the crossovers in force: the route it takes without the big-prime convolution (product.z's
// primes on the GPU from that crossover, the CPU below) against that convolution.
Timing time_big_prime_product(const ModulusPtr& m, slong n, flint_rand_t state) {
  ModPoly a(m), b(m);
  for (ModPoly* f : {&a, &b}) {
    const std::vector<Fmpz> coefficients = random_big_residues(m, static_cast<size_t>(n), state);
    for (slong i = 0; i < n; i++) f->set_coeff(i, coefficients[static_cast<size_t>(i)].get());
    if (f->length() < n) f->set_coeff(n - 1, Fmpz(ulong{1}).get());
  }
  const int runs = n <= (1 << 16) ? 7 : 3;
  Crossovers forced = crossovers();
  auto time_from = [&](size_t from) {
    forced.length[static_cast<size_t>(GpuOperation::ProductBigPrime)] = from;
    set_crossovers(forced);
    multiply(a, b);
    return median_seconds(runs, [&] { multiply(a, b); });
  };
  set_gpu_mode(GpuMode::Auto);
  const double other = time_from(never_on_gpu);
  return {static_cast<size_t>(2 * n - 1), other, time_from(0)};
}

// n coefficients of `bits` random bits and random signs: every coefficient present (randtest's
// polynomials are sparse, sometimes zero, which would time something else).
ZPoly full_random_zpoly(slong n, flint_rand_t state, flint_bitcnt_t bits = 64) {
  ZPoly f;
  fmpz_poly_fit_length(f.get(), n);
  for (slong i = 0; i < n; i++) {
    fmpz_randbits(f.get()->coeffs + i, state, bits);
    if (fmpz_is_zero(f.get()->coeffs + i)) fmpz_one(f.get()->coeffs + i);
  }
  _fmpz_poly_set_length(f.get(), n);
  return f;
}

// Times the product in Z[x] of two polynomials of n coefficients of `bits` bits: fmpz_poly_mul
// against the multi-modular GPU path, both through multiply() as `*` calls them.
Timing time_z_product(slong n, flint_rand_t state, flint_bitcnt_t bits = 64) {
  const ZPoly a = full_random_zpoly(n, state, bits), b = full_random_zpoly(n, state, bits);
  const int runs = n <= (1 << 16) ? 7 : 3;
  return time_engines(static_cast<size_t>(2 * n - 1), runs, [&] { multiply(a, b); });
}

// Times the product of two integers of `bits` bits: mpz_mul (through fmpz_mul) against the
// multi-modular GPU path. The length of this operation is the smaller factor's bit size.
Timing time_integer_product(ulong bits, flint_rand_t state) {
  Fmpz a, b, c;
  fmpz_randbits(a.get(), state, bits);
  fmpz_randbits(b.get(), state, bits);
  const int runs = bits <= (1ul << 22) ? 7 : 3;
  return time_engines(static_cast<size_t>(bits), runs, [&] { multiply(c.get(), a.get(), b.get()); });
}

// The first prime above `from` with p = 3 mod 4: p - 1 has one factor 2, so a product needs CRT.
ulong prime_without_2_adic_roots(ulong from) {
  ulong p = n_nextprime(from + 12345, 1);
  while ((p - 1) % 4 == 0) p = n_nextprime(p, 1);
  return p;
}

// Once the GPU has won by this factor at two lengths in a row, longer lengths are not timed:
// the CPU's time only grows faster from there.
constexpr double clear_win = 4.0;

// The shorter operands measured: 2, 4, ... up to 2048, until the transforms win by this factor
// at two in a row (FLINT's time grows with m, theirs hardly).
constexpr double clear_short_operand_win = 1.5;
constexpr size_t longest_short_operand = 2048;

// One class of unbalanced products at one modulus (a word, or 0 for Z[x]) and long length.
struct ShortOperandCase {
  ShortOperandClass c;
  ulong p;
  slong long_length;
};

std::vector<Timing> measure_short_operands(const ShortOperandCase& k, flint_rand_t state) {
  std::vector<Timing> timings;
  int clear_wins = 0;
  for (size_t m = 2; m <= longest_short_operand && clear_wins < 2; m *= 2) {
    Timing t{};
    if (k.p == 0) {
      const ZPoly a = full_random_zpoly(k.long_length, state), b = full_random_zpoly(static_cast<slong>(m), state);
      t = time_short_operand(k.c, m, [&] { multiply(a, b); });
    } else {
      const ModulusPtr modulus = make_modulus(k.p);
      const ModPoly a = random_poly(modulus, k.long_length, state), b = random_poly(modulus, static_cast<slong>(m), state);
      t = time_short_operand(k.c, m, [&] { multiply(a, b); });
    }
    clear_wins = t.below > clear_short_operand_win * t.from ? clear_wins + 1 : 0;
    timings.push_back(t);
  }
  return timings;
}

// Every operation is named (no default), so that the compiler asks about a new one: a default
// would time it as whatever the default measures.
Timing time_operation(GpuOperation op, const ModulusPtr& m, int k, flint_rand_t state) {
  switch (op) {
    case GpuOperation::Transform:
    case GpuOperation::Transform32:
    case GpuOperation::Transform17: return time_transform(m, ulong{1} << k, state);
    case GpuOperation::ProductZ: return time_z_product(slong{1} << (k - 1), state);
    case GpuOperation::ProductInteger: return time_integer_product(ulong{1} << k, state);
    case GpuOperation::TransformBigPrime: return time_big_prime_transform(m, ulong{1} << k, state);
    case GpuOperation::ProductBigPrime: return time_big_prime_product(m, slong{1} << (k - 1), state);
    case GpuOperation::ProductNttPrime:
    case GpuOperation::ProductNttPrime32:
    case GpuOperation::ProductNttPrime17:
    case GpuOperation::ProductCrt:
    case GpuOperation::ProductCrt32:
    case GpuOperation::ProductCrt17: break;
  }
  return time_product(m, slong{1} << (k - 1), state);
}

bool needs_2_adic_roots(GpuOperation op) {
  switch (op) {
    case GpuOperation::ProductNttPrime:
    case GpuOperation::ProductNttPrime32:
    case GpuOperation::ProductNttPrime17:
    case GpuOperation::Transform:
    case GpuOperation::Transform32:
    case GpuOperation::Transform17:
    case GpuOperation::TransformBigPrime:
    case GpuOperation::ProductBigPrime: return true;
    default: return false;
  }
}

// The longest transform length, as a power of 2, that this operation can have at p: a product
// over 65537 longer than 2^16 goes through CRT, and it has no transform longer than that. The CPU's
// transform modulo a multi-word p runs on one core (0.22 s at 2^16 for 505 bits), so its rows stop
// there; the big-prime products at 2^20 coefficients.
int longest_measured(GpuOperation op, const Modulus& m) {
  if (op == GpuOperation::ProductInteger) return 30;  // bits: up to about 10^9
  if (op == GpuOperation::TransformBigPrime) return 16;
  if (op == GpuOperation::ProductBigPrime) return 20;
  constexpr int longest = 22;
  return needs_2_adic_roots(op) ? std::min(longest, __builtin_ctzll(m.word() - 1)) : longest;
}

std::vector<Timing> measure(GpuOperation op, const ModulusPtr& m, flint_rand_t state) {
  std::vector<Timing> timings;
  int clear_wins = 0;
  // Integer products are measured in bits, from 2^14.
  const int first = op == GpuOperation::ProductInteger ? 14 : 6;
  const int last = longest_measured(op, *m);
  for (int k = first; k <= last && clear_wins < 2; k++) {
    Timing t = time_operation(op, m, k, state);
    clear_wins = t.below > clear_win * t.from ? clear_wins + 1 : 0;
    timings.push_back(t);
  }
  return timings;
}

// The table's header, naming the two engines of its rows ("cpu", "gpu").
void print_header(std::ostream& log, const char* below, const char* from) {
  char line[200];
  std::snprintf(line, sizeof line, "%-34s %7s %12s %12s %10s %11s %12s\n", "operation", "length",
                (std::string(below) + " ms").c_str(), (std::string(from) + " ms").c_str(),
                (std::string(below) + "/" + from).c_str(), "choice", "choice/best");
  log << line;
}

// One row per measured length, with the engine the crossover picks there and how far its time
// is from the faster engine's.
void print_rows(std::ostream& log, const std::string& name, const std::vector<Timing>& timings, size_t threshold,
                const char* below, const char* from) {
  char line[200];
  for (const Timing& t : timings) {
    const bool second_chosen = t.length >= threshold;
    const double chosen = second_chosen ? t.from : t.below;
    std::snprintf(line, sizeof line, "%-34s %7zu %12.3f %12.3f %10.2f %11s %12.2f\n", name.c_str(), t.length,
                  t.below * 1e3, t.from * 1e3, t.below / t.from, second_chosen ? from : below,
                  chosen / std::min(t.below, t.from));
    log << line;
  }
  log << std::flush;
}

// The short-operand limits of this machine, into `result`: two primes for the CRT class (30 and 62
// bits), Z[x] with 64-bit coefficients, long operands of 2^18 coefficients (60000 modulo 65537,
// whose transforms stop at 2^16).
void calibrate_short_operands(std::ostream& log, Crossovers& result, flint_rand_t state) {
  const Crossovers saved = crossovers();
  const slong long_length = slong{1} << 18;
  const ShortOperandCase cases[] = {{ShortOperandClass::NttPrime64, 18446744069414584321ull, long_length},
                                    {ShortOperandClass::NttPrime62, 4611686018326724609ull, long_length},
                                    {ShortOperandClass::NttPrime32, 998244353, long_length},
                                    {ShortOperandClass::NttPrime17, 65537, 60000},
                                    {ShortOperandClass::Crt, prime_without_2_adic_roots(ulong{1} << 30), long_length},
                                    {ShortOperandClass::Crt, prime_without_2_adic_roots(ulong{1} << 62), long_length},
                                    {ShortOperandClass::Z, 0, long_length}};
  print_header(log, "flint", "transforms");
  set_gpu_mode(GpuMode::Off);
  for (size_t i = 0; i < std::size(cases); i++) {
    std::vector<std::vector<Timing>> series = {measure_short_operands(cases[i], state)};
    while (i + 1 < std::size(cases) && cases[i + 1].c == cases[i].c)
      series.push_back(measure_short_operands(cases[++i], state));
    const size_t first_for_transforms = joint_crossover_length(series);
    const size_t c = static_cast<size_t>(cases[i].c);
    result.flint_short_operand[c] = first_for_transforms == SIZE_MAX ? never_on_gpu : first_for_transforms - 1;
    for (const auto& timings : series)
      print_rows(log, short_operand_key(cases[i].c), timings, first_for_transforms, "flint", "transforms");
  }
  set_crossovers(saved);
}

// The smallest measured length of `rows` (those of one coefficient size) whose weight reaches
// `crossover` under `exponent`: where the dispatcher's choice turns to the GPU.
size_t first_weighted_on_gpu(const std::vector<Timing>& rows, unsigned long bits, size_t crossover, double exponent) {
  for (const Timing& t : rows)
    if (z_product_weight(t.length, bits, bits, exponent) >= crossover) return t.length;
  return SIZE_MAX;
}

// The weight exponent of this machine, into `result`: Z[x] products with 1000- and 4000-bit
// coefficients timed on both engines from 4 terms up (until the GPU has won by clear_win twice),
// the exponent fitted to them against product.z's crossover as measured.
void calibrate_z_weight(std::ostream& log, Crossovers& result, flint_rand_t state) {
  const size_t crossover = result.length[static_cast<size_t>(GpuOperation::ProductZ)];
  if (crossover == never_on_gpu) return;
  constexpr unsigned long sizes[] = {1000, 4000};
  std::vector<Timing> series[std::size(sizes)];
  std::vector<SizedEngineTiming> rows;
  for (size_t s = 0; s < std::size(sizes); s++) {
    int clear_wins = 0;
    for (int k = 3; k <= 11 && clear_wins < 2; k++) {
      const Timing t = time_z_product(slong{1} << (k - 1), state, sizes[s]);
      clear_wins = t.below > clear_win * t.from ? clear_wins + 1 : 0;
      series[s].push_back(t);
      rows.push_back({sizes[s], t});
    }
  }
  result.z_weight_exponent = fitted_z_weight_exponent(rows, crossover, result.z_weight_exponent);
  for (size_t s = 0; s < std::size(sizes); s++)
    print_rows(log, std::string(gpu_operation_key(GpuOperation::ProductZ)) + " " + std::to_string(sizes[s]) + "-bit",
               series[s], first_weighted_on_gpu(series[s], sizes[s], crossover, result.z_weight_exponent), "cpu",
               "gpu");
  char line[160];
  std::snprintf(line, sizeof line, "%s = %.2f (fitted to the rows above against product.z = %zu)\n",
                z_weight_exponent_key, result.z_weight_exponent, crossover);
  log << line << std::flush;
}

// The big-prime crossovers of this machine, into `result`, modulo P3 (big_prime_of_rows): fft on
// the CPU against the GPU, then products by the big-prime convolution against the route they take
// without it, on the crossovers measured before (product.z and its weight exponent).
void calibrate_big_prime(std::ostream& log, Crossovers& result, flint_rand_t state) {
  const Crossovers saved = crossovers();
  const ModulusPtr p3 = big_prime_of_rows();
  log << "modulo P3 = (2^63 + 2^34)^8 + 1 (505 bits):\n";
  std::vector<Timing> timings = measure(GpuOperation::TransformBigPrime, p3, state);
  size_t threshold = crossover_length(timings);
  result.length[static_cast<size_t>(GpuOperation::TransformBigPrime)] = threshold;
  print_rows(log, gpu_operation_key(GpuOperation::TransformBigPrime), timings, threshold, "cpu", "gpu");
  log << "products: the route without the big-prime convolution (other) against it (bigp):\n";
  print_header(log, "other", "bigp");
  set_crossovers(result);
  timings = measure(GpuOperation::ProductBigPrime, p3, state);
  threshold = crossover_length(timings);
  result.length[static_cast<size_t>(GpuOperation::ProductBigPrime)] = threshold;
  print_rows(log, gpu_operation_key(GpuOperation::ProductBigPrime), timings, threshold, "other", "bigp");
  set_crossovers(saved);
}

// The GPU crossovers of this machine, into `result`.
void calibrate_gpu(std::ostream& log, Crossovers& result, flint_rand_t state) {
  // NTT primes (2^64 - 2^32 + 1 has 2^32 | p - 1; 998244353 = 119 2^23 + 1, the usual one below
  // 2^32; 65537 = 2^16 + 1) and primes without 2-adic roots (62, 30 and 16 bits).
  const ulong ntt_prime = 18446744069414584321ull, ntt_prime32 = 998244353, ntt_prime17 = 65537;
  const ulong crt_prime = prime_without_2_adic_roots(ulong{1} << 62), crt_prime32 = prime_without_2_adic_roots(ulong{1} << 30),
              crt_prime17 = prime_without_2_adic_roots(ulong{1} << 15);
  const struct {
    GpuOperation op;
    ulong p;
  } cases[] = {{GpuOperation::ProductNttPrime, ntt_prime},
               {GpuOperation::ProductCrt, crt_prime},
               {GpuOperation::Transform, ntt_prime},
               {GpuOperation::ProductZ, ntt_prime},  // the modulus is unused for these two
               {GpuOperation::ProductInteger, ntt_prime},
               {GpuOperation::ProductNttPrime32, ntt_prime32},
               {GpuOperation::ProductCrt32, crt_prime32},
               {GpuOperation::Transform32, ntt_prime32},
               {GpuOperation::ProductNttPrime17, ntt_prime17},
               {GpuOperation::ProductCrt17, crt_prime17},
               {GpuOperation::Transform17, ntt_prime17}};
  print_header(log, "cpu", "gpu");
  for (const auto& c : cases) {
    std::vector<Timing> timings = measure(c.op, make_modulus(c.p), state);
    const size_t threshold = crossover_length(timings);
    result.length[static_cast<size_t>(c.op)] = threshold;
    print_rows(log, gpu_operation_key(c.op), timings, threshold, "cpu", "gpu");
  }
  calibrate_z_weight(log, result, state);
  calibrate_big_prime(log, result, state);
}

// ---- The algorithms on cas's products against FLINT's routines (AlgorithmCrossover).

// The modulus of the algorithms over Z/pZ: a 62-bit prime, that of docs/measurements.md's rows;
// for factor's crossover below 2^10, 257.
constexpr ulong algorithm_prime = 4611685941117976577ull;
constexpr ulong factor_small_prime = 257;

// FLINT's routine and cas's algorithm at length n: each the best of runs taken in turns (so that a
// slow spell of the machine weighs on both), as many turns as fit algorithm_seconds, at least 3 and
// at most 25: a point of a few milliseconds costs a few turns, and the whole calibration of the
// algorithms takes seconds. flint_run and cas_run return the seconds of one run.
constexpr double algorithm_seconds = 0.4;

template <class F, class G>
Timing best_in_turns(size_t n, F&& flint_run, G&& cas_run) {
  Timing t{n, 1e300, 1e300};
  const auto start = Clock::now();
  for (int turn = 0; turn < 25; turn++) {
    if (turn >= 3 && std::chrono::duration<double>(Clock::now() - start).count() > algorithm_seconds) break;
    t.below = std::min(t.below, flint_run());
    t.from = std::min(t.from, cas_run());
  }
  return t;
}

// Once cas's algorithm has won by this factor at two lengths in a row, longer lengths are not
// timed: in every table of docs/measurements.md, "Algorithms on cas's products", its lead stays
// above this factor at every longer length after two such wins.
constexpr double clear_algorithm_win = 1.5;

// time_at(n) for n = 2^first .. 2^last, until cas's algorithm has won clearly twice in a row.
template <class F>
std::vector<Timing> measure_algorithm(int first, int last, F&& time_at) {
  std::vector<Timing> timings;
  int clear_wins = 0;
  for (int k = first; k <= last && clear_wins < 2; k++) {
    const Timing t = time_at(size_t{1} << k);
    clear_wins = t.below > clear_algorithm_win * t.from ? clear_wins + 1 : 0;
    timings.push_back(t);
  }
  return timings;
}

// `operation` with FLINT's routine forced (a's crossover never reached) and with cas's algorithm
// forced (a's crossover 0), the other crossovers those of `base`: the public function as a user
// calls it.
template <class F>
Timing time_forced(const Crossovers& base, AlgorithmCrossover a, size_t n, F&& operation) {
  Crossovers forced = base;
  auto run_from = [&](size_t from) {
    forced.algorithm_from[static_cast<size_t>(a)] = from;
    set_crossovers(forced);
    return seconds_of(operation);
  };
  auto flint = [&] { return run_from(SIZE_MAX); };
  auto algorithm = [&] { return run_from(0); };
  return best_in_turns(n, flint, algorithm);
}

std::vector<Fmpz> random_residues(size_t n, ulong p, flint_rand_t state) {
  std::vector<Fmpz> out;
  out.reserve(n);
  for (size_t i = 0; i < n; i++) out.emplace_back(n_randint(state, p));
  return out;
}

// Evaluation of a polynomial of n terms at n random points, and interpolation through them.
Timing time_multipoint(const Crossovers& base, const ModulusPtr& m, size_t n, flint_rand_t state) {
  const ModPoly f = random_poly(m, static_cast<slong>(n), state);
  const std::vector<Fmpz> xs = random_residues(n, m->word(), state), ys = random_residues(n, m->word(), state);
  return time_forced(base, AlgorithmCrossover::MultipointTree, n, [&] {
    evaluate_many(f, xs);
    interpolate(xs, ys, m);
  });
}

// gcd of c f and c g (n terms each, c of n/2) and xgcd of random f and g of n terms: FLINT's against
// one half-gcd reduction to fewer than n/2 terms, FLINT finishing (down_to = n/2). A crossover c
// reduces operands of n >= c terms while they have c or more, each reduction from a length at
// least c, so it pays at every length from c on where one reduction pays at each measured length.
Timing time_half_gcd(const ModulusPtr& m, size_t n, flint_rand_t state) {
  const slong half = static_cast<slong>(n / 2);
  const ModPoly c = random_poly(m, half, state);
  const ModPoly a = multiply(c, random_poly(m, half + 1, state)), b = multiply(c, random_poly(m, half + 1, state));
  const ModPoly f = random_poly(m, static_cast<slong>(n), state), g = random_poly(m, static_cast<slong>(n), state);
  HalfGcdLimits limits;
  limits.down_to = n / 2;
  ModPoly x(m), s(m), t(m);
  auto flint = [&] {
    gcd_flint(a, b);
    xgcd_flint(x, s, t, f, g);
  };
  auto half_gcd = [&] {
    gcd_half(a, b, limits);
    xgcd_half(x, s, t, f, g, limits);
  };
  return best_in_turns(
      n, [&] { return seconds_of(flint); }, [&] { return seconds_of(half_gcd); });
}

// The resultant of random f and g of n terms: FLINT's against the half-gcd's reductions down to the
// gcd's crossover `gcd_from`, as resultant runs them, or to n/2 where gcd_from is longer (so that
// the half-gcd reduces at least once: resultant_half would otherwise be FLINT's call alone).
Timing time_half_gcd_resultant(const ModulusPtr& m, size_t n, size_t gcd_from, flint_rand_t state) {
  const ModPoly f = random_poly(m, static_cast<slong>(n), state), g = random_poly(m, static_cast<slong>(n), state);
  HalfGcdLimits limits;
  limits.down_to = std::min(gcd_from, n / 2);
  Fmpz r;
  auto flint = [&] { resultant_flint(r.get(), f, g); };
  auto half_gcd = [&] { resultant_half(r.get(), f, g, limits); };
  return best_in_turns(
      n, [&] { return seconds_of(flint); }, [&] { return seconds_of(half_gcd); });
}

// The roots of f of n terms: n/2 random linear factors times a random polynomial of n/2 terms.
Timing time_roots(const Crossovers& base, const ModulusPtr& m, size_t n, flint_rand_t state) {
  std::vector<ulong> linear(n / 2);
  for (ulong& r : linear) r = n_randint(state, m->word());
  ModPoly f(m);
  nmod_poly_product_roots_nmod_vec(f.nmod(), linear.data(), static_cast<slong>(linear.size()));
  f = multiply(f, random_poly(m, static_cast<slong>(n / 2), state));
  return time_forced(base, AlgorithmCrossover::Roots, n, [&] { roots(f); });
}

// The resultant in Z[x] of two polynomials of n terms of random signed 64-bit coefficients:
// fmpz_poly_resultant against the primes (on the GPU where resultant_z takes it there).
Timing time_zresultant(const Crossovers& base, size_t n, flint_rand_t state) {
  const ZPoly a = full_random_zpoly(static_cast<slong>(n), state), b = full_random_zpoly(static_cast<slong>(n), state);
  Fmpz r;
  return time_forced(base, AlgorithmCrossover::ZResultantPrimes, n, [&] { resultant_z(r.get(), a, b); });
}

// factor of a random polynomial of n terms modulo m's prime (monic or not), `a` the crossover
// that prime takes (algorithm.factor, or algorithm.factor.small_p for p < 2^10).
Timing time_factor(const Crossovers& base, AlgorithmCrossover a, const ModulusPtr& m, size_t n, flint_rand_t state) {
  const ModPoly f = random_poly(m, static_cast<slong>(n), state);
  Fmpz unit;
  return time_forced(base, a, n, [&] { factor(f, unit.get()); });
}

// The algorithms' crossovers of this machine, into `result`: each algorithm against FLINT's routine
// at doubling lengths around its default, the crossover from first_length_won_from. They run on
// the engines and crossovers `result` holds (the products inside them included), on inputs drawn
// from a random state of their own, so that every calibration times the same inputs (the time of
// roots depends on its polynomial's roots as much as on its length).
void calibrate_algorithms(std::ostream& log, Crossovers& result) {
  const Crossovers saved = crossovers();
  flint_rand_t state;
  flint_randinit(state);
  const ModulusPtr m = make_modulus(algorithm_prime);
  log << "algorithms on cas's products against FLINT's routines, modulo " << algorithm_prime
      << " (Z[x]: 64-bit coefficients):\n";
  print_header(log, "flint", "cas");
  auto choose = [&](AlgorithmCrossover a, const std::vector<Timing>& timings) {
    const size_t from = first_length_won_from(timings);
    result.algorithm_from[static_cast<size_t>(a)] = from;
    print_rows(log, algorithm_crossover_key(a), timings, from, "flint", "cas");
  };
  set_crossovers(result);
  choose(AlgorithmCrossover::MultipointTree,
         measure_algorithm(6, 12, [&](size_t n) { return time_multipoint(result, m, n, state); }));
  set_crossovers(result);
  choose(AlgorithmCrossover::HalfGcd, measure_algorithm(6, 12, [&](size_t n) { return time_half_gcd(m, n, state); }));
  const size_t gcd_from = result.algorithm_from[static_cast<size_t>(AlgorithmCrossover::HalfGcd)];
  choose(AlgorithmCrossover::HalfGcdResultant,
         measure_algorithm(6, 12, [&](size_t n) { return time_half_gcd_resultant(m, n, gcd_from, state); }));
  choose(AlgorithmCrossover::Roots,
         measure_algorithm(6, 12, [&](size_t n) { return time_roots(result, m, n, state); }));
  choose(AlgorithmCrossover::ZResultantPrimes,
         measure_algorithm(3, 8, [&](size_t n) { return time_zresultant(result, n, state); }));
  choose(AlgorithmCrossover::Factor,
         measure_algorithm(6, 10, [&](size_t n) { return time_factor(result, AlgorithmCrossover::Factor, m, n, state); }));
  const ModulusPtr small_p = make_modulus(factor_small_prime);
  choose(AlgorithmCrossover::FactorSmallP, measure_algorithm(7, 10, [&](size_t n) {
           return time_factor(result, AlgorithmCrossover::FactorSmallP, small_p, n, state);
         }));
  flint_randclear(state);
  set_crossovers(saved);
}

}  // namespace

size_t first_length_won_from(const std::vector<EngineTiming>& timings) {
  if (timings.empty()) return SIZE_MAX;
  size_t from = timings.back().length + 1;
  for (size_t i = timings.size(); i-- > 0 && timings[i].from <= timings[i].below;) from = timings[i].length;
  return from;
}

size_t joint_crossover_length(const std::vector<std::vector<EngineTiming>>& series) {
  // excess(k): the second engine chosen from the k-th length on (k = count: never), k from the
  // largest down so that a tie keeps the first. The series may stop at different lengths.
  const auto longest = std::max_element(series.begin(), series.end(),
                                        [](const auto& a, const auto& b) { return a.size() < b.size(); });
  const size_t count = longest == series.end() ? 0 : longest->size();
  auto excess = [&](size_t k) {
    double sum = 0;
    for (const auto& timings : series)
      for (size_t i = 0; i < timings.size(); i++) {
        const EngineTiming& t = timings[i];
        sum += (i >= k ? t.from : t.below) / std::min(t.below, t.from) - 1;
      }
    return sum;
  };
  size_t best = count;
  double least = excess(best);
  for (size_t k = count; k-- > 0;)
    if (const double e = excess(k); e < least) {
      least = e;
      best = k;
    }
  return best < count ? (*longest)[best].length : SIZE_MAX;
}

size_t crossover_length(const std::vector<EngineTiming>& timings) {
  return joint_crossover_length({timings});
}

double fitted_z_weight_exponent(const std::vector<SizedEngineTiming>& rows, size_t crossover, double fallback) {
  if (rows.empty() || crossover == never_on_gpu) return fallback;
  auto excess = [&](double exponent) {
    double sum = 0;
    for (const auto& [bits, t] : rows) {
      const bool on_gpu = z_product_weight(t.length, bits, bits, exponent) >= crossover;
      sum += (on_gpu ? t.from : t.below) / std::min(t.below, t.from) - 1;
    }
    return sum;
  };
  std::vector<double> best;
  double least = 0;
  for (int hundredths = 30; hundredths <= 120; hundredths++) {
    const double exponent = hundredths / 100.0, e = excess(exponent);
    if (best.empty() || e < least - 1e-12) {
      least = e;
      best.assign(1, exponent);
    } else if (e <= least + 1e-12) {
      best.push_back(exponent);
    }
  }
  return best[best.size() / 2];
}

Crossovers calibrate(std::ostream& log) {
  const GpuMode saved = gpu_mode();
  flint_rand_t state;
  flint_randinit(state);
  Crossovers result = crossovers();
  result.origin = crossover_config_path();
  calibrate_short_operands(log, result, state);
  if (gpu_usable())
    calibrate_gpu(log, result, state);
  else
    log << "no usable GPU (" << gpu::describe() << "): the GPU crossovers stay as they were\n";
  flint_randclear(state);
  set_gpu_mode(saved);
  calibrate_algorithms(log, result);
  return result;
}

}  // namespace cas
