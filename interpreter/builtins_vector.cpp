#include "builtin_args.hpp"

namespace cas {

void register_vector_builtins(Registry&) {}

}  // namespace cas
