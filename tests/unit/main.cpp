#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "gpu/ranks.hpp"

// Under mpirun (one GPU a rank) the ranks other than 0 serve rank 0's engine, so that the tests
// tagged [devices] share their operations among the ranks' GPUs: mpirun -n 2 cas_unit_tests "[devices]".
int main(int argc, char** argv) {
  if (!cas::gpu::join_ranks(&argc, &argv)) return 0;
  return Catch::Session().run(argc, argv);
}
