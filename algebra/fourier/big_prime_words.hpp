#pragma once
// Residues modulo a multi-word prime p in the layout of the GPU's big-prime kernels
// (gpu/big_prime.hpp): limb-major arrays, limb d (64 bits, little-endian) of element i of `count`
// elements at words[d * count + i], every element padded to the words of p. The conversions from
// and into FLINT's integers run in ranges on the cores: on one thread, 2^20 elements of 512 bits
// take 18-39 ms each way, and 15 ms more to free the integers made (docs/measurements.md, "Vectors
// modulo a big prime as limb-major words").
#include "algebra/integers/modulus.hpp"
#include "algebra/poly/modpoly.hpp"
#include "algebra/support/flint_util.hpp"
#include "algebra/support/words.hpp"

#include <cstddef>

namespace cas {

// The words of p when the big-prime kernels are built for its size (gpu::big_prime_least_limbs to
// gpu::big_prime_most_limbs words, p odd); 0 otherwise. Primality is the caller's to ask.
std::size_t big_prime_limbs(const Modulus& m);

// Elements taken in ranges of this many on the cores: at 512 bits a range takes 25 us to read
// (about 12 ns an element) and 80 us to make (an allocation each), against 29 us a call of the
// pool (parallel.hpp; docs/measurements.md, "Vectors modulo a big prime as limb-major words").
constexpr std::size_t limb_element_grain = 2048;

// x (0 <= x < 2^(64 limbs)) as element i of a limb-major array of `count` elements.
inline void put_limbs(const fmpz* x, ulong* words, std::size_t i, std::size_t count, std::size_t limbs) {
  std::size_t d = 0;
  if (!COEFF_IS_MPZ(*x)) {
    words[i] = static_cast<ulong>(*x);
    d = 1;
  } else {
    const __mpz_struct* z = COEFF_TO_PTR(*x);
    for (const std::size_t size = static_cast<std::size_t>(z->_mp_size); d < size; d++) words[d * count + i] = z->_mp_d[d];
  }
  for (; d < limbs; d++) words[d * count + i] = 0;
}

// x = element i of a limb-major array of `count` elements of `limbs` (at most 16) words.
void get_limbs(fmpz* x, const ulong* words, std::size_t i, std::size_t count, std::size_t limbs);

// One element (p itself, a root of unity) as `limbs` words, little-endian.
Words element_limbs(const fmpz* x, std::size_t limbs);

// The `count` reduced residues at `values`, limb-major with `limbs` words each, on the cores.
Words limb_major(const fmpz* values, std::size_t count, std::size_t limbs);
// out[i] = element i of the limb-major array of `count` elements, on the cores. Each out[i] gets an
// integer of its own (an allocation for every one above 62 bits), made on the thread of its range.
void read_limb_major(fmpz* out, const ulong* words, std::size_t count, std::size_t limbs);

// f's coefficients limb-major (f over a multi-word p of `limbs` words), f.length() elements.
Words coefficient_limbs(const ModPoly& f, std::size_t limbs);
// The polynomial over m whose `count` coefficients are the limb-major words, normalised.
ModPoly modpoly_from_limbs(const ModulusPtr& m, const ulong* words, std::size_t count, std::size_t limbs);

// A primitive root of unity of order `order` (a power of two) in Z/pZ when p is prime and
// order | p - 1: g^((p-1)/order) for the least g whose power has full order. False otherwise.
bool find_root_of_unity(Fmpz& root, const Modulus& m, ulong order);

// r when p = m is r^limbs + 1 and the GPU's digit-shift transform (gpu/big_prime_gf.hpp) takes it at
// length n: faster than the Montgomery passes at every length measured, 1.05-1.5 times modulo P3
// and 1.2-2.1 modulo P4 (docs/measurements.md, "Transforms modulo a generalized Fermat prime: digit
// shifts against Montgomery passes"); 0 otherwise. The caller knows p is prime.
ulong shift_radix(std::size_t n, const Modulus& m, std::size_t limbs);
// The same for the transforms of a convolution (gpu::big_prime_convolve), where the Montgomery
// passes skip their permutations: for k = 16 only. Products modulo P4 took 116 against 179 ms with
// the shifts at 2^20 terms, within 15% either way from 2^12 to 2^18; modulo P3 1.1-1.4 times more
// up to 2^18 (2^16: 7.1 against 5.1 ms): docs/measurements.md, "Transforms modulo a generalized
// Fermat prime: digit shifts against Montgomery passes".
ulong convolution_shift_radix(std::size_t n, const Modulus& m, std::size_t limbs);

}  // namespace cas
