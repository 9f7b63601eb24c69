// The grammar of the language and its contract: every construct parses and
// evaluates, every error has a clear message at the right line:column, and
// incomplete input is told apart from wrong input.
#include "interpreter/grammar.hpp"
#include "interpreter_support.hpp"

#include <tao/pegtl/contrib/analyze.hpp>

using cas::test::Session;
using cas::test::show;

TEST_CASE("the grammar has no rule that can loop without consuming input", "[grammar]") {
  CHECK(tao::pegtl::analyze<cas::grammar::program>() == 0);
}

namespace {

struct Example {
  const char* source;
  const char* printed;
};

void check_examples(std::initializer_list<Example> examples) {
  for (const Example& e : examples) {
    INFO("source: " << e.source);
    CHECK(show(e.source) == e.printed);
  }
}

}  // namespace

TEST_CASE("comments and statement separators", "[grammar]") {
  check_examples({
      {"1 + 1  # a comment", "2"},
      {"# only a comment\n3", "3"},
      {"a = 1; b = 2; a + b", "3"},
      {"a = 1\nb = 2\na + b", "3"},
      {"a = 1;;; b = 2;\n\n\n a * 10 + b;", "12"},
      {"\n\n  # leading blank lines\n  7  \n\n", "7"},
      {"a = 1 \\\n + 2\na", "3"},  // a backslash continues the line
  });
}

TEST_CASE("arithmetic precedence and associativity", "[grammar]") {
  check_examples({
      {"1 + 2 * 3", "7"},
      {"(1 + 2) * 3", "9"},
      {"10 - 2 - 3", "5"},
      {"100 / 10 / 5", "2"},
      {"2^3^2", "512"},         // ^ is right-associative
      {"(2^3)^2", "64"},
      {"-2^2", "-4"},           // unary minus binds below ^
      {"(-2)^2", "4"},
      {"-x^2", "-x^2"},
      {"- - 3", "3"},
      {"2 * -3", "-6"},
      {"2 * 3 // 4", "1"},      // * and // share a level, left to right
      {"2 * (3 // 4)", "0"},
      {"17 % 5 * 2", "4"},
      {"7 // 2", "3"},
      {"-7 // 2", "-4"},
      {"-7 % 2", "1"},
      {"7 % -2", "-1"},
      {"[1, 2, 3] .* [4, 5, 6]", "[4, 10, 18]"},
      {"2 * [1, 2] .* [3, 4]", "[6, 16]"},
  });
}

TEST_CASE("an integer to a negative power is an error, an element of Z/pZ is inverted", "[grammar]") {
  Session s;
  auto e = s.error("2^-1");
  REQUIRE(e);
  CHECK_THAT(e->message(), Catch::Contains("negative power"));
  CHECK(s.show("(2 mod 7)^-1") == "4 mod 7");
}

TEST_CASE("mod has the lowest arithmetic precedence, above comparisons", "[grammar]") {
  check_examples({
      {"3 + 4 mod 5", "2 mod 5"},        // (3 + 4) mod 5
      {"2 * 3 mod 5", "1 mod 5"},
      {"7 mod 2 + 3", "2 mod 5"},        // 7 mod (2 + 3)
      {"-1 mod 5", "4 mod 5"},
      {"x + 6 mod 5", "(x + 1) mod 5"},
      {"1 + 1 mod 5 == 2", "true"},      // ((1 + 1) mod 5) == 2
      {"2 mod 5 == 7 mod 5", "true"},
      {"[1, 2, 3] * 6 mod 7", "[6, 5, 4] mod 7"},
  });
}

TEST_CASE("comparisons and the logical operators", "[grammar]") {
  check_examples({
      {"1 < 2", "true"},
      {"2 <= 2", "true"},
      {"3 > 4", "false"},
      {"3 >= 4", "false"},
      {"1 + 1 == 2", "true"},
      {"1 != 1", "false"},
      {"1 < 2 and 2 < 3", "true"},
      {"true or false and false", "true"},  // and binds tighter than or
      {"(true or false) and false", "false"},
      {"not 1 == 2", "true"},               // not binds below comparisons
      {"not true or true", "true"},         // (not true) or true
      {"not (true or true)", "false"},
      {"not not true", "true"},
      {"false and undefined_name", "false"},  // and/or short-circuit
      {"true or undefined_name", "true"},
      {"android = 1; orange = 2; notable = 3; android + orange + notable", "6"},  // keywords end at a word boundary
      {"model = 4; model mod 3", "1 mod 3"},
  });
}

