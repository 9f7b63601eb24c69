#include "engine.hpp"

#include <cmath>

namespace cas {

namespace {
struct Record {
  const char* what = nullptr;
  double size = 0;
};
Record record;
}  // namespace

void engine_reset() { record = Record{}; }

void engine_note(const char* what, double size) {
  if (size >= record.size) record = Record{what, size};
}

std::string engine_last() {
  if (!record.what) return "";
  int k = record.size < 2 ? 0 : static_cast<int>(std::ceil(std::log2(record.size)));
  return std::string(record.what) + " 2^" + std::to_string(k);
}

}  // namespace cas
