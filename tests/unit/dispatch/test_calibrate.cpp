// cas --calibrate's choices from timings (algebra/dispatch/calibrate.hpp): the crossover that
// costs least over the measured lengths, an algorithm's first length won for good, and the Z[x]
// weight's exponent, on timing tables made up to pin each rule down.
#include "algebra/dispatch/calibrate.hpp"
#include "algebra/dispatch/dispatch.hpp"

#include <catch2/catch.hpp>

#include <utility>
#include <vector>

TEST_CASE("calibration: the crossover that costs least over the measured lengths", "[dispatch][calibrate]") {
  using T = cas::EngineTiming;
  // The CPU faster up to 1023, the GPU from 2047: the crossover is 2047.
  CHECK(cas::crossover_length({{511, 1.0, 2.0}, {1023, 1.0, 1.5}, {2047, 2.0, 1.0}, {4095, 4.0, 1.0}}) == 2047);
  // Timings with one disturbed GPU time at 8191 (1.333 ms, from a calibration on the H100's host):
  // the crossover that costs least over all lengths stays at 2047, not past the disturbed one.
  const std::vector<T> disturbed = {{1023, 0.168, 0.192}, {2047, 0.408, 0.218}, {4095, 0.679, 0.276},
                                    {8191, 0.907, 1.333}, {16383, 6.136, 0.610}, {32767, 3.960, 0.329}};
  CHECK(cas::crossover_length(disturbed) == 2047);
  // Never faster, or always faster.
  CHECK(cas::crossover_length({{63, 1.0, 3.0}, {127, 2.0, 5.0}}) == SIZE_MAX);
  CHECK(cas::crossover_length({{63, 3.0, 1.0}, {127, 5.0, 2.0}}) == 63);
  CHECK(cas::crossover_length({}) == SIZE_MAX);
  // A tie keeps the CPU: equal times at 4095.
  CHECK(cas::crossover_length({{2047, 1.0, 2.0}, {4095, 2.0, 2.0}, {8191, 4.0, 2.0}}) == 8191);
  // Two series (a class at two primes): the excess summed over both. Alone, the first would take
  // the transforms from 4 and the second from 16; together from 8 (excess 1 + 0.25, against
  // 0 + 2.25 from 4 and 1.5 + 0 from 16). A series that stopped early counts up to its end.
  const std::vector<T> first = {{2, 1.0, 2.0}, {4, 2.0, 1.0}, {8, 3.0, 2.0}, {16, 4.0, 1.0}};
  const std::vector<T> second = {{2, 1.0, 2.0}, {4, 1.0, 3.0}, {8, 2.0, 2.5}, {16, 4.0, 2.0}};
  CHECK(cas::crossover_length(first) == 4);
  CHECK(cas::crossover_length(second) == 16);
  CHECK(cas::joint_crossover_length({first, second}) == 8);
  CHECK(cas::joint_crossover_length({{{2, 1.0, 3.0}}, second}) == 16);
  CHECK(cas::joint_crossover_length({}) == SIZE_MAX);
}

TEST_CASE("calibration: an algorithm's crossover is the first length from which it always wins",
          "[dispatch][calibrate]") {
  // FLINT faster up to 128, cas's algorithm from 256 on (a tie counts as cas's).
  CHECK(cas::first_length_won_from({{64, 1.0, 2.0}, {128, 2.0, 3.0}, {256, 3.0, 3.0}, {512, 6.0, 4.0}}) == 256);
  // A win below a loss does not count: at 128 cas wins, at 256 it loses, from 512 it wins.
  CHECK(cas::first_length_won_from({{64, 1.0, 2.0}, {128, 3.0, 2.0}, {256, 3.0, 3.5}, {512, 6.0, 4.0}}) == 512);
  // Always faster: the shortest measured length.
  CHECK(cas::first_length_won_from({{64, 2.0, 1.0}, {128, 3.0, 1.0}}) == 64);
  // Slower at the longest measured length: just above it, so that FLINT keeps every measured one.
  CHECK(cas::first_length_won_from({{64, 2.0, 1.0}, {4096, 3.0, 4.0}}) == 4097);
  CHECK(cas::first_length_won_from({}) == SIZE_MAX);
}

TEST_CASE("calibration: the Z[x] weight's exponent fitted to products with large coefficients",
          "[dispatch][calibrate]") {
  // Timings where the GPU wins exactly from a weight of 1023 under the exponent 0.8: with 1000-bit
  // coefficients (15.6^0.8 = 9.0) from 127 on, with 4000-bit ones (62.5^0.8 = 27.3) from 63 on.
  // The exponents that choose so at every row lie in [0.761, 0.846): the middle one is taken.
  std::vector<cas::SizedEngineTiming> rows;
  for (const auto& [bits, first_on_gpu] : {std::pair{1000ul, 127ul}, std::pair{4000ul, 63ul}})
    for (size_t length : {15, 31, 63, 127, 255, 511}) {
      const double cpu = length >= first_on_gpu ? 2.0 : 1.0;
      rows.push_back({bits, {length, cpu, 3.0 - cpu}});
    }
  const double fitted = cas::fitted_z_weight_exponent(rows, 1023, 0.5);
  CHECK(fitted >= 0.76);
  CHECK(fitted <= 0.85);
  // With a crossover that never sends Z[x] products to the GPU, or no rows, the fallback.
  CHECK(cas::fitted_z_weight_exponent(rows, cas::never_on_gpu, 0.5) == 0.5);
  CHECK(cas::fitted_z_weight_exponent({}, 1023, 0.5) == 0.5);
  // The GPU faster at every row: within the range (up to 1.20) only the row of 63 can reach 1023
  // (63 x 15.6^e from e = 1.02; 31 would need 1.27), so 1.02 ... 1.20 tie, and the middle is taken.
  std::vector<cas::SizedEngineTiming> gpu_always;
  for (size_t length : {15, 31, 63}) gpu_always.push_back({1000, {length, 2.0, 1.0}});
  CHECK(cas::fitted_z_weight_exponent(gpu_always, 1023, 0.5) == Approx(1.11));
}
