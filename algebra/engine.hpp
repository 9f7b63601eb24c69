#pragma once
// Which engine ran the largest operation of the current statement, for
// `:timer` and `:explain`. The algebra layer notes each sizeable operation;
// the interpreter resets the record before a statement and reads it after.
#include <string>

namespace cas {

void engine_reset();
// `label` reads like "flint nmod_poly_mul 2^20" or "gpu ntt 2^24"; `work` orders notes.
void engine_note(std::string label, double work);
const std::string& engine_last();  // empty when nothing sizeable ran

}  // namespace cas
