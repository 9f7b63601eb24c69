#include "builtin_args.hpp"

namespace cas {

void register_poly_builtins(Registry&) {}

}  // namespace cas
