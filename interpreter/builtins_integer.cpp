#include "builtin_args.hpp"

namespace cas {

void register_integer_builtins(Registry&) {}

}  // namespace cas
