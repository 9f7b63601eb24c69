#include "algebra/fourier/ntt_cpu_lanes.hpp"

#include <cstring>
#include <type_traits>

namespace cas::lanes {

namespace {

// Built for x86-64-v4 (AVX-512 F/BW/CD/DQ/VL: eight lanes a register, vpmullq for the 64-bit
// products) and run only where the machine has it; elsewhere the vector types compile to what the
// target has, and available() says no.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CAS_LANE_TARGET __attribute__((target("arch=x86-64-v4")))
#define CAS_LANES_POSSIBLE 1
#else
#define CAS_LANE_TARGET
#define CAS_LANES_POSSIBLE 0
#endif
#define CAS_INLINE inline __attribute__((always_inline))
#define CAS_LAMBDA_INLINE __attribute__((always_inline))

constexpr std::size_t width = 8;
typedef ulong Lanes __attribute__((vector_size(width * sizeof(ulong))));
// One lane, for the words of a loop that do not fill a vector.
typedef ulong Lane __attribute__((vector_size(sizeof(ulong))));

template <class V>
CAS_INLINE V load(const ulong* from) {
  V v;
  std::memcpy(&v, from, sizeof v);
  return v;
}

template <class V>
CAS_INLINE void store(ulong* to, V v) {
  std::memcpy(to, &v, sizeof v);
}

template <class V>
CAS_INLINE V minimum(V a, V b) {
  return a < b ? a : b;
}

// The product of the low 32 bits of each lane: vpmuludq.
template <class V>
CAS_INLINE V product32(V a, V b) {
  return (a & 0xffffffff) * (b & 0xffffffff);
}

// w y mod p in [0, 2p) for y < 2^32 (Shoup without its last correction), the twiddle packed as
// w + 2^32 floor(w 2^32 / p): q is floor(w y / p) or one below, so w y - q p lies in [0, 2p)
// exactly, and w y < 2^62 leaves the lanes no wrap.
template <class V>
CAS_INLINE V lazy_shoup32(V y, V packed_w, ulong p) {
  const V q = product32(packed_w >> 32, y) >> 32;
  return product32(packed_w, y) - product32(q, V{} + p);
}

// The high word of the 128-bit products a b, lane by lane, from four 32-bit products (no vector
// instruction gives it whole); one lane takes the scalar 128-bit product.
template <class V>
CAS_INLINE V high_product(V a, V b) {
  const V a_high = a >> 32, b_high = b >> 32;
  const V low = product32(a, b), cross1 = product32(a, b_high), cross2 = product32(a_high, b),
          high = product32(a_high, b_high);
  const V middle = (low >> 32) + (cross1 & 0xffffffff) + (cross2 & 0xffffffff);  // below 3 2^32
  return high + (cross1 >> 32) + (cross2 >> 32) + (middle >> 32);
}

template <>
CAS_INLINE Lane high_product(Lane a, Lane b) {
  return Lane{static_cast<ulong>((static_cast<unsigned __int128>(a[0]) * b[0]) >> 64)};
}

// w y mod p in [0, 2p) for p < 2^62 (Shoup without its last correction, as narrow).
template <class V>
CAS_INLINE V lazy_shoup(V y, V w, V w_pre, ulong p) {
  return w * y - high_product(w_pre, y) * p;
}

// The two lazy products: w y mod p in [0, 2p).
struct NarrowProduct {  // p < 2^30
  template <class V>
  CAS_INLINE static V lazy(const V& y, const V& w, const V&, ulong p) {
    return lazy_shoup32(y, w, p);
  }
};

struct WideProduct {  // p < 2^62
  template <class V>
  CAS_INLINE static V lazy(const V& y, const V& w, const V& w_pre, ulong p) {
    return lazy_shoup(y, w, w_pre, p);
  }
};

// Harvey's lazy butterflies with either product. In time, (x, y) -> (x + w y, x - w y) on values
// below 4p: x is brought below 2p (x - 2p wraps when x < 2p, so the minimum picks the right one).
template <class Product>
struct Dit {
  ulong p;
  template <class V>
  CAS_INLINE void operator()(V& x, V& y, const V& w, const V& w_pre) const {
    const V a = minimum(x, x - 2 * p), t = Product::lazy(y, w, w_pre, p);
    x = a + t;
    y = a - t + 2 * p;
  }
};

// In frequency, (x, y) -> (x + y, (x - y) w) on values below 2p.
template <class Product>
struct Dif {
  ulong p;
  template <class V>
  CAS_INLINE void operator()(V& x, V& y, const V& w, const V& w_pre) const {
    const V sum = x + y, difference = x - y + 2 * p;
    x = minimum(sum, sum - 2 * p);
    y = Product::lazy(difference, w, w_pre, p);
  }
};

template <class Butterfly>
CAS_INLINE void butterflies(ulong* x, ulong* y, const ulong* tw, const ulong* pre, std::size_t count,
                            const Butterfly& butterfly) {
  std::size_t j = 0;
  for (; j + width <= count; j += width) {
    Lanes u = load<Lanes>(x + j), v = load<Lanes>(y + j);
    butterfly(u, v, load<Lanes>(tw + j), load<Lanes>(pre + j));
    store(x + j, u);
    store(y + j, v);
  }
  for (; j < count; j++) {
    Lane u = load<Lane>(x + j), v = load<Lane>(y + j);
    butterfly(u, v, load<Lane>(tw + j), load<Lane>(pre + j));
    store(x + j, u);
    store(y + j, v);
  }
}

// The twiddles of the stages of half-length 8, 4, 2 and 1, spread over the lanes as the pairs of
// a 16-word chunk lie in them (below): stage h's lane i holds tw[h + i mod h].
struct SmallStages {
  Lanes tw[4], pre[4];  // by stage: half-lengths 8, 4, 2, 1
};

CAS_INLINE Lanes spread(const ulong* table, std::size_t half) {
  Lanes v;
  for (std::size_t i = 0; i < width; i++) v[i] = table[half + i % half];
  return v;
}

CAS_INLINE SmallStages small_stages(const ulong* tw, const ulong* pre) {
  SmallStages s;
  for (std::size_t k = 0, half = 8; k < 4; k++, half /= 2) {
    s.tw[k] = spread(tw, half);
    s.pre[k] = spread(pre, half);
  }
  return s;
}

// The butterflies of half-length `Half` on a chunk of 16 words held as v0 = words 0..7 and
// v1 = words 8..15: the pairs' first words are gathered into x and their second words into y
// (for Half = 4: x = words 0-3 and 8-11), `butterfly` runs on all eight pairs at once, and the
// words go back where they were.
template <std::size_t Half, class Butterfly>
CAS_INLINE void chunk_stage(Lanes& v0, Lanes& v1, Lanes w, Lanes w_pre, const Butterfly& butterfly) {
  if constexpr (Half == 8) {
    butterfly(v0, v1, w, w_pre);
  } else if constexpr (Half == 4) {
    Lanes x = __builtin_shufflevector(v0, v1, 0, 1, 2, 3, 8, 9, 10, 11);
    Lanes y = __builtin_shufflevector(v0, v1, 4, 5, 6, 7, 12, 13, 14, 15);
    butterfly(x, y, w, w_pre);
    v0 = __builtin_shufflevector(x, y, 0, 1, 2, 3, 8, 9, 10, 11);
    v1 = __builtin_shufflevector(x, y, 4, 5, 6, 7, 12, 13, 14, 15);
  } else if constexpr (Half == 2) {
    Lanes x = __builtin_shufflevector(v0, v1, 0, 1, 4, 5, 8, 9, 12, 13);
    Lanes y = __builtin_shufflevector(v0, v1, 2, 3, 6, 7, 10, 11, 14, 15);
    butterfly(x, y, w, w_pre);
    v0 = __builtin_shufflevector(x, y, 0, 1, 8, 9, 2, 3, 10, 11);
    v1 = __builtin_shufflevector(x, y, 4, 5, 12, 13, 6, 7, 14, 15);
  } else {
    static_assert(Half == 1);
    Lanes x = __builtin_shufflevector(v0, v1, 0, 2, 4, 6, 8, 10, 12, 14);
    Lanes y = __builtin_shufflevector(v0, v1, 1, 3, 5, 7, 9, 11, 13, 15);
    butterfly(x, y, w, w_pre);
    v0 = __builtin_shufflevector(x, y, 0, 8, 1, 9, 2, 10, 3, 11);
    v1 = __builtin_shufflevector(x, y, 4, 12, 5, 13, 6, 14, 7, 15);
  }
}

// Decimation in time starts with half-lengths 1, 2, 4, 8; in frequency it ends with 8, 4, 2, 1.
template <bool Dif, class Butterfly>
CAS_INLINE void small_stages_by_chunk(ulong* a, std::size_t n, const ulong* tw, const ulong* pre,
                                      const Butterfly& butterfly) {
  const SmallStages s = small_stages(tw, pre);
  for (ulong* chunk = a; chunk < a + n; chunk += 2 * width) {
    Lanes v0 = load<Lanes>(chunk), v1 = load<Lanes>(chunk + width);
    if constexpr (Dif) {
      chunk_stage<8>(v0, v1, s.tw[0], s.pre[0], butterfly);
      chunk_stage<4>(v0, v1, s.tw[1], s.pre[1], butterfly);
      chunk_stage<2>(v0, v1, s.tw[2], s.pre[2], butterfly);
      chunk_stage<1>(v0, v1, s.tw[3], s.pre[3], butterfly);
    } else {
      chunk_stage<1>(v0, v1, s.tw[3], s.pre[3], butterfly);
      chunk_stage<2>(v0, v1, s.tw[2], s.pre[2], butterfly);
      chunk_stage<4>(v0, v1, s.tw[1], s.pre[1], butterfly);
      chunk_stage<8>(v0, v1, s.tw[0], s.pre[0], butterfly);
    }
    store(chunk, v0);
    store(chunk + width, v1);
  }
}

// The two stages of half-lengths 2q and q of a block of 4q words (radix 4) in one sweep, for the
// offsets j in [begin, end) of its quarters A, B, C, D: in time (A, B) and (C, D) at tw[q + j], then
// (A, C) at tw[2q + j] and (B, D) at tw[3q + j]; in frequency the same in the other order.
template <bool Dif, class V, class Butterfly>
CAS_INLINE void radix4(ulong* block, std::size_t quarter, std::size_t j, const ulong* tw, const ulong* pre,
                       const Butterfly& butterfly) {
  ulong* const at[4] = {block + j, block + quarter + j, block + 2 * quarter + j, block + 3 * quarter + j};
  V a = load<V>(at[0]), b = load<V>(at[1]), c = load<V>(at[2]), d = load<V>(at[3]);
  const V w_inner = load<V>(tw + quarter + j), pre_inner = load<V>(pre + quarter + j);
  auto outer = [&]() CAS_LAMBDA_INLINE {
    butterfly(a, c, load<V>(tw + 2 * quarter + j), load<V>(pre + 2 * quarter + j));
    butterfly(b, d, load<V>(tw + 3 * quarter + j), load<V>(pre + 3 * quarter + j));
  };
  if constexpr (Dif) outer();
  butterfly(a, b, w_inner, pre_inner);
  butterfly(c, d, w_inner, pre_inner);
  if constexpr (!Dif) outer();
  store(at[0], a);
  store(at[1], b);
  store(at[2], c);
  store(at[3], d);
}

template <bool Dif, class Butterfly>
CAS_INLINE void stage_pairs_of(ulong* a, std::size_t n, std::size_t quarter, std::size_t begin, std::size_t end,
                               const ulong* tw, const ulong* pre, const Butterfly& butterfly) {
  for (ulong* block = a; block < a + n; block += 4 * quarter) {
    std::size_t j = begin;
    for (; j + width <= end; j += width) radix4<Dif, Lanes>(block, quarter, j, tw, pre, butterfly);
    for (; j < end; j++) radix4<Dif, Lane>(block, quarter, j, tw, pre, butterfly);
  }
}

// Calls f(direction, butterfly) with the kind's butterfly; the direction is std::true_type for
// decimation in frequency.
template <class F>
CAS_INLINE void with_kind(Kind kind, ulong p, F&& f) {
  switch (kind) {
    case Kind::NarrowDit: return f(std::false_type{}, Dit<NarrowProduct>{p});
    case Kind::NarrowDif: return f(std::true_type{}, Dif<NarrowProduct>{p});
    case Kind::LazyDit: return f(std::false_type{}, Dit<WideProduct>{p});
    case Kind::LazyDif: return f(std::true_type{}, Dif<WideProduct>{p});
  }
}

}  // namespace

CAS_LANE_TARGET void butterflies(Kind kind, ulong* x, ulong* y, const ulong* tw, const ulong* pre, std::size_t count,
                                 ulong p) {
  with_kind(kind, p,
            [&](auto, const auto& butterfly) CAS_LAMBDA_INLINE { butterflies(x, y, tw, pre, count, butterfly); });
}

CAS_LANE_TARGET void stage_pairs(Kind kind, ulong* a, std::size_t n, std::size_t quarter, std::size_t begin,
                                 std::size_t end, const ulong* tw, const ulong* pre, ulong p) {
  with_kind(kind, p, [&](auto dif, const auto& butterfly) CAS_LAMBDA_INLINE {
    stage_pairs_of<decltype(dif)::value>(a, n, quarter, begin, end, tw, pre, butterfly);
  });
}

CAS_LANE_TARGET void small_stages(Kind kind, ulong* a, std::size_t n, const ulong* tw, const ulong* pre, ulong p) {
  with_kind(kind, p, [&](auto dif, const auto& butterfly) CAS_LAMBDA_INLINE {
    small_stages_by_chunk<decltype(dif)::value>(a, n, tw, pre, butterfly);
  });
}

bool available() {
#if CAS_LANES_POSSIBLE
  static const bool has_avx512 = __builtin_cpu_supports("x86-64-v4");
  return has_avx512;
#else
  return false;
#endif
}

namespace {
bool switched_off = false;
}

bool enabled() { return available() && !switched_off; }

void set_enabled(bool on) { switched_off = !on; }

}  // namespace cas::lanes
