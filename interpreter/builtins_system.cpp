// print, assert, read, typeof, help, source, time.
#include "algebra/support/progress.hpp"
#include "builtin_args.hpp"
#include "interpreter.hpp"
#include "stdlib.hpp"
#include "stdout_flush.hpp"

#include <chrono>
#include <ostream>

namespace cas {

namespace {

// Each line reaches a pipe (`cas long.cas | tee log`) while the statement runs on (stdout_flush.hpp);
// a progress line on the same terminal steps aside while it is written.
Value print(CallContext& c) {
  const ProgressOutputGuard aside;
  std::ostream& out = c.interp.out();
  for (size_t i = 0; i < c.args.size(); i++) {
    if (i) out << ' ';
    const Value& v = c.args[i];
    out << (v.is(Kind::Str) ? v.as_str() : format(v));
  }
  out << '\n';
  flush_soon(out);
  return Value();
}

Value assert_(CallContext& c) {
  const Value& cond = c.args[0];
  if (!cond.is(Kind::Bool)) throw DomainError("assert: the condition must be true or false, not " + describe(cond));
  if (cond.as_bool()) return Value();
  std::string message = "assertion failed";
  if (c.args.size() > 1) message += ": " + (c.args[1].is(Kind::Str) ? c.args[1].as_str() : format_for_message(c.args[1]));
  throw DomainError(message);
}

Value read(CallContext& c) {
  const std::string& path = str_arg(c, 0, "read");
  Value last;
  c.interp.run_file(path, [&](const Value& v, const Statement&) { last = v; });
  return last;
}

Value typeof_(CallContext& c) { return Value::str(kind_name(c.args[0].kind())); }

// help(name) and source(name) take a name as written: help(gcd), or a string: help("gcd").
std::string name_argument(CallContext& c, const char* fn) {
  const Node& node = *c.nodes[0];
  if (auto* var = dynamic_cast<const VarRef*>(&node)) return var->name();
  if (auto* call = dynamic_cast<const Call*>(&node)) return call->name();
  if (auto* constant = dynamic_cast<const Constant*>(&node))
    if (constant->value().is(Kind::Str)) return constant->value().as_str();
  throw DomainError(std::string(fn) + ": give a name, like " + fn + "(gcd)");
}

std::string overview() {
  std::string text =
      "cas: polynomial algebra over Z, Z/pZ and Z[x].\n"
      "  x is the variable of Z[x];  a mod p  reduces into Z/pZ;  help(name) or ?name for one function.\n"
      "Builtins:\n";
  std::string line = " ";
  for (const auto& name : builtins().names()) {
    if (line.size() + name.size() > 76) {
      text += line + "\n";
      line = " ";
    }
    line += " " + name;
  }
  text += line + "\nWritten in cas (stdlib; source(name) shows the code):\n ";
  for (const auto& name : stdlib_function_names()) text += " " + name;
  return text + "\n";
}

Value help(CallContext& c) {
  std::ostream& out = c.interp.out();
  if (c.nodes.empty()) {
    out << overview();
    return Value();
  }
  std::string name = name_argument(c, "help");
  if (const Builtin* b = builtins().find(name)) {
    out << b->help << "\n";
    return Value();
  }
  if (const Function* fn = c.interp.function(name)) {
    out << name << "(";
    for (size_t i = 0; i < fn->params.size(); i++) out << (i ? ", " : "") << fn->params[i];
    out << ")" << (fn->doc.empty() ? "\n" : ": " + fn->doc);
    return Value();
  }
  throw DomainError("help: there is no function named '" + name + "'");
}

Value source(CallContext& c) {
  std::string name = name_argument(c, "source");
  if (const Function* fn = c.interp.function(name)) {
    std::string doc;
    size_t start = 0;
    while (start < fn->doc.size()) {
      size_t end = fn->doc.find('\n', start);
      doc += "# " + fn->doc.substr(start, end - start) + "\n";
      start = end + 1;
    }
    c.interp.out() << doc << fn->text << "\n";
    return Value();
  }
  if (builtins().find(name)) throw DomainError("source: " + name + " is built into cas (C++), not written in cas");
  throw DomainError("source: there is no function named '" + name + "'");
}

// The clock stops before the value is freed: freeing a Z[x] product of 2^20 coefficients of 1000
// bits takes 34-55 ms, more than half of the product's own time (docs/measurements.md, "A product
// in cas against the engine's figure"), and `h = f * g` keeps its value anyway.
Value time(CallContext& c) {
  auto start = std::chrono::steady_clock::now();
  [[maybe_unused]] const Value value = c.nodes[0]->eval(c.interp);
  std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  return Value::real(elapsed.count());
}

}  // namespace

void register_system_builtins(Registry& r) {
  r.reg("print", 0, -1, print,
        "print(a, b, ...): prints the values on one line, separated by spaces; strings without quotes. "
        "Values are printed in full (the REPL elides long ones).");
  r.reg("assert", 1, 2, assert_,
        "assert(cond) or assert(cond, \"message\"): stops with an error at this position when cond is false.");
  r.reg("read", 1, read, "read(\"file.cas\"): runs a script in this session; returns its last value.");
  r.reg("typeof", 1, typeof_,
        "typeof(v): the type of v as a string: \"int\", \"intmod\", \"zpoly\", \"modpoly\", \"vector\", \"string\", "
        "\"bool\", \"real\".");
  r.reg_lazy("help", 0, 1, help, "help(name) or ?name: what a function does. help() lists every function.");
  r.reg_lazy("source", 1, 1, source, "source(name): prints the cas code of a function written in cas (stdlib or yours).");
  r.reg_lazy("time", 1, 1, time,
             "time(expr): evaluates expr and returns the wall-clock seconds it took to compute its value (the "
             "value is freed after the clock stops).");
}

}  // namespace cas
