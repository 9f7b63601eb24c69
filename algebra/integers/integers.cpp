#include "algebra/integers/integers.hpp"

#include "algebra/dispatch/engine.hpp"
#include "algebra/support/error.hpp"

#include <flint/fmpz_factor.h>

namespace cas {

std::vector<std::pair<Fmpz, ulong>> factor_integer(const fmpz_t n) {
  fmpz_factor_t f;
  fmpz_factor_init(f);
  fmpz_factor(f, n);
  std::vector<std::pair<Fmpz, ulong>> out;
  for (slong i = 0; i < f->num; i++) out.emplace_back(Fmpz(f->p + i), f->exp[i]);
  fmpz_factor_clear(f);
  return out;
}

namespace {

Fmpz euler_phi(const std::vector<std::pair<Fmpz, ulong>>& factors) {
  Fmpz phi(1), t;
  for (const auto& [p, e] : factors) {
    fmpz_sub_ui(t.get(), p.get(), 1);
    fmpz_mul(phi.get(), phi.get(), t.get());
    for (ulong k = 1; k < e; k++) fmpz_mul(phi.get(), phi.get(), p.get());
  }
  return phi;
}

bool unit_group_is_cyclic(const std::vector<std::pair<Fmpz, ulong>>& factors) {
  // (Z/mZ)* is cyclic exactly for m = 1, 2, 4, q^k, 2 q^k with q an odd prime.
  size_t odd = 0;
  ulong two_exponent = 0;
  for (const auto& [p, e] : factors) {
    if (fmpz_equal_ui(p.get(), 2))
      two_exponent = e;
    else
      odd++;
  }
  if (odd == 0) return two_exponent <= 2;
  return odd == 1 && two_exponent <= 1;
}

void require_unit(const fmpz_t a, const Modulus& m, const char* what) {
  Fmpz g;
  fmpz_gcd(g.get(), a, m.value());
  if (!fmpz_is_one(g.get()))
    throw DomainError(std::string(what) + ": " + fmpz_to_string(a) + " mod " + m.to_string() +
                      " is not invertible, so it has no multiplicative order");
}

}  // namespace

Fmpz multiplicative_order(const fmpz_t a, const Modulus& m) {
  require_unit(a, m, "order");
  auto factors = factor_integer(m.value());
  Fmpz order = euler_phi(factors);
  auto group_factors = fmpz_is_one(order.get()) ? std::vector<std::pair<Fmpz, ulong>>{} : factor_integer(order.get());
  Fmpz candidate, power;
  for (const auto& [q, e] : group_factors) {
    for (ulong k = 0; k < e; k++) {
      fmpz_divexact(candidate.get(), order.get(), q.get());
      fmpz_powm(power.get(), a, candidate.get(), m.value());
      if (!fmpz_is_one(power.get())) break;
      order = candidate;
    }
  }
  return order;
}

Fmpz primitive_root(const Modulus& m) {
  auto factors = factor_integer(m.value());
  if (!unit_group_is_cyclic(factors))
    throw DomainError("primroot: (Z/" + m.to_string() + "Z)* is not cyclic, so it has no generator");
  Fmpz phi = euler_phi(factors);
  if (fmpz_is_one(phi.get())) return Fmpz(1);
  auto group_factors = factor_integer(phi.get());
  Fmpz g(2), gcd, e, power;
  for (;; fmpz_add_ui(g.get(), g.get(), 1)) {
    fmpz_gcd(gcd.get(), g.get(), m.value());
    if (!fmpz_is_one(gcd.get())) continue;
    bool generator = true;
    for (const auto& [q, k] : group_factors) {
      fmpz_divexact(e.get(), phi.get(), q.get());
      fmpz_powm(power.get(), g.get(), e.get(), m.value());
      if (fmpz_is_one(power.get())) {
        generator = false;
        break;
      }
    }
    if (generator) return g;
  }
}

Value root_of_unity(const fmpz_t n, const ModulusPtr& p) {
  if (!p->is_prime())
    throw DomainError("rootofunity: " + p->to_string() + " is not prime");
  if (fmpz_sgn(n) <= 0) throw DomainError("rootofunity: the order must be positive, not " + fmpz_to_string(n));
  Fmpz p_minus_1, e, r;
  fmpz_sub_ui(p_minus_1.get(), p->value(), 1);
  if (!fmpz_divisible(p_minus_1.get(), n))
    throw DomainError("rootofunity: " + fmpz_to_string(n) + " does not divide p - 1 = " + p_minus_1.to_string() +
                      ", so Z/" + p->to_string() + "Z has no primitive " + fmpz_to_string(n) + "-th root of unity");
  fmpz_divexact(e.get(), p_minus_1.get(), n);
  Fmpz g = primitive_root(*p);
  fmpz_powm(r.get(), g.get(), e.get(), p->value());
  return Value::mod(r.get(), p);
}

Fmpz crt_integers(const std::vector<Fmpz>& residues, const std::vector<Fmpz>& moduli, Fmpz& lcm_out) {
  if (residues.size() != moduli.size())
    throw DomainError("crt: " + std::to_string(residues.size()) + " residues but " + std::to_string(moduli.size()) +
                      " moduli");
  Fmpz x(0), m(1), g, s, t, diff, k;
  for (size_t i = 0; i < moduli.size(); i++) {
    const fmpz* mi = moduli[i].get();
    if (fmpz_sgn(mi) <= 0) throw DomainError("crt: the moduli must be positive, not " + moduli[i].to_string());
    // x + m*k == r_i (mod m_i): solve m*k == r_i - x modulo m_i, allowing gcd(m, m_i) > 1.
    fmpz_xgcd(g.get(), s.get(), t.get(), m.get(), mi);
    fmpz_sub(diff.get(), residues[i].get(), x.get());
    if (!fmpz_divisible(diff.get(), g.get()))
      throw DomainError("crt: the residues are inconsistent (" + residues[i].to_string() + " mod " +
                        moduli[i].to_string() + " contradicts the earlier ones)");
    fmpz_divexact(diff.get(), diff.get(), g.get());
    fmpz_mul(k.get(), diff.get(), s.get());
    Fmpz mi_over_g;
    fmpz_divexact(mi_over_g.get(), mi, g.get());
    fmpz_mod(k.get(), k.get(), mi_over_g.get());
    fmpz_addmul(x.get(), m.get(), k.get());
    fmpz_mul(m.get(), m.get(), mi_over_g.get());
    fmpz_mod(x.get(), x.get(), m.get());
  }
  lcm_out = m;
  OperationDetail detail;
  detail.length1 = moduli.size();
  detail.modulus_bits = static_cast<unsigned>(fmpz_bits(m.get()));
  engine_explain("crt", static_cast<double>(moduli.size()), detail);
  return x;
}

}  // namespace cas
