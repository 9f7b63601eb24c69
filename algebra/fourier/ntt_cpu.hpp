#pragma once
// The CPU's number-theoretic transform of machine words modulo a word-size p (the GPU's is in
// gpu/): in place, natural order in and out, a[i] <- sum_j a[j] w^(ij) mod p for n a power of two
// and w of order n. FLINT 2.9 has no such transform for nmod vectors, so it is written here:
// Cooley-Tukey with Shoup products and, for p < 2^62, Harvey's lazy butterflies (values in [0, 4p)
// until the end), two stages a sweep where that measured faster; with AVX-512 those butterflies
// run on vectors (ntt_cpu_lanes.hpp). Sub-transforms that fit the cache run one after the other,
// and large transforms spread over the cores.
#include "algebra/support/words.hpp"

#include <flint/nmod_vec.h>

#include <cstddef>
#include <utility>

namespace cas {

// The bit-reversal permutation of a[0, n), n a power of two, restricted to the pairs whose smaller
// index lies in [begin, end): it swaps a[i] and a[reverse(i)] for those i with i < reverse(i).
// Each pair belongs to one range, so ranges can run on separate threads.
template <class T>
void bit_reverse_range(T* a, std::size_t n, std::size_t begin, std::size_t end) {
  std::size_t j = 0;  // reverse(begin)
  for (std::size_t bit = 1, i = begin; bit < n; bit <<= 1, i >>= 1) j = (j << 1) | (i & 1);
  for (std::size_t i = begin; i < end; i++) {
    if (i < j) std::swap(a[i], a[j]);
    std::size_t bit = n >> 1;  // j = reverse(i + 1): add 1 from the top bit down
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
  }
}

// The transforms of length n (a power of two) at the root w of order n mod p, with their twiddle
// tables built once: a product's two forward transforms share them. Entries below p in and out.
// The twiddles of every stage lie side by side: the stage of half-length h reads tw[h + j] =
// w^(j n / 2h), j < h, and its Shoup companion pre[h + j] (none above 2^63; below 2^30 packed into
// the top half of tw[h + j] instead, half the bytes to read). The tables are Words, written only
// where read (tw[0] never is): zero-filling two fresh arrays of 2^22 words and faulting their pages
// in takes longer than computing them.
class CpuTransform {
 public:
  CpuTransform(std::size_t n, ulong w, const nmod_t& mod);
  std::size_t length() const { return n_; }
  // What its tables take (budget_cache.hpp).
  std::size_t bytes() const { return sizeof(*this) + (tw_.capacity() + pre_.capacity()) * sizeof(ulong); }
  // What the two transforms below leave: entries below p, or for p < 2^62 (Harvey's lazy
  // butterflies) entries below 4p, which saves a pass over the array when the caller's next pass
  // reduces them anyway (below p for larger p either way).
  enum class Output { Reduced, Below4p };
  // Decimation in frequency: natural order in, bit-reversed order out, no bit-reversal pass. With
  // bit_reversed_to_natural, the pair a product needs, whose pointwise step ignores order (at w
  // the inverse leaves entry -i mod n at i: ntt_product_cpu.cpp reads it back so, with one table).
  void natural_to_bit_reversed(ulong* a, Output output = Output::Reduced) const;
  // Decimation in time: bit-reversed order in (entries below p), natural order out.
  void bit_reversed_to_natural(ulong* a, Output output = Output::Reduced) const;
  // The bit reversal, then decimation in time.
  void natural_to_natural(ulong* a) const;

 private:
  template <bool Dif>  // decimation in frequency, or in time
  void run_stages(ulong* a, Output output) const;

  std::size_t n_;
  nmod_t mod_;
  Words tw_, pre_;
};

// One transform, natural order in and out. Entries of `a` must be below p. The tables of the
// transforms used last stay (64 MiB in all): fft in a loop builds them once.
void ntt_words_cpu(ulong* a, std::size_t n, ulong w, const nmod_t& mod);

}  // namespace cas
