#include "algebra/dispatch/calibrate.hpp"

#include "algebra/support/error.hpp"
#include "algebra/fourier/fourier.hpp"
#include "algebra/poly/modpoly_ops.hpp"
#include "algebra/poly/multiply.hpp"

#include "gpu/ntt.hpp"

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

// The median of `runs` timings of f, in seconds.
template <class F>
double median_seconds(int runs, F&& f) {
  std::vector<double> t;
  for (int i = 0; i < runs; i++) {
    auto start = Clock::now();
    f();
    t.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  }
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
    case GpuOperation::Transform17: return true;
    default: return false;
  }
}

// The longest transform length, as a power of 2, that this operation can have at p: a product
// over 65537 longer than 2^16 goes through CRT, and it has no transform longer than that.
int longest_measured(GpuOperation op, ulong p) {
  if (op == GpuOperation::ProductInteger) return 30;  // bits: up to about 10^9
  constexpr int longest = 22;
  return needs_2_adic_roots(op) ? std::min(longest, __builtin_ctzll(p - 1)) : longest;
}

std::vector<Timing> measure(GpuOperation op, const ModulusPtr& m, flint_rand_t state) {
  std::vector<Timing> timings;
  int clear_wins = 0;
  // Integer products are measured in bits, from 2^14.
  const int first = op == GpuOperation::ProductInteger ? 14 : 6;
  const int last = longest_measured(op, m->word());
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
}

}  // namespace

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
  return result;
}

}  // namespace cas
