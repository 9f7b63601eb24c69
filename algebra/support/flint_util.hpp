#pragma once
// Small RAII helpers over FLINT's C types (constructor = _init, destructor =
// _clear, copy = _set, move = swap), in FLINT's own layout.
#include <flint/fmpz.h>

#include <string>
#include <utility>

namespace cas {

class Fmpz {
 public:
  Fmpz() { fmpz_init(&z_); }
  explicit Fmpz(slong v) { fmpz_init_set_si(&z_, v); }
  explicit Fmpz(ulong v) { fmpz_init_set_ui(&z_, v); }
  explicit Fmpz(int v) { fmpz_init_set_si(&z_, v); }
  explicit Fmpz(const fmpz_t v) { fmpz_init_set(&z_, v); }
  Fmpz(const Fmpz& o) { fmpz_init_set(&z_, &o.z_); }
  Fmpz(Fmpz&& o) noexcept : z_(o.z_) { o.z_ = 0; }
  Fmpz& operator=(const Fmpz& o) {
    fmpz_set(&z_, &o.z_);
    return *this;
  }
  Fmpz& operator=(Fmpz&& o) noexcept {
    std::swap(z_, o.z_);
    return *this;
  }
  ~Fmpz() { fmpz_clear(&z_); }

  fmpz* get() { return &z_; }
  const fmpz* get() const { return &z_; }
  std::string to_string() const;

 private:
  fmpz z_;
};

std::string fmpz_to_string(const fmpz_t z);

// fmpz_get_ui for 0 <= z < 2^64, without the call for the values FLINT keeps inline (below 2^62).
inline ulong fmpz_get_word(const fmpz* z) { return COEFF_IS_MPZ(*z) ? fmpz_get_ui(z) : static_cast<ulong>(*z); }

}  // namespace cas
