#include "algebra/fourier/ntt_cpu.hpp"

#include "algebra/support/budget_cache.hpp"
#include "algebra/fourier/ntt_cpu_lanes.hpp"
#include "algebra/support/parallel.hpp"
#include "algebra/support/words.hpp"

#include <flint/ulong_extras.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <tuple>
#include <vector>

namespace cas {

namespace {

// Sub-transforms of this many words (32 KiB, with their twiddles well inside a core's L2) run
// their stages one after the other; a longer one is two halves and one combining stage, so each
// stage below the top few works on data in the cache, rather than every stage sweeping the whole
// array (2^22 words: 22 sweeps over 32 MiB).
constexpr std::size_t leaf_words = std::size_t{1} << 12;
// Transforms of fewer words stay on one thread. On the pool of workers (parallel.hpp) two threads
// are faster from 2^16 words (modulo a 62-bit prime on two cores: 0.38-0.49 ms against 0.50 on one
// thread; docs/measurements.md, "The CPU transform's twiddle tables and threads"). The passes that
// reduce below p take this grain too.
constexpr std::size_t parallel_words = std::size_t{1} << 16;

// Harvey's lazy butterflies need 4p < 2^64; FLINT's Shoup products need p < 2^63. Below 2^30 the
// lazy butterflies fit 32-bit products (4p < 2^32), which vector units do 4 or 8 at a time
// (Narrow).
enum class Arithmetic { Narrow, Lazy, Shoup, Nmod };

Arithmetic arithmetic_for(ulong p) {
  if (p < (ulong{1} << 30)) return Arithmetic::Narrow;
  if (p < (ulong{1} << 62)) return Arithmetic::Lazy;
  return p < (ulong{1} << 63) ? Arithmetic::Shoup : Arithmetic::Nmod;
}

// The Shoup companion of a twiddle w < p: floor(w 2^64 / p), or floor(w 2^32 / p) for Narrow; none
// for Nmod.
ulong companion(ulong w, ulong p, Arithmetic arithmetic) {
  switch (arithmetic) {
    case Arithmetic::Narrow: return n_mulmod_precomp_shoup(w, p) >> 32;  // floor(floor(x) / 2^32) = floor(x / 2^32)
    case Arithmetic::Lazy:
    case Arithmetic::Shoup: return n_mulmod_precomp_shoup(w, p);
    case Arithmetic::Nmod: break;
  }
  return 0;
}

// The powers of the last stage come in chunks on several threads, each chunk stepping by a Shoup
// product from its own first power (one chain of nmod_mul takes 43 ms for 2^21 powers:
// docs/measurements.md, "The CPU transform's twiddle tables and threads"); the other stages take
// every second entry of the stage above.
// Narrow twiddles carry their companion in their top half (lazy_shoup32 takes them so), Lazy and
// Shoup ones beside them in pre.
void fill_stage_twiddles(Words& tw, Words& pre, std::size_t n, ulong w, const nmod_t& mod, Arithmetic arithmetic) {
  const std::size_t half = n / 2;
  const bool shoup = arithmetic != Arithmetic::Nmod, packed = arithmetic == Arithmetic::Narrow;
  const ulong p = mod.n, w_pre = shoup ? n_mulmod_precomp_shoup(w, p) : 0;
  parallel_ranges(half, parallel_words / 2, [&](std::size_t begin, std::size_t end) {
    ulong power = nmod_pow_ui(w, begin, mod);
    for (std::size_t j = begin; j < end; j++) {
      if (packed)
        tw[half + j] = power | companion(power, p, arithmetic) << 32;
      else {
        tw[half + j] = power;
        if (shoup) pre[half + j] = companion(power, p, arithmetic);
      }
      power = shoup ? n_mulmod_shoup(w, power, w_pre, p) : nmod_mul(power, w, mod);
    }
  });
  for (std::size_t k = half; k-- > 1;) tw[k] = tw[2 * k];
  if (!pre.empty())
    for (std::size_t k = half; k-- > 1;) pre[k] = pre[2 * k];
}

// With AVX-512, the butterflies below 2^62 (Harvey's lazy ones: values below 4p until the end) run
// on vectors (ntt_cpu_lanes.hpp); this tag names them by their kind. Without it, the scalar ones
// below run: the lanes' 64-bit products, emulated on AVX2, take 2.3-2.9 times their time
// (docs/measurements.md, "The CPU transform's butterflies and passes").
template <lanes::Kind K>
struct LaneButterfly {
  ulong p;
};

// The scalar ones. Decimation in time, (x, y) -> (x + w y, x - w y), on values in [0, 4p),
// p < 2^62 (Harvey): x is brought into [0, 2p), and w y computed in [0, 2p) by a Shoup product that
// skips its last correction.
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

// Decimation in time, (x, y) -> (x + w y, x - w y), on values in [0, p), p < 2^63.
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

// Decimation in frequency, (x, y) -> (x + y, (x - y) w), on values in [0, 2p), p < 2^62: the sum
// comes back below 2p by one subtraction, and the Shoup product of x - y + 2p < 4p without its last
// correction lies in [0, 2p).
struct LazyDifButterfly {
  ulong p, two_p;
  void operator()(ulong& x, ulong& y, ulong w, ulong w_pre) const {
    const ulong sum = x + y, difference = x - y + two_p;
    x = sum >= two_p ? sum - two_p : sum;
    const ulong q = static_cast<ulong>((static_cast<unsigned __int128>(w_pre) * difference) >> 64);
    y = w * difference - q * p;
  }
};

struct ShoupDifButterfly {
  ulong p;
  void operator()(ulong& x, ulong& y, ulong w, ulong w_pre) const {
    const ulong sum = x + y, difference = x >= y ? x - y : x - y + p;  // no overflow: x, y < p < 2^63
    x = sum >= p ? sum - p : sum;
    y = n_mulmod_shoup(w, difference, w_pre, p);
  }
};

struct NmodDifButterfly {
  nmod_t mod;
  void operator()(ulong& x, ulong& y, ulong w, ulong) const {
    const ulong top = x;
    x = nmod_add(top, y, mod);
    y = nmod_mul(nmod_sub(top, y, mod), w, mod);
  }
};

// The narrow lazy butterflies (p < 2^30: values below 4p < 2^32, companions floor(w 2^32 / p)), in
// 64-bit lanes with 32-bit products, which GCC turns into vpmuludq: without AVX-512 (which runs
// the lanes instead), target_clones builds them for AVX2 (4 a time) besides the plain build.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CAS_NARROW_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define CAS_NARROW_CLONES
#endif

ulong product32(ulong a, ulong b) {
  return static_cast<ulong>(static_cast<std::uint32_t>(a)) * static_cast<std::uint32_t>(b);
}

// w y mod p in [0, 2p) for y < 2^32 (Shoup without its last correction), the twiddle packed as
// w + 2^32 floor(w 2^32 / p): q is floor(w y / p) or one below, so w y - q p lies in [0, 2p)
// exactly, and w y < 2^62 leaves the 64-bit lanes no wrap.
ulong lazy_shoup32(ulong y, ulong packed_w, ulong p) {
  const ulong q = product32(packed_w >> 32, y) >> 32;
  return product32(packed_w, y) - product32(q, p);
}

// The narrow butterflies, as LazyButterfly (decimation in time, values below 4p) and
// LazyDifButterfly (in frequency, values below 2p). Their twiddles are packed with their companions
// (the second argument, read from the same table, goes unused).
struct NarrowButterfly {
  ulong p;
  void operator()(ulong& x, ulong& y, ulong w, ulong) const {
    const ulong a = std::min(x, x - 2 * p), t = lazy_shoup32(y, w, p);  // x - 2p wraps when x < 2p
    x = a + t;
    y = a - t + 2 * p;
  }
};
struct NarrowDifButterfly {
  ulong p;
  void operator()(ulong& x, ulong& y, ulong w, ulong) const {
    const ulong sum = x + y, difference = x - y + 2 * p;
    x = std::min(sum, sum - 2 * p);
    y = lazy_shoup32(difference, w, p);
  }
};

// count narrow butterflies in a vector loop (a lone butterfly calls the struct itself: for the
// short blocks of a leaf's first stages, a vector loop behind an indirect call costs more than it
// saves).
template <class Butterfly>
inline void narrow_butterflies(ulong* __restrict x, ulong* __restrict y, const ulong* __restrict tw,
                               const ulong* __restrict pre, std::size_t count, ulong p) {
  const Butterfly butterfly{p};
  for (std::size_t j = 0; j < count; j++) butterfly(x[j], y[j], tw[j], pre[j]);
}

CAS_NARROW_CLONES void narrow_dit_butterflies(ulong* __restrict x, ulong* __restrict y, const ulong* __restrict tw,
                                              const ulong* __restrict pre, std::size_t count, ulong p) {
  narrow_butterflies<NarrowButterfly>(x, y, tw, pre, count, p);
}

CAS_NARROW_CLONES void narrow_dif_butterflies(ulong* __restrict x, ulong* __restrict y, const ulong* __restrict tw,
                                              const ulong* __restrict pre, std::size_t count, ulong p) {
  narrow_butterflies<NarrowDifButterfly>(x, y, tw, pre, count, p);
}

// Blocks shorter than this run the scalar butterflies.
constexpr std::size_t narrow_vector_from = 16;

// GCC's -O3 (-fsplit-paths) duplicates the nmod butterfly's reduction into branches the CPU
// mispredicts: the transform modulo 2^64 - 2^32 + 1 at 2^22 takes 196 ms with it, 85 ms without
// (docs/measurements.md, "The CPU transform's butterflies and passes").
#if defined(__GNUC__) && !defined(__clang__)
#define CAS_NO_SPLIT_PATHS __attribute__((optimize("no-split-paths")))
#else
#define CAS_NO_SPLIT_PATHS
#endif

// The twiddles of every stage side by side (CpuTransform): the stage of half-length h reads
// tw[h + j], j < h, and pre[h + j] (tw again for Nmod, which has no companions and reads its
// twiddles twice instead: the loop stays free of a test).
struct Twiddles {
  const ulong* tw;
  const ulong* pre;
};

// The stage of half-length h over every block of 2h words of a[0, n), for the offsets [begin, end)
// of each block's halves.
template <class Butterfly>
CAS_NO_SPLIT_PATHS void stage(const Butterfly& butterfly, ulong* a, std::size_t n, std::size_t half, std::size_t begin,
                              std::size_t end, Twiddles t) {
  const ulong* __restrict tw = t.tw + half;
  const ulong* __restrict pre = t.pre + half;
  for (ulong* block = a; block < a + n; block += 2 * half) {
    ulong* __restrict x = block;
    ulong* __restrict y = block + half;
    for (std::size_t j = begin; j < end; j++) butterfly(x[j], y[j], tw[j], pre[j]);
  }
}

// The narrow butterflies of blocks of at least narrow_vector_from words go through their vector
// loops.
template <class Narrow>
void narrow_stage(const Narrow& butterfly, ulong* a, std::size_t n, std::size_t half, std::size_t begin,
                  std::size_t end, Twiddles t,
                  void (*vector_loop)(ulong*, ulong*, const ulong*, const ulong*, std::size_t, ulong)) {
  if (end - begin < narrow_vector_from) return stage<Narrow>(butterfly, a, n, half, begin, end, t);
  for (ulong* block = a; block < a + n; block += 2 * half)
    vector_loop(block + begin, block + half + begin, t.tw + half + begin, t.pre + half + begin, end - begin,
                butterfly.p);
}

void stage(const NarrowButterfly& butterfly, ulong* a, std::size_t n, std::size_t half, std::size_t begin,
           std::size_t end, Twiddles t) {
  narrow_stage(butterfly, a, n, half, begin, end, t, narrow_dit_butterflies);
}

void stage(const NarrowDifButterfly& butterfly, ulong* a, std::size_t n, std::size_t half, std::size_t begin,
           std::size_t end, Twiddles t) {
  narrow_stage(butterfly, a, n, half, begin, end, t, narrow_dif_butterflies);
}

template <lanes::Kind K>
void stage(const LaneButterfly<K>& butterfly, ulong* a, std::size_t n, std::size_t half, std::size_t begin,
           std::size_t end, Twiddles t) {
  for (ulong* block = a; block < a + n; block += 2 * half)
    lanes::butterflies(K, block + begin, block + half + begin, t.tw + half + begin, t.pre + half + begin, end - begin,
                       butterfly.p);
}

// The stages of half-lengths 2q and q (q = quarter) over every block of 4q words of a[0, n), for
// the offsets [begin, end) of each block's quarters: in time q first, in frequency 2q first. The
// vector butterflies run both in one sweep (radix 4; ntt_cpu_lanes.hpp), and so does decimation in
// frequency here. Decimation in time here sweeps twice: its second products wait on the first
// ones, and one sweep is 5-10% slower modulo 2^64 - 2^32 + 1 (2^12..2^22 words), even at 2^63
// (docs/measurements.md, "The CPU transform's butterflies and passes").
template <bool Dif, class Butterfly>
void stage_pair_in_two_sweeps(const Butterfly& butterfly, ulong* a, std::size_t n, std::size_t quarter,
                              std::size_t begin, std::size_t end, Twiddles t) {
  auto outer = [&] {
    stage(butterfly, a, n, 2 * quarter, begin, end, t);
    stage(butterfly, a, n, 2 * quarter, quarter + begin, quarter + end, t);
  };
  if constexpr (Dif) outer();
  stage(butterfly, a, n, quarter, begin, end, t);
  if constexpr (!Dif) outer();
}

template <bool Dif, class Butterfly>
CAS_NO_SPLIT_PATHS void stage_pair(const Butterfly& butterfly, ulong* a, std::size_t n, std::size_t quarter,
                                   std::size_t begin, std::size_t end, Twiddles t) {
  if constexpr (!Dif) return stage_pair_in_two_sweeps<Dif>(butterfly, a, n, quarter, begin, end, t);
  const ulong* __restrict tw = t.tw;
  const ulong* __restrict pre = t.pre;
  for (ulong* block = a; block < a + n; block += 4 * quarter)
    for (std::size_t j = begin; j < end; j++) {
      ulong x0 = block[j], x1 = block[quarter + j], x2 = block[2 * quarter + j], x3 = block[3 * quarter + j];
      butterfly(x0, x2, tw[2 * quarter + j], pre[2 * quarter + j]);
      butterfly(x1, x3, tw[3 * quarter + j], pre[3 * quarter + j]);
      butterfly(x0, x1, tw[quarter + j], pre[quarter + j]);
      butterfly(x2, x3, tw[quarter + j], pre[quarter + j]);
      block[j] = x0;
      block[quarter + j] = x1;
      block[2 * quarter + j] = x2;
      block[3 * quarter + j] = x3;
    }
}

// The scalar narrow butterflies sweep twice, through their vector loops.
template <bool Dif>
void stage_pair(const NarrowButterfly& butterfly, ulong* a, std::size_t n, std::size_t quarter, std::size_t begin,
                std::size_t end, Twiddles t) {
  stage_pair_in_two_sweeps<Dif>(butterfly, a, n, quarter, begin, end, t);
}

template <bool Dif>
void stage_pair(const NarrowDifButterfly& butterfly, ulong* a, std::size_t n, std::size_t quarter, std::size_t begin,
                std::size_t end, Twiddles t) {
  stage_pair_in_two_sweeps<Dif>(butterfly, a, n, quarter, begin, end, t);
}

template <bool Dif, lanes::Kind K>
void stage_pair(const LaneButterfly<K>& butterfly, ulong* a, std::size_t n, std::size_t quarter, std::size_t begin,
                std::size_t end, Twiddles t) {
  lanes::stage_pairs(K, a, n, quarter, begin, end, t.tw, t.pre, butterfly.p);
}

// The smallest half-length that a leaf of n words runs as stages: vectors run the four below 16
// together, 16 words at a time, in registers (lanes::small_stages); the rest run them all.
template <class Butterfly>
std::size_t smallest_stage(const Butterfly&, std::size_t) {
  return 1;
}

template <lanes::Kind K>
std::size_t smallest_stage(const LaneButterfly<K>&, std::size_t n) {
  return n >= 16 ? 16 : 1;
}

template <class Butterfly>
void small_stages(const Butterfly&, ulong*, std::size_t, Twiddles) {}

template <lanes::Kind K>
void small_stages(const LaneButterfly<K>& butterfly, ulong* a, std::size_t n, Twiddles t) {
  lanes::small_stages(K, a, n, t.tw, t.pre, butterfly.p);
}

// A sub-transform of at most leaf_words, one sweep per pair of stages while it stays in the cache.
// In time: the small stages, pairs upwards, and the top stage alone when an odd number is left.
template <class Butterfly>
void dit_leaf(ulong* a, std::size_t n, Twiddles t, const Butterfly& butterfly) {
  const std::size_t smallest = smallest_stage(butterfly, n);
  if (smallest > 1) small_stages(butterfly, a, n, t);
  std::size_t half = smallest;
  for (; 4 * half <= n; half *= 4) stage_pair<false>(butterfly, a, n, half, 0, half, t);
  if (half < n) stage(butterfly, a, n, half, 0, half, t);
}

// In frequency, the mirror: the top stage alone when the count is odd, pairs downwards, the small
// stages.
template <class Butterfly>
void dif_leaf(ulong* a, std::size_t n, Twiddles t, const Butterfly& butterfly) {
  const std::size_t smallest = smallest_stage(butterfly, n);
  std::size_t half = n / 2;
  if (half >= smallest && __builtin_ctzll(half / smallest) % 2 == 0) {  // an odd number of stages
    stage(butterfly, a, n, half, 0, half, t);
    half /= 2;
  }
  for (; half >= 2 * smallest; half /= 4) stage_pair<true>(butterfly, a, n, half / 2, 0, half / 2, t);
  if (smallest > 1) small_stages(butterfly, a, n, t);
}

// The stage of half-length n/2 over a[0, n), or the stages of n/2 and n/4 in one sweep, on up to
// `threads` threads.
template <class Butterfly>
void top_stage(ulong* a, std::size_t n, Twiddles t, const Butterfly& butterfly, std::size_t threads) {
  const std::size_t half = n / 2;
  parallel_ranges(half, (half + threads - 1) / threads,
                  [&](std::size_t begin, std::size_t end) { stage(butterfly, a, n, half, begin, end, t); });
}

template <bool Dif, class Butterfly>
void top_stage_pair(ulong* a, std::size_t n, Twiddles t, const Butterfly& butterfly, std::size_t threads) {
  const std::size_t quarter = n / 4;
  parallel_ranges(quarter, (quarter + threads - 1) / threads, [&](std::size_t begin, std::size_t end) {
    stage_pair<Dif>(butterfly, a, n, quarter, begin, end, t);
  });
}

// The `count` parts of a[0, n), each by `part_stages`, side by side when there are threads to
// spare.
template <class PartStages>
void parts(ulong* a, std::size_t n, std::size_t count, std::size_t threads, const PartStages& part_stages) {
  const std::size_t length = n / count;
  if (threads < 2) {
    for (std::size_t i = 0; i < count; i++) part_stages(a + i * length, std::size_t{1});
    return;
  }
  parallel_ranges(count, 1, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; i++) part_stages(a + i * length, std::max<std::size_t>(1, threads / count));
  });
}

