#include "algebra/values/integer_vectors.hpp"

#include <algorithm>

namespace cas {

namespace {

// f = sum items[i] x^i, where put(out, entry) sets the coefficient out from an entry, on the cores.
template <class Put>
void set_from_entries(ZPoly& f, const std::vector<Value>& items, Put&& put) {
  fmpz_poly_fit_length(f.get(), static_cast<slong>(items.size()));
  fmpz* coeffs = f.get()->coeffs;
  parallel_ranges(items.size(), integer_grain, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; i++) put(coeffs + i, items[i].as_int());
  });
  _fmpz_poly_set_length(f.get(), static_cast<slong>(items.size()));
  _fmpz_poly_normalise(f.get());
}

}  // namespace

ZPoly integer_polynomial(const std::vector<Value>& items) {
  ZPoly f;
  set_from_entries(f, items, [](fmpz* out, const fmpz* entry) { fmpz_set(out, entry); });
  f.mark_made_on_cores();
  return f;
}

IntegerPolynomialView::IntegerPolynomialView(const std::vector<Value>& items) {
  set_from_entries(poly_, items, [](fmpz* out, const fmpz* entry) { *out = *entry; });  // the word: shared
}

// The shared words are forgotten, not cleared: the vector still owns their integers.
IntegerPolynomialView::~IntegerPolynomialView() {
  fmpz_poly_struct* p = poly_.get();
  std::fill(p->coeffs, p->coeffs + p->alloc, fmpz{0});
}

Value integer_vector(const fmpz* values, std::size_t count) {
  return integer_vector_from(count, [values](fmpz* out, std::size_t i) { fmpz_set(out, values + i); });
}

bool holds_integers(const Value& v) {
  if (!v.is(Kind::Vec) || v.packed_residues()) return false;
  const std::vector<Value>& items = v.as_vec();
  return std::all_of(items.begin(), items.end(), [](const Value& e) { return e.is(Kind::Int); });
}

}  // namespace cas
