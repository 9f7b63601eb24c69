#pragma once
// The error message of each `must<>` point of the grammar, in one table
// (PEGTL's must_if): a missing entry is a compile error.
#include "grammar.hpp"

namespace cas::grammar {

template <typename>
inline constexpr const char* error_message = nullptr;

template <> inline constexpr auto error_message<expected_expression> = "expected an expression";
template <> inline constexpr auto error_message<item> = "expected an expression after ','";
template <> inline constexpr auto error_message<operand> = "expected an expression after the operator";
template <> inline constexpr auto error_message<term> = "expected an expression after the operator";
template <> inline constexpr auto error_message<modulus> = "expected a modulus after 'mod'";
template <> inline constexpr auto error_message<compared> = "expected an expression after the comparison";
template <> inline constexpr auto error_message<negated> = "expected an expression after 'not'";
template <> inline constexpr auto error_message<conjunct> = "expected an expression after 'and'";
template <> inline constexpr auto error_message<disjunct> = "expected an expression after 'or'";
template <> inline constexpr auto error_message<close_paren> = "expected ')'";
template <> inline constexpr auto error_message<close_bracket> = "expected ']'";
template <> inline constexpr auto error_message<close_brace> = "expected '}'";
template <> inline constexpr auto error_message<string_close> = "unterminated string: expected '\"' before the end of the line";
template <> inline constexpr auto error_message<condition> = "expected a condition";
template <> inline constexpr auto error_message<body> = "expected '{' to open a block";
template <> inline constexpr auto error_message<else_body> = "expected '{' or 'if' after 'else'";
template <> inline constexpr auto error_message<loop_variable> = "expected a loop variable name after 'for'";
template <> inline constexpr auto error_message<in_keyword> = "expected 'in' after the loop variable";
template <> inline constexpr auto error_message<iterable> = "expected a vector or a range a..b after 'in'";
template <> inline constexpr auto error_message<range_end> = "expected the end of the range after '..'";
template <> inline constexpr auto error_message<function_name> = "expected a function name after 'fn'";
template <> inline constexpr auto error_message<parameters_open> = "expected '(' after the function name";
template <> inline constexpr auto error_message<parameter> = "expected a parameter name";
template <> inline constexpr auto error_message<assigned_value> = "expected an expression after '='";
template <> inline constexpr auto error_message<terminator> = "expected a newline or ';' after the statement";
template <> inline constexpr auto error_message<end_of_program> = "expected a statement";

struct errors {
  template <typename Rule>
  static constexpr auto message = error_message<Rule>;
};

template <typename Rule>
using control = must_if<errors>::control<Rule>;

}  // namespace cas::grammar