TEST_CASE("vectors, indexing and element assignment", "[grammar]") {
  check_examples({
      {"[]", "[]"},
      {"[1, 2, 3]", "[1, 2, 3]"},
      {"[1, 2, 3][1]", "2"},
      {"v = [[1, 2], [3, 4]]; v[1][0]", "3"},
      {"v = [1, 2, 3]; v[1] = 9; v", "[1, 9, 3]"},
      {"v = [1, 2, 3]; v[0 + 2] = v[0] + 10; v", "[1, 2, 11]"},
      {"m = [[1, 2], [3, 4]]; m[1][0] = 7; m", "[[1, 2], [7, 4]]"},
      {"m = [[1, 2], [3, 4]]; m [1] [1] = 8; m", "[[1, 2], [3, 8]]"},
      {"v = [1, 2]; v[0] = [5, 6]; v[0][1] = 0; v", "[[5, 0], 2]"},
      {"v = [1, 2] + [10, 20]; v", "[11, 22]"},
      {"[1, 2] - [1, 1]", "[0, 1]"},
      {"-[1, -2]", "[-1, 2]"},
  });
}

TEST_CASE("calls of builtins and of user functions", "[grammar]") {
  check_examples({
      {"typeof(1)", "\"int\""},
      {"fn f(a, b) { a * b }; f(3, 4)", "12"},
      {"fn f() { 5 }; f()", "5"},
      {"fn f(a) { a }; f (2)", "2"},
      {"fn f(a, b) { a - b }; f(f(10, 3), f(2, 1))", "6"},
      {"fn add3(a, b, c) { return a + b + c }\nadd3(1, 2, 3)", "6"},
  });
}

TEST_CASE("if, else and else if", "[grammar]") {
  check_examples({
      {"if 1 < 2 { 10 } else { 20 }", "10"},
      {"if 1 > 2 { 10 } else { 20 }", "20"},
      {"fn sign(n) { if n < 0 { -1 } else if n == 0 { 0 } else { 1 } }\n[sign(-5), sign(0), sign(5)]",
       "[-1, 0, 1]"},
      {"y = 0\nif true {\n  y = 1\n}\nelse {\n  y = 2\n}\ny", "1"},  // else may start a new line
      {"y = 3; if false { y = 4 }; y", "3"},
  });
}

TEST_CASE("for over inclusive ranges and over vectors, while, break and continue", "[grammar]") {
  check_examples({
      {"s = 0; for i in 1..10 { s = s + i }; s", "55"},
      {"s = 0; for i in 3..3 { s = s + i }; s", "3"},
      {"s = 0; for i in 3..1 { s = s + 1 }; s", "0"},
      {"s = 0; for i in -2..2 { s = s + i^2 }; s", "10"},
      {"n = 3; s = 0; for i in n - 1 .. n + 1 { s = s + i }; s", "9"},
      {"s = 0; for e in [1, 2, 3] { s = s * 10 + e }; s", "123"},
      {"s = 0; for e in [] { s = 1 }; s", "0"},
      {"n = 0; while n < 5 { n = n + 1 }; n", "5"},
      {"s = 0; for i in 1..10 { if i == 5 { break }; s = s + i }; s", "10"},
      {"s = 0; for i in 1..10 { if i % 2 == 0 { continue }; s = s + i }; s", "25"},
      {"n = 0; while true { n = n + 1; if n >= 7 { break } }; n", "7"},
      {"c = 0; for i in 1..3 { for j in 1..3 { if j == 2 { break }; c = c + 1 } }; c", "3"},  // break leaves the inner loop
      {"s = 0\nfor i in 1..3 {\n  s = s + i\n}\ns", "6"},
  });
}

