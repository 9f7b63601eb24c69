#include "stdlib.hpp"

#include <algorithm>
#include <sstream>

namespace cas {

const std::vector<std::pair<std::string, std::string>>& stdlib_sources() {
  static const std::vector<std::pair<std::string, std::string>> sources = {
#include "stdlib_embedded.inc"
  };
  return sources;
}

std::vector<std::string> stdlib_function_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [file, text] : stdlib_sources()) {
      std::istringstream lines(text);
      std::string line;
      while (std::getline(lines, line)) {
        if (line.rfind("fn ", 0) != 0) continue;
        size_t open = line.find('(');
        if (open != std::string::npos) out.push_back(line.substr(3, open - 3));
      }
    }
    return out;
  }();
  return names;
}

bool stdlib_defines(const std::string& name) {
  const auto& names = stdlib_function_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace cas
