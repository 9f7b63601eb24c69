#pragma once
// Runs a check with the CPU transform's AVX-512 butterflies and with its scalar ones
// (algebra/fourier/ntt_cpu_lanes.hpp): on a machine with AVX-512 both paths are tested, on one without
// the scalar path twice.
#include "algebra/fourier/ntt_cpu_lanes.hpp"

#include <catch2/catch.hpp>

template <class Check>
void with_both_butterflies(Check&& check) {
  for (bool vectors : {true, false}) {
    cas::lanes::set_enabled(vectors);
    INFO((vectors && cas::lanes::available() ? "AVX-512 butterflies" : "scalar butterflies"));
    check();
  }
  cas::lanes::set_enabled(true);
}
