#include "calibrate.hpp"

#include "error.hpp"
#include "fourier.hpp"
#include "modpoly_ops.hpp"
#include "multiply.hpp"

#include "gpu/ntt.hpp"

#include <flint/ulong_extras.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ostream>

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
// (nmod_poly_randtest picks a length up to n, and its products made the 32-bit rows' timings
// jump between 0 and the true time).
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

// n coefficients of 64 random bits and random signs: every coefficient present (randtest's
// sparse polynomials, sometimes zero, made the first measurements meaningless).
ZPoly full_random_zpoly(slong n, flint_rand_t state) {
  ZPoly f;
  fmpz_poly_fit_length(f.get(), n);
  for (slong i = 0; i < n; i++) {
    fmpz_randbits(f.get()->coeffs + i, state, 64);
    if (fmpz_is_zero(f.get()->coeffs + i)) fmpz_one(f.get()->coeffs + i);
  }
  _fmpz_poly_set_length(f.get(), n);
  return f;
}

// Times the product in Z[x] of two polynomials of n coefficients of 64 bits: fmpz_poly_mul
// against the multi-modular GPU path, both through multiply() as `*` calls them.
Timing time_z_product(slong n, flint_rand_t state) {
  const ZPoly a = full_random_zpoly(n, state), b = full_random_zpoly(n, state);
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

// Every operation is named (no default), so that the compiler asks about a new one: a default
// once timed the new transforms as products.
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
    clear_wins = t.cpu > clear_win * t.gpu ? clear_wins + 1 : 0;
    timings.push_back(t);
  }
  return timings;
}

void print_header(std::ostream& log) {
  char line[200];
  std::snprintf(line, sizeof line, "%-18s %10s %12s %12s %8s %7s %12s\n", "operation", "length", "cpu ms",
                "gpu ms", "cpu/gpu", "choice", "choice/best");
  log << line;
}

// One row per measured length, with the engine the crossover picks there and how far its time
// is from the faster engine's.
void print_rows(std::ostream& log, GpuOperation op, const std::vector<Timing>& timings, size_t threshold) {
  char line[200];
  for (const Timing& t : timings) {
    const bool gpu_chosen = t.length >= threshold;
    const double chosen = gpu_chosen ? t.gpu : t.cpu;
    std::snprintf(line, sizeof line, "%-18s %10zu %12.3f %12.3f %8.2f %7s %12.2f\n", gpu_operation_key(op),
                  t.length, t.cpu * 1e3, t.gpu * 1e3, t.cpu / t.gpu, gpu_chosen ? "gpu" : "cpu",
                  chosen / std::min(t.cpu, t.gpu));
    log << line;
  }
  log << std::flush;
}

}  // namespace

size_t crossover_length(const std::vector<EngineTiming>& timings) {
  // excess(k): the GPU chosen from timings[k] on (k = size: never), k from the largest down so
  // that a tie keeps the CPU.
  auto excess = [&](size_t k) {
    double sum = 0;
    for (size_t i = 0; i < timings.size(); i++) {
      const EngineTiming& t = timings[i];
      sum += (i >= k ? t.gpu : t.cpu) / std::min(t.cpu, t.gpu) - 1;
    }
    return sum;
  };
  size_t best = timings.size();
  double least = excess(best);
  for (size_t k = timings.size(); k-- > 0;)
    if (const double e = excess(k); e < least) {
      least = e;
      best = k;
    }
  return best < timings.size() ? timings[best].length : SIZE_MAX;
}

Crossovers calibrate(std::ostream& log) {
  if (!gpu_usable()) throw DomainError("calibration needs a GPU: " + gpu::describe());
  const GpuMode saved = gpu_mode();
  flint_rand_t state;
  flint_randinit(state);
  Crossovers result = crossovers();
  result.origin = crossover_config_path();
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
  print_header(log);
  for (const auto& c : cases) {
    std::vector<Timing> timings = measure(c.op, make_modulus(c.p), state);
    const size_t threshold = crossover_length(timings);
    result.length[static_cast<size_t>(c.op)] = threshold;
    print_rows(log, c.op, timings, threshold);
  }
  flint_randclear(state);
  set_gpu_mode(saved);
  return result;
}

}  // namespace cas
