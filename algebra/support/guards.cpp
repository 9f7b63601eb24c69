#include "algebra/support/guards.hpp"

#include "algebra/support/error.hpp"

#include <unistd.h>

#include <cstdio>

namespace cas {

double physical_memory_bytes() {
  static const double bytes = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
  return bytes;
}

namespace {
std::string gigabytes(double bytes) {
  char buf[64];
  if (bytes >= 1e15)
    std::snprintf(buf, sizeof buf, "%.3g GB", bytes / 1e9);
  else
    std::snprintf(buf, sizeof buf, "%.1f GB", bytes / 1e9);
  return buf;
}
}  // namespace

// Half of physical memory: the operands and FLINT's scratch space need room too.
bool allocation_fits(double bytes) { return bytes <= physical_memory_bytes() / 2; }

void guard_allocation(double bytes, const std::string& what) {
  if (!allocation_fits(bytes))
    throw DomainError(what + " would need about " + gigabytes(bytes) + ", more than this machine can hold (" +
                      gigabytes(physical_memory_bytes()) + " of memory)");
}

}  // namespace cas
