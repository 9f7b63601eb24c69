// The cache of twiddle tables (algebra/support/budget_cache.hpp): hits return the cached value without
// building it again, the least recently used values leave first, and neither the byte budget nor
// the number of entries is ever exceeded.
#include "algebra/support/budget_cache.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Blob {
  std::size_t size;
  std::size_t bytes() const { return size; }
};

// A cache of Blobs keyed by name, counting how many it built.
struct Counted {
  cas::BudgetCache<std::string, Blob> cache;
  int built = 0;

  Counted(std::size_t budget, std::size_t entries) : cache(budget, entries) {}

  std::shared_ptr<const Blob> get(const std::string& key, std::size_t size) {
    return cache.get(key, [&] {
      built++;
      return std::make_shared<const Blob>(Blob{size});
    });
  }

  // Asks for key; true when the cache did not have it and built it.
  bool misses(const std::string& key, std::size_t size) {
    const int before = built;
    get(key, size);
    return built > before;
  }
};

}  // namespace

TEST_CASE("budget cache: a second request is a hit", "[budget_cache]") {
  Counted c(100, 8);
  const auto first = c.get("a", 10);
  const auto second = c.get("a", 10);
  CHECK(first == second);
  CHECK(c.built == 1);
  CHECK(c.cache.bytes() == 10);
  CHECK(c.cache.size() == 1);
}

TEST_CASE("budget cache: the least recently used value leaves when the bytes run out", "[budget_cache]") {
  Counted c(100, 8);
  CHECK(c.misses("a", 40));
  CHECK(c.misses("b", 40));
  CHECK_FALSE(c.misses("a", 40));  // a is now the more recent
  CHECK(c.misses("c", 40));        // 120 > 100: b leaves
  CHECK(c.cache.bytes() == 80);
  CHECK_FALSE(c.misses("a", 40));
  CHECK(c.misses("b", 40));  // c was used before a, so c leaves
  CHECK_FALSE(c.misses("a", 40));
  CHECK(c.misses("c", 40));
}

TEST_CASE("budget cache: the number of entries is bounded too", "[budget_cache]") {
  Counted c(1000, 2);
  for (const char* key : {"a", "b", "c"}) CHECK(c.misses(key, 1));
  CHECK(c.cache.size() == 2);
  CHECK(c.misses("a", 1));  // a left first
  CHECK_FALSE(c.misses("c", 1));
}

TEST_CASE("budget cache: a value above the budget is returned and not kept", "[budget_cache]") {
  Counted c(100, 8);
  c.get("small", 30);
  CHECK(c.get("big", 101)->size == 101);
  CHECK(c.cache.bytes() == 30);  // and the small one stayed
  CHECK(c.misses("big", 101));
  CHECK_FALSE(c.misses("small", 30));
}

TEST_CASE("budget cache: an evicted value stays valid for whoever holds it", "[budget_cache]") {
  Counted c(50, 8);
  const auto held = c.get("a", 40);
  c.get("b", 40);  // evicts a
  CHECK(c.cache.size() == 1);
  CHECK(held->size == 40);
}

TEST_CASE("budget cache: threads asking for the same keys share what is cached", "[budget_cache]") {
  cas::BudgetCache<int, Blob> cache(1000, 16);
  std::vector<std::thread> threads;
  std::vector<std::shared_ptr<const Blob>> seen(8);
  for (int t = 0; t < 8; t++)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 200; round++)
        seen[t] = cache.get(round % 4, [] { return std::make_shared<const Blob>(Blob{10}); });
    });
  for (auto& thread : threads) thread.join();
  CHECK(cache.size() == 4);
  CHECK(cache.bytes() == 40);
  for (int t = 1; t < 8; t++) CHECK(seen[t] == seen[0]);  // all ended on key 3's one cached value
}
