// The kernel on xeus. One thread (xeus's) answers Jupyter's requests and publishes; the cells
// run on a Worker, so that a cell's output, its pictures and the progress of long work reach
// the page while it runs. Only xeus's thread touches the sockets.
#include "kernel.hpp"

#include "algebra/support/progress.hpp"
#include "cell_output.hpp"
#include "cell_parts.hpp"
#include "interpreter/builtins.hpp"
#include "interpreter/commands.hpp"
#include "interpreter/interrupt_mask.hpp"
#include "interpreter/parser.hpp"
#include "interpreter/report.hpp"
#include "interpreter/stdlib.hpp"
#include "rich_value.hpp"
#include "worker.hpp"

#include <nlohmann/json.hpp>
#include <xeus/xhelper.hpp>
#include <xeus/xinterpreter.hpp>
#include <xeus/xkernel.hpp>
#include <xeus/xkernel_configuration.hpp>
#include <xeus/xserver_zmq.hpp>
#include <zmq.hpp>

#include <atomic>
#include <algorithm>
#include <cctype>
#include <chrono>
#include <csignal>
#include <iostream>
#include <optional>
#include <sstream>
#include <tuple>

namespace nl = nlohmann;

namespace cas::jupyter {

namespace {

using Clock = std::chrono::steady_clock;

// Progress shows once a cell has run this long, and is refreshed at this interval.
constexpr auto progress_after = std::chrono::seconds(1);
constexpr auto poll_interval = std::chrono::milliseconds(100);

std::atomic<bool> cell_running{false};
std::atomic<bool> cell_interrupted{false};

// Jupyter interrupts a kernel with SIGINT (kernel.json's interrupt_mode "signal"): the running
// statement stops at its next check; between cells there is nothing to stop.
void on_interrupt(int) {
  if (!cell_running) return;
  cell_interrupted = true;
  interrupt_requested = true;
}

void install_interrupt_handler() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
}

nl::json bundle_json(const MimeBundle& bundle) {
  nl::json data = nl::json::object();
  for (const auto& [type, content] : bundle.forms) data[type] = content;
  return data;
}

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The extent [begin, end) of the name around `cursor` (end = cursor when only its start is wanted).
std::pair<size_t, size_t> name_around(const std::string& code, size_t cursor, bool extend_right) {
  cursor = std::min(cursor, code.size());
  size_t begin = cursor, end = cursor;
  while (begin > 0 && is_name_char(code[begin - 1])) begin--;
  if (extend_right)
    while (end < code.size() && is_name_char(code[end])) end++;
  return {begin, end};
}

// The error as a notebook shows it: evalue "line:col: message", traceback the located line,
// the source line and a caret (report_error's lines, without colour).
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

struct CellError {
  std::string ename, evalue;
  std::vector<std::string> traceback;
};

// The name of cell `counter`'s source, as errors name it: "In[3]".
std::string cell_name(int counter) { return "In[" + std::to_string(counter) + "]"; }

// evalue gives the line and column in the cell; an error in a file (a stdlib function, a script
// read by :load or read()) is located in that file instead, by its name.
CellError cell_error(const Error& e, const std::string& cell, bool interrupted) {
  CellError out;
  out.ename = interrupted ? "Interrupted" : "Error";
  const Source* source = e.where().source;
  const LineColumn lc = e.where().line_column();
  const std::string place = std::to_string(lc.line) + ":" + std::to_string(lc.column);
  if (!source)
    out.evalue = e.message();
  else
    out.evalue = (source->name == cell ? place : source->name + ":" + place) + ": " + e.message();
  std::ostringstream report;
  report_error(report, e, true, false);
  out.traceback = lines_of(report.str());
  return out;
}

class CasKernel : public xeus::xinterpreter {
 public:
  CasKernel()
      : out_buf_(output_, OutputEvent::Kind::stdout_text),
        err_buf_(output_, OutputEvent::Kind::stderr_text),
        out_(&out_buf_),
        err_(&err_buf_),
        interp_(out_),
        commands_(interp_, false) {
    interp_.display = &output_;
  }

 private:
  void configure_impl() override {}

  nl::json execute_request_impl(int counter, const std::string& code, bool silent, bool, nl::json,
                                bool) override;
  nl::json complete_request_impl(const std::string& code, int cursor_pos) override;
  nl::json inspect_request_impl(const std::string& code, int cursor_pos, int detail_level) override;
  nl::json is_complete_request_impl(const std::string& code) override;
  nl::json kernel_info_request_impl() override;
  void shutdown_request_impl() override {}

  // On the worker: runs the cell's parts in order, stopping at the first error.
  std::optional<CellError> run_cell(int counter, const std::string& code);
  std::optional<CellError> run_command(const CellPart& part);
  void run_code(int counter, const CellPart& part);
  void show_value(const Value& v);

  // On xeus's thread: publishes the cell's output so far, and keeps it in published_.
  void publish_output(int counter, bool silent);
  void publish(int counter, const OutputEvent& event);
  void show_progress(int counter, Clock::time_point started, bool& shown);
  void remove_progress(int counter, bool error_follows);