TEST_CASE("functions: recursion, locals, globals, return", "[grammar]") {
  check_examples({
      {"fn fact(n) { if n <= 1 { return 1 }; n * fact(n - 1) }; fact(25)", "15511210043330985984000000"},
      {"fn fib(n) { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }; fib(20)", "6765"},
      // Variables assigned in a body are local to the call; globals stay unchanged.
      {"y = 1; fn f() { y = 5; y }; [f(), y]", "[5, 1]"},
      {"i = 100; fn f() { s = 0; for i in 1..3 { s = s + i }; s }; [f(), i]", "[6, 100]"},
      // Globals are readable, and other functions callable, from a body.
      {"g = 10; fn h(a) { a + g }; h(1)", "11"},
      {"fn even(n) { if n == 0 { true } else { odd(n - 1) } }\nfn odd(n) { if n == 0 { false } else { even(n - 1) } }\neven(10)",
       "true"},
      {"fn f(n) { for i in 1..10 { if i == n { return i * 100 } }; return -1 }; [f(3), f(20)]", "[300, -1]"},
      {"fn f() { return }; typeof(f())", "\"none\""},
      {"fn f(a) { a = a + 1; a }; a = 1; [f(5), a]", "[6, 1]"},
      {"fn f() { 1; 2; 3 }; f()", "3"},
      {"fn f(x) { x^2 }; f(3)", "9"},  // a parameter named x hides the global x
  });
}

TEST_CASE("a variable assigned only inside a while loop in a function is local", "[grammar]") {
  Session s;
  s.eval("m = 99; fn f() { k = 3; while k > 0 { m = k; k = k - 1 }; m }");
  CHECK(s.show("[f(), m]") == "[1, 99]");
}

TEST_CASE("strings", "[grammar]") {
  check_examples({
      {"\"hello\"", "\"hello\""},
      {"\"a \\\"quoted\\\" word\"", "\"a \\\"quoted\\\" word\""},
      {"\"tab\\tnew\\nline\"", "\"tab\\tnew\\nline\""},
      {"\"# not a comment\"", "\"# not a comment\""},
      {"\"ab\" + \"cd\"", "\"abcd\""},
  });
}

TEST_CASE("multi-line expressions: a newline after an operator, a comma or an open bracket", "[grammar]") {
  check_examples({
      {"1 +\n2", "3"},
      {"2 *\n\n  3", "6"},
      {"2 ^\n3", "8"},
      {"true and\nfalse", "false"},
      {"5 mod\n3", "2 mod 3"},
      {"[1,\n 2,\n 3]", "[1, 2, 3]"},
      {"[\n1, 2\n]", "[1, 2]"},
      {"fn f(a,\n b) {\n a + b\n}\nf(\n1,\n2\n)", "3"},
      {"(\n1 + 2\n)", "3"},
      {"v = [[1, 2],\n     [3, 4]]\nv[1][\n1]", "4"},
      {"a =\n 5\na", "5"},
      {"1 ==\n1", "true"},
  });
}

// ---- errors -----------------------------------------------------------------------

namespace {

struct Failure {
  const char* source;
  const char* message;  // a part of the message
  uint32_t line, column;
  bool at_end_of_input;
};

void check_failures(std::initializer_list<Failure> failures) {
  for (const Failure& f : failures) {
    INFO("source: " << f.source);
    Session s;
    auto e = s.error(f.source);
    REQUIRE(e);
    INFO("error: " << e->located());
    CHECK_THAT(e->message(), Catch::Contains(f.message));
    CHECK(e->where().line_column().line == f.line);
    CHECK(e->where().line_column().column == f.column);
    CHECK(e->at_end_of_input == f.at_end_of_input);
  }
}

}  // namespace

