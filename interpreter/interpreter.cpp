#include "interpreter.hpp"

#include "algebra/support/error.hpp"
#include "explain.hpp"
#include "parser.hpp"
#include "stdlib.hpp"

#include <fstream>
#include <sstream>

namespace cas {

std::atomic<bool> interrupt_requested{false};

Interpreter::Interpreter(std::ostream& out) : out_(out) {
  install_flint_abort_handler();
  global(global_slot("x")) = Value::zpoly(ZPoly::x());
}

Interpreter::~Interpreter() = default;

uint32_t Interpreter::global_slot(const std::string& name) {
  auto [it, inserted] = global_index_.try_emplace(name, static_cast<uint32_t>(globals_.size()));
  if (inserted) {
    globals_.emplace_back();
    global_names_.push_back(name);
  }
  return it->second;
}

const Value* Interpreter::find_global(const std::string& name) const {
  auto it = global_index_.find(name);
  if (it == global_index_.end() || globals_[it->second].is_none()) return nullptr;
  return &globals_[it->second];
}

std::vector<std::string> Interpreter::defined_globals() const {
  std::vector<std::string> out;
  for (size_t i = 0; i < globals_.size(); i++)
    if (!globals_[i].is_none()) out.push_back(global_names_[i]);
  return out;
}

void Interpreter::define(std::shared_ptr<Function> fn) {
  std::shared_ptr<Function>& entry = functions_[fn->name];
  if (entry) replaced_functions_.push_back(std::move(entry));
  entry = std::move(fn);
  functions_generation_++;
}

const Function* Interpreter::function(const std::string& name) {
  auto it = functions_.find(name);
  if (it != functions_.end()) return it->second.get();
  if (!stdlib_loaded_ && stdlib_defines(name)) {
    stdlib_loaded_ = true;
    // The user's own functions named like stdlib ones, defined before this
    // lazy load, keep their definitions.
    const auto users = functions_;
    for (const auto& [file, text] : stdlib_sources()) run(parse(std::make_shared<Source>(Source{file, text})));
    for (const auto& [user_name, fn] : users) functions_[user_name] = fn;
    return function(name);
  }
  return nullptr;
}

std::vector<std::string> Interpreter::function_names() const {
  std::vector<std::string> out = stdlib_function_names();
  for (const auto& [name, fn] : functions_) out.push_back(name);
  return out;
}

Program Interpreter::parse(SourcePtr source) {
  sources_.push_back(source);
  Program program{source, parse_statements(source)};
  Resolver resolver(*this);
  for (auto& s : program.statements) s.node->resolve(resolver);
  return program;
}

void Interpreter::run(const Program& program, const ResultCallback& on_result) {
  for (const Statement& s : program.statements) {
    flow = Flow::Normal;
    Value v = s.node->eval(*this);
    if (on_result && !v.is_none()) on_result(v, s);
  }
}

void Interpreter::run_file(const std::string& path, const ResultCallback& on_result) {
  std::ifstream file(path);
  if (!file) throw DomainError("cannot read '" + path + "'");
  std::stringstream text;
  text << file.rdbuf();
  std::string content = text.str();
  if (content.rfind("#!", 0) == 0) content.replace(0, content.find('\n') == std::string::npos ? content.size() : content.find('\n'), "");
  run(parse(std::make_shared<Source>(Source{path, content})), on_result);
}

Value Interpreter::eval_string(const std::string& text, const std::string& name) {
  Program program = parse(std::make_shared<Source>(Source{name, text}));
  Value last;
  run(program, [&](const Value& v, const Statement&) { last = v; });
  return last;
}

Value Interpreter::call(const Function& fn, std::vector<Value>& args, const Position& where) {
  if (depth >= max_depth)
    throw Error(where, "recursion is too deep (more than " + std::to_string(max_depth) + " nested calls)");
  // For :explain, the stdlib functions a statement calls directly (their insides are not noted).
  if (depth == 0 && fn.source && fn.source->name.compare(0, 7, "stdlib/") == 0) note_stdlib_call(fn, args);
  args.resize(fn.local_count);
  Value* saved_locals = locals;
  locals = args.data();
  depth++;
  struct Restore {
    Interpreter& in;
    Value* saved;
    ~Restore() {
      in.locals = saved;
      in.depth--;
    }
  } restore{*this, saved_locals};
  Value result = fn.body->eval(*this);
  if (flow == Flow::Return) {
    result = std::move(return_value);
    return_value = Value();
  }
  flow = Flow::Normal;
  return result;
}

// ---- Resolver ----

Slot Resolver::slot(const std::string& name) {
  if (function_) {
    auto it = locals_.find(name);
    if (it != locals_.end()) return Slot{true, it->second};
  }
  return Slot{false, in_.global_slot(name)};
}

void Resolver::enter_function(Function& fn) {
  function_ = &fn;
  locals_.clear();
  fn.local_names.clear();
  auto add = [&](const std::string& name) {
    if (locals_.try_emplace(name, static_cast<uint32_t>(fn.local_names.size())).second) fn.local_names.push_back(name);
  };
  for (const auto& p : fn.params) add(p);
  std::set<std::string> assigned;
  fn.body->collect_assigned(assigned);
  for (const auto& name : assigned) add(name);
  fn.local_count = static_cast<uint32_t>(fn.local_names.size());
}

}  // namespace cas
