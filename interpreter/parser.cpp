#include "parser.hpp"

#include "grammar_errors.hpp"

#include <flint/fmpz.h>

#include <cmath>
#include <cstdlib>

namespace cas {

namespace {

namespace g = grammar;
namespace pegtl = tao::pegtl;

// The parser's stacks: finished nodes, starts of variable-length lists,
// pending names, and the statement lists of the blocks being read.
struct State {
  SourcePtr source;
  const char* base = nullptr;
  std::vector<NodePtr> nodes;
  std::vector<size_t> marks;
  std::vector<std::string> names;
  std::vector<size_t> name_marks;
  std::vector<std::vector<Statement>> blocks;
  bool silent = false;
  size_t nesting = 0;  // the operands and blocks being read, one inside the other

  Position at(const char* p) const { return Position{source.get(), static_cast<uint32_t>(p - base)}; }
  NodePtr pop() {
    NodePtr n = std::move(nodes.back());
    nodes.pop_back();
    return n;
  }
  std::vector<NodePtr> pop_to_mark() {
    size_t mark = marks.back();
    marks.pop_back();
    std::vector<NodePtr> out;
    for (size_t i = mark; i < nodes.size(); i++) out.push_back(std::move(nodes[i]));
    nodes.resize(mark);
    return out;
  }
  std::string pop_name() {
    std::string n = std::move(names.back());
    names.pop_back();
    return n;
  }
};

// The operator of a `*_tail` rule starts after the blanks the tail begins with.
const char* skip_blanks(const char* p) {
  while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\\' || *p == '\n') p++;
  return p;
}

template <typename Rule>
struct action : pegtl::nothing<Rule> {};

// `left op right`: appended to left when it is a chain of the same kind (see Chain in ast.hpp).
template <typename ChainNode, typename Op>
void push_chain_link(State& s, Position where, Op op) {
  NodePtr right = s.pop(), left = s.pop();
  if (auto* chain = dynamic_cast<ChainNode*>(left.get())) {
    chain->append(op, where, std::move(right));
    s.nodes.push_back(std::move(left));
    return;
  }
  s.nodes.push_back(std::make_unique<ChainNode>(where, op, std::move(left), std::move(right)));
}

template <typename ChainNode, auto Op>
struct chain_action {
  template <typename Input>
  static void apply(const Input& in, State& s) {
    push_chain_link<ChainNode>(s, s.at(skip_blanks(in.begin())), Op);
  }
};
template <BinaryOp Op> using binary_action = chain_action<Binary, Op>;

template <> struct action<g::mul_tail> : binary_action<BinaryOp::Mul> {};
template <> struct action<g::pointmul_tail> : binary_action<BinaryOp::PointMul> {};
template <> struct action<g::div_tail> : binary_action<BinaryOp::Div> {};
template <> struct action<g::floordiv_tail> : binary_action<BinaryOp::FloorDiv> {};
template <> struct action<g::rem_tail> : binary_action<BinaryOp::Rem> {};
template <> struct action<g::add_tail> : binary_action<BinaryOp::Add> {};
template <> struct action<g::sub_tail> : binary_action<BinaryOp::Sub> {};
template <> struct action<g::power_tail> : binary_action<BinaryOp::Pow> {};
template <> struct action<g::eq_tail> : binary_action<BinaryOp::Eq> {};
template <> struct action<g::ne_tail> : binary_action<BinaryOp::Ne> {};
template <> struct action<g::lt_tail> : binary_action<BinaryOp::Lt> {};
template <> struct action<g::le_tail> : binary_action<BinaryOp::Le> {};
template <> struct action<g::gt_tail> : binary_action<BinaryOp::Gt> {};
template <> struct action<g::ge_tail> : binary_action<BinaryOp::Ge> {};
template <> struct action<g::and_tail> : chain_action<Logic, LogicOp::And> {};
template <> struct action<g::or_tail> : chain_action<Logic, LogicOp::Or> {};
template <> struct action<g::mod_tail> : chain_action<ModExpr, ModOp::Mod> {};

template <UnaryOp Op>
struct unary_action {
  template <typename Input>
  static void apply(const Input& in, State& s) {
    NodePtr operand = s.pop();
    s.nodes.push_back(std::make_unique<Unary>(s.at(in.begin()), Op, std::move(operand)));
  }
};
template <> struct action<g::negation> : unary_action<UnaryOp::Neg> {};
template <> struct action<g::not_operator> : unary_action<UnaryOp::Not> {};

// ---- literals and names ----

template <>
struct action<g::integer_literal> {
  template <typename Input>
  static void apply(const Input& in, State& s) {
    Fmpz z;
    fmpz_set_str(z.get(), in.string().c_str(), 10);
    s.nodes.push_back(std::make_unique<Constant>(s.at(in.begin()), Value::integer(std::move(z))));
  }
};

// A real literal is a double: one beyond its range is an error where it stands, not inf or 0.0
// (neither of which reads back as the number written).
double real_value(const std::string& text, Position where) {
  const double d = std::strtod(text.c_str(), nullptr);
  if (std::isinf(d))
    throw Error(where, "the real number " + text + " is too large (a real is a double, at most about 1.8e308; " +
                           "integers have any size, e.g. 10^400)");
  const std::string mantissa = text.substr(0, text.find_first_of("eE"));
  const bool written_zero = mantissa.find_first_of("123456789") == std::string::npos;
  if (d == 0 && !written_zero)
    throw Error(where, "the real number " + text + " is too small: it would be 0.0 (a real is a double, " +
                           "at least about 4.9e-324 unless 0)");
  return d;
}

template <>
struct action<g::real_literal> {
  template <typename Input>
  static void apply(const Input& in, State& s) {
    const Position where = s.at(in.begin());
    s.nodes.push_back(std::make_unique<Constant>(where, Value::real(real_value(in.string(), where))));
  }
};

std::string unescape(const std::string& quoted) {
  std::string out;
  for (size_t i = 1; i + 1 < quoted.size(); i++) {
    char c = quoted[i];
    if (c != '\\') {
      out += c;
      continue;
    }
    c = quoted[++i];
    switch (c) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      default: out += c;
    }
  }
  return out;
}

template <>
struct action<g::string_literal> {
  template <typename Input>
  static void apply(const Input& in, State& s) {
    s.nodes.push_back(std::make_unique<Constant>(s.at(in.begin()), Value::str(unescape(in.string()))));
  }
};

template <bool B>
struct boolean_action {
  template <typename Input>
  static void apply(const Input& in, State& s) {
    s.nodes.push_back(std::make_unique<Constant>(s.at(in.begin()), Value::boolean(B)));
  }
};
template <> struct action<g::true_literal> : boolean_action<true> {};
template <> struct action<g::false_literal> : boolean_action<false> {};

struct variable_action {
  template <typename Input>
  static void apply(const Input& in, State& s) {
    s.nodes.push_back(std::make_unique<VarRef>(s.at(in.begin()), in.string()));
  }
};
template <> struct action<g::variable> : variable_action {};
template <> struct action<g::assign_name> : variable_action {};

struct mark_action {
  template <typename Input>
  static void apply(const Input&, State& s) {
    s.marks.push_back(s.nodes.size());
  }
};
template <> struct action<g::vector_open> : mark_action {};
template <> struct action<g::call_open> : mark_action {};
template <> struct action<g::if_keyword> : mark_action {};

template <>
struct action<g::vector_literal> {
  template <typename Input>
  static void apply(const Input& in, State& s) {
    s.nodes.push_back(std::make_unique<VectorLiteral>(s.at(in.begin()), s.pop_to_mark()));
  }
};

struct push_name_action {
  template <typename Input>
  static void apply(const Input& in, State& s) {
    s.names.push_back(in.string());
  }
};
template <> struct action<g::callee> : push_name_action {};
template <> struct action<g::loop_variable> : push_name_action {};
template <> struct action<g::function_name> : push_name_action {};
template <> struct action<g::parameter> : push_name_action {};
template <> struct action<g::first_parameter> : push_name_action {};

template <>
struct action<g::call> {
  template <typename Input>
  static void apply(const Input& in, State& s) {
    std::vector<NodePtr> args = s.pop_to_mark();
    s.nodes.push_back(std::make_unique<Call>(s.at(in.begin()), s.pop_name(), std::move(args)));
  }
};

template <>
struct action<g::index_suffix> {
  template <typename Input>
  static void apply(const Input& in, State& s) {
    NodePtr index = s.pop(), target = s.pop();
    const Position bracket = s.at(skip_blanks(in.begin()));
    if (auto* run = dynamic_cast<Index*>(target.get())) {
      run->append(bracket, std::move(index));
      s.nodes.push_back(std::move(target));
      return;
    }
    s.nodes.push_back(std::make_unique<Index>(bracket, std::move(target), std::move(index)));
  }
};

// ---- statements ----

template <>
struct action<g::block_open> {
  template <typename Input>
  static void apply(const Input&, State& s) {
    s.blocks.emplace_back();
  }
};

template <>
struct action<g::block> {
  template <typename Input>
  static void apply(const Input& in, State& s) {
    std::vector<Statement> statements = std::move(s.blocks.back());
    s.blocks.pop_back();
    s.nodes.push_back(std::make_unique<Block>(s.at(in.begin()), std::move(statements)));
  }
};

template <>
struct action<g::silent_end> {
  template <typename Input>
  static void apply(const Input&, State& s) {
    s.silent = true;
  }
};

template <>
struct action<g::statement_line> {
  template <typename Input>
  static void apply(const Input&, State& s) {
    s.blocks.back().push_back(Statement{s.pop(), s.silent});
    s.silent = false;
  }
};

template <>
struct action<g::if_statement> {
  template <typename Input>
  static void apply(const Input& in, State& s) {
    std::vector<NodePtr> parts = s.pop_to_mark();  // condition, then, else?
    NodePtr otherwise = parts.size() == 3 ? std::move(parts[2]) : nullptr;
    s.nodes.push_back(std::make_unique<If>(s.at(in.begin()), std::move(parts[0]), std::move(parts[1]), std::move(otherwise)));
  }
};

template <>
struct action<g::range_tail> {
  template <typename Input>
  static void apply(const Input& in, State& s) {
    NodePtr to = s.pop(), from = s.pop();
    s.nodes.push_back(std::make_unique<RangeMarker>(s.at(skip_blanks(in.begin())), std::move(from), std::move(to)));
  }
};

template <>
struct action<g::for_statement> {
  template <typename Input>
  static void apply(const Input& in, State& s) {
    NodePtr body = s.pop(), iterable = s.pop();
    std::string var = s.pop_name();
    if (auto* range = dynamic_cast<RangeMarker*>(iterable.get()))
      s.nodes.push_back(std::make_unique<ForRange>(s.at(in.begin()), var, std::move(range->from), std::move(range->to),
                                                   std::move(body)));
    else
      s.nodes.push_back(std::make_unique<ForEach>(s.at(in.begin()), var, std::move(iterable), std::move(body)));
  }
};

template <>
struct action<g::while_statement> {
  template <typename Input>
  static void apply(const Input& in, State& s) {
    NodePtr body = s.pop(), cond = s.pop();
    s.nodes.push_back(std::make_unique<While>(s.at(in.begin()), std::move(cond), std::move(body)));
  }
};

template <>
struct action<g::parameters_open> {
  template <typename Input>
  static void apply(const Input&, State& s) {
    s.name_marks.push_back(s.names.size());
  }
};

// The comment lines directly above `fn`, without their '#'.
std::string doc_comment_above(const std::string& text, size_t offset) {
  std::vector<std::string> lines;
  size_t line_start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  while (line_start != std::string::npos && line_start > 0) {
    size_t prev = text.rfind('\n', line_start - 1);
    size_t begin = prev == std::string::npos ? 0 : prev + 1;
    std::string line = text.substr(begin, line_start - begin);
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] != '#') break;
    line = line.substr(first + 1);
    if (!line.empty() && line[0] == ' ') line.erase(0, 1);
    lines.insert(lines.begin(), line);
    if (prev == std::string::npos) break;
    line_start = prev;
  }
  std::string doc;
  for (const auto& l : lines) doc += l + "\n";
  return doc;
}

