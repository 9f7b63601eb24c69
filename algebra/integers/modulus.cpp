#include "algebra/integers/modulus.hpp"

#include "algebra/support/error.hpp"
#include "algebra/support/flint_util.hpp"

#include <flint/fmpz_factor.h>

#include <vector>

namespace cas {

Modulus::Modulus(const fmpz_t p) {
  fmpz_init_set(&p_, p);
  word_ = fmpz_abs_fits_ui(p);
  nmod_init(&nmod_, word_ ? fmpz_get_ui(p) : 2);
  fmpz_mod_ctx_init(ctx_, p);
}

Modulus::~Modulus() {
  fmpz_mod_ctx_clear(ctx_);
  fmpz_clear(&p_);
}

bool Modulus::is_prime() const {
  int known = prime_.load(std::memory_order_relaxed);
  if (known == unknown_primality) {
    known = fmpz_is_prime(&p_) == 1 ? 1 : 0;
    prime_.store(known, std::memory_order_relaxed);
  }
  return known == 1;
}

std::string Modulus::to_string() const { return fmpz_to_string(&p_); }

void Modulus::require_field(const char* what) const {
  if (is_prime()) return;
  Fmpz divisor;
  fmpz_factor_t f;
  fmpz_factor_init(f);
  // The smallest prime factor names a concrete non-invertible element.
  fmpz_factor_smooth(f, &p_, 32, -1);
  fmpz_set(divisor.get(), f->p + 0);
  fmpz_factor_clear(f);
  // With no prime factor below 2^32 the search gives p itself back: then no element is named.
  const bool named = fmpz_cmp(divisor.get(), &p_) < 0;
  throw DomainError(std::string(what) + " needs a field, but " + to_string() + " is not prime" +
                    (named ? " (" + divisor.to_string() + " mod " + to_string() + " is not invertible)" : ""));
}

namespace {
// A handful of recently used moduli; enough for the usual one or two per session.
std::vector<ModulusPtr>& intern_table() {
  static std::vector<ModulusPtr> table;
  return table;
}
}  // namespace

ModulusPtr make_modulus(const fmpz_t p) {
  if (fmpz_cmp_ui(p, 2) < 0)
    throw DomainError("a modulus must be at least 2, not " + fmpz_to_string(p));
  auto& table = intern_table();
  for (auto& m : table)
    if (fmpz_equal(m->value(), p)) return m;
  auto m = std::make_shared<const Modulus>(p);
  if (table.size() >= 16) table.erase(table.begin());
  table.push_back(m);
  return m;
}

ModulusPtr make_modulus(ulong p) {
  Fmpz z(p);
  return make_modulus(z.get());
}

bool same_modulus(const ModulusPtr& a, const ModulusPtr& b) { return same_modulus(a.get(), b.get()); }

bool same_modulus(const Modulus* a, const Modulus* b) { return a == b || *a == *b; }

}  // namespace cas
