#pragma once
// A polynomial in Z[x]: a value-semantics wrapper over fmpz_poly_t.
#include "algebra/support/parallel.hpp"

#include <flint/fmpz_poly.h>

#include <utility>

namespace cas {

class ZPoly {
 public:
  ZPoly() { fmpz_poly_init(p_); }
  ZPoly(const ZPoly& o) {
    fmpz_poly_init(p_);
    fmpz_poly_set(p_, o.p_);
  }
  ZPoly(ZPoly&& o) noexcept {
    fmpz_poly_init(p_);
    swap(o);
  }
  ZPoly& operator=(const ZPoly& o) {
    fmpz_poly_set(p_, o.p_);
    made_on_cores_ = false;
    return *this;
  }
  ZPoly& operator=(ZPoly&& o) noexcept {
    swap(o);
    return *this;
  }
  ~ZPoly() {
    if (made_on_cores_ && static_cast<std::size_t>(p_->alloc) >= integers_on_cores_from)
      zero_on_cores(p_->coeffs, static_cast<std::size_t>(p_->alloc));
    fmpz_poly_clear(p_);
  }

  static ZPoly x() {
    ZPoly r;
    fmpz_poly_set_coeff_ui(r.p_, 1, 1);
    return r;
  }

  fmpz_poly_struct* get() { return p_; }
  const fmpz_poly_struct* get() const { return p_; }
  slong length() const { return fmpz_poly_length(p_); }
  slong degree() const { return fmpz_poly_degree(p_); }
  bool is_zero() const { return length() == 0; }
  const fmpz* coeff(slong i) const { return p_->coeffs + i; }  // i < length()

  // Says that the coefficients were made on the pool's threads (parallel_ranges), so that a long
  // polynomial frees them there too. FLINT keeps a freed mpz for reuse only on the thread that made
  // it; any other thread frees its limbs through malloc. With its result freed on the cores, f * g
  // of 2^20 coefficients of 64 bits takes 68-77 ms on 16 cores, against 122-145 with the main
  // thread freeing it; the main thread's own integers freed there would make the next operation
  // allocate them afresh (products modulo a 101-bit p: 1.4-2.0x slower). docs/measurements.md,
  // "Integers on the cores: vectors of integers and Z[x] polynomials".
  void mark_made_on_cores() { made_on_cores_ = true; }

 private:
  void swap(ZPoly& o) noexcept {
    fmpz_poly_swap(p_, o.p_);
    std::swap(made_on_cores_, o.made_on_cores_);
  }

  fmpz_poly_t p_;
  bool made_on_cores_ = false;
};

}  // namespace cas
