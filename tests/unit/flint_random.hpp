#pragma once
// FLINT's random state for the randomised tests (FLINT's t-*.c style), initialised and
// cleared with the test that owns it.
#include <flint/flint.h>

namespace cas::test {

struct Random {
  flint_rand_t state;
  Random() { flint_randinit(state); }
  ~Random() { flint_randclear(state); }
  Random(const Random&) = delete;
  Random& operator=(const Random&) = delete;
};

}  // namespace cas::test
