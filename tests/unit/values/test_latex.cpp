// The LaTeX forms of values (algebra/values/latex.hpp): exact strings for every kind, the spec's
// examples, matrices, elision, escaping; then random polynomials and vectors against format(),
// whose printed form, rewritten in LaTeX's notation, must be the LaTeX form.
#include "algebra/values/format.hpp"
#include "algebra/values/latex.hpp"
#include "flint_support.hpp"
#include "interpreter_support.hpp"

#include <regex>
#include <string>
#include <vector>

using cas::FormatOptions;
using cas::Kind;
using cas::ModulusPtr;
using cas::Value;
using cas::format_latex;
using cas::test::Random;
using cas::test::Session;

namespace {

std::string latex(const std::string& source, const FormatOptions& options = {}) {
  return format_latex(Session().eval(source), options);
}

FormatOptions eliding(size_t above, size_t keep) {
  FormatOptions options;
  options.elide_above = above;
  options.elide_keep = keep;
  return options;
}

// format()'s text in LaTeX's notation, for polynomials and vectors of numbers (no matrices, strings
// or reals): 3*x^4 -> 3x^{4}, mod -> \bmod, [a, b] -> \left[a,\ b\right], and the elisions.
std::string text_as_latex(std::string text) {
  text = std::regex_replace(text, std::regex(R"(\+ \.\.\. (\d+) more terms \.\.\.)"),
                            R"(+ \cdots\ \text{$1 more terms}\ \cdots)");
  text = std::regex_replace(text, std::regex(R"(\.\.\. (\d+) more entries \.\.\.)"),
                            R"(\ldots\ \text{$1 more entries}\ \ldots)");
  text = std::regex_replace(text, std::regex(R"(\*x)"), "x");
  text = std::regex_replace(text, std::regex(R"(x\^(\d+))"), "x^{$1}");
  text = std::regex_replace(text, std::regex(" mod "), R"( \bmod )");
  text = std::regex_replace(text, std::regex(R"(\[)"), R"(\left[)");
  text = std::regex_replace(text, std::regex(R"(\])"), R"(\right])");
  text = std::regex_replace(text, std::regex(", "), R"(,\ )");
  return "$" + text + "$";
}

}  // namespace

TEST_CASE("LaTeX forms of the spec's examples", "[latex]") {
  CHECK(latex("3*x^4 - 4*x^2") == "$3x^{4} - 4x^{2}$");
  CHECK(latex("x^2 - 1 mod 17") == R"($(x^{2} + 16) \bmod 17$)");
  CHECK(latex("16 mod 17") == R"($16 \bmod 17$)");
  CHECK(latex("-1 mod 17") == R"($16 \bmod 17$)");
  CHECK(latex("f = 3*x^4 - 4*x^2; f^5 mod 5") == R"($(3x^{20} + x^{10}) \bmod 5$)");
  CHECK(latex("fft([1, 2, 1, 2, 1, 2, 1, 2], 2 mod 17)") ==
        R"($\left[12,\ 0,\ 0,\ 0,\ 13,\ 0,\ 0,\ 0\right] \bmod 17$)");
}

TEST_CASE("LaTeX polynomials: unit coefficients, signs, x to the first power, zero", "[latex]") {
  CHECK(latex("x") == "$x$");
  CHECK(latex("x^2") == "$x^{2}$");
  CHECK(latex("x^12 + 2") == "$x^{12} + 2$");
  CHECK(latex("x^2 - x + 1") == "$x^{2} - x + 1$");
  CHECK(latex("1 - x") == "$-x + 1$");
  CHECK(latex("-2*x^3 - x") == "$-2x^{3} - x$");
  CHECK(latex("-x^5 + 10^30*x") == "$-x^{5} + 1000000000000000000000000000000x$");
  CHECK(latex("x - x") == "$0$");
  CHECK(latex("0*x + 7") == "$7$");
  CHECK(latex("-7 + 0*x") == "$-7$");
  CHECK(latex("x mod 17") == R"($x \bmod 17$)");
  CHECK(latex("3*x^2 mod 17") == R"($3x^{2} \bmod 17$)");
  CHECK(latex("-x mod 17") == R"($16x \bmod 17$)");
  CHECK(latex("-x^2 + x - 1 mod 17") == R"($(16x^{2} + x + 16) \bmod 17$)");
  CHECK(latex("x - x mod 17") == R"($0 \bmod 17$)");
  CHECK(latex("(x + 1 mod 2)^2") == R"($(x^{2} + 1) \bmod 2$)");
  CHECK(latex("x^3 + x + 1 mod 2") == R"($(x^{3} + x + 1) \bmod 2$)");
}

