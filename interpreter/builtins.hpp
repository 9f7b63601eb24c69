#pragma once
// Builtins are registered in one table: name, arity, function and help
// text. `help`, `?name`, tab completion and the arity check all read it.
#include "ast.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace cas {

struct CallContext {
  Interpreter& interp;
  std::vector<Value>& args;             // evaluated arguments (empty for lazy builtins)
  const std::vector<NodePtr>& nodes;    // the argument expressions as written
  Position where;                       // the call
};

using BuiltinFunction = Value (*)(CallContext&);

struct Builtin {
  std::string name;
  int min_args = 0, max_args = 0;  // max_args < 0: any number
  BuiltinFunction fn = nullptr;
  std::string help;
  bool lazy = false;  // receives its arguments unevaluated (time, help, source)
  // Adds arities to the function of the same name written in cas (dftmatrix(n, w, mode) beside the
  // stdlib's dftmatrix(n, w)): calls with another number of arguments go to that function.
  bool extends_function = false;
  bool accepts(size_t count) const {
    const int n = static_cast<int>(count);
    return n >= min_args && (max_args < 0 || n <= max_args);
  }
  std::string arity_text() const;
};

class Registry {
 public:
  void reg(std::string name, int arity, BuiltinFunction fn, std::string help);
  void reg(std::string name, int min_args, int max_args, BuiltinFunction fn, std::string help);
  void reg_lazy(std::string name, int min_args, int max_args, BuiltinFunction fn, std::string help);
  void reg_extension(std::string name, int min_args, int max_args, BuiltinFunction fn, std::string help);
  const Builtin* find(const std::string& name) const;
  std::vector<std::string> names() const;

 private:
  std::map<std::string, Builtin> table_;
};

// The table, filled once by the register_* functions of each area.
const Registry& builtins();

void register_integer_builtins(Registry& r);
void register_modular_builtins(Registry& r);
void register_poly_builtins(Registry& r);
void register_vector_builtins(Registry& r);
void register_fourier_builtins(Registry& r);
void register_system_builtins(Registry& r);
void register_gpu_builtins(Registry& r);
void register_teaching_builtins(Registry& r);
void register_multimodular_builtins(Registry& r);

}  // namespace cas
