#pragma once
// The modulus p of Z/pZ, shared by every element and polynomial over it.
// Word-size p (p < 2^64) carries FLINT's nmod_t; every p carries an
// fmpz_mod_ctx_t. Primality is computed once, on first need.
#include <flint/fmpz.h>
#include <flint/fmpz_mod.h>
#include <flint/nmod_vec.h>

#include <atomic>
#include <memory>
#include <string>

namespace cas {

class Object {
 public:
  virtual ~Object() = default;
};

class Modulus final : public Object {
 public:
  explicit Modulus(const fmpz_t p);
  ~Modulus() override;
  Modulus(const Modulus&) = delete;
  Modulus& operator=(const Modulus&) = delete;

  const fmpz* value() const { return &p_; }
  bool word_size() const { return word_; }
  ulong word() const { return nmod_.n; }
  const nmod_t& nmod() const { return nmod_; }
  const fmpz_mod_ctx_struct* ctx() const { return ctx_; }
  bool is_prime() const;
  std::string to_string() const;
  bool operator==(const Modulus& other) const { return fmpz_equal(&p_, &other.p_); }

  // Throws DomainError("... needs a field: n is not prime (d mod n is not invertible)")
  // when p is composite; `what` names the operation.
  void require_field(const char* what) const;

 private:
  fmpz p_;
  bool word_;
  nmod_t nmod_;
  fmpz_mod_ctx_t ctx_;
  // 1 prime, 0 composite: asked on first need, from any thread (two that ask at once both compute it)
  static constexpr int unknown_primality = -1;
  mutable std::atomic<int> prime_{unknown_primality};
};

using ModulusPtr = std::shared_ptr<const Modulus>;

// Moduli are interned: equal values share one context, so that loops of
// `a mod p` do not rebuild it. p must be >= 2 (DomainError otherwise).
ModulusPtr make_modulus(const fmpz_t p);
ModulusPtr make_modulus(ulong p);

bool same_modulus(const ModulusPtr& a, const ModulusPtr& b);
bool same_modulus(const Modulus* a, const Modulus* b);  // the same without touching reference counts

}  // namespace cas
