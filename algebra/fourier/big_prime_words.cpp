#include "algebra/fourier/big_prime_words.hpp"

#include "algebra/integers/generalized_fermat.hpp"
#include "gpu/big_prime_gf.hpp"

#include "algebra/support/parallel.hpp"

#include "gpu/big_prime.hpp"

#include <flint/fmpz_mod_poly.h>

namespace cas {

std::size_t big_prime_limbs(const Modulus& m) {
  const std::size_t limbs = fmpz_size(m.value());
  if (limbs < gpu::big_prime_least_limbs || limbs > gpu::big_prime_most_limbs || fmpz_is_even(m.value())) return 0;
  return limbs;
}

void get_limbs(fmpz* x, const ulong* words, std::size_t i, std::size_t count, std::size_t limbs) {
  ulong element[gpu::big_prime_most_limbs];
  std::size_t size = 0;
  for (std::size_t d = 0; d < limbs; d++) {
    element[d] = words[d * count + i];
    if (element[d]) size = d + 1;
  }
  if (size <= 1)
    fmpz_set_ui(x, element[0]);
  else
    fmpz_set_ui_array(x, element, static_cast<slong>(size));
}

Words element_limbs(const fmpz* x, std::size_t limbs) {
  Words out(limbs);
  put_limbs(x, out.data(), 0, 1, limbs);
  return out;
}

Words limb_major(const fmpz* values, std::size_t count, std::size_t limbs) {
  Words out(limbs * count);
  ulong* words = out.data();
  parallel_ranges(count, limb_element_grain, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; i++) put_limbs(values + i, words, i, count, limbs);
  });
  return out;
}

void read_limb_major(fmpz* out, const ulong* words, std::size_t count, std::size_t limbs) {
  parallel_ranges(count, limb_element_grain, [&](std::size_t begin, std::size_t end) {
    // Each element becomes an mpz of about `limbs` limbs and GMP's header.
    reserve_thread_heap((end - begin) * (limbs + 3) * sizeof(ulong));
    for (std::size_t i = begin; i < end; i++) get_limbs(out + i, words, i, count, limbs);
  });
}

Words coefficient_limbs(const ModPoly& f, std::size_t limbs) {
  return limb_major(f.big()->coeffs, static_cast<std::size_t>(f.length()), limbs);
}

ModPoly modpoly_from_limbs(const ModulusPtr& m, const ulong* words, std::size_t count, std::size_t limbs) {
  ModPoly r(m);
  fmpz_mod_poly_fit_length(r.big(), static_cast<slong>(count), m->ctx());
  read_limb_major(r.big()->coeffs, words, count, limbs);
  _fmpz_mod_poly_set_length(r.big(), static_cast<slong>(count));
  _fmpz_mod_poly_normalise(r.big());
  return r;
}

bool find_root_of_unity(Fmpz& root, const Modulus& m, ulong order) {
  if (!m.is_prime()) return false;
  if (order == 1) {  // 1; the search below would try g = 2, which is 0 modulo 2
    fmpz_one(root.get());
    return true;
  }
  Fmpz p_minus_1;
  fmpz_sub_ui(p_minus_1.get(), m.value(), 1);
  if (!fmpz_divisible_si(p_minus_1.get(), static_cast<slong>(order))) return false;
  Fmpz e, half_power;
  fmpz_divexact_ui(e.get(), p_minus_1.get(), order);
  for (ulong g = 2;; g++) {
    Fmpz base(g);
    fmpz_powm(root.get(), base.get(), e.get(), m.value());
    fmpz_powm_ui(half_power.get(), root.get(), order / 2, m.value());
    if (!fmpz_is_one(half_power.get())) return true;  // order is a power of two
  }
}

ulong shift_radix(std::size_t n, const Modulus& m, std::size_t limbs) {
  const std::optional<GeneralizedFermat> form = generalized_fermat_form(Fmpz(m.value()));
  if (!form || form->k != limbs || !gpu::generalized_fermat_transform_takes(form->r, form->k, n)) return 0;
  return form->r;
}

ulong convolution_shift_radix(std::size_t n, const Modulus& m, std::size_t limbs) {
  return limbs >= 16 ? shift_radix(n, m, limbs) : 0;
}

}  // namespace cas
