#include "filter/display_filter.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <cstring>

#include "filter/filter_node.h"
#include "filter/filter_number.h"
#include "lua/host.h"

namespace rudp {

struct FilterRegex {
  pcre2_code* code = nullptr;
  pcre2_match_data* match = nullptr;
  ~FilterRegex() {
    pcre2_match_data_free(match);
    pcre2_code_free(code);
  }
};

namespace {

using Kind = FilterNode::Kind;

bool hasPrefix(const FilterValue& v) { return v.prefix >= 0; }

int compareAddresses(const FilterValue& x, const FilterValue& y) {
  const size_t n = x.ip.family == 6 ? 16 : 4;
  const int bits = hasPrefix(x) ? x.prefix : hasPrefix(y) ? y.prefix : int(n * 8);
  for (size_t i = 0; i < n && int(i * 8) < bits; ++i) {
    const int left = bits - int(i * 8);
    const uint8_t mask = left >= 8 ? 0xff : uint8_t(0xff << (8 - left));
    const int a = x.ip.bytes[i] & mask, b = y.ip.bytes[i] & mask;
    if (a != b) return a < b ? -1 : 1;
  }
  return 0;
}

// <0, 0, >0 as x is below, equal to or above y.
int compareValues(FilterType type, const FilterValue& x, const FilterValue& y) {
  switch (type) {
    case FilterType::Signed:
    case FilterType::RelTime:
    case FilterType::AbsTime: {
      const auto a = static_cast<int64_t>(x.u), b = static_cast<int64_t>(y.u);
      return a < b ? -1 : a > b;
    }
    case FilterType::Double: return x.d < y.d ? -1 : x.d > y.d;
    case FilterType::IPv4:
    case FilterType::IPv6: return compareAddresses(x, y);
    case FilterType::Ether:
    case FilterType::Bytes:
    case FilterType::String:
    case FilterType::Protocol: return x.bytes.compare(y.bytes);
    default: return x.u < y.u ? -1 : x.u > y.u;
  }
}

bool holds(FilterOp op, int order) {
  switch (op) {
    case FilterOp::Lt: return order < 0;
    case FilterOp::Le: return order <= 0;
    case FilterOp::Gt: return order > 0;
    case FilterOp::Ge: return order >= 0;
    default: return order == 0;
  }
}

FilterOp mirrored(FilterOp op) {
  switch (op) {
    case FilterOp::Lt: return FilterOp::Gt;
    case FilterOp::Le: return FilterOp::Ge;
    case FilterOp::Gt: return FilterOp::Lt;
    case FilterOp::Ge: return FilterOp::Le;
    default: return op;
  }
}

// data, data.len, data.data: what no dissector took.
bool isDataField(std::string_view name) { return name.rfind("data", 0) == 0; }

bool isInteger(FilterType t) {
  return t == FilterType::Unsigned || t == FilterType::Signed || t == FilterType::Bool;
}

}  // namespace

namespace {

// The term's values into `out`; false when a field it names is absent.
bool values(const FilterFields& fields, const FilterTerm& t, const FilterFrame& f,
            std::vector<FilterValue>& out) {
  out.clear();
  if (t.arithmetic) return t.arithmetic->values(fields, f, out);
  if (!t.field) {
    out.push_back(t.literal.value);
    return true;
  }
  fields.collect(*t.field, f, out);
  return !out.empty();
}

}  // namespace

bool DisplayFilter::Node::pair(const FilterValue& x, const FilterValue& y) const {
  if (op == FilterOp::Contains) return x.bytes.find(y.bytes) != std::string_view::npos;
  if (op == FilterOp::Matches)
    return pcre2_match(regex->code, reinterpret_cast<PCRE2_SPTR>(x.bytes.data()), x.bytes.size(), 0, 0,
                       regex->match, nullptr) >= 0;
  if (!arithmetic) return holds(op, compareValues(type, x, y));
  const std::optional<int> order = compareNumbers(x, y);
  return order && holds(op, *order);
}

bool DisplayFilter::Node::relation(const FilterFields& fields, const FilterFrame& f) const {
  // A missing field fails every relation; an arithmetic side can have no
  // values all the same (x / 0): then == fails and != holds.
  if (!values(fields, a, f, xs) || !values(fields, b, f, ys)) return false;
  auto any = [&](bool wanted) {
    for (const FilterValue& x : xs)
      for (const FilterValue& y : ys)
        if (pair(x, y) == wanted) return true;
    return false;
  };
  switch (op) {
    case FilterOp::AllNe: return !any(true);  // pair() tests equality for these two
    case FilterOp::AllEq: return !any(false);
    case FilterOp::AnyNe: return any(false);
    default: return any(true);
  }
}

bool DisplayFilter::Node::test(const FilterFields& fields, const FilterFrame& f) const {
  switch (kind) {
    case Kind::Or: return left->test(fields, f) || right->test(fields, f);
    case Kind::And: return left->test(fields, f) && right->test(fields, f);
    case Kind::Not: return !left->test(fields, f);
    case Kind::Exists: return values(fields, a, f, xs);
    case Kind::Value: return values(fields, a, f, xs) && std::any_of(xs.begin(), xs.end(), nonZero);
    case Kind::Compare: return relation(fields, f);
    case Kind::In: {
      values(fields, a, f, xs);
      const bool in = std::any_of(xs.begin(), xs.end(), [&](const FilterValue& x) {
        return std::any_of(set.begin(), set.end(), [&](const auto& item) {
          return compareValues(type, x, item.first.value) >= 0 &&
                 compareValues(type, x, item.second.value) <= 0;
        });
      });
      return negated_in != in;  // "not in" is "!(... in ...)": true where the field is absent
    }
  }
  return false;
}

namespace {

class Compiler {
 public:
  Compiler(const FilterFields& fields, std::vector<std::string>& names, bool& needsDissectors)
      : fields_(fields), names_(names), needs_(needsDissectors) {}