template <>
struct action<g::function_definition> {
  template <typename Input>
  static void apply(const Input& in, State& s) {
    auto fn = std::make_shared<Function>();
    size_t mark = s.name_marks.back();
    s.name_marks.pop_back();
    fn->params.assign(s.names.begin() + static_cast<long>(mark), s.names.end());
    s.names.resize(mark);
    fn->name = s.pop_name();
    fn->body = s.pop();
    fn->text = in.string();
    fn->source = s.source;
    fn->where = s.at(in.begin());
    fn->doc = doc_comment_above(s.source->text, static_cast<size_t>(in.begin() - s.base));
    s.nodes.push_back(std::make_unique<FnDef>(s.at(in.begin()), std::move(fn)));
  }
};

template <>
struct action<g::return_with_value> {
  template <typename Input>
  static void apply(const Input& in, State& s) {
    NodePtr value = s.pop();
    s.nodes.push_back(std::make_unique<JumpStatement>(s.at(in.begin()), Jump::Return, std::move(value)));
  }
};

template <Jump Kind>
struct jump_action {
  template <typename Input>
  static void apply(const Input& in, State& s) {
    s.nodes.push_back(std::make_unique<JumpStatement>(s.at(in.begin()), Kind, nullptr));
  }
};
template <> struct action<g::return_bare> : jump_action<Jump::Return> {};
template <> struct action<g::break_statement> : jump_action<Jump::Break> {};
template <> struct action<g::continue_statement> : jump_action<Jump::Continue> {};

