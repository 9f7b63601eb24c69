#pragma once
// Sentences for `:explain`: what the operations noted by the algebra layer
// (algebra/dispatch/engine.hpp) did, which algorithm, on which engine, modulo what.
#include "algebra/dispatch/engine.hpp"

#include <string>
#include <vector>

namespace cas {

// One sentence for a note of the algebra layer ("radix-2 FFT of length 8 over Z/17Z at
// w = 2: ..."); empty for a note it does not know (like a "cas function" call).
std::string explain_note(const EngineNote& note);

// Which engine ran the noted operations, and when the GPU would take over.
std::string explain_engine(const std::vector<EngineNote>& notes);

// FLINT's choice of algorithm for nmod_poly_mul of these lengths modulo a prime of `bits` bits.
std::string flint_nmod_poly_mul_algorithm(size_t length1, size_t length2, unsigned bits);

}  // namespace cas
