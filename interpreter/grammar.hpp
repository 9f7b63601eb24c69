#pragma once
// The grammar of the cas language, one PEGTL rule per construct, named after
// what it matches. Statements end at a newline or ';'. Newlines are also
// allowed after an operator, a comma or an opening bracket, so long
// expressions and vectors can span lines. Every `must<>` point has its
// message in errors.hpp, so the error position is where the input went wrong.
#include <tao/pegtl.hpp>

namespace cas::grammar {

namespace pegtl = tao::pegtl;
using namespace pegtl;

// ---- blanks, comments, separators -----------------------------------------------
struct comment : seq<one<'#'>, until<at<eolf>>> {};
struct line_continuation : seq<one<'\\'>, eol> {};
struct blank : sor<one<' ', '\t', '\r'>, line_continuation, comment> {};
struct ws : star<blank> {};                      // within a line
struct ws_nl : star<sor<blank, eol>> {};         // where a newline cannot end the statement

// ---- keywords and names ------------------------------------------------------------
template <class Word>
struct keyword : seq<Word, not_at<identifier_other>> {};
struct kw_if : keyword<TAO_PEGTL_STRING("if")> {};
struct kw_else : keyword<TAO_PEGTL_STRING("else")> {};
struct kw_for : keyword<TAO_PEGTL_STRING("for")> {};
struct kw_in : keyword<TAO_PEGTL_STRING("in")> {};
struct kw_while : keyword<TAO_PEGTL_STRING("while")> {};
struct kw_fn : keyword<TAO_PEGTL_STRING("fn")> {};
struct kw_return : keyword<TAO_PEGTL_STRING("return")> {};
struct kw_break : keyword<TAO_PEGTL_STRING("break")> {};
struct kw_continue : keyword<TAO_PEGTL_STRING("continue")> {};
struct kw_and : keyword<TAO_PEGTL_STRING("and")> {};
struct kw_or : keyword<TAO_PEGTL_STRING("or")> {};
struct kw_not : keyword<TAO_PEGTL_STRING("not")> {};
struct kw_mod : keyword<TAO_PEGTL_STRING("mod")> {};
struct kw_true : keyword<TAO_PEGTL_STRING("true")> {};
struct kw_false : keyword<TAO_PEGTL_STRING("false")> {};
struct any_keyword : sor<kw_if, kw_else, kw_for, kw_in, kw_while, kw_fn, kw_return, kw_break, kw_continue, kw_and,
                         kw_or, kw_not, kw_mod, kw_true, kw_false> {};
struct name : seq<not_at<any_keyword>, identifier> {};

// ---- literals --------------------------------------------------------------------------
struct exponent_part : seq<one<'e', 'E'>, opt<one<'+', '-'>>, plus<digit>> {};
// 1.5, 2.0e-3, 1e6; "1..5" is a range, not a real, since a digit must follow the point.
struct real_literal : seq<plus<digit>, sor<seq<one<'.'>, plus<digit>, opt<exponent_part>>, exponent_part>> {};
struct integer_literal : seq<plus<digit>, not_at<identifier_other>> {};
struct string_char : sor<seq<one<'\\'>, not_one<'\n'>>, not_one<'"', '\n'>> {};
struct string_close : one<'"'> {};
struct string_literal : seq<one<'"'>, star<string_char>, must<string_close>> {};
struct true_literal : kw_true {};
struct false_literal : kw_false {};

// ---- expressions ----------------------------------------------------------------------
struct expression;
struct close_paren : one<')'> {};
struct close_bracket : one<']'> {};
struct comma : seq<ws_nl, one<','>, ws_nl> {};
struct item : seq<expression> {};  // a vector entry or call argument after a comma

struct expected_expression : seq<expression> {};  // a must<> point: the only place with a message
struct paren_expression : seq<one<'('>, ws_nl, must<expected_expression>, ws_nl, must<close_paren>> {};
struct vector_open : one<'['> {};
struct vector_literal : seq<vector_open, ws_nl, opt<expression, star<comma, must<item>>>, ws_nl, must<close_bracket>> {};
struct callee : name {};
struct call_open : one<'('> {};
struct call : seq<at<name, ws, one<'('>>, callee, ws, call_open, ws_nl, opt<expression, star<comma, must<item>>>,
                  ws_nl, must<close_paren>> {};
struct variable : name {};
struct primary : sor<paren_expression, vector_literal, string_literal, real_literal, integer_literal, true_literal,
                     false_literal, call, variable> {};

struct index_suffix : seq<ws, one<'['>, ws_nl, must<expected_expression>, ws_nl, must<close_bracket>> {};
struct postfix : seq<primary, star<index_suffix>> {};

struct unary;
struct operand : seq<unary> {};  // the right side of a binary operator
struct power_tail : seq<ws, one<'^'>, ws_nl, must<operand>> {};
struct power : seq<postfix, opt<power_tail>> {};
struct negation : seq<one<'-'>, ws, must<operand>> {};
struct unary : sor<negation, power> {};

struct mul_tail : seq<ws, one<'*'>, ws_nl, must<operand>> {};
struct pointmul_tail : seq<ws, string<'.', '*'>, ws_nl, must<operand>> {};
struct floordiv_tail : seq<ws, string<'/', '/'>, ws_nl, must<operand>> {};
struct div_tail : seq<ws, one<'/'>, ws_nl, must<operand>> {};
struct rem_tail : seq<ws, one<'%'>, ws_nl, must<operand>> {};
struct product : seq<unary, star<sor<mul_tail, pointmul_tail, floordiv_tail, div_tail, rem_tail>>> {};

struct term : product {};  // the right side of + and -
struct add_tail : seq<ws, one<'+'>, ws_nl, must<term>> {};
struct sub_tail : seq<ws, one<'-'>, ws_nl, must<term>> {};
struct sum : seq<product, star<sor<add_tail, sub_tail>>> {};

struct modulus : sum {};
struct mod_tail : seq<ws, kw_mod, ws_nl, must<modulus>> {};
struct mod_expression : seq<sum, star<mod_tail>> {};

struct compared : mod_expression {};
struct eq_tail : seq<ws, string<'=', '='>, ws_nl, must<compared>> {};
struct ne_tail : seq<ws, string<'!', '='>, ws_nl, must<compared>> {};
struct le_tail : seq<ws, string<'<', '='>, ws_nl, must<compared>> {};
struct ge_tail : seq<ws, string<'>', '='>, ws_nl, must<compared>> {};
struct lt_tail : seq<ws, one<'<'>, ws_nl, must<compared>> {};
struct gt_tail : seq<ws, one<'>'>, ws_nl, must<compared>> {};
struct comparison : seq<mod_expression, opt<sor<eq_tail, ne_tail, le_tail, ge_tail, lt_tail, gt_tail>>> {};

struct not_expression;
struct negated : seq<not_expression> {};
struct not_operator : seq<kw_not, ws, must<negated>> {};
struct not_expression : sor<not_operator, comparison> {};
struct conjunct : not_expression {};
struct and_tail : seq<ws, kw_and, ws_nl, must<conjunct>> {};
struct and_expression : seq<not_expression, star<and_tail>> {};
struct disjunct : and_expression {};
struct or_tail : seq<ws, kw_or, ws_nl, must<disjunct>> {};
struct expression : seq<and_expression, star<or_tail>> {};

// ---- statements ------------------------------------------------------------------------
struct statement;
struct statements;
struct block_open : one<'{'> {};
struct close_brace : one<'}'> {};
struct block : seq<block_open, statements, must<close_brace>> {};
struct body : seq<block> {};  // a block where one must follow

struct condition : expression {};
struct if_statement;
struct else_body : sor<if_statement, block> {};
struct else_part : seq<ws_nl, kw_else, ws, must<else_body>> {};
struct if_keyword : kw_if {};
struct if_statement : seq<if_keyword, ws, must<condition>, ws, must<body>, opt<else_part>> {};

struct loop_variable : name {};
struct range_end : expression {};
struct range_tail : seq<ws, two<'.'>, ws_nl, must<range_end>> {};
struct iterable : expression {};
struct in_keyword : seq<kw_in> {};
struct for_statement : seq<kw_for, ws, must<loop_variable>, ws, must<in_keyword>, ws, must<iterable>, opt<range_tail>,
                           ws, must<body>> {};
struct while_statement : seq<kw_while, ws, must<condition>, ws, must<body>> {};

struct function_name : name {};
struct first_parameter : name {};
struct parameter : name {};
struct parameters_open : one<'('> {};
struct parameter_list : opt<first_parameter, star<comma, must<parameter>>> {};
struct function_definition : seq<kw_fn, ws, must<function_name>, ws, must<parameters_open>, ws_nl, parameter_list,
                                 ws_nl, must<close_paren>, ws, must<body>> {};

struct return_with_value : seq<kw_return, ws, expression> {};
struct return_bare : kw_return {};
struct break_statement : kw_break {};
struct continue_statement : kw_continue {};

struct assign_name : name {};
struct assign_target : seq<assign_name, star<index_suffix>> {};
struct assigned_value : expression {};
struct assign_operator : seq<one<'='>, not_at<one<'='>>> {};
struct assignment : seq<at<assign_target, ws, assign_operator>, assign_target, ws, assign_operator, ws_nl,
                        must<assigned_value>> {};
struct expression_statement : expression {};

struct statement : sor<function_definition, if_statement, for_statement, while_statement, return_with_value,
                       return_bare, break_statement, continue_statement, assignment, expression_statement> {};

struct semicolon : one<';'> {};
struct silent_end : one<';'> {};  // a statement ended by ';' prints nothing in the REPL
struct terminator : sor<silent_end, eol, at<one<'}'>>, eof> {};
struct statement_line : seq<statement, ws, must<terminator>> {};
struct statements : star<sor<blank, eol, semicolon, statement_line>> {};
struct end_of_program : eof {};
struct program : seq<statements, must<end_of_program>> {};

}  // namespace cas::grammar
