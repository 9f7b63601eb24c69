#include "cell_parts.hpp"

#include "interpreter/commands.hpp"

namespace cas::jupyter {

namespace {

bool is_command_line(const std::string& line) {
  const size_t first = line.find_first_not_of(" \t");
  return first != std::string::npos && line[first] == ':';
}

bool is_blank(const std::string& text) { return text.find_first_not_of(" \t\r\n") == std::string::npos; }

}  // namespace

std::vector<CellPart> split_cell(const std::string& cell) {
  std::vector<CellPart> parts;
  std::string code;
  uint32_t code_line = 1, line_number = 0;
  auto flush_code = [&] {
    if (!is_blank(code)) parts.push_back(CellPart{CellPart::Kind::code, code, code_line});
    code.clear();
  };
  size_t start = 0;
  while (start <= cell.size()) {
    size_t end = cell.find('\n', start);
    if (end == std::string::npos) end = cell.size();
    const std::string line = cell.substr(start, end - start);
    line_number++;
    if (is_command_line(line) && (is_blank(code) || !needs_more_input(code))) {
      flush_code();
      parts.push_back(CellPart{CellPart::Kind::command, line, line_number});
    } else {
      if (is_blank(code)) {
        code.clear();
        code_line = line_number;
      }
      code += expand_help_shorthand(line) + "\n";
    }
    start = end + 1;
  }
  flush_code();
  return parts;
}

}  // namespace cas::jupyter
