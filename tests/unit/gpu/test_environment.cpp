// gpu/environment.hpp: the numbers the engine takes from the environment at startup.
#include "gpu/environment.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>

using cas::gpu::integer_from_environment;

TEST_CASE("integer_from_environment reads a whole number and nothing else", "[gpu][environment]") {
  const char* name = "CAS_TEST_ENVIRONMENT_NUMBER";
  unsetenv(name);
  CHECK_FALSE(integer_from_environment(name).has_value());
  setenv(name, "", 1);
  CHECK_FALSE(integer_from_environment(name).has_value());
  setenv(name, "16777216", 1);
  CHECK(integer_from_environment(name) == 16777216);
  setenv(name, "0", 1);
  CHECK(integer_from_environment(name) == 0);
  setenv(name, "-3", 1);
  CHECK(integer_from_environment(name) == -3);
  for (const char* not_whole : {"4k", "2 ", "x", "1.5"}) {
    setenv(name, not_whole, 1);
    INFO(not_whole);
    CHECK_FALSE(integer_from_environment(name).has_value());
  }
  unsetenv(name);
}
