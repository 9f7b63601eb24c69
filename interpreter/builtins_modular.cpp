#include "builtin_args.hpp"

namespace cas {

void register_modular_builtins(Registry&) {}

}  // namespace cas