TEST_CASE("incomplete input: an error at the end of the input, marked as such", "[grammar][errors]") {
  check_failures({
      {"1 +", "expected an expression after the operator", 1, 4, true},
      {"1 + ", "expected an expression after the operator", 1, 5, true},
      {"2 *\n", "expected an expression after the operator", 2, 1, true},
      {"2 ^", "expected an expression after the operator", 1, 4, true},
      {"-", "expected an expression after the operator", 1, 2, true},
      {"[1, 2", "expected ']'", 1, 6, true},
      {"[1, 2,\n", "expected an expression after ','", 2, 1, true},
      {"[", "expected ']'", 1, 2, true},
      {"(1 + 2", "expected ')'", 1, 7, true},
      {"(", "expected an expression", 1, 2, true},
      {"f(1, 2", "expected ')'", 1, 7, true},
      {"fn f(a, b) {\n  a + b", "expected '}'", 2, 8, true},
      {"if true {", "expected '}'", 1, 10, true},
      {"if true { 1 } else", "expected '{' or 'if' after 'else'", 1, 19, true},
      {"for i in 1..3", "expected '{' to open a block", 1, 14, true},
      {"while true", "expected '{' to open a block", 1, 11, true},
      {"a = ", "expected an expression after '='", 1, 5, true},
      {"a =", "expected an expression after '='", 1, 4, true},
      {"1 mod", "expected a modulus after 'mod'", 1, 6, true},
      {"1 ==", "expected an expression after the comparison", 1, 5, true},
      {"true and", "expected an expression after 'and'", 1, 9, true},
      {"true or  # a comment", "expected an expression after 'or'", 1, 21, true},
      {"not", "expected an expression after 'not'", 1, 4, true},
      {"v[", "expected an expression", 1, 3, true},
      {"fn f(a,", "expected a parameter name", 1, 8, true},
  });
}

TEST_CASE("wrong input: an error at the place it went wrong, not at the end", "[grammar][errors]") {
  check_failures({
      {"\"abc", "unterminated string", 1, 5, false},
      {"\"abc\n\"", "unterminated string", 1, 5, false},
      {"for i 1..3 { }", "expected 'in' after the loop variable", 1, 7, false},
      {"for 1 in [1] { }", "expected a loop variable name after 'for'", 1, 5, false},
      {"for i in { }", "expected a vector or a range a..b after 'in'", 1, 10, false},
      {"for i in 1.. { }", "expected the end of the range after '..'", 1, 14, false},
      {"fn (", "expected a function name after 'fn'", 1, 4, false},
      {"fn f a", "expected '(' after the function name", 1, 6, false},
      {"fn f(a) a", "expected '{' to open a block", 1, 9, false},
      {"fn f(1) { }", "expected ')'", 1, 6, false},
      {"if { }", "expected a condition", 1, 4, false},
      {"if true 1", "expected '{' to open a block", 1, 9, false},
      {"if true { 1 } else 2", "expected '{' or 'if' after 'else'", 1, 20, false},
      {"1 + )", "expected an expression after the operator", 1, 5, false},
      {"1 2", "expected a newline or ';' after the statement", 1, 3, false},
      {"a = 1\nb = 2 3", "expected a newline or ';' after the statement", 2, 7, false},
      {"[1 2]", "expected ']'", 1, 4, false},
      {"(1 2)", "expected ')'", 1, 4, false},
      {"1 +\n\n  * 2", "expected an expression after the operator", 3, 3, false},
      {"}", "expected a statement", 1, 1, false},
      {"a = = 1", "expected an expression after '='", 1, 5, false},
      {"1 < 2 < 3", "expected a newline or ';' after the statement", 1, 7, false},  // comparisons do not chain
  });
}

// 1e400 was inf and 1e-400 was 0.0, neither of which reads back as the number written.
TEST_CASE("a real literal beyond the range of a double is an error where it stands", "[grammar][errors]") {
  check_failures({
      {"1e400", "the real number 1e400 is too large (a real is a double, at most about 1.8e308", 1, 1, false},
      {"x = 2 * 1.5E+309", "the real number 1.5E+309 is too large", 1, 9, false},
      {"[1,\n  -1e-400]", "the real number 1e-400 is too small: it would be 0.0", 2, 4, false},
  });
  CHECK(show("1e308") == "1e+308");
  CHECK(show("2.5e-3") == "0.0025");
  CHECK(show("5e-324") == "5e-324");  // the smallest double, denormal
  CHECK(show("0.0e-999") == "0.0");   // zero as written
  CHECK(show("0e400") == "0.0");
}

TEST_CASE("real arithmetic that leaves the range of a double is an error at its operator", "[grammar][errors]") {
  check_failures({
      {"1e300 * 1e300", "the result of '*' is too large for a real (a double, at most about 1.8e308)", 1, 7, false},
      {"y = -1e308 - 1e308", "the result of '-' is too large for a real", 1, 12, false},
      {"1.5 + 10^400", "the result of '+' is too large for a real", 1, 5, false},
      {"1.0 / 0", "division by zero", 1, 5, false},
      {"0.0 / 0.0", "division by zero", 1, 5, false},
  });
  CHECK(show("1e308 + 1e307") == "1.1e+308");
  CHECK(show("1e-300 * 1e-300") == "0.0");  // underflow rounds to zero, as a double does
  CHECK(show("2.5 < 10^400") == "true");    // comparisons order integers beyond the range
  CHECK(show("-1e308 > -10^400") == "true");
}

