#include "report.hpp"

#include "algebra/dispatch/dispatch.hpp"

#include <unistd.h>

#include <cstdlib>
#include <ostream>
#include <vector>

namespace cas {

bool color_wanted(int fd) {
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  const char* term = std::getenv("TERM");
  if (term && std::string(term) == "dumb") return false;
  return isatty(fd) != 0;
}

namespace {
const char* red(bool color) { return color ? "\033[1;31m" : ""; }
const char* bold(bool color) { return color ? "\033[1m" : ""; }
const char* green(bool color) { return color ? "\033[1;32m" : ""; }
const char* reset(bool color) { return color ? "\033[0m" : ""; }
}  // namespace

void report_error(std::ostream& err, const Error& e, bool show_source, bool color) {
  err << bold(color) << e.where().to_string() << ": " << reset(color) << red(color) << "error: " << reset(color)
      << e.message() << "\n";
  if (!show_source || !e.where().source) return;
  std::string line = e.where().line_text();
  if (line.empty()) return;
  LineColumn lc = e.where().line_column();
  err << "  " << line << "\n  ";
  for (uint32_t i = 1; i < lc.column && i <= line.size(); i++) err << (line[i - 1] == '\t' ? '\t' : ' ');
  err << green(color) << "^" << reset(color) << "\n";
}

void report_message(std::ostream& err, const std::string& message, bool color) {
  err << red(color) << "error: " << reset(color) << message << "\n";
}

void report_notices(std::ostream& out, std::ostream& err) {
  std::vector<std::string> notices = take_notices();
  if (notices.empty()) return;
  out.flush();
  for (const auto& notice : notices) err << "notice: " << notice << "\n";
}

}  // namespace cas
