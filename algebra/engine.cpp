#include "engine.hpp"

namespace cas {

namespace {
struct Record {
  std::string label;
  double work = 0;
};
Record& record() {
  static Record r;
  return r;
}
}  // namespace

void engine_reset() { record() = Record{}; }

void engine_note(std::string label, double work) {
  if (work >= record().work) record() = Record{std::move(label), work};
}

const std::string& engine_last() { return record().label; }

}  // namespace cas