// A megabyte of '(' overflowed the interpreter's 1 GiB stack in the parser (a crash, not an error);
// 100000 levels are enough to show the limit.
TEST_CASE("nesting is limited: an error where it gets too deep, not a stack overflow", "[grammar][errors]") {
  auto nested = [](size_t levels, const std::string& open, const std::string& middle, const std::string& close) {
    std::string s;
    for (size_t i = 0; i < levels; i++) s += open;
    s += middle;
    for (size_t i = 0; i < levels; i++) s += close;
    return s;
  };
  cas::test::on_big_stack([&] {
    for (const std::string& source : {nested(100000, "(", "1", ")"), nested(100000, "[", "1", "]"),
                                      nested(100000, "-", "1", ""), nested(100000, "not ", "true", ""),
                                      nested(100000, "2^", "1", ""), nested(100000, "if true {", "1", "}")}) {
      Session s;
      auto e = s.error(source);
      REQUIRE(e);
      CHECK_THAT(e->message(), Catch::Contains("too deeply nested (more than 10000 levels"));
      CHECK(e->where().line_column().line == 1);
      CHECK(!e->at_end_of_input);
    }
    CHECK(show(nested(9999, "(", "1", ")")) == "1");
    CHECK(show("len(" + nested(9998, "[", "1", "]") + ")") == "1");
    CHECK(show(nested(9998, "-", "1", "")) == "1");
    CHECK(show(nested(9998, "not ", "true", "")) == "true");
    CHECK(show("v = 0\n" + nested(9999, "if true {", "v = 1", "}") + "\nv") == "1");
  });
}

TEST_CASE("long flat chains of operators and subscripts need no deep stack", "[grammar]") {
  // As a left-deep tree, a million `+` would take a million nested calls to evaluate and to
  // destroy; chains are flat nodes, so they run on an ordinary thread's 8 MiB stack.
  auto chain = [](const std::string& first, const std::string& link, size_t links) {
    std::string s = first;
    for (size_t i = 0; i < links; i++) s += link;
    return s;
  };
  constexpr size_t million = 1000000;
  cas::test::on_big_stack(
      [&] {
        CHECK(show(chain("1", " + 1", million)) == "1000001");
        CHECK(show(chain("1", " - 1 + 2", million / 2)) == "500001");
        CHECK(show(chain("1", " * 1", million)) == "1");
        CHECK(show(chain("true", " and true", million)) == "true");
        CHECK(show(chain("false", " or false", million) + " or true") == "true");
        CHECK(show(chain("5", " mod 7", million)) == "5 mod 7");
        Session s;  // it owns the source the errors' positions point into
        auto e = s.error("v = [1]; " + chain("v", "[0]", million));
        REQUIRE(e);
        CHECK(e->message() == "only vectors can be indexed, not an integer");
        CHECK(e->where().line_column().column == 14);  // the second '['
        auto f = s.error("v = [1]; " + chain("v", "[0]", million) + " = 2");
        REQUIRE(f);
        CHECK_THAT(f->message(), Catch::Contains("only vector entries can be assigned"));
      },
      size_t{8} << 20);
}

TEST_CASE("a chain evaluates left to right, and short-circuits, as nested operators do", "[grammar]") {
  check_examples({
      {"(2 * 3) + 4", "10"},        // a parenthesised chain on the left joins the chain
      {"(1 + 2) * 3 - 1", "8"},
      {"(10 - 2) - (3 - 1)", "6"},
      {"((12 mod 7) + 3) mod 7", "1 mod 7"},
      {"(false and undefined_name) or true", "true"},
      {"(true or undefined_name) and false", "false"},
      {"false and undefined_name or true", "true"},
      {"true or undefined_name and false", "true"},
      {"(\"a\" + 1) + 2", "\"a12\""},
      {"([[1, 2], [3, 4]])[1][0]", "3"},
      {"([[1, 2], [3, 4]][1])[1]", "4"},
  });
  Session s;
  auto e = s.error("1 + 2 + (3 mod 5) + (4 mod 7)");
  REQUIRE(e);
  CHECK(e->where().line_column().column == 19);  // the third '+', where the moduli first meet
}

