#include "algebra/integers/generalized_fermat.hpp"

namespace cas {

namespace {

// The lowest word of m >= 0 (m mod 2^64).
ulong low_word(const Fmpz& m) {
  const fmpz z = *m.get();
  return COEFF_IS_MPZ(z) ? COEFF_TO_PTR(z)->_mp_d[0] : static_cast<ulong>(z);
}

// r^k mod 2^64 for k a power of two: compared with m's lowest word, it rejects most r before
// the exact power of the size of m is computed.
ulong low_word_power(ulong r, ulong k) {
  for (; k > 1; k /= 2) r *= r;
  return r;
}

// The r with r^k = m when 2 <= r < 2^64; none otherwise. k is a power of two.
std::optional<ulong> exact_word_root(const Fmpz& m, ulong k) {
  Fmpz root;
  fmpz_root(root.get(), m.get(), static_cast<slong>(k));  // the floor of the k-th root
  if (fmpz_cmp_ui(root.get(), 2) < 0 || fmpz_bits(root.get()) > FLINT_BITS) return std::nullopt;
  const ulong r = fmpz_get_ui(root.get());
  if (low_word_power(r, k) != low_word(m)) return std::nullopt;
  Fmpz power;
  fmpz_pow_ui(power.get(), root.get(), k);
  if (!fmpz_equal(power.get(), m.get())) return std::nullopt;
  return r;
}

// The largest power of two <= x (x >= 1).
ulong power_of_two_below(ulong x) {
  ulong k = 1;
  while (k <= x / 2) k *= 2;
  return k;
}

}  // namespace

// With m = p - 1 of b bits: r >= 2 gives 2^k <= m, so k <= b - 1; r < 2^64 gives m < 2^(64 k),
// so 64 k >= b. Between those bounds, each power of two from the largest is tried once: r^k
// with k = 2^a is also (r^2)^(k/2), so the first exact root has the largest k.
std::optional<GeneralizedFermat> generalized_fermat_form(const Fmpz& p) {
  Fmpz m;
  fmpz_sub_ui(m.get(), p.get(), 1);
  if (fmpz_cmp_ui(m.get(), 4) < 0) return std::nullopt;  // 2^2 is the smallest r^k
  const ulong bits = fmpz_bits(m.get());
  for (ulong k = power_of_two_below(bits - 1); k >= 2 && k >= (bits + FLINT_BITS - 1) / FLINT_BITS; k /= 2)
    if (std::optional<ulong> r = exact_word_root(m, k)) return GeneralizedFermat{*r, k};
  return std::nullopt;
}

// w^k = p - 1 exactly when removing every factor w from p - 1 leaves 1; the count removed is k.
bool is_shift_root(const Fmpz& p, const Fmpz& w, ulong& k) {
  if (fmpz_cmp_ui(w.get(), 2) < 0 || fmpz_cmp(w.get(), p.get()) >= 0) return false;
  Fmpz m, rest;
  fmpz_sub_ui(m.get(), p.get(), 1);
  const slong count = fmpz_remove(rest.get(), m.get(), w.get());
  if (count < 2 || !fmpz_is_one(rest.get())) return false;
  k = static_cast<ulong>(count);
  return true;
}

}  // namespace cas
