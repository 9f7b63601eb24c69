#pragma once
// `:explain`: what cas did for the last statement, in a few lines, read from the notes
// that the algebra layer (algebra/dispatch/engine.hpp) and the interpreter recorded while it ran.
#include "ast.hpp"

#include <string>
#include <vector>

namespace cas {

// Notes a call of a stdlib function (written in cas) made by a top-level statement,
// with the length of its first vector argument and the modulus of its first Z/pZ one.
void note_stdlib_call(const Function& fn, const std::vector<Value>& args);

// The lines `:explain` prints for the statement `text`, from the current notes.
std::vector<std::string> explain_statement(const std::string& text);

}  // namespace cas
