#pragma once
// Resource guards: an operation whose result would not fit in this machine's
// memory is refused before anything is allocated.
#include <string>

namespace cas {

double physical_memory_bytes();
// Whether `bytes` passes guard_allocation (at most half of physical memory).
bool allocation_fits(double bytes);
// Throws DomainError("<what> would need about N GB, more than this machine's M GB").
void guard_allocation(double bytes, const std::string& what);

}  // namespace cas
