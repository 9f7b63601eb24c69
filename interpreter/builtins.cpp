#include "builtins.hpp"

#include <stdexcept>

namespace cas {

std::string Builtin::arity_text() const {
  auto count = [](int n) { return std::to_string(n) + (n == 1 ? " argument" : " arguments"); };
  if (max_args < 0) return "at least " + count(min_args);
  if (min_args == max_args) return count(min_args);
  return std::to_string(min_args) + " to " + count(max_args);
}

void Registry::reg(std::string name, int arity, BuiltinFunction fn, std::string help) {
  reg(std::move(name), arity, arity, fn, std::move(help));
}

void Registry::reg(std::string name, int min_args, int max_args, BuiltinFunction fn, std::string help) {
  if (table_.count(name)) throw std::logic_error("builtin registered twice: " + name);
  Builtin b{name, min_args, max_args, fn, std::move(help), false};
  table_.emplace(std::move(name), std::move(b));
}

void Registry::reg_lazy(std::string name, int min_args, int max_args, BuiltinFunction fn, std::string help) {
  reg(name, min_args, max_args, fn, std::move(help));
  table_[name].lazy = true;
}

void Registry::reg_extension(std::string name, int min_args, int max_args, BuiltinFunction fn, std::string help) {
  reg(name, min_args, max_args, fn, std::move(help));
  table_[name].extends_function = true;
}

const Builtin* Registry::find(const std::string& name) const {
  auto it = table_.find(name);
  return it == table_.end() ? nullptr : &it->second;
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> out;
  for (const auto& [name, b] : table_) out.push_back(name);
  return out;
}

const Registry& builtins() {
  static const Registry table = [] {
    Registry r;
    register_integer_builtins(r);
    register_modular_builtins(r);
    register_poly_builtins(r);
    register_vector_builtins(r);
    register_fourier_builtins(r);
    register_system_builtins(r);
    register_gpu_builtins(r);
    register_teaching_builtins(r);
    register_multimodular_builtins(r);
    return r;
  }();
  return table;
}

}  // namespace cas
