// Evaluation of each node of the tree (and its name resolution).
#include "algebra/values/format.hpp"
#include "algebra/support/guards.hpp"
#include "algebra/support/progress.hpp"
#include "interpreter.hpp"

#include <algorithm>
#include <array>
#include <optional>

namespace cas {

namespace {

// Loops, calls and assignments poll the REPL's Ctrl-C flag. One operation (a FLINT or GPU call)
// cannot stop midway, so the operators and builtins also poll right after they return: a Ctrl-C
// during a long product stops the statement there, before its value is printed or assigned.
void check_interrupt(const Position& where) {
  if (interrupt_requested.load(std::memory_order_relaxed)) {
    interrupt_requested = false;
    throw Error(where, "interrupted");
  }
}

// A builtin on its arguments: its failures located at the call, and a Ctrl-C during it taken as
// it returns.
Value run_builtin(const Builtin& builtin, CallContext& context) {
  Value result = at_position(context.where, [&] { return builtin.fn(context); });
  check_interrupt(context.where);
  return result;
}

bool condition(Interpreter& in, const Node& node, const char* what) {
  Value v = node.eval(in);
  if (!v.is(Kind::Bool))
    throw Error(node.where(), std::string("the condition of '") + what + "' must be true or false, not " +
                                  describe(v));
  return v.as_bool();
}

size_t vector_index(const Value& index, size_t length, const Position& where) {
  if (!index.is(Kind::Int)) throw Error(where, "a vector index must be an integer, not " + describe(index));
  const fmpz* i = index.as_int();
  if (fmpz_sgn(i) < 0 || fmpz_cmp_ui(i, length) >= 0)
    throw Error(where, "index " + fmpz_to_string(i) + " is out of range for a vector of length " +
                           std::to_string(length) + " (indices start at 0)");
  return fmpz_get_ui(i);
}

Value& variable(Interpreter& in, const Slot& slot) {
  return slot.local ? in.locals[slot.index] : in.global(slot.index);
}

}  // namespace

// ---- names ---------------------------------------------------------------

const Value* VarRef::value_in_place(Interpreter& in) const {
  const Value& v = variable(in, slot_);
  if (v.is_none()) {
    if (in.function(name_) || builtins().find(name_))
      throw Error(where(), "'" + name_ + "' is a function: call it as " + name_ + "(...)");
    throw Error(where(), "undefined variable '" + name_ + "'");
  }
  return &v;
}

void VarRef::resolve(Resolver& r) { slot_ = r.slot(name_); }

// ---- literals and indexing ----------------------------------------------------

Value VectorLiteral::eval(Interpreter& in) const {
  std::vector<Value> items;
  items.reserve(items_.size());
  for (const auto& item : items_) items.push_back(item->eval(in));
  return Value::vec(std::move(items));
}

void VectorLiteral::resolve(Resolver& r) {
  for (auto& item : items_) item->resolve(r);
}

Value Index::eval(Interpreter& in) const {
  Value v = target_->eval(in);
  for (const Subscript& subscript : subscripts_) {
    Value index = subscript.index->eval(in);
    if (!v.is(Kind::Vec))
      throw Error(subscript.bracket, "only vectors can be indexed, not " + type_description(v) +
                                         (v.is(Kind::ZPoly) || v.is(Kind::ModPoly) ? " (use coeff(f, i))" : ""));
    Value entry = v.vec_entry(vector_index(index, v.vec_size(), subscript.index->where()));
    v = std::move(entry);
  }
  return v;
}

void Index::resolve(Resolver& r) {
  target_->resolve(r);
  for (Subscript& subscript : subscripts_) subscript.index->resolve(r);
}

// ---- operators ------------------------------------------------------------

Value Unary::eval(Interpreter& in) const {
  Value v = operand_->eval(in);
  if (op_ == UnaryOp::Not) {
    if (!v.is(Kind::Bool)) throw Error(where(), "'not' needs true or false, not " + describe(v));
    return Value::boolean(!v.as_bool());
  }
  return at_position(where(), [&] { return negate(v); });
}

Value Unary::eval_modulo(Interpreter& in, const Value& modulus) const {
  Value v = operand_->eval_modulo(in, modulus);
  return at_position(where(), [&] { return negate(v); });
}

// ---- sums of terms c*x^k ------------------------------------------------------------

// A printed polynomial reads back as a chain of terms c*x^k. Evaluated one `+` at a time, each term
// made a dense polynomial as long as the running sum: 10^5 terms took 28 s. So a chain adds a run
// of such terms to a sparse pending sum, and that sum to its running value once, when the run
// ends. Only while the running value is a polynomial over Z, where the order of the additions
// cannot change the result (a printed polynomial starts with its term of highest degree, which
// makes the running value one); anything else is evaluated as written. Chains over integers do
// not look for terms at all: an integer loop of 10^6 iterations lost 13% when they did.

bool Constant::as_term(Interpreter&, Term& t) const {
  if (!value_.is(Kind::Int)) return false;
  fmpz_set(t.coefficient.get(), value_.as_int());
  t.exponent = 0;
  t.has_x = false;
  return true;
}

// x itself (a script may have bound the name to something else).
bool VarRef::as_term(Interpreter& in, Term& t) const {
  const Value& v = variable(in, slot_);
  if (!v.is(Kind::ZPoly) || !fmpz_poly_is_gen(v.as_zpoly().get())) return false;
  fmpz_one(t.coefficient.get());
  t.exponent = 1;
  t.has_x = true;
  return true;
}

bool Unary::as_term(Interpreter& in, Term& t) const {
  if (op_ != UnaryOp::Neg || !operand_->as_term(in, t)) return false;
  fmpz_neg(t.coefficient.get(), t.coefficient.get());
  return true;
}

// x^k (k an integer literal >= 0), or c*x^k and c*x (c an integer literal).
bool Binary::as_term(Interpreter& in, Term& t) const {
  if (links_.size() != 1) return false;
  const Link& link = links_[0];
  if (link.op == BinaryOp::Pow) {
    Term exponent;
    if (!first_->as_term(in, t) || t.exponent != 1 || !fmpz_is_one(t.coefficient.get()) ||
        !link.operand->as_term(in, exponent) || exponent.has_x || fmpz_sgn(exponent.coefficient.get()) < 0 ||
        !fmpz_fits_si(exponent.coefficient.get()))
      return false;
    t.exponent = fmpz_get_ui(exponent.coefficient.get());
    return true;
  }
  if (link.op != BinaryOp::Mul) return false;
  Term coefficient;
  if (!first_->as_term(in, coefficient) || coefficient.has_x || !link.operand->as_term(in, t) || !t.has_x ||
      !fmpz_is_one(t.coefficient.get()))
    return false;
  fmpz_swap(t.coefficient.get(), coefficient.coefficient.get());
  return true;
}

namespace {

class PendingSum {
 public:
  // Takes `+ term` or `- term`; false when the link is to be evaluated as written. A term too
  // large for memory is left to the evaluation too, so that its error is the one `^` gives, where
  // the `^` stands.
  template <typename Link>
  bool take(const Link& link, Interpreter& in) {
    if (link.op != BinaryOp::Add && link.op != BinaryOp::Sub) return false;
    Term t;
    if (!link.operand->as_term(in, t) || !allocation_fits(8.0 * (static_cast<double>(t.exponent) + 1))) return false;
    if (link.op == BinaryOp::Sub) fmpz_neg(t.coefficient.get(), t.coefficient.get());
    if (!sum_) sum_.emplace();
    at_position(link.where, [&] { add(t); });  // out of memory there
    return true;
  }

