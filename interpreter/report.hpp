#pragma once
// Where errors and notices reach the user: one place, so that the REPL and
// the script runner print them alike. Colour only on a terminal and never
// when NO_COLOR is set.
#include "error.hpp"

#include <iosfwd>
#include <string>

namespace cas {

bool color_wanted(int fd);

// "file:line:col: error: message", then (show_source) the line and a caret.
void report_error(std::ostream& err, const Error& e, bool show_source, bool color);
void report_message(std::ostream& err, const std::string& message, bool color);

}  // namespace cas
