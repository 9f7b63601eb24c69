#pragma once
// The abstract syntax tree: a small tree of nodes, each with the source
// offset of its start. Names are resolved to slots (global or local) once,
// after parsing (resolve), so evaluation never looks a variable up by name.
#include "algebra/values/arith.hpp"
#include "algebra/values/value.hpp"
#include "error.hpp"

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace cas {

class Interpreter;
class Resolver;
struct Builtin;
struct Function;

// A term c*x^k of a polynomial written out, as cas prints one (see PendingSum in eval.cpp).
struct Term {
  Fmpz coefficient;
  ulong exponent = 0;
  bool has_x = false;  // x^0 is a polynomial, 1 an integer
};

class Node {
 public:
  explicit Node(Position where) : where_(where) {}
  virtual ~Node() = default;
  virtual Value eval(Interpreter& in) const = 0;
  // Whether this node is such a term: an integer literal, x, x^k for a literal k >= 0, c*x^k or
  // c*x, or one of them negated, with x a variable that now holds the polynomial x. The term's
  // value goes to t without being built.
  virtual bool as_term(Interpreter&, Term&) const { return false; }
  // `e mod p` with a division or a power in e: e evaluated with its divisions (and powers to a
  // negative exponent) that are not exact over Z taken in Z/pZ, so that 1/3 mod 7 is 5 mod 7, as
  // in Maple and Sage. Only through arithmetic (+ - * / ^, negation, parentheses): the arguments
  // of a call, subscripts and exponents are evaluated as anywhere else.
  virtual bool divides_or_powers() const { return false; }
  virtual Value eval_modulo(Interpreter& in, const Value&) const { return eval(in); }
  // The value itself, not a copy, for a node whose evaluation runs nothing (a variable, a
  // constant); null for any other. Valid until the interpreter runs anything else. An integer
  // Value holds its digits inline, so a copy of a 10^8-bit operand copies 12.5 MB into fresh
  // memory (docs/measurements.md, "A product in cas against the engine's figure").
  virtual const Value* value_in_place(Interpreter&) const { return nullptr; }
  virtual void resolve(Resolver& r) = 0;
  // Adds the names this node assigns (for the locals of a function body).
  virtual void collect_assigned(std::set<std::string>&) const {}
  const Position& where() const { return where_; }

 protected:
  // For nodes that grow as the parser reads on (Chain, Index): they report where the outermost
  // node of the equivalent nested tree would.
  void move_to(Position where) { where_ = where; }

 private:
  Position where_;
};
using NodePtr = std::unique_ptr<Node>;

// Where a variable lives: a global slot of the interpreter or a local slot of the running call.
struct Slot {
  bool local = false;
  uint32_t index = 0;
};

class Constant final : public Node {
 public:
  Constant(Position p, Value v) : Node(p), value_(std::move(v)) {}
  Value eval(Interpreter&) const override { return value_; }
  const Value* value_in_place(Interpreter&) const override { return &value_; }
  void resolve(Resolver&) override {}
  bool as_term(Interpreter&, Term& t) const override;
  const Value& value() const { return value_; }

 private:
  Value value_;
};

class VarRef final : public Node {
 public:
  VarRef(Position p, std::string name) : Node(p), name_(std::move(name)) {}
  Value eval(Interpreter& in) const override { return *value_in_place(in); }
  const Value* value_in_place(Interpreter& in) const override;
  void resolve(Resolver& r) override;
  bool as_term(Interpreter& in, Term& t) const override;
  const std::string& name() const { return name_; }
  const Slot& slot() const { return slot_; }

 private:
  std::string name_;
  Slot slot_;
};

class VectorLiteral final : public Node {
 public:
  VectorLiteral(Position p, std::vector<NodePtr> items) : Node(p), items_(std::move(items)) {}
  Value eval(Interpreter& in) const override;
  void resolve(Resolver& r) override;

 private:
  std::vector<NodePtr> items_;
};

// `v[i][j]...`: one node for the whole run of subscripts, so that a million of them are parsed,
// evaluated and destroyed without a million nested calls.
class Index final : public Node {
 public:
  struct Subscript {
    Position bracket;  // where an error about the value being indexed points
    NodePtr index;
  };
  Index(Position p, NodePtr target, NodePtr index) : Node(p), target_(std::move(target)) {
    append(p, std::move(index));
  }
  // The node is where its last bracket is, as the outermost Index of nested subscripts was.
  void append(Position bracket, NodePtr index) {
    subscripts_.push_back({bracket, std::move(index)});
    move_to(bracket);
  }
  Value eval(Interpreter& in) const override;
  void resolve(Resolver& r) override;
  NodePtr& target() { return target_; }
  std::vector<Subscript>& subscripts() { return subscripts_; }

 private:
  NodePtr target_;
  std::vector<Subscript> subscripts_;
};

class Call final : public Node {
 public:
  Call(Position p, std::string name, std::vector<NodePtr> args)
      : Node(p), name_(std::move(name)), args_(std::move(args)) {}
  Value eval(Interpreter& in) const override;
  void resolve(Resolver& r) override;
  const std::string& name() const { return name_; }
  const std::vector<NodePtr>& args() const { return args_; }

 private:
  Value call_builtin(Interpreter& in) const;
  Value call_function(Interpreter& in) const;
  Value call_value(Interpreter& in, const Value& callee) const;
  std::string name_;
  std::vector<NodePtr> args_;
  const Builtin* builtin_ = nullptr;
  Slot variable_;  // the variable of the same name: f(a) evaluates a polynomial held there
  mutable const Function* cached_ = nullptr;
  mutable uint64_t cached_generation_ = 0;
};

enum class UnaryOp { Neg, Not };

class Unary final : public Node {
 public:
  Unary(Position p, UnaryOp op, NodePtr operand) : Node(p), op_(op), operand_(std::move(operand)) {}
  Value eval(Interpreter& in) const override;
  void resolve(Resolver& r) override { operand_->resolve(r); }
  bool as_term(Interpreter& in, Term& t) const override;
  bool divides_or_powers() const override { return op_ == UnaryOp::Neg && operand_->divides_or_powers(); }
  Value eval_modulo(Interpreter& in, const Value& modulus) const override;

 private:
  UnaryOp op_;
  NodePtr operand_;
};

// A left-associative chain `a op b op c ...` of one precedence level, kept flat: a left-deep tree
// of ten million `+` overflowed the stack in evaluation and destruction. Evaluating the chain left
// to right is what the left-deep tree did, so the parser also appends to a parenthesised chain on
// the left. Each link keeps its operator's position, and the node is where its last operator is, as
// the outermost node of the left-deep tree was (errors about the chain's value point there, not
// inside a parenthesised chain on the left).
template <typename Op>
class Chain : public Node {
 public:
  Chain(Position p, Op op, NodePtr left, NodePtr right) : Node(p), first_(std::move(left)) {
    append(op, p, std::move(right));
  }
  void append(Op op, Position where, NodePtr right) {
    links_.push_back({op, where, std::move(right)});
    move_to(where);
  }
  void resolve(Resolver& r) override {
    first_->resolve(r);
    for (Link& link : links_) link.operand->resolve(r);
  }

 protected:
  struct Link {
    Op op;
    Position where;
    NodePtr operand;
  };
  NodePtr first_;
  std::vector<Link> links_;
};

class Binary final : public Chain<BinaryOp> {
 public:
  using Chain::Chain;
  Value eval(Interpreter& in) const override { return evaluate(in, nullptr); }
  bool as_term(Interpreter& in, Term& t) const override;
  bool divides_or_powers() const override;
  Value eval_modulo(Interpreter& in, const Value& modulus) const override { return evaluate(in, &modulus); }

 private:
  Value evaluate(Interpreter& in, const Value* modulus) const;
  size_t add_terms(Interpreter& in, Value& sum, size_t from) const;
};

enum class ModOp { Mod };  // the only operator of its level

class ModExpr final : public Chain<ModOp> {
 public:
  using Chain::Chain;
  Value eval(Interpreter& in) const override;
};

enum class LogicOp { And, Or };

class Logic final : public Chain<LogicOp> {
 public:
  using Chain::Chain;
  Value eval(Interpreter& in) const override;
};

// `name = e` and `name[i][j] = e`.
class Assign final : public Node {
 public:
  Assign(Position p, std::string name, Position name_at, std::vector<NodePtr> indices, NodePtr value)
      : Node(p), name_(std::move(name)), name_at_(name_at), indices_(std::move(indices)), value_(std::move(value)) {}
  Value eval(Interpreter& in) const override;
  void resolve(Resolver& r) override;
  void collect_assigned(std::set<std::string>& names) const override;

 private:
  Value assign_element(Interpreter& in, Value& variable, Value v) const;
  std::string name_;
  Position name_at_;
  std::vector<NodePtr> indices_;
  NodePtr value_;
  Slot slot_;
};

struct Statement {
  NodePtr node;
  bool silent = false;  // ended by ';': the REPL prints nothing
};

class Block final : public Node {
 public:
  Block(Position p, std::vector<Statement> statements) : Node(p), statements_(std::move(statements)) {}
  Value eval(Interpreter& in) const override;
  void resolve(Resolver& r) override;
  void collect_assigned(std::set<std::string>& names) const override;
  std::vector<Statement>& statements() { return statements_; }

 private:
  std::vector<Statement> statements_;
};

class If final : public Node {
 public:
  If(Position p, NodePtr cond, NodePtr then, NodePtr otherwise)
      : Node(p), cond_(std::move(cond)), then_(std::move(then)), else_(std::move(otherwise)) {}
  Value eval(Interpreter& in) const override;
  void resolve(Resolver& r) override;
  void collect_assigned(std::set<std::string>& names) const override;

 private:
  NodePtr cond_, then_, else_;
};

// Marks `a..b` while parsing; the for loop takes it apart.
class RangeMarker final : public Node {
 public:
  RangeMarker(Position p, NodePtr from, NodePtr to) : Node(p), from(std::move(from)), to(std::move(to)) {}
  Value eval(Interpreter&) const override;
  void resolve(Resolver&) override {}
  NodePtr from, to;
};

class ForRange final : public Node {
 public:
  ForRange(Position p, std::string var, NodePtr from, NodePtr to, NodePtr body)
      : Node(p), var_(std::move(var)), from_(std::move(from)), to_(std::move(to)), body_(std::move(body)) {}
  Value eval(Interpreter& in) const override;
  void resolve(Resolver& r) override;
  void collect_assigned(std::set<std::string>& names) const override;

 private:
  std::string var_;
  NodePtr from_, to_, body_;
  Slot slot_;
};

class ForEach final : public Node {
 public:
  ForEach(Position p, std::string var, NodePtr iterable, NodePtr body)
      : Node(p), var_(std::move(var)), iterable_(std::move(iterable)), body_(std::move(body)) {}
  Value eval(Interpreter& in) const override;
  void resolve(Resolver& r) override;
  void collect_assigned(std::set<std::string>& names) const override;

 private:
  std::string var_;
  NodePtr iterable_, body_;
  Slot slot_;
};

class While final : public Node {
 public:
  While(Position p, NodePtr cond, NodePtr body) : Node(p), cond_(std::move(cond)), body_(std::move(body)) {}
  Value eval(Interpreter& in) const override;
  void resolve(Resolver& r) override;
  void collect_assigned(std::set<std::string>& names) const override { body_->collect_assigned(names); }

 private:
  NodePtr cond_, body_;
};

enum class Jump { Return, Break, Continue };

class JumpStatement final : public Node {
 public:
  JumpStatement(Position p, Jump kind, NodePtr value) : Node(p), kind_(kind), value_(std::move(value)) {}
  Value eval(Interpreter& in) const override;
  void resolve(Resolver& r) override;

 private:
  Jump kind_;
  NodePtr value_;  // return only; may be null
};

// A user function: its parameters come first among its locals.
struct Function {
  std::string name;
  std::vector<std::string> params;
  uint32_t local_count = 0;
  std::vector<std::string> local_names;
  NodePtr body;
  std::string doc;     // the comment lines just above `fn`
  std::string text;    // the definition as written, for source(name)
  SourcePtr source;    // keeps the text its positions point into alive
  Position where;
};

class FnDef final : public Node {
 public:
  FnDef(Position p, std::shared_ptr<Function> fn) : Node(p), fn_(std::move(fn)) {}
  Value eval(Interpreter& in) const override;
  void resolve(Resolver& r) override;

 private:
  std::shared_ptr<Function> fn_;
};

struct Program {
  SourcePtr source;
  std::vector<Statement> statements;
};

}  // namespace cas