// The stages of the DIT transform of a[0, n), whose entries are in bit-reversed order, on up to
// `threads` threads: the quarters (the halves when only two leaves are left), then the stages that
// combine them. Below leaf_words, the leaf in the cache.
template <class Butterfly>
void dit_stages(ulong* a, std::size_t n, Twiddles t, const Butterfly& butterfly, std::size_t threads) {
  if (n <= leaf_words) return dit_leaf(a, n, t, butterfly);
  if (n < parallel_words) threads = 1;
  const std::size_t count = n >= 4 * leaf_words ? 4 : 2;
  parts(a, n, count, threads, [&](ulong* part, std::size_t th) { dit_stages(part, n / count, t, butterfly, th); });
  if (count == 4)
    top_stage_pair<false>(a, n, t, butterfly, threads);
  else
    top_stage(a, n, t, butterfly, threads);
}

// The DIF transform of a[0, n) in natural order into bit-reversed order: the mirror of dit_stages.
template <class Butterfly>
void dif_stages(ulong* a, std::size_t n, Twiddles t, const Butterfly& butterfly, std::size_t threads) {
  if (n <= leaf_words) return dif_leaf(a, n, t, butterfly);
  if (n < parallel_words) threads = 1;
  const std::size_t count = n >= 4 * leaf_words ? 4 : 2;
  if (count == 4)
    top_stage_pair<true>(a, n, t, butterfly, threads);
  else
    top_stage(a, n, t, butterfly, threads);
  parts(a, n, count, threads, [&](ulong* part, std::size_t th) { dif_stages(part, n / count, t, butterfly, th); });
}