TEST_CASE("LaTeX integers, residues, booleans, reals and nothing", "[latex]") {
  CHECK(latex("0") == "$0$");
  CHECK(latex("-42") == "$-42$");
  CHECK(latex("2^100") == "$1267650600228229401496703205376$");
  CHECK(latex("-(2^70)") == "$-1180591620717411303424$");
  CHECK(latex("0 mod 2") == R"($0 \bmod 2$)");
  CHECK(latex("true") == R"($\mathrm{true}$)");
  CHECK(latex("1 > 2") == R"($\mathrm{false}$)");
  CHECK(latex("1.5") == "$1.5$");
  CHECK(latex("3.0") == "$3.0$");
  CHECK(latex("2e-3") == "$0.002$");
  CHECK(format_latex(Value::real(1e20)) == "$10^{20}$");
  CHECK(format_latex(Value::real(-1e20)) == "$-10^{20}$");
  CHECK(format_latex(Value::real(2.5e-7)) == R"($2.5 \times 10^{-7}$)");
  CHECK(format_latex(Value::real(1.25e300)) == R"($1.25 \times 10^{300}$)");
  CHECK(format_latex(Value()).empty());
}

TEST_CASE("LaTeX moduli of several words", "[latex]") {
  // 2^127 - 1 is prime.
  const std::string p = "170141183460469231731687303715884105727";
  CHECK(latex("-1 mod (2^127 - 1)") == "$170141183460469231731687303715884105726 \\bmod " + p + "$");
  CHECK(latex("x^2 - 1 mod (2^127 - 1)") == "$(x^{2} + 170141183460469231731687303715884105726) \\bmod " + p + "$");
  CHECK(latex("[1, -1] mod (2^127 - 1)") ==
        "$\\left[1,\\ 170141183460469231731687303715884105726\\right] \\bmod " + p + "$");
  CHECK(latex("[[1, 2], [3, 4]] mod (2^127 - 1)") == "$\\begin{pmatrix}1 & 2 \\\\ 3 & 4\\end{pmatrix} \\bmod " + p + "$");
}

TEST_CASE("LaTeX strings: text runs, LaTeX's special characters in math mode between them", "[latex]") {
  CHECK(format_latex(Value::str("hello")) == R"($\text{hello}$)");
  CHECK(format_latex(Value::str("")) == R"($\text{}$)");
  CHECK(format_latex(Value::str("say \"hi\" <b>")) == R"($\text{say "hi" <b>}$)");
  CHECK(format_latex(Value::str("a_b")) == R"($\text{a}\_\text{b}$)");
  CHECK(format_latex(Value::str(R"(\{}$&#^_%~)")) == R"($\backslash\{\}\$\&\#\hat{}\_\%\sim$)");
  CHECK(format_latex(Value::str("50% & more")) == R"($\text{50}\%\text{ }\&\text{ more}$)");
  CHECK(format_latex(Value::str(R"(C:\dir)")) == R"($\text{C:}\backslash\text{dir}$)");
  // A blank line would end LaTeX's paragraph inside \text{}: control characters are spaces.
  CHECK(format_latex(Value::str("one\n\ntwo\tthree")) == R"($\text{one  two three}$)");
  CHECK(format_latex(Value::str("été")) == R"($\text{été}$)");
  CHECK(latex("\"x^2\"") == R"($\text{x}\hat{}\text{2}$)");
}

