#pragma once
// A statement's value as a notebook shows it: "text/plain" exactly as the REPL prints it, and
// "text/latex" for MathJax. A value long enough for the REPL to elide gets, instead of LaTeX,
// "text/html" with the elided form and the whole value one click away (an HTML <details>).
#include "interpreter/display.hpp"
#include "algebra/values/value.hpp"

namespace cas::jupyter {

// The whole value goes into the page only up to this many characters (a 2^20-term polynomial
// would be megabytes of HTML); past it, the page says that print() shows it.
constexpr size_t max_unfolded_characters = 1 << 20;
// Nor is it printed at all when it has more terms, entries or 64-bit words of digits than this:
// printing a 2^22-term polynomial whole, only to find it too long for the page, would cost each
// shown value more than the product that made it.
constexpr size_t max_unfolded_parts = 1 << 15;

MimeBundle value_bundle(const Value& v);

}  // namespace cas::jupyter