// The bit reversal on the cores.
void bit_reverse(ulong* a, std::size_t n) {
  parallel_ranges(n, parallel_words, [&](std::size_t begin, std::size_t end) { bit_reverse_range(a, n, begin, end); });
}

// [0, 4p) -> [0, p) after the lazy butterflies (also right for [0, 2p)).
void reduce_from_4p(ulong* a, std::size_t n, ulong p) {
  parallel_ranges(n, parallel_words, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; i++) {
      ulong x = a[i] >= 2 * p ? a[i] - 2 * p : a[i];
      a[i] = x >= p ? x - p : x;
    }
  });
}

}  // namespace

CpuTransform::CpuTransform(std::size_t n, ulong w, const nmod_t& mod) : n_(n), mod_(mod) {
  const Arithmetic arithmetic = arithmetic_for(mod.n);
  tw_.resize(n);
  if (arithmetic == Arithmetic::Lazy || arithmetic == Arithmetic::Shoup) pre_.resize(n);
  if (n >= 2) fill_stage_twiddles(tw_, pre_, n, w, mod, arithmetic);
}

namespace {

// The scalar butterflies of each arithmetic, by direction (decimation in frequency or in time); the
// vector ones name their direction in their kind (run_stages).
template <bool Dif>
struct Butterflies;
template <>
struct Butterflies<true> {
  using Narrow = NarrowDifButterfly;
  using Lazy = LazyDifButterfly;
  using Shoup = ShoupDifButterfly;
  using Nmod = NmodDifButterfly;
};
template <>
struct Butterflies<false> {
  using Narrow = NarrowButterfly;
  using Lazy = LazyButterfly;
  using Shoup = ShoupButterfly;
  using Nmod = NmodButterfly;
};

}  // namespace

