#pragma once
// Vectors of integers to and from polynomials in Z[x], copied on the cores: on one thread a vector
// of 2^20 integers of 64 bits takes 68 ms to make from a polynomial (coeffs) and 31 ms back (poly)
// (docs/measurements.md, "Integers on the cores: vectors of integers and Z[x] polynomials"). Both
// results are marked as made on the cores, so a long one is freed there too
// (ZPoly::mark_made_on_cores says why).
#include "algebra/support/parallel.hpp"
#include "algebra/values/value.hpp"
#include "algebra/poly/zpoly.hpp"

#include <flint/fmpz.h>

#include <cstddef>
#include <vector>

namespace cas {

// sum items[i] x^i; every entry must be an integer (Kind::Int).
ZPoly integer_polynomial(const std::vector<Value>& items);

// The same polynomial sharing the vector's integers, for reading only (FLINT's shallow attachment,
// as fmpz_poly_attach_truncate): its coefficients are the entries' fmpz words, so no multi-limb
// integer is copied or freed. Valid while `items` lives unchanged. Copies of convolve's two
// operands of 2^20 integers of 64 bits would take 17 ms to make and 13 ms to free on two cores
// (docs/measurements.md, "Integers on the cores: vectors of integers and Z[x] polynomials").
class IntegerPolynomialView {
 public:
  explicit IntegerPolynomialView(const std::vector<Value>& items);
  ~IntegerPolynomialView();
  IntegerPolynomialView(const IntegerPolynomialView&) = delete;
  IntegerPolynomialView& operator=(const IntegerPolynomialView&) = delete;

  const ZPoly& poly() const { return poly_; }

 private:
  ZPoly poly_;
};

// The vector [values[0], ..., values[count - 1]].
Value integer_vector(const fmpz* values, std::size_t count);

// The vector of `count` integers that set(out, i) writes into out (an fmpz holding 0), for every
// i < count, in ranges on the cores. set must not throw.
template <class Set>
Value integer_vector_from(std::size_t count, Set&& set);

// Whether v is a vector held as Values whose entries are all integers.
bool holds_integers(const Value& v);

// ---- implementation ----

template <class Set>
Value integer_vector_from(std::size_t count, Set&& set) {
  std::vector<Value> items;
  reserve_values(items, count);
  items.resize(count, Value::integer(slong{0}));
  parallel_ranges(count, integer_grain, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; i++) set(items[i].int_mut(), i);
  });
  return Value::vec_made_on_cores(std::move(items));
}

}  // namespace cas
