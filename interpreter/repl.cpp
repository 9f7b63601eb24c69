#include "repl.hpp"

#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/values/format.hpp"
#include "explain.hpp"
#include "parser.hpp"
#include "report.hpp"

#include <editline/readline.h>
#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace cas {

namespace {

constexpr size_t repl_elide_above = 50;

std::string history_path() {
  if (const char* state = std::getenv("XDG_STATE_HOME"); state && *state) return std::string(state) + "/cas_history";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cas_history";
  return "";
}

// ---- tab completion ----

Interpreter* completion_interpreter = nullptr;

std::vector<std::string> completion_candidates() {
  std::vector<std::string> names = builtins().names();
  if (completion_interpreter) {
    for (auto& n : completion_interpreter->function_names()) names.push_back(n);
    for (auto& n : completion_interpreter->defined_globals()) names.push_back(n);
  }
  for (const char* kw : {"if", "else", "for", "in", "while", "fn", "return", "break", "continue", "and", "or", "not",
                         "mod", "true", "false"})
    names.push_back(kw);
  return names;
}

char* completion_generator(const char* text, int state) {
  static std::vector<std::string> matches;
  static size_t next;
  if (state == 0) {
    matches.clear();
    next = 0;
    size_t length = std::strlen(text);
    for (auto& name : completion_candidates())
      if (name.compare(0, length, text) == 0 && std::find(matches.begin(), matches.end(), name) == matches.end())
        matches.push_back(name);
  }
  if (next >= matches.size()) return nullptr;
  return strdup(matches[next++].c_str());
}

char** complete(const char* text, int, int) {
  rl_completion_append_character = '\0';
  return rl_completion_matches(text, completion_generator);
}

// ---- Ctrl-C ----

std::atomic<bool> statement_running{false};  // an entry or a command is being evaluated
std::atomic<int> presses_waiting{0};          // Ctrl-C presses since the pending stop

void write_to_stderr(const char* text) {  // async-signal-safe
  ssize_t ignored = write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

pthread_t repl_thread;  // the thread that reads the input (install_interrupt_handler)

void on_interrupt(int) {
  // Any thread that does not block SIGINT may get it (the GPU runtime's among them): pass it to
  // the REPL's, whose pending read it must interrupt.
  if (!pthread_equal(pthread_self(), repl_thread)) {
    pthread_kill(repl_thread, SIGINT);
    return;
  }
  switch (interrupt_response(statement_running, interrupt_requested, presses_waiting)) {
    case InterruptResponse::request_stop:
      presses_waiting = 0;
      interrupt_requested = true;
      return;
    case InterruptResponse::explain_wait:
      ++presses_waiting;
      write_to_stderr(
          "\ncas: one operation of FLINT or the GPU is running and cannot stop midway; the statement "
          "stops when it returns. Ctrl-C once more quits cas (your variables are lost).\n");
      return;
    case InterruptResponse::quit:
      write_to_stderr("\ncas: quit on Ctrl-C\n");
      _exit(130);
  }
}

// Marks an entry or a command as running, so that Ctrl-C can tell a wait from the prompt.
class RunningStatement {
 public:
  RunningStatement() {
    presses_waiting = 0;
    statement_running = true;
  }
  ~RunningStatement() { statement_running = false; }
  RunningStatement(const RunningStatement&) = delete;
  RunningStatement& operator=(const RunningStatement&) = delete;
};

void install_interrupt_handler() {
  repl_thread = pthread_self();
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a pending read returns, so the prompt can be abandoned
  sigaction(SIGINT, &action, nullptr);
}

// The entry as :explain names it: its text without trailing blanks, and with a word
// when :explain speaks of only its last statement.
std::string entry_name(const std::string& text, size_t statements) {
  const size_t last = text.find_last_not_of(" \t\n");
  std::string name = last == std::string::npos ? "" : text.substr(0, last + 1);
  return statements > 1 ? name + "   (its last statement)" : name;
}

// ---- the REPL session ----

class Session {
 public:
  Session(Interpreter& interp) : interp_(interp), color_(color_wanted(2)) {}
  int loop();

 private:
  bool handle_command(const std::string& line);
  void run_entry(const std::string& text);
  void print_vars();
  void print_help();
  void print_explanation();

  Interpreter& interp_;
  bool color_;
  bool timer_ = false;
  uint32_t line_number_ = 1;
  std::string last_statement_;  // the text :explain names
};

void Session::print_help() {
  std::cout << "Type expressions and statements; a statement ending in ';' prints nothing.\n"
               "  ?name            help on a function (also help(name))\n"
               "  :help            this text\n"
               "  :timer on|off    print the wall time (and engine) after each statement\n"
               "  :explain         what cas did for the last statement: algorithm, engine, modulus, lengths\n"
               "  :gpu auto|on|off where large products and transforms run (:gpu alone: the device)\n"
               "  :vars            the variables defined in this session\n"
               "  :load file.cas   run a script in this session\n"
               "  :quit            leave (or Ctrl-D)\n"
               "Ctrl-C abandons the running statement; your variables stay. A single FLINT or GPU\n"
               "operation finishes first; Ctrl-C three times quits cas.\n";
}

void Session::print_vars() {
  FormatOptions brief;
  brief.elide_above = 6;
  brief.elide_keep = 2;
  for (const auto& name : interp_.defined_globals()) {
    const Value* v = interp_.find_global(name);
    std::string text = format(*v, brief);
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    std::cout << "  " << name << " = " << text << "   (" << kind_name(v->kind()) << ")\n";
  }
}

void Session::print_explanation() {
  for (const auto& line : explain_statement(last_statement_)) std::cout << line << "\n";
}

bool Session::handle_command(const std::string& line) {
  std::istringstream words(line.substr(1));
  std::string command, argument;
  words >> command;
  std::getline(words >> std::ws, argument);
  if (command == "quit" || command == "q") return false;
  if (command == "help" || command == "h") {
    print_help();
  } else if (command == "timer") {
    if (argument == "on" || argument == "off")
      timer_ = argument == "on";
    else
      report_message(std::cerr, ":timer takes on or off", color_);
  } else if (command == "gpu") {
    GpuMode mode;
    if (argument.empty()) {
      for (const auto& l : gpu_report()) std::cout << l << "\n";
    } else if (parse_gpu_mode(argument, mode)) {
      set_gpu_mode(mode);
      if (const std::string caveat = gpu_mode_caveat(mode); !caveat.empty()) std::cerr << "notice: " << caveat << "\n";
    } else {
      report_message(std::cerr, ":gpu takes auto, on or off", color_);
    }
  } else if (command == "explain") {
    print_explanation();
  } else if (command == "vars") {
    print_vars();
  } else if (command == "load") {
    engine_reset();
    last_statement_ = line;
    try {
      interp_.run_file(argument, [&](const Value& v, const Statement& s) {
        if (!s.silent) show_repl_value(interp_, v, std::cout);
      });
    } catch (const Error& e) {
      report_error(std::cerr, e, true, color_);
    } catch (const DomainError& e) {
      report_message(std::cerr, e.what(), color_);
    }
  } else {
    report_message(std::cerr, "unknown command ':" + command + "' (try :help)", color_);
  }
  return true;
}

void Session::run_entry(const std::string& text) {
  auto source = std::make_shared<Source>(Source{"<repl>", text, line_number_});
  for (char c : text) line_number_ += c == '\n';
  line_number_++;
  try {
    Program program = interp_.parse(source);
    for (const Statement& s : program.statements) {
      engine_reset();
      last_statement_ = entry_name(text, program.statements.size());
      auto start = std::chrono::steady_clock::now();
      interp_.flow = Flow::Normal;
      Value v = s.node->eval(interp_);
      std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
      if (!v.is_none() && !s.silent) show_repl_value(interp_, v, std::cout);
      report_notices(std::cout, std::cerr);
      if (timer_) {
        const std::string engine = engine_last();
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.3g ms", elapsed.count());
        std::cerr << buf << " [" << (engine.empty() ? "cpu" : engine) << "]\n";
      }
    }
  } catch (const Error& e) {
    report_notices(std::cout, std::cerr);  // the failed statement's, before its error (as scripts do)
    report_error(std::cerr, e, true, color_);
  }
  interp_.flow = Flow::Normal;
  interp_.locals = nullptr;
  interp_.depth = 0;
  interrupt_requested = false;
  // A Ctrl-C that interrupted a write to the terminal left the streams failed; the next entry
  // prints again.
  std::cout.clear();
  std::cerr.clear();
  clearerr(stdout);
  clearerr(stderr);
}

// True when the text so far cannot be complete: it ends inside a block, a
// bracket or after an operator. Only such errors make the REPL read on.
bool needs_more_input(const std::string& text) {
  try {
    parse_statements(std::make_shared<Source>(Source{"<repl>", text}));
    return false;
  } catch (const Error& e) {
    return e.at_end_of_input;
  }
}

int Session::loop() {
  const std::string history = history_path();
  if (!history.empty()) read_history(history.c_str());
  completion_interpreter = &interp_;
  rl_attempted_completion_function = complete;
  install_interrupt_handler();
  std::string pending;
  while (true) {
    interrupt_requested = false;
    char* raw = readline(pending.empty() ? "cas> " : "...> ");
    if (!raw) {
      if (interrupt_requested) {  // Ctrl-C at the prompt: drop the line, stay
        std::cout << "\n";
        pending.clear();
        continue;
      }
      std::cout << "\n";
      break;
    }
    std::string line(raw);
    std::free(raw);
    if (pending.empty()) {
      size_t first = line.find_first_not_of(" \t");
      if (first == std::string::npos) continue;
      if (line[first] == ':') {
        add_history(line.c_str());
        RunningStatement running;
        if (!handle_command(line.substr(first))) break;
        continue;
      }
      if (line[first] == '?') line = "help(" + line.substr(first + 1) + ")";
    }
    pending += pending.empty() ? line : "\n" + line;
    if (needs_more_input(pending)) continue;
    add_history(pending.c_str());
    {
      RunningStatement running;
      run_entry(pending);
    }
    pending.clear();
  }
  if (!history.empty()) {
    write_history(history.c_str());
    history_truncate_file(history.c_str(), 2000);
  }
  return 0;
}

}  // namespace

InterruptResponse interrupt_response(bool statement_running, bool stop_pending, int presses_waiting) {
  if (!statement_running || !stop_pending) return InterruptResponse::request_stop;
  return presses_waiting == 0 ? InterruptResponse::explain_wait : InterruptResponse::quit;
}

void show_repl_value(Interpreter& interp, const Value& v, std::ostream& out) {
  FormatOptions options;
  options.elide_above = repl_elide_above;
  options.grid = true;  // a matrix (vector of equal-length rows) as an aligned grid
  out << format(v, options) << std::endl;
  interp.global(interp.global_slot("ans")) = v;
}

int run_repl(Interpreter& interp, const ReplOptions& options) {
  if (!options.quiet)
    std::cout << "cas " CAS_VERSION ": polynomial algebra over Z, Z/pZ and Z[x].  :help for help, Ctrl-D to leave.\n";
  Session session(interp);
  return session.loop();
}

}  // namespace cas
