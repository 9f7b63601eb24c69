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
// What the engines had to say (a GPU out of memory, `gpu("on")` without a GPU): "notice: ..."
// lines on err, after `out` is flushed so that they follow the output of the statement that
// caused them. Takes the notices: each is reported once.
void report_notices(std::ostream& out, std::ostream& err);

}  // namespace cas
