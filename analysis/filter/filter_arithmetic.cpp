#include "filter/filter_arithmetic.h"

namespace rudp {

namespace {

using Kind = FilterExpr::Kind;

// Repeated fields multiply: udp.port + udp.port + ... has 2^n values. Past
// this many an expression keeps the first (tshark would go on).
constexpr size_t kMostValues = size_t{1} << 16;

FilterArith arithOf(Kind kind) {
  switch (kind) {
    case Kind::Add: return FilterArith::Add;
    case Kind::Subtract: return FilterArith::Subtract;
    case Kind::Multiply: return FilterArith::Multiply;
    case Kind::Divide: return FilterArith::Divide;
    case Kind::Modulo: return FilterArith::Modulo;
    default: return FilterArith::BitAnd;
  }
}

// Which operators a type has in 4.0 (a Boolean has none).
bool typeCan(Kind op, FilterType t) {
  const bool addOrSubtract = op == Kind::Add || op == Kind::Subtract;
  switch (t) {
    case FilterType::Unsigned:
    case FilterType::Signed: return true;
    case FilterType::RelTime: return addOrSubtract || op == Kind::Negate;
    case FilterType::AbsTime: return addOrSubtract;
    case FilterType::Double: return op != Kind::Modulo && op != Kind::BitAnd;
    default: return false;
  }
}

bool isNumber(FilterType t) { return t == FilterType::Unsigned || t == FilterType::Signed; }

// What tshark names an operand by in a message.
std::string shownAs(const FilterExpr& e) { return e.isOperand() ? e.operand.text : e.op_text; }

}  // namespace

class FilterArithmetic::Compiler {
 public:
  Compiler(const FilterFields& fields, const FieldLookup& lookup) : fields_(fields), lookup_(lookup) {}

  std::unique_ptr<FilterArithmetic> compile(const FilterExpr& e, const FilterFieldDef* context) const {
    if (e.isOperand()) return operand(e.operand, context);
    if (e.kind == Kind::Negate) return negate(e, context);
    return binary(e, context);
  }

 private:
  std::unique_ptr<FilterArithmetic> operand(const FilterOperand& o, const FilterFieldDef* context) const {
    if (o.kind == FilterOperand::Kind::String)
      throw FilterError("\"" + o.text + "\" is not a valid arithmetic operand.", o.pos, o.len);
    auto leaf = std::make_unique<FilterArithmetic>();
    if ((leaf->field_ = lookup_(o))) {
      leaf->type_ = leaf->field_;
      return leaf;
    }
    if (!context) throw FilterError("Constant arithmetic expression on the LHS is invalid.", o.pos, o.len);
    FilterFieldDef unnamed = *context;  // a value in arithmetic is a number, never a value's name
    unnamed.lua = -1;
    return constant(readLiteral(o, unnamed, fields_), *context);
  }

  static void require(Kind op, const FilterArithmetic& a, const FilterExpr& at, const std::string& written) {
    if (!typeCan(op, a.type().type))
      throw FilterError(std::string(ftypeName(a.type())) + " cannot " + written + ".", at.pos, at.len);
  }

  // -value is worked out here, as tshark does.
  std::unique_ptr<FilterArithmetic> negate(const FilterExpr& e, const FilterFieldDef* context) const {
    auto inner = compile(*e.left, context);
    require(Kind::Negate, *inner, *e.left, e.op_text);
    if (!inner->field_ && inner->kind_ == Kind::Operand) {
      const auto value = negated(inner->literal_.value);
      if (!value) throw FilterError("\"" + shownAs(*e.left) + "\" overflows when negated.", e.pos, e.len);
      inner->literal_.value = *value;
      return inner;
    }
    auto n = std::make_unique<FilterArithmetic>();
    n->kind_ = Kind::Negate;
    n->type_ = inner->type_;
    n->left_ = std::move(inner);
    return n;
  }

  std::unique_ptr<FilterArithmetic> binary(const FilterExpr& e, const FilterFieldDef* context) const {
    auto n = std::make_unique<FilterArithmetic>();
    n->kind_ = e.kind;
    n->left_ = compile(*e.left, context);
    require(e.kind, *n->left_, *e.left, e.op_text);
    n->right_ = compile(*e.right, &n->left_->type());
    require(e.kind, *n->right_, *e.right, e.op_text);
    n->type_ = n->left_->type_;
    const FilterType a = n->left_->type().type, b = n->right_->type().type;
    if (a != b && !(isNumber(a) && isNumber(b)))
      throw FilterError(shownAs(*e.left) + " and " + shownAs(*e.right) + " are not type compatible.", e.pos,
                        e.len);
    return n;
  }

  const FilterFields& fields_;
  const FieldLookup& lookup_;
};

std::unique_ptr<FilterArithmetic> FilterArithmetic::compile(const FilterExpr& expr,
                                                            const FilterFieldDef* context,
                                                            const FilterFields& fields,
                                                            const FieldLookup& lookup) {
  return Compiler(fields, lookup).compile(expr, context);
}

std::unique_ptr<FilterArithmetic> FilterArithmetic::constant(const FilterLiteral& literal,
                                                             const FilterFieldDef& type) {
  auto leaf = std::make_unique<FilterArithmetic>();
  leaf->type_ = &type;
  leaf->literal_ = literal;
  leaf->literal_.value = withRep(literal.value, filterRep(type));
  return leaf;
}

bool FilterArithmetic::values(const FilterFields& fields, const FilterFrame& frame,
                              std::vector<FilterValue>& out) const {
  out.clear();
  if (kind_ == Kind::Operand && !field_) {
    out.push_back(literal_.value);
    return true;
  }
  if (kind_ == Kind::Operand) {
    fields.collect(*field_, frame, out);
    for (FilterValue& v : out) v = withRep(v, filterRep(*field_));
    return !out.empty();
  }
  if (!left_->values(fields, frame, xs_)) return false;
  if (kind_ == Kind::Negate) {
    for (const FilterValue& x : xs_)
      if (const auto r = negated(x)) out.push_back(*r);
    return true;
  }
  if (!right_->values(fields, frame, ys_)) return false;
  const FilterArith op = arithOf(kind_);
  for (const FilterValue& x : xs_)
    for (const FilterValue& y : ys_)
      if (const auto r = applyArith(op, x, y); r && out.size() < kMostValues) out.push_back(*r);
  return true;
}

}  // namespace rudp