template <>
struct action<g::assignment> {
  template <typename Input>
  static void apply(const Input& in, State& s) {
    NodePtr value = s.pop(), target = s.pop();
    std::vector<NodePtr> indices;
    if (auto* run = dynamic_cast<Index*>(target.get())) {
      for (Index::Subscript& subscript : run->subscripts()) indices.push_back(std::move(subscript.index));
      NodePtr inner = std::move(run->target());
      target = std::move(inner);
    }
    auto* var = static_cast<VarRef*>(target.get());
    Position assign_at = s.at(in.begin());
    s.nodes.push_back(std::make_unique<Assign>(assign_at, var->name(), var->where(), std::move(indices), std::move(value)));
  }
};

// Operands and blocks nest on the C++ stack, in the parser, the evaluator and the destructors, so
// their depth is limited: a megabyte of '(' overflowed the stack instead of giving an error.
constexpr size_t max_nesting = 10000;

template <typename Rule>
struct control : g::control<Rule> {};

template <typename Rule>
struct nesting_control : g::control<Rule> {
  template <typename Input>
  static void start(const Input& in, State& s) {
    if (++s.nesting > max_nesting)
      throw pegtl::parse_error("too deeply nested (more than " + std::to_string(max_nesting) +
                                   " levels of brackets, operators or blocks)",
                               in);
  }
  template <typename Input>
  static void success(const Input&, State& s) {
    s.nesting--;
  }
  template <typename Input>
  static void failure(const Input& in, State& s) {
    s.nesting--;
    g::control<Rule>::failure(in, s);
  }
};
// Every level of brackets, '-', '^' and calls passes through one unary; 'not' through one negated.
template <> struct control<g::unary> : nesting_control<g::unary> {};
template <> struct control<g::negated> : nesting_control<g::negated> {};
template <> struct control<g::block> : nesting_control<g::block> {};