TEST_CASE("LaTeX vectors: row vectors, \\bmod p once after a vector over Z/pZ", "[latex]") {
  CHECK(latex("[]") == R"($\left[\right]$)");
  CHECK(latex("[1, 2, 3]") == R"($\left[1,\ 2,\ 3\right]$)");
  CHECK(latex("[1, 2, 3] mod 17") == R"($\left[1,\ 2,\ 3\right] \bmod 17$)");
  CHECK(latex("[1, -2, [3, []]]") == R"($\left[1,\ -2,\ \left[3,\ \left[\right]\right]\right]$)");
  CHECK(latex("[x + 1, 2] mod 3") == R"($\left[x + 1,\ 2\right] \bmod 3$)");
  CHECK(latex("[x^2 - 1, -x] mod 5") == R"($\left[x^{2} + 4,\ 4x\right] \bmod 5$)");
  CHECK(latex("[1 mod 3, 1 mod 5]") == R"($\left[1 \bmod 3,\ 1 \bmod 5\right]$)");
  CHECK(latex("[1 mod 3, 2]") == R"($\left[1 \bmod 3,\ 2\right]$)");
  CHECK(latex("[[1, 2] mod 3, [1] mod 5]") == R"($\left[\left[1,\ 2\right] \bmod 3,\ \left[1\right] \bmod 5\right]$)");
  CHECK(latex("[true, \"a&b\", 1.5, 3*x^2]") ==
        R"($\left[\mathrm{true},\ \text{a}\&\text{b},\ 1.5,\ 3x^{2}\right]$)");
  // Held packed as words (as fft returns them), written from the words.
  Session s;
  const Value packed = s.eval("fft([1, 2, 3, 4], 4 mod 17)");
  REQUIRE(packed.packed_residues() != nullptr);
  CHECK(format_latex(packed) == R"($\left[10,\ 7,\ 15,\ 6\right] \bmod 17$)");
  CHECK(format_latex(Value::vec({packed, s.eval("1 mod 5")})) ==
        R"($\left[\left[10,\ 7,\ 15,\ 6\right] \bmod 17,\ 1 \bmod 5\right]$)");
}

TEST_CASE("LaTeX matrices: pmatrix for two or more rows of one length, \\bmod p after", "[latex]") {
  CHECK(latex("[[1, 2], [3, 4]]") == R"($\begin{pmatrix}1 & 2 \\ 3 & 4\end{pmatrix}$)");
  CHECK(latex("[[1, 2], [3, 4]] mod 17") == R"($\begin{pmatrix}1 & 2 \\ 3 & 4\end{pmatrix} \bmod 17$)");
  CHECK(latex("[[1, -20], [300, 4]]") == R"($\begin{pmatrix}1 & -20 \\ 300 & 4\end{pmatrix}$)");
  CHECK(latex("dftmatrix(4, 4 mod 17)") ==
        R"($\begin{pmatrix}1 & 1 & 1 & 1 \\ 1 & 4 & 16 & 13 \\ 1 & 16 & 1 & 16 \\ 1 & 13 & 16 & 4\end{pmatrix} \bmod 17$)");
  // Entries of different Z/pZ each keep their modulus.
  CHECK(latex("[[1 mod 3, 2], [3, 4]]") == R"($\begin{pmatrix}1 \bmod 3 & 2 \\ 3 & 4\end{pmatrix}$)");
  // Matrices inside a vector over Z/pZ are lifted like any entry.
  CHECK(latex("[[[1, 2], [3, 4]], [[5, 6], [7, 8]]] mod 7") ==
        R"($\left[\begin{pmatrix}1 & 2 \\ 3 & 4\end{pmatrix},\ \begin{pmatrix}5 & 6 \\ 0 & 1\end{pmatrix}\right] \bmod 7$)");
  // Not matrices: one row, rows of other lengths, entries that are not numbers, empty rows.
  CHECK(latex("[[1, 2, 3]]") == R"($\left[\left[1,\ 2,\ 3\right]\right]$)");
  CHECK(latex("[[1, 2], [3]]") == R"($\left[\left[1,\ 2\right],\ \left[3\right]\right]$)");
  CHECK(latex("[[x, 2], [3, 4]]") == R"($\left[\left[x,\ 2\right],\ \left[3,\ 4\right]\right]$)");
  CHECK(latex("[[], []]") == R"($\left[\left[\right],\ \left[\right]\right]$)");
  // The grid option of the REPL changes nothing here.
  FormatOptions grid;
  grid.grid = true;
  CHECK(latex("[[1, 2], [3, 4]]", grid) == R"($\begin{pmatrix}1 & 2 \\ 3 & 4\end{pmatrix}$)");
  // amsmath's pmatrix takes at most 10 columns; wider matrices are arrays in parentheses.
  CHECK(latex("[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]").rfind(R"($\begin{pmatrix}1 & 2)", 0) ==
        0);
  CHECK(latex("[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]") ==
        R"($\left(\begin{array}{ccccccccccc}1 & 2 & 3 & 4 & 5 & 6 & 7 & 8 & 9 & 10 & 11 \\ )"
        R"(0 & 0 & 0 & 0 & 0 & 0 & 0 & 0 & 0 & 0 & 0\end{array}\right)$)");
}

