#include "ntt_cpu.hpp"

#include "parallel.hpp"
#include "words.hpp"

#include <flint/ulong_extras.h>

#include <algorithm>
#include <vector>

namespace cas {

namespace {

// Sub-transforms of this many words (32 KiB, with their twiddles well inside a core's L2) run
// their stages one after the other; a longer one is two halves and one combining stage, so each
// stage below the top few works on data in the cache. Before, every stage swept the whole array
// (2^22 words: 22 sweeps over 32 MiB).
constexpr std::size_t leaf_words = std::size_t{1} << 12;
// Transforms of fewer words stay on one thread: starting one costs tens of microseconds, and on
// the 2-core development machine two threads were slower up to 2^17 words (2^16: 1.56 against
// 1.12 ms), faster from 2^18 (4.4 against 5.0 ms; 2^22: 61 against 104 ms).
constexpr std::size_t parallel_words = std::size_t{1} << 18;

// Harvey's lazy butterflies need 4p < 2^64; FLINT's Shoup products need p < 2^63.
enum class Arithmetic { Lazy, Shoup, Nmod };

Arithmetic arithmetic_for(ulong p) {
  if (p < (ulong{1} << 62)) return Arithmetic::Lazy;
  return p < (ulong{1} << 63) ? Arithmetic::Shoup : Arithmetic::Nmod;
}

// The twiddles of every stage side by side: the stage of half-length h reads
// tw[h + j] = w^(j n / 2h), j < h, contiguously, and pre[h + j] its Shoup companion (none for
// Nmod). The powers of the last stage come in chunks on several threads, each chunk stepping by a
// Shoup product from its own first power (one chain of nmod_mul took 43 ms for 2^21 powers); the
// other stages take every second entry of the stage above.
// The tables are Words, written only where read (tw[0] never is): zero-filling two fresh arrays
// of 2^22 words and faulting their 4 KiB pages in took longer than computing them.
struct StageTwiddles {
  Words tw, pre;
};

StageTwiddles stage_twiddles(std::size_t n, ulong w, const nmod_t& mod, Arithmetic arithmetic) {
  const bool shoup = arithmetic != Arithmetic::Nmod;
  StageTwiddles t{Words(n), Words(shoup ? n : 0)};
  const std::size_t half = n / 2;
  const ulong p = mod.n, w_pre = shoup ? n_mulmod_precomp_shoup(w, p) : 0;
  parallel_ranges(half, parallel_words / 2, [&](std::size_t begin, std::size_t end) {
    ulong power = nmod_pow_ui(w, begin, mod);
    for (std::size_t j = begin; j < end; j++) {
      t.tw[half + j] = power;
      if (shoup) t.pre[half + j] = n_mulmod_precomp_shoup(power, p);
      power = shoup ? n_mulmod_shoup(w, power, w_pre, p) : nmod_mul(power, w, mod);
    }
  });
  for (std::size_t k = half; k-- > 1;) t.tw[k] = t.tw[2 * k];
  if (shoup)
    for (std::size_t k = half; k-- > 1;) t.pre[k] = t.pre[2 * k];
  return t;
}

// (x, y) -> (x + w y, x - w y) on values in [0, 4p), p < 2^62 (Harvey): x is brought into
// [0, 2p), and w y computed in [0, 2p) by a Shoup product that skips its last correction.
struct LazyButterfly {
  ulong p, two_p;
  void operator()(ulong& x, ulong& y, ulong w, ulong w_pre) const {
    const ulong a = x >= two_p ? x - two_p : x;
    const ulong q = static_cast<ulong>((static_cast<unsigned __int128>(w_pre) * y) >> 64);
    const ulong t = w * y - q * p;
    x = a + t;
    y = a - t + two_p;
  }
};

// The same on values in [0, p), p < 2^63.
struct ShoupButterfly {
  ulong p;
  void operator()(ulong& x, ulong& y, ulong w, ulong w_pre) const {
    const ulong top = x, v = n_mulmod_shoup(w, y, w_pre, p);
    const ulong difference = top - v, sum = top + v;  // no overflow: top, v < p < 2^63
    y = top < v ? difference + p : difference;
    x = sum >= p ? sum - p : sum;
  }
};

// The same for any word-size p (no companions).
struct NmodButterfly {
  nmod_t mod;
  void operator()(ulong& x, ulong& y, ulong w, ulong) const {
    const ulong top = x, v = nmod_mul(y, w, mod);
    y = nmod_sub(top, v, mod);
    x = nmod_add(top, v, mod);
  }
};

// GCC's -O3 (-fsplit-paths) duplicated the nmod butterfly's reduction into branches the CPU
// mispredicts: the transform modulo 2^64 - 2^32 + 1 took 196 ms at 2^22 instead of 85 ms.
#if defined(__GNUC__) && !defined(__clang__)
#define CAS_NO_SPLIT_PATHS __attribute__((optimize("no-split-paths")))
#else
#define CAS_NO_SPLIT_PATHS
#endif

// The butterflies j in [begin, end) of one block of 2 half words. Nmod has no companions and
// reads its twiddles twice instead (the loop stays free of a test).
template <class Butterfly>
CAS_NO_SPLIT_PATHS void block_butterflies(ulong* block, std::size_t half, std::size_t begin, std::size_t end,
                                          const StageTwiddles& t, const Butterfly& butterfly) {
  const ulong* __restrict tw = t.tw.data() + half;
  const ulong* __restrict pre = (t.pre.empty() ? t.tw.data() : t.pre.data()) + half;
  ulong* __restrict x = block;
  ulong* __restrict y = block + half;
  for (std::size_t j = begin; j < end; j++) butterfly(x[j], y[j], tw[j], pre[j]);
}

// The stages of the DIT transform of a[0, n), whose entries are in bit-reversed order, on up to
// `threads` threads: the two halves (at once when there are threads to spare), then the stage
// that combines them.
template <class Butterfly>
void dit_stages(ulong* a, std::size_t n, const StageTwiddles& t, const Butterfly& butterfly, std::size_t threads) {
  if (n <= leaf_words) {
    for (std::size_t half = 1; half < n; half <<= 1)
      for (ulong* block = a; block < a + n; block += 2 * half) block_butterflies(block, half, 0, half, t, butterfly);
    return;
  }
  const std::size_t half = n / 2;
  if (threads < 2 || n < parallel_words) {
    dit_stages(a, half, t, butterfly, 1);
    dit_stages(a + half, half, t, butterfly, 1);
    block_butterflies(a, half, 0, half, t, butterfly);
    return;
  }
  parallel_ranges(2, 1, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; i++) dit_stages(a + i * half, half, t, butterfly, threads / 2);
  });
  parallel_ranges(half, (half + threads - 1) / threads, [&](std::size_t begin, std::size_t end) {
    block_butterflies(a, half, begin, end, t, butterfly);
  });
}

