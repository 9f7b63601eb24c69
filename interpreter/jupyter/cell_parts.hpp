#pragma once
// A notebook cell as the REPL would read it: session commands (lines starting with ':') and
// code between them; `?name` lines are calls of help. Code that spans lines stays one part
// (a ':' inside an open block is code, not a command).
#include <cstdint>
#include <string>
#include <vector>

namespace cas::jupyter {

struct CellPart {
  enum class Kind { code, command };
  Kind kind;
  std::string text;
  uint32_t first_line = 1;  // of the cell, for the positions of errors
};

std::vector<CellPart> split_cell(const std::string& cell);

}  // namespace cas::jupyter
