#include "commands.hpp"

#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/support/progress.hpp"
#include "algebra/values/format.hpp"
#include "explain.hpp"
#include "parser.hpp"
#include "report.hpp"
#include "stdlib.hpp"

#include <algorithm>
#include <chrono>

#include <cstdio>
#include <ostream>
#include <sstream>

namespace cas {

void SessionCommands::print_help(std::ostream& out) const {
  out << "Type expressions and statements; a statement ending in ';' prints nothing.\n"
         "  ?name            help on a function (also help(name))\n"
         "  :help            this text\n"
         "  :timer on|off    print the wall time (and engine) after each statement\n"
         "  :explain         what cas did for the last statement: algorithm, engine, modulus, lengths\n"
         "  :gpu auto|on|off where large products and transforms run (:gpu alone: the GPUs, as gpuinfo())\n"
         "  :vars            the variables defined in this session\n"
         "  :load file.cas   run a script in this session\n"
         "  :quit            leave (or Ctrl-D)\n"
         "Ctrl-C (in a notebook: interrupt the kernel) abandons the running statement; your variables\n"
         "stay. A single FLINT or GPU operation finishes first; in the REPL Ctrl-C three times quits cas.\n";
}

void SessionCommands::print_vars(std::ostream& out) const {
  FormatOptions brief;
  brief.elide_above = 6;
  brief.elide_keep = 2;
  for (const auto& name : interp_.defined_globals()) {
    const Value* v = interp_.find_global(name);
    std::string text = format(*v, brief);
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    out << "  " << name << " = " << text << "   (" << kind_name(v->kind()) << ")\n";
  }
}

bool SessionCommands::load(const std::string& path, std::ostream& err, const ShowValue& show_value) {
  engine_reset();
  last_statement_ = ":load " + path;
  try {
    interp_.run_file(path, [&](const Value& v, const Statement& s) {
      if (!s.silent) show_value(v);
    });
  } catch (const Error& e) {
    const ProgressOutputGuard aside;
    report_error(err, e, true, color_);
    return false;
  } catch (const DomainError& e) {
    const ProgressOutputGuard aside;
    report_message(err, e.what(), color_);
    return false;
  }
  return true;
}

SessionCommands::Outcome SessionCommands::run(const std::string& line, std::ostream& out, std::ostream& err,
                                              const ShowValue& show_value) {
  std::istringstream words(line.substr(line.find(':') + 1));
  std::string command, argument;
  words >> command;
  std::getline(words >> std::ws, argument);
  if (command == "quit" || command == "q") return Outcome::quit;
  const auto refuse = [&](const std::string& message) {
    report_message(err, message, color_);
    return Outcome::failed;
  };
  if (command == "help" || command == "h") {
    print_help(out);
  } else if (command == "timer") {
    if (argument != "on" && argument != "off") return refuse(":timer takes on or off");
    timer_ = argument == "on";
  } else if (command == "gpu") {
    GpuMode mode;
    if (argument.empty()) {
      for (const auto& l : gpu_report()) out << l << "\n";
    } else if (parse_gpu_mode(argument, mode)) {
      set_gpu_mode(mode);
      if (const std::string caveat = gpu_mode_caveat(mode); !caveat.empty()) err << "notice: " << caveat << "\n";
    } else {
      return refuse(":gpu takes auto, on or off");
    }
  } else if (command == "explain") {
    for (const auto& l : explain_statement(last_statement_)) out << l << "\n";
  } else if (command == "vars") {
    print_vars(out);
  } else if (command == "load") {
    if (!load(argument, err, show_value)) return Outcome::failed;
  } else {
    return refuse("unknown command ':" + command + "' (try :help)");
  }
  return Outcome::done;
}

void SessionCommands::run_statements(const Program& program, const std::string& text, const Evaluate& evaluate,
                                     const ShowValue& show_value, std::ostream& out, std::ostream& err) {
  for (const Statement& s : program.statements) {
    engine_reset();
    last_statement_ = entry_name(text, program.statements.size());
    const auto start = std::chrono::steady_clock::now();
    interp_.flow = Flow::Normal;
    const Value v = evaluate(s);
    const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
    if (!v.is_none() && !s.silent) show_value(v);
    report_notices(out, err);
    if (timer_) err << timer_line(elapsed.count()) << "\n";
  }
}

void SessionCommands::reset_after_entry() {
  interp_.flow = Flow::Normal;
  interp_.locals = nullptr;
  interp_.depth = 0;
  interrupt_requested = false;
}

std::string SessionCommands::timer_line(double milliseconds) const {
  const std::string engine = engine_last();
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g ms", milliseconds);
  return std::string(buf) + " [" + (engine.empty() ? "cpu" : engine) + "]";
}

std::string entry_name(const std::string& text, size_t statements) {
  const size_t last = text.find_last_not_of(" \t\n");
  std::string name = last == std::string::npos ? "" : text.substr(0, last + 1);
  return statements > 1 ? name + "   (its last statement)" : name;
}

bool needs_more_input(const std::string& text) {
  try {
    parse_statements(std::make_shared<Source>(Source{"<repl>", text}));
    return false;
  } catch (const Error& e) {
    return e.at_end_of_input;
  }
}

std::vector<std::string> completion_names(const Interpreter& interp) {
  std::vector<std::string> names = builtins().names();
  for (auto& n : stdlib_function_names()) names.push_back(n);
  for (auto& n : interp.function_names()) names.push_back(n);
  for (auto& n : interp.defined_globals()) names.push_back(n);
  for (const char* keyword : {"if", "else", "for", "in", "while", "fn", "return", "break", "continue", "and", "or",
                              "not", "mod", "true", "false"})
    names.push_back(keyword);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

const std::vector<std::string>& session_command_names() {
  static const std::vector<std::string> names = {"help", "timer", "explain", "gpu", "vars", "load", "quit"};
  return names;
}

std::string expand_help_shorthand(const std::string& line) {
  const size_t first = line.find_first_not_of(" \t");
  if (first == std::string::npos || line[first] != '?') return line;
  return "help(" + line.substr(first + 1) + ")";
}

}  // namespace cas