TEST_CASE("an error about a chain's value points where the nested tree's outermost node was", "[grammar][errors]") {
  // The last operator of the chain (or the last '[' of a run of subscripts), never an operator
  // inside a parenthesised chain on the left.
  check_failures({
      {"if (1 + 2) * 3 { 1 }", "the condition of 'if' must be true or false, not 9", 1, 12, false},
      {"if 1 + 2 + 3 { 1 }", "the condition of 'if' must be true or false, not 6", 1, 10, false},
      {"while (5 mod 7) mod 7 { 1 }", "the condition of 'while' must be true or false", 1, 17, false},
      {"v = [1]\nv[(true and true) or false]", "a vector index must be an integer", 2, 19, false},
      {"(true and true) and 1 + 1 + 1", "the condition of 'and' must be true or false, not 3", 1, 27, false},
      {"v = [1, 2]\nv[(1 + 1) + 1]", "index 3 is out of range", 2, 11, false},
      {"v = [[1]]\nif v[0][0] { 1 }", "the condition of 'if' must be true or false, not 1", 2, 8, false},
      {"v = [[1]]\nfor e in v[0][0] { 1 }", "'for ... in' needs a vector or a range a..b", 2, 14, false},
  });
}

TEST_CASE("errors found while resolving names and running", "[grammar][errors]") {
  check_failures({
      {"break", "'break' outside a loop", 1, 1, false},
      {"x = 1\ncontinue", "'continue' outside a loop", 2, 1, false},
      {"fn f() { break }", "'break' outside a loop", 1, 10, false},
      {"for i in 1..2 { fn g() { continue } }", "'continue' outside a loop", 1, 26, false},
      {"return 1", "'return' outside a function", 1, 1, false},
      {"if true {\n  return\n}", "'return' outside a function", 2, 3, false},
      {"fn print(a) { a }", "'print' is a builtin and cannot be redefined", 1, 1, false},
      {"fn f() { fn g() { 1 } }", "functions are defined at the top level", 1, 10, false},
      {"fn f(a, b, a) { a }", "the parameter 'a' of f() is named twice", 1, 1, false},
      {"nosuch(1)", "unknown function 'nosuch'", 1, 1, false},
      {"y = 2\n1 + nosuch(y)", "unknown function 'nosuch'", 2, 5, false},
      {"fn f(a) { a }\nf(1, 2)", "f() takes 1 argument, not 2", 2, 1, false},
      {"fn f(a, b) { a }\nf(1)", "f() takes 2 arguments, not 1", 2, 1, false},
      {"typeof(1, 2)", "typeof() takes 1 argument, not 2", 1, 1, false},
      {"zz + 1", "undefined variable 'zz'", 1, 1, false},
      {"a = 1\nb = a + zz", "undefined variable 'zz'", 2, 9, false},
      {"fn f() { q }\nf()", "undefined variable 'q'", 1, 10, false},
      {"v[0] = 1", "undefined variable 'v'", 1, 1, false},
      {"typeof + 1", "'typeof' is a function", 1, 1, false},
      {"v = [1, 2]; v[2]", "index 2 is out of range for a vector of length 2", 1, 15, false},
      {"v = [1, 2]; v[-1] = 0", "index -1 is out of range", 1, 15, false},
      {"1 + [1, 2]", "not defined between an integer and a vector", 1, 3, false},
      {"1 +\n  (2 / 0)", "division by zero", 2, 6, false},
  });
}

TEST_CASE("an error inside a called function points into the function", "[grammar][errors]") {
  Session s;
  s.eval("fn f(a) {\n  a / 0\n}");
  auto e = s.error("f(1)");
  REQUIRE(e);
  CHECK(e->message() == "division by zero");
  CHECK(e->where().line_column().line == 2);
  CHECK(e->where().line_column().column == 5);
  CHECK(e->where().source->name == "<test>");
  CHECK(e->located() == "<test>:2:5: division by zero");
}