std::string found_text(const std::string& text, size_t offset) {
  if (offset >= text.size()) return "the end of the input";
  char c = text[offset];
  if (c == '\n') return "the end of the line";
  size_t end = offset + 1;
  auto word = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
  if (word(c))
    while (end < text.size() && word(text[end])) end++;
  return "'" + text.substr(offset, end - offset) + "'";
}

bool only_blanks_after(const std::string& text, size_t offset) {
  for (size_t i = offset; i < text.size(); i++)
    if (!std::isspace(static_cast<unsigned char>(text[i]))) return false;
  return true;
}

}  // namespace

std::vector<Statement> parse_statements(const SourcePtr& source) {
  State state;
  state.source = source;
  state.base = source->text.data();
  state.blocks.emplace_back();
  pegtl::memory_input<> in(source->text, source->name);
  try {
    pegtl::parse<g::program, action, control>(in, state);
  } catch (const pegtl::parse_error& e) {
    size_t offset = e.positions().empty() ? source->text.size() : e.positions().front().byte;
    Error error(Position{source.get(), static_cast<uint32_t>(offset)},
                std::string(e.message()) + ", found " + found_text(source->text, offset));
    const bool unterminated_string = e.message().find("unterminated") != std::string_view::npos;
    error.at_end_of_input = only_blanks_after(source->text, offset) && !unterminated_string;
    throw error;
  }
  return std::move(state.blocks.front());
}

}  // namespace cas
