#pragma once
// The session commands that the REPL and the Jupyter kernel share: `:help`, `:timer on|off`,
// `:explain`, `:gpu [auto|on|off]`, `:vars`, `:load file.cas`, `:quit`, and the `?name` shorthand.
// A session writes results to `out` and complaints to `err`, so a terminal and a notebook
// cell print them alike.
#include "interpreter.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace cas {

class SessionCommands {
 public:
  // failed: the command was refused, or what it ran stopped with an error (reported on `err`).
  enum class Outcome { done, failed, quit };
  // Shows one statement's value (the REPL's elided form, or a notebook's result) and sets `ans`.
  using ShowValue = std::function<void(const Value&)>;

  SessionCommands(Interpreter& interp, bool color) : interp_(interp), color_(color) {}

  // Runs `line`, which starts with ':'.
  Outcome run(const std::string& line, std::ostream& out, std::ostream& err, const ShowValue& show_value);

  // Runs the statements of `program`, the entry `text`, as a session does: each named for
  // `:explain`, timed for `:timer`, its value shown unless it ends in ';', the notices reported
  // after it. `evaluate` runs one statement (the REPL shows its progress line meanwhile).
  using Evaluate = std::function<Value(const Statement&)>;
  void run_statements(const Program& program, const std::string& text, const Evaluate& evaluate,
                      const ShowValue& show_value, std::ostream& out, std::ostream& err);
  // After an entry, however it ended: no flow, locals, call depth or pending interrupt left over.
  void reset_after_entry();
  bool timer() const { return timer_; }
  // The `:timer` line: "12.3 ms [gpu ntt 2^20]".
  std::string timer_line(double milliseconds) const;

 private:
  void print_help(std::ostream& out) const;
  void print_vars(std::ostream& out) const;
  bool load(const std::string& path, std::ostream& err, const ShowValue& show_value);

  Interpreter& interp_;
  bool color_;
  bool timer_ = false;
  std::string last_statement_;
};

// The entry as `:explain` names it: its text without trailing blanks, and with a word
// when `:explain` speaks of only its last statement.
std::string entry_name(const std::string& text, size_t statements);

// True when the text so far cannot be complete: it ends inside a block, a bracket or after an
// operator. Only such errors make the REPL read on (and a notebook call the cell incomplete).
bool needs_more_input(const std::string& text);

// What a name being typed may become: builtins, functions written in cas (stdlib and the
// session's), variables and keywords.
std::vector<std::string> completion_names(const Interpreter& interp);
// The session commands without their ':', for completion.
const std::vector<std::string>& session_command_names();

// `?name` as the call help(name) that it stands for; other lines unchanged.
std::string expand_help_shorthand(const std::string& line);

}  // namespace cas
