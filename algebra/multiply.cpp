#include "multiply.hpp"

#include "engine.hpp"
#include "modpoly_ops.hpp"

#include <cmath>
#include <string>

namespace cas {

ModPoly multiply(const ModPoly& a, const ModPoly& b) {
  double n = static_cast<double>(a.length() + b.length());
  engine_note(a.word() ? "flint nmod_poly_mul" : "flint fmpz_mod_poly_mul", n);
  return mul_flint(a, b);
}

ZPoly multiply(const ZPoly& a, const ZPoly& b) {
  double n = static_cast<double>(a.length() + b.length());
  engine_note("flint fmpz_poly_mul", n);
  ZPoly r;
  fmpz_poly_mul(r.get(), a.get(), b.get());
  return r;
}

ModPoly power(const ModPoly& a, ulong e) {
  double n = static_cast<double>(a.length()) * static_cast<double>(e);
  engine_note(a.word() ? "flint nmod_poly_pow" : "flint fmpz_mod_poly_pow", n);
  return pow_flint(a, e);
}

ZPoly power(const ZPoly& a, ulong e) {
  double n = static_cast<double>(a.length()) * static_cast<double>(e);
  engine_note("flint fmpz_poly_pow", n);
  ZPoly r;
  fmpz_poly_pow(r.get(), a.get(), e);
  return r;
}

}  // namespace cas
