#pragma once
// The interpreter: global variables, user functions and the state of the
// running call. The REPL, the script runner and the tests drive it through
// run(); nodes of the tree evaluate against it.
#include "ast.hpp"
#include "algebra/support/error.hpp"
#include "builtins.hpp"
#include "display.hpp"

#include <atomic>
#include <deque>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace cas {

// Set by the SIGINT handler; loops and calls poll it and stop with an error.
extern std::atomic<bool> interrupt_requested;

enum class Flow { Normal, Return, Break, Continue };

class Interpreter {
 public:
  explicit Interpreter(std::ostream& out);
  ~Interpreter();

  // Parses a whole source into a resolved program; throws Error.
  Program parse(SourcePtr source);
  // Runs every statement; calls on_result for each statement that has a value.
  using ResultCallback = std::function<void(const Value&, const Statement&)>;
  void run(const Program& program, const ResultCallback& on_result = {});
  // Parses and runs a file (read(), :load, the script runner).
  void run_file(const std::string& path, const ResultCallback& on_result = {});
  // Parses and runs a string; returns the last statement's value.
  Value eval_string(const std::string& text, const std::string& name = "<string>");

  // Globals, by slot. New names get new slots; slots are never removed.
  uint32_t global_slot(const std::string& name);
  Value& global(uint32_t slot) { return globals_[slot]; }
  const Value* find_global(const std::string& name) const;
  std::vector<std::string> defined_globals() const;

  // User functions (stdlib and the user's), looked up by name at call time.
  void define(std::shared_ptr<Function> fn);
  const Function* function(const std::string& name);
  uint64_t functions_generation() const { return functions_generation_; }
  std::vector<std::string> function_names() const;

  Value call(const Function& fn, std::vector<Value>& args, const Position& where);

  std::ostream& out() { return out_; }
  // Rich output (tables, pictures) goes here when a notebook is attached; null in a terminal
  // or a script, where tables are text on out() and pictures need a file name.
  Display* display = nullptr;

  // The running call's state, used by the nodes.
  Value* locals = nullptr;
  Flow flow = Flow::Normal;
  Value return_value;
  int depth = 0;
  static constexpr int max_depth = 10000;

 private:
  void load_stdlib_if_needed(const std::string& name);
  std::ostream& out_;
  std::deque<Value> globals_;  // a deque: references stay valid as globals are added
  std::unordered_map<std::string, uint32_t> global_index_;
  std::vector<std::string> global_names_;
  std::unordered_map<std::string, std::shared_ptr<Function>> functions_;
  // Definitions replaced by a later `fn` of the same name. A function may be
  // redefined while it runs (read() in its body), so its nodes must outlive that.
  std::vector<std::shared_ptr<Function>> replaced_functions_;
  uint64_t functions_generation_ = 1;
  std::vector<SourcePtr> sources_;  // every parsed source stays alive: nodes point into them
  bool stdlib_loaded_ = false;
};

// Resolves names to slots after parsing: inside a function body, parameters
// and every name the body assigns are locals; all other names are globals.
class Resolver {
 public:
  explicit Resolver(Interpreter& in) : in_(in) {}
  Slot slot(const std::string& name);
  bool in_function() const { return function_ != nullptr; }
  void enter_function(Function& fn);
  void leave_function() { function_ = nullptr; locals_.clear(); }
  int loop_depth = 0;
  Interpreter& interpreter() { return in_; }

 private:
  Interpreter& in_;
  Function* function_ = nullptr;
  std::unordered_map<std::string, uint32_t> locals_;
};

// Runs `body`, turning a DomainError from the algebra layer into an Error at `where`.
template <class Body>
auto at_position(const Position& where, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const DomainError& e) {
    throw Error(where, e.what());
  } catch (const std::bad_alloc&) {
    throw Error(where, "out of memory");
  }
}

}  // namespace cas
