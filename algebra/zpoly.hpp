#pragma once
// A polynomial in Z[x]: a value-semantics wrapper over fmpz_poly_t.
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
    fmpz_poly_swap(p_, o.p_);
  }
  ZPoly& operator=(const ZPoly& o) {
    fmpz_poly_set(p_, o.p_);
    return *this;
  }
  ZPoly& operator=(ZPoly&& o) noexcept {
    fmpz_poly_swap(p_, o.p_);
    return *this;
  }
  ~ZPoly() { fmpz_poly_clear(p_); }

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

 private:
  fmpz_poly_t p_;
};

}  // namespace cas