// The bit reversal on the cores.
void bit_reverse(ulong* a, std::size_t n) {
  parallel_ranges(n, parallel_words,
                  [&](std::size_t begin, std::size_t end) { bit_reverse_range(a, n, begin, end); });
}

// [0, 4p) -> [0, p) after the lazy butterflies.
void reduce_from_4p(ulong* a, std::size_t n, ulong p) {
  parallel_ranges(n, parallel_words, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; i++) {
      ulong x = a[i] >= 2 * p ? a[i] - 2 * p : a[i];
      a[i] = x >= p ? x - p : x;
    }
  });
}

}  // namespace

void ntt_words_cpu(ulong* a, std::size_t n, ulong w, const nmod_t& mod) {
  if (n < 2) return;
  bit_reverse(a, n);
  const Arithmetic arithmetic = arithmetic_for(mod.n);
  const StageTwiddles t = stage_twiddles(n, w, mod, arithmetic);
  const std::size_t threads = core_count();
  switch (arithmetic) {
    case Arithmetic::Lazy:
      dit_stages(a, n, t, LazyButterfly{mod.n, 2 * mod.n}, threads);
      reduce_from_4p(a, n, mod.n);
      return;
    case Arithmetic::Shoup: dit_stages(a, n, t, ShoupButterfly{mod.n}, threads); return;
    case Arithmetic::Nmod: dit_stages(a, n, t, NmodButterfly{mod}, threads); return;
  }
}

}  // namespace cas
