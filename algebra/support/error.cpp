#include "algebra/support/error.hpp"

#include "algebra/values/format.hpp"

#include <flint/flint.h>

namespace cas {

DomainError::DomainError(const std::string& message) : std::runtime_error(abbreviate_numbers(message)) {}

namespace {
[[noreturn]] void throw_flint_abort() {
  // FLINT reports through flint_abort after printing its own message; we
  // check inputs before calling FLINT, so reaching this is a bug in cas.
  throw DomainError("internal error: FLINT refused the operation (please report this input)");
}
}  // namespace

void install_flint_abort_handler() { flint_set_abort(throw_flint_abort); }

}  // namespace cas
