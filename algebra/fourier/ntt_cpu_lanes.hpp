#pragma once
// The vector loops of the CPU transform (ntt_cpu.cpp), written in GCC's vector extensions on
// eight 64-bit lanes and built for AVX-512 (x86-64-v4). On a machine without it they are not
// called: on AVX2 the emulated 64-bit products make them 2.3-2.9 times as slow as the scalar
// butterflies of ntt_cpu.cpp (docs/measurements.md, "The CPU transform's butterflies and passes").
// Twiddle tables are laid out as in CpuTransform: the stage of half-length h reads tw[h + j] and
// pre[h + j], j < h.
#include <flint/flint.h>

#include <cstddef>

namespace cas::lanes {

// Harvey's lazy butterflies, by arithmetic and direction: decimation in time (x, y) ->
// (x + w y, x - w y) on values below 4p, in frequency (x, y) -> (x + y, (x - y) w) on values below
// 2p.
//   Narrow: p < 2^30, values below 4p < 2^32, each twiddle packed with its companion as
//     w + 2^32 floor(w 2^32 / p) (pre, which CpuTransform points at tw, goes unused); 32-bit
//     products in 64-bit lanes (vpmuludq, which reads the low halves only).
//   Lazy: p < 2^62, companions floor(w 2^64 / p); the high halves of the 64-bit products come from
//     four 32-bit products a lane.
enum class Kind { NarrowDit, NarrowDif, LazyDit, LazyDif };

// count butterflies (x[j], y[j]) with twiddle tw[j], companion pre[j].
void butterflies(Kind kind, ulong* x, ulong* y, const ulong* tw, const ulong* pre, std::size_t count, ulong p);

// Two stages in one sweep (radix 4) over each block of 4q words of a[0, n), q = quarter, for the
// offsets [begin, end) of the block's quarters: half-lengths q then 2q in time, 2q then q in
// frequency. Half the passes over the array of two radix-2 stages.
void stage_pairs(Kind kind, ulong* a, std::size_t n, std::size_t quarter, std::size_t begin, std::size_t end,
                 const ulong* tw, const ulong* pre, ulong p);

// The four smallest stages over a[0, n), n a multiple of 16, in registers, one 16-word chunk at a
// time: half-lengths 1, 2, 4 and 8 in time (the first four), 8, 4, 2 and 1 in frequency (the last
// four). Their pairs lie inside one vector, so plain loops would run them one butterfly at a time,
// which takes 60% of a 4096-word transform's time (docs/measurements.md, "The CPU transform's
// butterflies and passes").
void small_stages(Kind kind, ulong* a, std::size_t n, const ulong* tw, const ulong* pre, ulong p);

// Whether these loops can run here (an x86-64 machine with AVX-512 F/BW/CD/DQ/VL), and whether the
// transforms use them: set_enabled(false) makes them take the scalar butterflies, so that tests
// and benchmarks on such a machine also run the path of those without it.
bool available();
bool enabled();
void set_enabled(bool on);

}  // namespace cas::lanes
