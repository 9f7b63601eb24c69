#pragma once
// The interactive loop: line editing and history (libedit), tab completion
// of builtins, functions and variables, multi-line input, REPL commands.
#include "interpreter.hpp"

namespace cas {

struct ReplOptions {
  bool quiet = false;  // no banner
};

// Runs until Ctrl-D or :quit; returns the process exit status.
int run_repl(Interpreter& interp, const ReplOptions& options);

// Prints a statement's value the way the REPL does (elided when long) and sets `ans`.
void show_repl_value(Interpreter& interp, const Value& v, std::ostream& out);

}  // namespace cas
