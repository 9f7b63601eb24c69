#pragma once
// Polynomial products and powers: the one place that decides which engine
// runs a multiplication (FLINT now; the GPU engine joins here), so that the
// interpreter never knows.
#include "modpoly.hpp"
#include "zpoly.hpp"

namespace cas {

ModPoly multiply(const ModPoly& a, const ModPoly& b);
ZPoly multiply(const ZPoly& a, const ZPoly& b);
ModPoly power(const ModPoly& a, ulong e);
ZPoly power(const ZPoly& a, ulong e);

}  // namespace cas
