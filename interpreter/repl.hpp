#pragma once
// The interactive loop: line editing and history (libedit), tab completion
// of builtins, functions and variables, multi-line input, REPL commands.
#include "algebra/values/format.hpp"
#include "interpreter.hpp"

namespace cas {

struct ReplOptions {
  bool quiet = false;  // no banner
};

// Runs until Ctrl-D or :quit; returns the process exit status.
int run_repl(Interpreter& interp, const ReplOptions& options);

// How the REPL (and a notebook's text/plain) prints a value: long values elided, matrices as grids.
FormatOptions repl_format_options();

// Prints a statement's value the way the REPL does (elided when long) and sets `ans`.
void show_repl_value(Interpreter& interp, const Value& v, std::ostream& out);

// What a Ctrl-C does in the REPL. A statement stops at its next check (loops and calls poll
// interrupt_requested), but one operation of FLINT or of the GPU cannot be stopped midway, so a
// Ctrl-C during one waits for it to return. Pressed again while that stop is pending, Ctrl-C says
// so; pressed a third time, it quits cas (the session's variables are lost, as it said).
enum class InterruptResponse { request_stop, explain_wait, quit };
InterruptResponse interrupt_response(bool statement_running, bool stop_pending, int presses_waiting);

}  // namespace cas
