#pragma once
// `cas --calibrate`: measures FLINT and the GPU engine side by side on this
// machine and derives the crossover lengths the dispatcher uses.
#include "algebra/dispatch/dispatch.hpp"

#include <cstddef>
#include <iosfwd>
#include <vector>

namespace cas {

// Measures the CPU products with a short operand (FLINT against cas's transforms), where a GPU
// answers the GPU against the CPU, and the algorithms on cas's products against FLINT's routines
// (AlgorithmCrossover); prints one table row per (operation, length) to `log` and returns the
// crossovers (the GPU's as they were when there is none).
Crossovers calibrate(std::ostream& log);

// Seconds for one operation of this length on the engine used below a crossover (the CPU; FLINT
// for short operands) and on the one used from it (the GPU; the transforms).
struct EngineTiming {
  size_t length;
  double below, from;
};

// The measured length from which the second engine is chosen (SIZE_MAX: never), timings in
// increasing length: the one that makes the summed excess over the measured lengths, chosen time /
// faster time - 1, least; on a tie the first engine keeps the length. One disturbed measurement
// then costs only its own length's excess, where the rule "the GPU wins at every longer length"
// would move the crossover past every length below it (a CRT product of length 8191 that took the
// GPU 1.33 ms, against 0.28 ms at 4095, put that rule's crossover at 16383, choosing a CPU 1.9-2.5x
// slower at 2047 and 4095: docs/measurements.md, "GPU crossovers of the dispatcher").
size_t crossover_length(const std::vector<EngineTiming>& timings);
// The same over several series measured at the same lengths (one class of products at two
// primes): the excess summed over all of them.
size_t joint_crossover_length(const std::vector<std::vector<EngineTiming>>& series);

// The rule for the algorithms' crossovers: the smallest measured length from which the second engine
// (cas's algorithm) is at least as fast at that length and at every longer one measured, timings in
// increasing length; one past the longest (its length + 1) when FLINT is faster there, so that FLINT
// keeps every measured length; SIZE_MAX without timings.
size_t first_length_won_from(const std::vector<EngineTiming>& timings);

// A Z[x] product timed on both engines (timing.length: the product's length), its operands'
// coefficients of `bits` bits.
struct SizedEngineTiming {
  unsigned long bits;
  EngineTiming timing;
};
// The exponent of z_product_weight (dispatch.hpp) whose choices, the GPU where a row's weighted
// length reaches `crossover`, make the summed excess over `rows` least: of the exponents 0.30,
// 0.31, ... 1.20 that do, the middle one. `fallback` without rows or with crossover never_on_gpu.
double fitted_z_weight_exponent(const std::vector<SizedEngineTiming>& rows, size_t crossover, double fallback);

}  // namespace cas
