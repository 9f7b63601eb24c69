#pragma once
// Values as LaTeX math for MathJax, the "text/latex" form a Jupyter kernel sends beside format()'s
// "text/plain": the same terms, entries, moduli and elisions as format() (format.hpp), in
// mathematical notation, wrapped in $...$.
//   3*x^4 - 4*x^2             $3x^{4} - 4x^{2}$
//   (x^2 + 16) mod 17         $(x^{2} + 16) \bmod 17$
//   [1, 2, 3] mod 17          $\left[1,\ 2,\ 3\right] \bmod 17$
//   [[1, 2], [3, 4]] mod 17   $\begin{pmatrix}1 & 2 \\ 3 & 4\end{pmatrix} \bmod 17$
#include "algebra/values/format.hpp"

#include <string>

namespace cas {

// v as inline math, "$...$", for every value, matrices included (pmatrix sets well inline, and one
// delimiter for all values keeps a notebook's outputs alike).
//   - Integers are written whole, as format() writes them (MathJax 2 knows no \allowbreak).
//   - A matrix (format.hpp's is_matrix) is always a matrix, whatever options.grid says; a long one
//     keeps its first and last rows and columns, with \vdots, \cdots and \ddots between.
//   - Strings are \text{...}; LaTeX's special characters are written in math mode between the
//     \text runs (\&, \_, \backslash, ...), as MathJax without its textmacros extension would show
//     a text-mode \& as it stands.
//   - Nothing (Kind::None) has no math form: the result is empty, and the kernel then sends only
//     the text/plain form.
std::string format_latex(const Value& v, const FormatOptions& options = {});

}  // namespace cas
