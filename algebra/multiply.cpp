#include "multiply.hpp"

#include "engine.hpp"
#include "modpoly_ops.hpp"

#include <cmath>
#include <string>

namespace cas {

namespace {
std::string size_label(double n) {
  if (n < 2) return "1";
  return "2^" + std::to_string(static_cast<int>(std::ceil(std::log2(n))));
}
}  // namespace

ModPoly multiply(const ModPoly& a, const ModPoly& b) {
  double n = static_cast<double>(a.length() + b.length());
  engine_note(std::string("flint ") + (a.word() ? "nmod_poly_mul " : "fmpz_mod_poly_mul ") + size_label(n), n);
  return mul_flint(a, b);
}

ZPoly multiply(const ZPoly& a, const ZPoly& b) {
  double n = static_cast<double>(a.length() + b.length());
  engine_note("flint fmpz_poly_mul " + size_label(n), n);
  ZPoly r;
  fmpz_poly_mul(r.get(), a.get(), b.get());
  return r;
}

ModPoly power(const ModPoly& a, ulong e) {
  double n = static_cast<double>(a.length()) * static_cast<double>(e);
  engine_note(std::string("flint ") + (a.word() ? "nmod_poly_pow " : "fmpz_mod_poly_pow ") + size_label(n), n);
  return pow_flint(a, e);
}

ZPoly power(const ZPoly& a, ulong e) {
  double n = static_cast<double>(a.length()) * static_cast<double>(e);
  engine_note("flint fmpz_poly_pow " + size_label(n), n);
  ZPoly r;
  fmpz_poly_pow(r.get(), a.get(), e);
  return r;
}

}  // namespace cas
