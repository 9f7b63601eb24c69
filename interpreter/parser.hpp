#pragma once
// Source text to an (unresolved) tree of nodes, by the PEGTL grammar and
// actions that build the nodes. Throws Error with the position of the first
// place where the input can no longer be valid.
#include "ast.hpp"

namespace cas {

std::vector<Statement> parse_statements(const SourcePtr& source);

}  // namespace cas
