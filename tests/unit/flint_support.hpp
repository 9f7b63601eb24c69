#pragma once
// Helpers of the randomised tests (FLINT's t-*.c style): FLINT's random state, initialised
// and cleared with the test that owns it, and vectors of residues compared and printed.
#include "algebra/flint_util.hpp"

#include <flint/flint.h>

#include <string>
#include <vector>

namespace cas::test {

struct Random {
  flint_rand_t state;
  Random() { flint_randinit(state); }
  ~Random() { flint_randclear(state); }
  Random(const Random&) = delete;
  Random& operator=(const Random&) = delete;
};

inline bool equal(const std::vector<Fmpz>& a, const std::vector<Fmpz>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++)
    if (!fmpz_equal(a[i].get(), b[i].get())) return false;
  return true;
}

inline std::string show_residues(const std::vector<Fmpz>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); i++) s += (i ? ", " : "") + v[i].to_string();
  return s + "]";
}

}  // namespace cas::test