  CellOutput output_;
  CellStreamBuf out_buf_, err_buf_;
  std::ostream out_, err_;
  Interpreter interp_;
  SessionCommands commands_;
  Worker worker_;
  std::vector<OutputEvent> published_;  // the running cell's output so far, to publish again without its progress
};

void CasKernel::show_value(const Value& v) {
  output_.show_value(value_bundle(v));
  interp_.global(interp_.global_slot("ans")) = v;
}

void CasKernel::run_code(int counter, const CellPart& part) {
  auto source = std::make_shared<Source>(Source{cell_name(counter), part.text, part.first_line});
  const Program program = interp_.parse(source);
  const auto evaluate = [&](const Statement& s) {
    progress_reset();
    return s.node->eval(interp_);
  };
  commands_.run_statements(program, part.text, evaluate, [&](const Value& v) { show_value(v); }, out_, err_);
}

// A session command in a cell; a refused one (an unknown command, :load of a file with an error)
// stops the cell as an error does, so that "run all" stops there too.
std::optional<CellError> CasKernel::run_command(const CellPart& part) {
  progress_reset();  // :load runs statements: its progress shows as theirs does
  std::ostringstream complaints;
  const auto outcome = commands_.run(part.text, out_, complaints, [&](const Value& v) { show_value(v); });
  if (outcome == SessionCommands::Outcome::failed) {
    std::vector<std::string> traceback = lines_of(complaints.str());
    std::string message = traceback.empty() ? "" : traceback.front();
    if (message.rfind("error: ", 0) == 0) message.erase(0, 7);
    return CellError{"Error", std::to_string(part.first_line) + ":1: " + message, traceback};
  }
  err_ << complaints.str();
  if (outcome == SessionCommands::Outcome::quit)
    err_ << "notice: :quit leaves a terminal session; a notebook shuts its kernel down from its menu\n";
  return std::nullopt;
}

std::optional<CellError> CasKernel::run_cell(int counter, const std::string& code) {
  std::optional<CellError> failure;
  try {
    for (const CellPart& part : split_cell(code)) {
      if (part.kind == CellPart::Kind::code)
        run_code(counter, part);
      else
        failure = run_command(part);
      if (failure) break;
    }
  } catch (const Error& e) {
    report_notices(out_, err_);
    failure = cell_error(e, cell_name(counter), cell_interrupted);
  } catch (const std::exception& e) {
    report_notices(out_, err_);
    failure = CellError{"Error", e.what(), {std::string("error: ") + e.what()}};
  }
  commands_.reset_after_entry();
  return failure;
}

void CasKernel::publish_output(int counter, bool silent) {
  if (silent) {
    output_.take();
    return;
  }
  for (OutputEvent& event : output_.take()) {
    publish(counter, event);
    const bool text = event.kind == OutputEvent::Kind::stdout_text || event.kind == OutputEvent::Kind::stderr_text;
    if (text && !published_.empty() && published_.back().kind == event.kind)
      published_.back().text += event.text;
    else
      published_.push_back(std::move(event));
  }
}

void CasKernel::publish(int counter, const OutputEvent& event) {
  switch (event.kind) {
    case OutputEvent::Kind::stdout_text: publish_stream("stdout", event.text); break;
    case OutputEvent::Kind::stderr_text: publish_stream("stderr", event.text); break;
    case OutputEvent::Kind::display:
      display_data(bundle_json(event.bundle), nl::json::object(), nl::json::object());
      break;
    case OutputEvent::Kind::value:
      publish_execution_result(counter, bundle_json(event.bundle), nl::json::object());
      break;
  }
}

// One display, created once the cell has run progress_after and then updated in place:
// elapsed time, the operation and engine running, and its steps where known.
void CasKernel::show_progress(int counter, Clock::time_point started, bool& shown) {
  const std::chrono::duration<double> elapsed = Clock::now() - started;
  if (elapsed < progress_after) return;
  const nl::json data = {{"text/plain", describe_progress(progress_snapshot(), elapsed.count())}};
  const nl::json transient = {{"display_id", "cas-progress-" + std::to_string(counter)}};
  if (shown) {
    update_display_data(data, nl::json::object(), transient);
  } else {
    display_data(data, nl::json::object(), transient);
    shown = true;
  }
}

// Jupyter has no message that takes one output away, and a display updated to empty text (or to
// no data) stays in the page as an empty output (the classic notebook even keeps showing its last
// text). So the cell's outputs are cleared and published again, without the progress. With wait,
// the page clears them only when the first comes back, so the cell does not flicker; with nothing
// to come back, at once.
void CasKernel::remove_progress(int counter, bool error_follows) {
  clear_output(!published_.empty() || error_follows);
  for (const OutputEvent& event : published_) publish(counter, event);
}

nl::json CasKernel::execute_request_impl(int counter, const std::string& code, bool silent, bool, nl::json, bool) {
  std::optional<CellError> failure;
  cell_interrupted = false;
  cell_running = true;
  published_.clear();
  worker_.start([&] { failure = run_cell(counter, code); });
  const auto started = Clock::now();
  bool progress_shown = false;
  while (!worker_.wait_for(poll_interval)) {
    publish_output(counter, silent);
    if (!silent) show_progress(counter, started, progress_shown);
  }
  cell_running = false;
  publish_output(counter, silent);
  if (progress_shown) remove_progress(counter, failure.has_value());
  published_.clear();
  if (!failure) return {{"status", "ok"}, {"payload", nl::json::array()}, {"user_expressions", nl::json::object()}};
  if (!silent) publish_execution_error(failure->ename, failure->evalue, failure->traceback);
  return {{"status", "error"}, {"ename", failure->ename}, {"evalue", failure->evalue},
          {"traceback", failure->traceback}};
}

nl::json CasKernel::complete_request_impl(const std::string& code, int cursor_pos) {
  const size_t cursor = std::min(code.size(), static_cast<size_t>(std::max(cursor_pos, 0)));
  const auto [begin, end] = name_around(code, cursor, false);
  const std::string prefix = code.substr(begin, end - begin);
  const size_t line_start = code.rfind('\n', begin == 0 ? 0 : begin - 1);
  const size_t first = code.find_first_not_of(" \t", line_start == std::string::npos ? 0 : line_start + 1);
  const bool command = first != std::string::npos && first + 1 == begin && code[first] == ':';
  nl::json matches = nl::json::array();
  for (const auto& name : command ? session_command_names() : completion_names(interp_))
    if (name.compare(0, prefix.size(), prefix) == 0) matches.push_back(name);
  return {{"status", "ok"}, {"matches", matches}, {"cursor_start", begin}, {"cursor_end", end},
          {"metadata", nl::json::object()}};
}

nl::json CasKernel::inspect_request_impl(const std::string& code, int cursor_pos, int) {
  const size_t cursor = std::min(code.size(), static_cast<size_t>(std::max(cursor_pos, 0)));
  auto [begin, end] = name_around(code, cursor, true);
  if (begin == end && cursor > 0 && code[cursor - 1] == '(') std::tie(begin, end) = name_around(code, cursor - 1, true);
  const std::string name = code.substr(begin, end - begin);
  std::string text;
  if (const Builtin* b = builtins().find(name); b && !b->extends_function) {
    text = b->help;
  } else if (const Function* fn = name.empty() ? nullptr : interp_.function(name)) {
    std::string signature = name + "(";
    for (size_t i = 0; i < fn->params.size(); i++) signature += (i ? ", " : "") + fn->params[i];
    text = signature + ")" + (fn->doc.empty() ? "" : ": " + fn->doc);
    if (const Builtin* extension = builtins().find(name)) text += "\n" + extension->help;
    text += "\n\n" + fn->text;
  }
  if (text.empty()) return {{"status", "ok"}, {"found", false}, {"data", nl::json::object()}, {"metadata", nl::json::object()}};
  return {{"status", "ok"}, {"found", true}, {"data", {{"text/plain", text}}}, {"metadata", nl::json::object()}};
}

// "incomplete" while the last code can still be completed by more lines (an open brace, a
// trailing operator), "invalid" when it can no longer parse, else "complete".
nl::json CasKernel::is_complete_request_impl(const std::string& code) {
  const std::vector<CellPart> parts = split_cell(code);
  if (parts.empty() || parts.back().kind == CellPart::Kind::command) return {{"status", "complete"}};
  try {
    parse_statements(std::make_shared<Source>(Source{"<cell>", parts.back().text}));
  } catch (const Error& e) {
    if (e.at_end_of_input) return {{"status", "incomplete"}, {"indent", "  "}};
    return {{"status", "invalid"}};
  }
  return {{"status", "complete"}};
}

nl::json CasKernel::kernel_info_request_impl() {
  return {{"status", "ok"},
          {"protocol_version", "5.3"},
          {"implementation", "cas"},
          {"implementation_version", CAS_VERSION},
          {"language_info",
           {{"name", "cas"},
            {"version", CAS_VERSION},
            {"mimetype", "text/x-cas"},
            {"file_extension", ".cas"},
            // cas has no lexer of its own; Python's highlights its keywords (for, in, while,
            // if, else, return, and, or, not) and its # comments.
            {"pygments_lexer", "python"},
            {"codemirror_mode", "python"}}},
          {"banner", "cas " CAS_VERSION ": polynomial algebra over Z, Z/pZ and Z[x]. :help for help."},
          {"help_links", nl::json::array()}};
}

}  // namespace

int run_kernel(const std::string& connection_file) {
  try {
    // xeus's threads start from this one and inherit its mask: SIGINT goes to the cells' worker.
    block_interrupts_in_this_thread();
    install_interrupt_handler();
    xeus::xconfiguration config = xeus::load_configuration(connection_file);
    auto context = xeus::make_context<zmq::context_t>();
    auto interpreter = std::make_unique<CasKernel>();
    xeus::xkernel kernel(config, xeus::get_user_name(), std::move(context), std::move(interpreter),
                         xeus::make_xserver_zmq);
    kernel.start();
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "cas: the Jupyter kernel stopped: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace cas::jupyter
