#pragma once
// The one error type of cas: a message and the source position it belongs
// to. The parser and the evaluator throw it; the REPL and the script runner
// print it in one place (report.cpp).
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace cas {

// A named piece of source text: a script, one REPL entry, a `-e` argument.
struct Source {
  std::string name;  // "script.cas", "<stdin>", "<repl>"
  std::string text;
  uint32_t first_line = 1;  // REPL entries are numbered across the session
};
using SourcePtr = std::shared_ptr<const Source>;

struct LineColumn {
  uint32_t line = 0, column = 0;
};

// A byte offset into a Source; line and column are computed only when needed.
struct Position {
  const Source* source = nullptr;
  uint32_t offset = 0;
  LineColumn line_column() const;
  std::string line_text() const;  // the whole source line holding the position
  std::string to_string() const;  // "file:line:col"
};

class Error : public std::runtime_error {
 public:
  // Long numbers in the message are abbreviated (abbreviate_numbers): 19729 digits of 2^65536
  // would bury the error.
  Error(Position where, const std::string& message);
  const Position& where() const { return where_; }
  const std::string& message() const { return message_; }
  // "file:line:col: message"
  std::string located() const;
  // A parse error at the very end of the input (an open brace, a trailing
  // operator): the REPL reads another line instead of reporting it.
  bool at_end_of_input = false;

 private:
  Position where_;
  std::string message_;
};

}  // namespace cas