  // running + the pending terms; the sum is empty afterwards.
  void flush_into(Value& running) {
    if (!sum_) return;
    _fmpz_poly_normalise(sum_->get());
    running = apply(BinaryOp::Add, running, Value::zpoly(std::move(*sum_)));
    sum_.reset();
  }

 private:
  void add(const Term& t) {
    fmpz_poly_struct* sum = sum_->get();
    const slong k = static_cast<slong>(t.exponent);
    if (k < sum->length)
      fmpz_add(sum->coeffs + k, sum->coeffs + k, t.coefficient.get());
    else
      fmpz_poly_set_coeff_fmpz(sum, k, t.coefficient.get());
  }

  std::optional<ZPoly> sum_;  // made with the first term
};

}  // namespace

bool Binary::divides_or_powers() const {
  auto divides = [](const Link& link) {
    return link.op == BinaryOp::Div || link.op == BinaryOp::Pow || link.operand->divides_or_powers();
  };
  return first_->divides_or_powers() || std::any_of(links_.begin(), links_.end(), divides);
}

namespace {

// a op b inside `... mod p` (Node::eval_modulo): a division or a power that fails over Z (not
// exact, a negative exponent) is taken again with its operands reduced mod p. A failure there too
// is the one reported (1/0 mod 7: "0 mod 7 is not invertible").
Value apply_modulo(BinaryOp op, const Value& a, const Value& b, const Value& modulus) {
  if (op != BinaryOp::Div && op != BinaryOp::Pow) return apply(op, a, b);
  try {
    return apply(op, a, b);
  } catch (const DomainError&) {
    if (a.modulus() || b.modulus()) throw;  // already in some Z/pZ: the failure stands
    return apply(op, reduce_mod(a, modulus), op == BinaryOp::Pow ? b : reduce_mod(b, modulus));
  }
}

}  // namespace

// The chain left to right; with a modulus, as Node::eval_modulo says.
// Variables and constants are read in place (Node::value_in_place): an operand is never copied
// when nothing runs between its read and the operation. So the first operand too when the first
// link's operand is one of them.
Value Binary::evaluate(Interpreter& in, const Value* modulus) const {
  auto operate = [&](const Link& link, const Value& a, const Value& b) {
    Value next = at_position(link.where, [&] {
      return modulus ? apply_modulo(link.op, a, b, *modulus) : apply(link.op, a, b);
    });
    check_interrupt(link.where);
    return next;
  };
  Value result;
  size_t i = 0;
  const Value* first = links_.empty() ? nullptr : first_->value_in_place(in);
  if (first && (first->is(Kind::ZPoly) && (links_[0].op == BinaryOp::Add || links_[0].op == BinaryOp::Sub)))
    first = nullptr;  // a sum of terms is gathered in place below
  if (const Value* second = first ? links_[0].operand->value_in_place(in) : nullptr) {
    result = operate(links_[0], *first, *second);
    i = 1;
  } else {
    result = modulus ? first_->eval_modulo(in, *modulus) : first_->eval(in);
  }
  while (i < links_.size()) {
    const Link& link = links_[i];
    if (result.is(Kind::ZPoly) && (link.op == BinaryOp::Add || link.op == BinaryOp::Sub)) {
      if (const size_t end = add_terms(in, result, i); end > i) {
        i = end;
        continue;
      }
    }
    if (const Value* right = link.operand->value_in_place(in)) {
      result = operate(link, result, *right);
    } else {
      const bool in_modulo = modulus && link.op != BinaryOp::Pow;  // an exponent is an integer as anywhere
      const Value value = in_modulo ? link.operand->eval_modulo(in, *modulus) : link.operand->eval(in);
      result = operate(link, result, value);
    }
    i++;
  }
  return result;
}

// Adds the run of terms that starts at links_[from] to the polynomial `sum` at once; returns
// where the run ends (`from` itself when links_[from] is no term).
size_t Binary::add_terms(Interpreter& in, Value& sum, size_t from) const {
  PendingSum pending;
  size_t end = from;
  for (; end < links_.size() && pending.take(links_[end], in); end++) check_interrupt(links_[end].where);
  if (end > from) at_position(links_[end - 1].where, [&] { pending.flush_into(sum); });  // out of memory there
  return end;
}

// With a division or a power on the left, the first modulus is evaluated before it, and the left
// side modulo it (Node::eval_modulo).
Value ModExpr::eval(Interpreter& in) const {
  Value result;
  size_t next_link = 0;
  if (first_->divides_or_powers()) {
    const Link& link = links_.front();
    Value p = link.operand->eval(in);
    Value left = first_->eval_modulo(in, p);
    result = at_position(link.where, [&] { return reduce_mod(left, p); });
    next_link = 1;
  } else {
    result = first_->eval(in);
  }
  for (size_t i = next_link; i < links_.size(); i++) {
    const Link& link = links_[i];
    Value p = link.operand->eval(in);
    Value next = at_position(link.where, [&] { return reduce_mod(result, p); });
    result = std::move(next);
  }
  return result;
}

// Short-circuits as the left-deep tree did: a link is evaluated only when the value so far leaves
// the result open (true before `and`, false before `or`).
Value Logic::eval(Interpreter& in) const {
  auto word = [](LogicOp op) { return op == LogicOp::And ? "and" : "or"; };
  bool value = condition(in, *first_, word(links_.front().op));
  for (const Link& link : links_) {
    const bool open = link.op == LogicOp::And ? value : !value;
    if (open) value = condition(in, *link.operand, word(link.op));
  }
  return Value::boolean(value);
}

// ---- assignment -----------------------------------------------------------------

Value Assign::eval(Interpreter& in) const {
  Value v = value_->eval(in);
  check_interrupt(value_->where());
  if (v.is_none()) throw Error(value_->where(), "the right-hand side has no value to assign");
  Value& target = variable(in, slot_);
  if (indices_.empty()) {
    target = v;
    return v;
  }
  if (target.is_none()) throw Error(name_at_, "undefined variable '" + name_ + "'");
  return assign_element(in, target, std::move(v));
}

// v[i][j] = e: the indices are evaluated first, since evaluating one may
// reassign v (a read() call) while the walk holds pointers into it; then walk
// down, copying shared vectors on the way (copy on write).
Value Assign::assign_element(Interpreter& in, Value& variable, Value v) const {
  constexpr size_t inline_indices = 4;  // no allocation for v[i], m[i][j], ...
  std::array<Value, inline_indices> few;
  std::vector<Value> many(indices_.size() > inline_indices ? indices_.size() : 0);
  Value* index = many.empty() ? few.data() : many.data();
  for (size_t k = 0; k < indices_.size(); k++) index[k] = indices_[k]->eval(in);
  Value* cell = &variable;
  for (size_t k = 0; k < indices_.size(); k++) {
    const Position& where = indices_[k]->where();
    if (!cell->is(Kind::Vec))
      throw Error(where, "only vector entries can be assigned, not entries of " + type_description(*cell));
    std::vector<Value>& items = cell->vec_mut();
    cell = &items[vector_index(index[k], items.size(), where)];
  }
  *cell = v;
  return v;
}

void Assign::resolve(Resolver& r) {
  value_->resolve(r);
  for (auto& i : indices_) i->resolve(r);
  slot_ = r.slot(name_);
}

void Assign::collect_assigned(std::set<std::string>& names) const { names.insert(name_); }

// ---- statements ----------------------------------------------------------------

Value Block::eval(Interpreter& in) const {
  Value last;
  for (const Statement& s : statements_) {
    last = s.node->eval(in);
    if (in.flow != Flow::Normal) break;
  }
  return last;
}

void Block::resolve(Resolver& r) {
  for (auto& s : statements_) s.node->resolve(r);
}

void Block::collect_assigned(std::set<std::string>& names) const {
  for (const auto& s : statements_) s.node->collect_assigned(names);
}

Value If::eval(Interpreter& in) const {
  if (condition(in, *cond_, "if")) return then_->eval(in);
  if (else_) return else_->eval(in);
  return Value();
}

void If::resolve(Resolver& r) {
  cond_->resolve(r);
  then_->resolve(r);
  if (else_) else_->resolve(r);
}

void If::collect_assigned(std::set<std::string>& names) const {
  then_->collect_assigned(names);
  if (else_) else_->collect_assigned(names);
}

Value RangeMarker::eval(Interpreter&) const {
  throw Error(where(), "a range a..b can only follow 'for ... in'");
}

namespace {
// Runs one iteration's body; returns false when the loop must stop.
bool loop_body(Interpreter& in, const Node& body) {
  body.eval(in);
  if (in.flow == Flow::Break) {
    in.flow = Flow::Normal;
    return false;
  }
  if (in.flow == Flow::Continue) in.flow = Flow::Normal;
  return in.flow == Flow::Normal;
}

// The iterations of a loop of `length` as the statement's progress, when it is the statement's
// outermost loop: one in a function's body, or nested in another loop, leaves it to the outer one.
ProgressLoop loop_progress(const Interpreter& in, uint64_t length) { return ProgressLoop(in.depth == 0 ? length : 0); }

// The length of from..to; 0 when it is empty or longer than a count holds.
uint64_t range_length(const fmpz* from, const fmpz* to) {
  Fmpz length;
  fmpz_sub(length.get(), to, from);
  fmpz_add_ui(length.get(), length.get(), 1);
  return fmpz_sgn(length.get()) > 0 && fmpz_abs_fits_ui(length.get()) ? fmpz_get_ui(length.get()) : 0;
}
}  // namespace

Value ForRange::eval(Interpreter& in) const {
  Value from = from_->eval(in), to = to_->eval(in);
  if (!from.is(Kind::Int) || !to.is(Kind::Int))
    throw Error(where(), "a range a..b needs integers, not " + describe(from) + " and " + describe(to));
  Fmpz i(from.as_int());
  const ProgressLoop progress = loop_progress(in, range_length(from.as_int(), to.as_int()));
  for (uint64_t done = 1; fmpz_cmp(i.get(), to.as_int()) <= 0; done++) {
    check_interrupt(where());
    variable(in, slot_) = Value::integer(i.get());
    if (!loop_body(in, *body_)) break;
    fmpz_add_ui(i.get(), i.get(), 1);
    progress.finished(done);
  }
  return Value();
}

void ForRange::resolve(Resolver& r) {
  from_->resolve(r);
  to_->resolve(r);
  slot_ = r.slot(var_);
  r.loop_depth++;
  body_->resolve(r);
  r.loop_depth--;
}

void ForRange::collect_assigned(std::set<std::string>& names) const {
  names.insert(var_);
  body_->collect_assigned(names);
}

Value ForEach::eval(Interpreter& in) const {
  Value iterable = iterable_->eval(in);
  if (!iterable.is(Kind::Vec))
    throw Error(iterable_->where(), "'for ... in' needs a vector or a range a..b, not " + describe(iterable));
  const std::vector<Value>& items = iterable.as_vec();  // `iterable` holds the items alive and unchanged
  const ProgressLoop progress = loop_progress(in, items.size());
  for (size_t done = 1; const Value& item : items) {
    check_interrupt(where());
    variable(in, slot_) = item;
    if (!loop_body(in, *body_)) break;
    progress.finished(done++);
  }
  return Value();
}

void ForEach::resolve(Resolver& r) {
  iterable_->resolve(r);
  slot_ = r.slot(var_);
  r.loop_depth++;
  body_->resolve(r);
  r.loop_depth--;
}

void ForEach::collect_assigned(std::set<std::string>& names) const {
  names.insert(var_);
  body_->collect_assigned(names);
}

Value While::eval(Interpreter& in) const {
  while (condition(in, *cond_, "while")) {
    check_interrupt(where());
    if (!loop_body(in, *body_)) break;
  }
  return Value();
}

void While::resolve(Resolver& r) {
  cond_->resolve(r);
  r.loop_depth++;
  body_->resolve(r);
  r.loop_depth--;
}

Value JumpStatement::eval(Interpreter& in) const {
  switch (kind_) {
    case Jump::Return:
      in.return_value = value_ ? value_->eval(in) : Value();
      in.flow = Flow::Return;
      break;
    case Jump::Break: in.flow = Flow::Break; break;
    case Jump::Continue: in.flow = Flow::Continue; break;
  }
  return Value();
}

void JumpStatement::resolve(Resolver& r) {
  if (kind_ == Jump::Return && !r.in_function()) throw Error(where(), "'return' outside a function");
  if (kind_ != Jump::Return && r.loop_depth == 0)
    throw Error(where(), std::string("'") + (kind_ == Jump::Break ? "break" : "continue") + "' outside a loop");
  if (value_) value_->resolve(r);
}

// ---- functions ------------------------------------------------------------------

Value FnDef::eval(Interpreter& in) const {
  in.define(fn_);
  return Value();
}

void FnDef::resolve(Resolver& r) {
  if (r.in_function()) throw Error(where(), "functions are defined at the top level, not inside another function");
  if (const Builtin* b = builtins().find(fn_->name); b && (!b->extends_function || b->accepts(fn_->params.size())))
    throw Error(where(), "'" + fn_->name + "' is a builtin and cannot be redefined");
  const auto& params = fn_->params;
  for (size_t i = 0; i < params.size(); i++)
    if (std::find(params.begin(), params.begin() + static_cast<long>(i), params[i]) != params.begin() + static_cast<long>(i))
      throw Error(where(), "the parameter '" + params[i] + "' of " + fn_->name + "() is named twice");
  r.enter_function(*fn_);
  int saved_loops = r.loop_depth;
  r.loop_depth = 0;
  fn_->body->resolve(r);
  r.loop_depth = saved_loops;
  r.leave_function();
}

Value Call::eval(Interpreter& in) const {
  check_interrupt(where());
  return builtin_ ? call_builtin(in) : call_function(in);
}

Value Call::call_builtin(Interpreter& in) const {
  std::vector<Value> args;
  if (!builtin_->lazy) {
    args.reserve(args_.size());
    for (const auto& a : args_) args.push_back(a->eval(in));
  }
  CallContext context{in, args, args_, where()};
  return run_builtin(*builtin_, context);
}

// f(a) for a variable f holding a polynomial, as in Sage: f evaluated at a (eval), or f(g) for a
// polynomial g (compose). A user function of the same name comes first.
Value Call::call_value(Interpreter& in, const Value& callee) const {
  if (!callee.is(Kind::ZPoly) && !callee.is(Kind::ModPoly))
    throw Error(where(), "'" + name_ + "' is a variable holding " + describe(callee) + ", not a function");
  if (args_.size() != 1)
    throw Error(where(), "a polynomial takes one argument: " + name_ + "(a) evaluates " + name_ + " at a, not " +
                             std::to_string(args_.size()) + " arguments");
  std::vector<Value> args{callee, args_[0]->eval(in)};
  const bool substitute = args[1].is(Kind::ZPoly) || args[1].is(Kind::ModPoly);
  const Builtin* evaluation = builtins().find(substitute ? "compose" : "eval");
  static const std::vector<NodePtr> no_expressions;  // eval and compose are not lazy: they read args only
  CallContext context{in, args, no_expressions, where()};
  return run_builtin(*evaluation, context);
}

Value Call::call_function(Interpreter& in) const {
  if (!cached_ || cached_generation_ != in.functions_generation()) {
    cached_ = in.function(name_);
    cached_generation_ = in.functions_generation();
    if (!cached_) {
      const Value& callee = variable(in, variable_);
      if (!callee.is_none()) return call_value(in, callee);
      throw Error(where(), "unknown function '" + name_ + "'");
    }
  }
  const Function& fn = *cached_;
  if (args_.size() != fn.params.size()) {
    std::string takes = std::to_string(fn.params.size()) + " argument" + (fn.params.size() == 1 ? "" : "s");
    if (const Builtin* extension = builtins().find(name_))  // more arities in C++ (Builtin::extends_function)
      takes += " or " + extension->arity_text() + " (see help(" + name_ + "))";
    throw Error(where(), name_ + "() takes " + takes + ", not " + std::to_string(args_.size()));
  }
  std::vector<Value> args;
  args.reserve(fn.local_count);
  for (const auto& a : args_) args.push_back(a->eval(in));
  return in.call(fn, args, where());
}

void Call::resolve(Resolver& r) {
  for (auto& a : args_) a->resolve(r);
  builtin_ = builtins().find(name_);
  if (!builtin_) variable_ = r.slot(name_);
  if (!builtin_ || builtin_->accepts(args_.size())) return;
  if (builtin_->extends_function) {
    variable_ = r.slot(name_);
    builtin_ = nullptr;  // the function written in cas takes the other arities
    return;
  }
  const int n = static_cast<int>(args_.size());
  throw Error(where(), name_ + "() takes " + builtin_->arity_text() + ", not " + std::to_string(n) +
                             " (see help(" + name_ + "))");
}

}  // namespace cas
