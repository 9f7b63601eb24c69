#include "repl.hpp"

#include "algebra/support/progress.hpp"
#include "algebra/values/format.hpp"
#include "commands.hpp"
#include "progress_line.hpp"
#include "report.hpp"

#include <editline/readline.h>
#include <pthread.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
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
  return completion_interpreter ? completion_names(*completion_interpreter) : builtins().names();
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
std::atomic<ProgressLine*> interrupt_progress_line{nullptr};  // the session's, if it has one

const InterruptNotice explain_wait_notice{
    "cas: one operation of FLINT or the GPU is running and cannot stop midway; the statement stops when it "
    "returns. Ctrl-C once more quits cas (your variables are lost).\n",
    -1};
const InterruptNotice quit_notice{"cas: quit on Ctrl-C\n", 130};

// Reports a Ctrl-C and says `notice` (null: nothing to say). While a statement runs, the
// progress line clears itself (and the terminal's echo "^C") and writes the notice in its place;
// with no such line the notice goes on the line after the echo.
void tell(const InterruptNotice* notice) {
  ProgressLine* line = interrupt_progress_line.load();
  if (line && line->interrupted(notice)) return;
  if (!notice) return;
  write_to_stderr("\n");
  write_to_stderr(notice->text);
  if (notice->exit_status >= 0) _exit(notice->exit_status);
}

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
      tell(nullptr);
      return;
    case InterruptResponse::explain_wait:
      ++presses_waiting;
      tell(&explain_wait_notice);
      return;
    case InterruptResponse::quit:
      tell(&quit_notice);
      return;
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

// ---- the REPL session ----

class Session {
 public:
  // progress_line: show the progress of long statements on stderr (a terminal, not -q).
  Session(Interpreter& interp, bool progress_line)
      : interp_(interp),
        color_(color_wanted(2)),
        commands_(interp, color_),
        progress_line_(progress_line ? std::make_unique<ProgressLine>() : nullptr) {
    interrupt_progress_line = progress_line_.get();
  }
  ~Session() { interrupt_progress_line = nullptr; }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  int loop();

 private:
  bool run_command(const std::string& line);
  void run_entry(const std::string& text);
  Value evaluate(const Statement& s);

  Interpreter& interp_;
  bool color_;
  SessionCommands commands_;
  uint32_t line_number_ = 1;
  std::unique_ptr<ProgressLine> progress_line_;  // null without one
};

// Returns false for :quit. A long command (:load of a script) shows its progress as a statement
// does; the values it prints, and its complaints, make the line step aside.
bool Session::run_command(const std::string& line) {
  const auto show = [&](const Value& v) {
    const ProgressOutputGuard aside;
    show_repl_value(interp_, v, std::cout);
  };
  progress_reset();
  const ShownWhileRunning shown(progress_line_.get());
  return commands_.run(line, std::cout, std::cerr, show) != SessionCommands::Outcome::quit;
}

void Session::run_entry(const std::string& text) {
  auto source = std::make_shared<Source>(Source{"<repl>", text, line_number_});
  for (char c : text) line_number_ += c == '\n';
  line_number_++;
  try {
    const Program program = interp_.parse(source);
    commands_.run_statements(
        program, text, [&](const Statement& s) { return evaluate(s); },
        [&](const Value& v) { show_repl_value(interp_, v, std::cout); }, std::cout, std::cerr);
  } catch (const Error& e) {
    report_notices(std::cout, std::cerr);  // the failed statement's, before its error (as scripts do)
    report_error(std::cerr, e, true, color_);
  }
  commands_.reset_after_entry();
  // A Ctrl-C that interrupted a write to the terminal left the streams failed; the next entry
  // prints again.
  std::cout.clear();
  std::cerr.clear();
  clearerr(stdout);
  clearerr(stderr);
}

// The statement's value, its progress recorded (progress.hpp) and shown meanwhile; the line is
// cleared before the value, an error or the timer's line is printed.
Value Session::evaluate(const Statement& s) {
  progress_reset();
  const ShownWhileRunning shown(progress_line_.get());
  return s.node->eval(interp_);
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
        if (!run_command(line.substr(first))) break;
        continue;
      }
      line = expand_help_shorthand(line);
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

FormatOptions repl_format_options() {
  FormatOptions options;
  options.elide_above = repl_elide_above;
  options.grid = true;  // a matrix (vector of equal-length rows) as an aligned grid
  return options;
}

void show_repl_value(Interpreter& interp, const Value& v, std::ostream& out) {
  out << format(v, repl_format_options()) << std::endl;
  interp.global(interp.global_slot("ans")) = v;
}

int run_repl(Interpreter& interp, const ReplOptions& options) {
  if (!options.quiet)
    std::cout << "cas " CAS_VERSION ": polynomial algebra over Z, Z/pZ and Z[x].  :help for help, Ctrl-D to leave.\n";
  Session session(interp, !options.quiet && isatty(STDERR_FILENO));
  return session.loop();
}

}  // namespace cas
