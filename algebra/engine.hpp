#pragma once
// Which engine ran the largest operation of the current statement, for
// `:timer` and `:explain`. The algebra layer notes each sizeable operation
// (cheaply: a static name and a size); the interpreter resets the record
// before a statement and reads it after.
#include <string>

namespace cas {

void engine_reset();
// `what` is a static string like "flint nmod_poly_mul" or "gpu ntt"; `size` the length
// that orders the notes and is shown as 2^k.
void engine_note(const char* what, double size);
std::string engine_last();  // "flint nmod_poly_mul 2^20"; empty when nothing was noted

}  // namespace cas