TEST_CASE("LaTeX elides as format() does: \\cdots between terms, \\ldots between entries", "[latex]") {
  const FormatOptions options = eliding(4, 2);
  CHECK(latex("x^6 + x^5 + x^4 + x^3 + x^2 + x + 1", options) ==
        R"($x^{6} + x^{5} + \cdots\ \text{3 more terms}\ \cdots + x + 1$)");
  CHECK(latex("-x^6 + x^5 + x^4 + x^3 + x^2 - 2*x - 1", options) ==
        R"($-x^{6} + x^{5} + \cdots\ \text{3 more terms}\ \cdots - 2x - 1$)");
  CHECK(latex("x^6 + x^5 + x^4 + x^3 + x^2 + x + 1 mod 17", options) ==
        R"($(x^{6} + x^{5} + \cdots\ \text{3 more terms}\ \cdots + x + 1) \bmod 17$)");
  CHECK(latex("x^3 + x^2 + x + 1", options) == "$x^{3} + x^{2} + x + 1$");  // 4 terms: not above 4
  CHECK(latex("[1, 2, 3, 4, 5, 6, 7]", options) ==
        R"($\left[1,\ 2,\ \ldots\ \text{3 more entries}\ \ldots,\ 6,\ 7\right]$)");
  CHECK(latex("[1, 2, 3, 4, 5, 6, 7] mod 17", options) ==
        R"($\left[1,\ 2,\ \ldots\ \text{3 more entries}\ \ldots,\ 6,\ 7\right] \bmod 17$)");
  CHECK(latex("fft([1, 2, 1, 2, 1, 2, 1, 2], 2 mod 17)", options) ==
        R"($\left[12,\ 0,\ \ldots\ \text{4 more entries}\ \ldots,\ 0,\ 0\right] \bmod 17$)");
  CHECK(latex("[1, 2, 3, 4]", options) == R"($\left[1,\ 2,\ 3,\ 4\right]$)");
  // No elision without a limit, and none when keeping both ends would show everything.
  CHECK(latex("[1, 2, 3, 4, 5, 6, 7]") == R"($\left[1,\ 2,\ 3,\ 4,\ 5,\ 6,\ 7\right]$)");
  CHECK(latex("[1, 2, 3, 4, 5, 6, 7]", eliding(4, 5)) == R"($\left[1,\ 2,\ 3,\ 4,\ 5,\ 6,\ 7\right]$)");
  CHECK(latex("[1, 2, 3]", eliding(2, 0)) == R"($\left[\ldots\ \text{3 more entries}\ \ldots\right]$)");
}

