#pragma once
// Errors raised by the algebra layer. They carry no source position: the
// evaluator wraps them with the position of the node being evaluated.
#include <stdexcept>
#include <string>

namespace cas {

struct DomainError : std::runtime_error {
  // Long numbers in the message are abbreviated (abbreviate_numbers in format.hpp), as in Error:
  // 19729 digits of 2^65536 would bury it.
  explicit DomainError(const std::string& message);
};

// Installed once at start: FLINT's aborts (which we try never to reach, by
// checking inputs first) become DomainErrors instead of killing the REPL.
void install_flint_abort_handler();

}  // namespace cas
