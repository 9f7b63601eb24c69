// Words (algebra/support/words.hpp): large arrays reuse the blocks that arrays of the same size freed,
// and small ones go to the heap as before.
#include "algebra/support/words.hpp"

#include <catch2/catch.hpp>

#include <numeric>

namespace {
constexpr std::size_t large = cas::large_words_from / sizeof(ulong);
}

TEST_CASE("a large Words array takes the block an array of its size freed", "[words]") {
  const ulong* freed;
  {
    cas::Words a(large + 3);
    std::iota(a.begin(), a.end(), ulong{0});
    freed = a.data();
  }
  cas::Words b(large + 3);
  CHECK(b.data() == freed);
  // its entries are what they were (new entries of Words are left unwritten), and it is writable
  CHECK(b[large] == large);
  b.back() = 7;
  CHECK(b.back() == 7);
}

TEST_CASE("a large Words array of another size gets another block", "[words]") {
  const ulong* freed;
  {
    cas::Words a(large + 5);
    a[0] = 1;
    freed = a.data();
  }
  cas::Words other(large + 6);
  CHECK(other.data() != freed);
  cas::Words same(large + 5);  // the block is still there for its own size
  CHECK(same.data() == freed);
}

TEST_CASE("small Words arrays and copies are plain vectors", "[words]") {
  cas::Words small(100, 1);
  CHECK(std::accumulate(small.begin(), small.end(), ulong{0}) == 100);
  cas::Words big(large, 2);
  cas::Words copy = big;
  CHECK(copy.size() == large);
  CHECK(copy[large - 1] == 2);
  CHECK(copy.data() != big.data());
}