TEST_CASE("LaTeX elides a long matrix's rows and columns with \\vdots, \\cdots and \\ddots", "[latex]") {
  const std::string six_by_six =
      "[[0, 1, 2, 3, 4, 5], [10, 11, 12, 13, 14, 15], [20, 21, 22, 23, 24, 25], [30, 31, 32, 33, 34, 35], "
      "[40, 41, 42, 43, 44, 45], [50, 51, 52, 53, 54, 55]]";
  CHECK(latex(six_by_six, eliding(4, 2)) ==
        R"($\begin{pmatrix}0 & 1 & \cdots & 4 & 5 \\ 10 & 11 & \cdots & 14 & 15 \\ )"
        R"(\vdots & \vdots & \ddots & \vdots & \vdots \\ )"
        R"(40 & 41 & \cdots & 44 & 45 \\ 50 & 51 & \cdots & 54 & 55\end{pmatrix}$)");
  // Only the rows are many.
  CHECK(latex("[[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]] mod 11", eliding(4, 1)) ==
        R"($\begin{pmatrix}1 & 2 \\ \vdots & \vdots \\ 9 & 10\end{pmatrix} \bmod 11$)");
  // Only the columns.
  CHECK(latex("[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]", eliding(4, 1)) ==
        R"($\begin{pmatrix}1 & \cdots & 5 \\ 6 & \cdots & 10\end{pmatrix}$)");
}

TEST_CASE("LaTeX of every kind is math in $...$, and nothing has none", "[latex]") {
  Session s;
  for (const char* source : {"true", "7", "1.5", "3 mod 5", "x + 1", "x + 1 mod 5", "[1, 2]", "\"s\""}) {
    const Value v = s.eval(source);
    const std::string form = format_latex(v);
    INFO(source << " -> " << form);
    REQUIRE(form.size() >= 3);
    CHECK(form.front() == '$');
    CHECK(form.back() == '$');
    CHECK(form.find('$', 1) == form.size() - 1);
  }
  CHECK(s.eval("print()").is_none());
  CHECK(format_latex(s.eval("print()")) == "");
}

TEST_CASE("deeply nested vectors over Z/pZ: \\bmod p once, brackets balanced", "[latex]") {
  Value v = Value::mod(cas::Fmpz(slong{3}).get(), cas::make_modulus(17));
  const int depth = 2000;
  for (int i = 0; i < depth; i++) v = Value::vec({std::move(v)});
  const std::string form = format_latex(v);
  size_t opened = 0, closed = 0;
  for (size_t at = form.find("\\left["); at != std::string::npos; at = form.find("\\left[", at + 1)) opened++;
  for (size_t at = form.find("\\right]"); at != std::string::npos; at = form.find("\\right]", at + 1)) closed++;
  CHECK(opened == depth);
  CHECK(closed == depth);
  CHECK(form.find("\\bmod") == form.rfind("\\bmod"));
  CHECK(form.find("\\right] \\bmod 17$") == form.size() - std::string("\\right] \\bmod 17$").size());
}

TEST_CASE("random polynomials and vectors: the LaTeX form is format()'s in LaTeX's notation", "[latex]") {
  Random r;
  for (int trial = 0; trial < cas::test::trials(40); trial++) {
    const slong length = static_cast<slong>(n_randint(r.state, 30));
    const FormatOptions options = trial % 2 ? eliding(1 + n_randint(r.state, 12), n_randint(r.state, 5)) : FormatOptions{};
    const ModulusPtr m = cas::test::test_modulus(r.state, static_cast<int>(trial % cas::test::test_modulus_kinds));
    const Value zpoly = Value::zpoly(cas::test::random_zpoly_of_length(r.state, length, 1 + n_randint(r.state, 100)));
    const Value modpoly = Value::modpoly(cas::test::random_modpoly(r.state, m, length));
    const Value residues = cas::test::to_value(cas::test::random_residues(r, m, static_cast<size_t>(length)), m);
    std::vector<Value> integers;
    for (slong i = 0; i < length; i++) integers.push_back(Value::integer(static_cast<slong>(n_randint(r.state, 2001)) - 1000));
    for (const Value& v : {zpoly, modpoly, residues, Value::vec(integers)}) {
      INFO("format: " << cas::format(v, options) << ", elide_above " << options.elide_above << ", keep "
                      << options.elide_keep);
      CHECK(format_latex(v, options) == text_as_latex(cas::format(v, options)));
    }
  }
}
