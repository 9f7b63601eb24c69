#pragma once
// `cas --calibrate`: measures FLINT and the GPU engine side by side on this
// machine and derives the crossover lengths the dispatcher uses.
#include "dispatch.hpp"

#include <cstddef>
#include <iosfwd>
#include <vector>

namespace cas {

// Prints one table row per (operation, length) to `log`; returns the crossovers.
Crossovers calibrate(std::ostream& log);

// Seconds on the CPU and on the GPU for one operation of this length.
struct EngineTiming {
  size_t length;
  double cpu, gpu;
};

// The measured length from which the GPU is chosen (SIZE_MAX: never), timings in increasing
// length: the one that makes the summed excess over the measured lengths, chosen time / faster
// time - 1, least; on a tie the CPU keeps the length. One disturbed measurement (on the H100's
// host a CRT product of length 8191 once took the GPU 1.33 ms, against 0.28 ms at 4095) then costs
// its own length's excess, where "the GPU wins at every longer length" moved the crossover past
// every length below it (to 16383, choosing a CPU 1.9-2.5x slower at 2047 and 4095).
size_t crossover_length(const std::vector<EngineTiming>& timings);

}  // namespace cas