  std::unique_ptr<DisplayFilter::Node> compile(const FilterNode& n) {
    auto out = std::make_unique<DisplayFilter::Node>();
    out->kind = n.kind;
    switch (n.kind) {
      case Kind::Or:
      case Kind::And:
        out->left = compile(*n.left);
        out->right = compile(*n.right);
        break;
      case Kind::Not: out->left = compile(*n.left); break;
      case Kind::Exists: out->a.field = &requireField(n.lhs.operand); break;
      case Kind::Compare: compare(n, *out); break;
      case Kind::In: in(n, *out); break;
      case Kind::Value: out->a.arithmetic = arithmetic(n.lhs, nullptr); break;
    }
    return out;
  }

 private:
  // The field an operand names, or null when it is a value.
  const FilterFieldDef* field(const FilterOperand& o) {
    if (o.literal || o.kind == FilterOperand::Kind::String) return nullptr;
    const FilterFieldDef* f = fields_.find(o.text);
    if (!f) return nullptr;
    if (std::find(names_.begin(), names_.end(), f->name) == names_.end()) names_.push_back(f->name);
    // `data` is what no Lua protocol took, so it needs them too.
    if (f->lua >= 0 || isDataField(f->name)) needs_ = true;
    return f;
  }

  const FilterFieldDef& requireField(const FilterOperand& o) {
    const FilterFieldDef* f = field(o);
    if (!f) throw FilterError("\"" + o.text + "\" is neither a field nor a protocol name.", o.pos, o.len);
    return *f;
  }

  std::shared_ptr<const FilterArithmetic> arithmetic(const FilterExpr& e, const FilterFieldDef* context) {
    return FilterArithmetic::compile(e, context, fields_,
                                     [this](const FilterOperand& o) { return field(o); });
  }

  static bool compatible(FilterType a, FilterType b) { return a == b || (isInteger(a) && isInteger(b)); }

  void compare(const FilterNode& n, DisplayFilter::Node& out) {
    if (!n.lhs.isOperand() || !n.rhs.isOperand()) return arithmeticCompare(n, out);
    const FilterOperand *l = &n.lhs.operand, *r = &n.rhs.operand;
    out.op = n.op;
    if (!field(*l) && field(*r)) {
      if (n.op == FilterOp::Contains || n.op == FilterOp::Matches) requireField(*l);
      std::swap(l, r);
      out.op = mirrored(n.op);
    }
    out.a.field = &requireField(*l);
    out.type = out.a.field->type;
    checkOperator(out.op, n.op_text, *out.a.field, l->pos, l->len);
    if (const FilterFieldDef* other = field(*r)) {
      if (!compatible(other->type, out.type))
        throw FilterError(out.a.field->name + " and " + other->name + " are not of compatible types.", n.pos,
                          n.len);
      out.b.field = other;
      return;
    }
    if (out.op == FilterOp::Matches) return regex(*r, out);
    out.b.literal = readLiteral(*r, *out.a.field, fields_);
  }

  // A relation with arithmetic on a side: the left side's first field
  // types it (and a plain value on the right), as in tshark.
  void arithmeticCompare(const FilterNode& n, DisplayFilter::Node& out) {
    if (n.lhs.isOperand() && !field(n.lhs.operand))
      throw FilterError("Left side of \"" + n.op_text + "\" expression must be a field or function, not " +
                            n.lhs.operand.text + ".",
                        n.lhs.pos, n.lhs.len);
    out.a.arithmetic = arithmetic(n.lhs, nullptr);
    const FilterFieldDef& type = out.a.arithmetic->type();
    checkOperator(n.op, n.op_text, type, n.lhs.pos, n.lhs.len);
    out.op = n.op;
    out.type = type.type;
    out.arithmetic = true;
    if (n.rhs.isOperand() && !field(n.rhs.operand)) {  // a value, value names included
      out.b.arithmetic = FilterArithmetic::constant(readLiteral(n.rhs.operand, type, fields_), type);
      return;
    }
    out.b.arithmetic = arithmetic(n.rhs, &type);
    if (!compatible(out.b.arithmetic->type().type, type.type))
      throw FilterError(type.name + " and " + out.b.arithmetic->type().name + " are not of compatible types.",
                        n.rhs.pos, n.rhs.len);
  }

