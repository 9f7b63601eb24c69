#pragma once
// `cas --calibrate`: measures FLINT and the GPU engine side by side on this
// machine and derives the crossover lengths the dispatcher uses.
#include "dispatch.hpp"

#include <iosfwd>

namespace cas {

// Prints one table row per (operation, length) to `log`; returns the crossovers.
Crossovers calibrate(std::ostream& log);

}  // namespace cas
