#include "error.hpp"

#include "algebra/values/format.hpp"

namespace cas {

LineColumn Position::line_column() const {
  LineColumn lc{source ? source->first_line : 1, 1};
  if (!source) return lc;
  const std::string& text = source->text;
  for (uint32_t i = 0; i < offset && i < text.size(); i++) {
    if (text[i] == '\n') {
      lc.line++;
      lc.column = 1;
    } else {
      lc.column++;
    }
  }
  return lc;
}

std::string Position::line_text() const {
  if (!source) return "";
  const std::string& text = source->text;
  size_t at = std::min<size_t>(offset, text.size());
  const size_t newline_before = at == 0 ? std::string::npos : text.rfind('\n', at - 1);
  const size_t begin = newline_before == std::string::npos ? 0 : newline_before + 1;
  size_t end = text.find('\n', begin);
  return text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

std::string Position::to_string() const {
  LineColumn lc = line_column();
  return (source ? source->name : std::string("<input>")) + ":" + std::to_string(lc.line) + ":" +
         std::to_string(lc.column);
}

Error::Error(Position where, const std::string& message)
    : std::runtime_error(abbreviate_numbers(message)), where_(where), message_(what()) {}

std::string Error::located() const { return where_.to_string() + ": " + message_; }

}  // namespace cas