  // `written`: the operator as the filter spells it, which tshark's message repeats.
  void checkOperator(FilterOp op, const std::string& written, const FilterFieldDef& f, size_t pos,
                     size_t len) const {
    const bool text =
        f.type == FilterType::Bytes || f.type == FilterType::String || f.type == FilterType::Ether;
    const bool ordering =
        op == FilterOp::Lt || op == FilterOp::Le || op == FilterOp::Gt || op == FilterOp::Ge;
    bool ok = f.type != FilterType::None;
    if (op == FilterOp::Contains) ok = ok && (text || f.type == FilterType::Protocol);
    if (op == FilterOp::Matches)
      ok = ok && (text || f.type == FilterType::Protocol) && f.type != FilterType::Ether;
    if (ordering) ok = ok && f.type != FilterType::Protocol;
    if (!ok)
      throw FilterError(
          f.name + " (type=" + filterTypeName(f.type) + ") cannot participate in " + written + " comparison.",
          pos, len);
    if (f.type == FilterType::Protocol && !f.has_bytes)
      throw FilterError("rudpscope keeps no bytes of " + f.name + " to compare; test it alone or use frame.",
                        pos, len);
  }

  static void regex(const FilterOperand& o, DisplayFilter::Node& out) {
    auto r = std::make_shared<FilterRegex>();
    int error = 0;
    PCRE2_SIZE at = 0;
    // Wireshark's "matches" ignores case unless the pattern says (?-i).
    r->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(o.text.data()), o.text.size(), PCRE2_CASELESS,
                            &error, &at, nullptr);
    if (!r->code) {
      PCRE2_UCHAR message[256];
      pcre2_get_error_message(error, message, sizeof message);
      throw FilterError("bad regular expression: " + std::string(reinterpret_cast<char*>(message)) + ".",
                        o.pos, o.len);
    }
    r->match = pcre2_match_data_create_from_pattern(r->code, nullptr);
    out.regex = std::move(r);
  }

  void in(const FilterNode& n, DisplayFilter::Node& out) {
    out.a.field = &requireField(n.lhs.operand);
    out.type = out.a.field->type;
    out.negated_in = n.negated_in;
    for (const FilterSetItem& item : n.set) {
      FilterLiteral low = readLiteral(item.low, *out.a.field, fields_);
      FilterLiteral high = item.range ? readLiteral(item.high, *out.a.field, fields_) : low;
      out.set.emplace_back(std::move(low), std::move(high));
    }
  }

  const FilterFields& fields_;
  std::vector<std::string>& names_;
  bool& needs_;
};

}  // namespace

DisplayFilter::DisplayFilter() = default;
DisplayFilter::~DisplayFilter() = default;
DisplayFilter::DisplayFilter(DisplayFilter&&) noexcept = default;
DisplayFilter& DisplayFilter::operator=(DisplayFilter&&) noexcept = default;

DisplayFilter::DisplayFilter(std::string_view text, const LuaHost& host)
    : text_(text), fields_(std::make_unique<FilterFields>(host)) {
  const std::unique_ptr<FilterNode> tree = parseFilter(text);
  if (tree) root_ = Compiler(*fields_, names_, needs_dissectors_).compile(*tree);
}

bool DisplayFilter::matches(const FilterFrame& frame) const { return !root_ || root_->test(*fields_, frame); }

bool DisplayFilter::matchesShown(const FilterFrame& frame, FilterFrameSequence& sequence) const {
  if (!matches(frame)) return false;
  sequence.shown(frame);
  return true;
}

bool DisplayFilter::passesAll() const { return !root_; }

bool DisplayFilter::needsDissectors() const { return needs_dissectors_; }

bool DisplayFilter::needsConversations() const {
  // Data: Wireshark hands no retransmitted or out-of-order segment on;
  // tcp.seq and tcp.ack are relative to where the conversation started.
  return std::any_of(names_.begin(), names_.end(), [](const std::string& n) {
    const auto& streams = streamFieldNames();
    const bool stream = std::find(streams.begin(), streams.end(), n) != streams.end();
    return isTcpNoteField(n) || stream || isDataField(n) || n == "tcp.seq" || n == "tcp.ack";
  });
}

const std::vector<std::string>& DisplayFilter::fieldNames() const { return names_; }

const std::string& DisplayFilter::text() const { return text_; }

}  // namespace rudp