template <bool Dif>
void CpuTransform::run_stages(ulong* a, Output output) const {
  if (n_ < 2) return;
  const Twiddles t{tw_.data(), pre_.empty() ? tw_.data() : pre_.data()};
  const std::size_t threads = core_count();
  // lazy: the butterflies leave values below 4p, brought below p when the caller asks.
  auto stages = [&](const auto& butterfly, bool lazy) {
    if constexpr (Dif)
      dif_stages(a, n_, t, butterfly, threads);
    else
      dit_stages(a, n_, t, butterfly, threads);
    if (lazy && output == Output::Reduced) reduce_from_4p(a, n_, mod_.n);
  };
  using B = Butterflies<Dif>;
  using NarrowLanes = LaneButterfly<Dif ? lanes::Kind::NarrowDif : lanes::Kind::NarrowDit>;
  using LazyLanes = LaneButterfly<Dif ? lanes::Kind::LazyDif : lanes::Kind::LazyDit>;
  const ulong p = mod_.n;
  switch (arithmetic_for(p)) {
    case Arithmetic::Narrow:
      return lanes::enabled() ? stages(NarrowLanes{p}, true) : stages(typename B::Narrow{p}, true);
    case Arithmetic::Lazy:
      return lanes::enabled() ? stages(LazyLanes{p}, true) : stages(typename B::Lazy{p, 2 * p}, true);
    case Arithmetic::Shoup: return stages(typename B::Shoup{p}, false);
    case Arithmetic::Nmod: return stages(typename B::Nmod{mod_}, false);
  }
}

void CpuTransform::natural_to_bit_reversed(ulong* a, Output output) const { run_stages<true>(a, output); }

void CpuTransform::bit_reversed_to_natural(ulong* a, Output output) const { run_stages<false>(a, output); }

void CpuTransform::natural_to_natural(ulong* a) const {
  if (n_ < 2) return;
  bit_reverse(a, n_);
  bit_reversed_to_natural(a);
}

void ntt_words_cpu(ulong* a, std::size_t n, ulong w, const nmod_t& mod) {
  static BudgetCache<std::tuple<std::size_t, ulong, ulong>, CpuTransform> cache(std::size_t{64} << 20, 16);
  cache.get({n, w, mod.n}, [&] { return std::make_shared<const CpuTransform>(n, w, mod); })->natural_to_natural(a);
}

}  // namespace cas
