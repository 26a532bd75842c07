// DisplayFilter::storedCondition: a filter over the stored frame columns,
// answered by the database instead of reading the capture again.
#include <optional>
#include <string_view>

#include "filter/filter_node.h"

namespace rudp {

namespace {

using Kind = FilterNode::Kind;
using Column = FrameCondition::Column;
using Op = FrameCondition::Op;

struct StoredField {
  std::string_view name;
  Column column;
  bool relative_time;
};
const StoredField kStored[] = {
    {"frame.number", Column::Frame, false},           {"frame.len", Column::WireLength, false},
    {"frame.cap_len", Column::CapturedLength, false}, {"frame.time_relative", Column::TimeNs, true},
    {"frame.time_epoch", Column::TimeNs, false},
};

const StoredField* storedField(const FilterTerm& t) {
  if (!t.field) return nullptr;
  for (const StoredField& s : kStored)
    if (s.name == t.field->name) return &s;
  return nullptr;
}

FrameCondition join(FrameCondition::Kind kind, FrameCondition a, FrameCondition b) {
  FrameCondition c;
  c.kind = kind;
  c.children.push_back(std::move(a));
  c.children.push_back(std::move(b));
  return c;
}

// Every stored field has one value in every frame, so Wireshark's any/all
// forms of == and != agree.
std::optional<Op> storedOp(FilterOp op) {
  switch (op) {
    case FilterOp::AnyEq:
    case FilterOp::AllEq: return Op::Eq;
    case FilterOp::AllNe:
    case FilterOp::AnyNe: return Op::Ne;
    case FilterOp::Lt: return Op::Lt;
    case FilterOp::Le: return Op::Le;
    case FilterOp::Gt: return Op::Gt;
    case FilterOp::Ge: return Op::Ge;
    default: return std::nullopt;
  }
}

class Translator {
 public:
  explicit Translator(int64_t firstTsNs) : first_(firstTsNs) {}

  std::optional<FrameCondition> operator()(const DisplayFilter::Node& n) const {
    switch (n.kind) {
      case Kind::Or: return both(FrameCondition::Kind::Or, n);
      case Kind::And: return both(FrameCondition::Kind::And, n);
      case Kind::Not: {
        auto inner = (*this)(*n.left);
        if (!inner) return std::nullopt;
        FrameCondition c;
        c.kind = FrameCondition::Kind::Not;
        c.children.push_back(std::move(*inner));
        return c;
      }
      case Kind::Exists:
        if (!storedField(n.a) && !(n.a.field && n.a.field->name == "frame")) return std::nullopt;
        return FrameCondition{};  // every frame has them
      case Kind::Compare: return compare(n);
      case Kind::In: return in(n);
      case Kind::Value: return std::nullopt;  // arithmetic: the frames are read
    }
    return std::nullopt;
  }

 private:
  std::optional<FrameCondition> both(FrameCondition::Kind kind, const DisplayFilter::Node& n) const {
    auto a = (*this)(*n.left), b = (*this)(*n.right);
    if (!a || !b) return std::nullopt;
    return join(kind, std::move(*a), std::move(*b));
  }

  FrameCondition test(const StoredField& f, Op op, const FilterValue& v) const {
    FrameCondition c;
    c.kind = FrameCondition::Kind::Compare;
    c.column = f.column;
    c.op = op;
    c.value = static_cast<int64_t>(v.u) + (f.relative_time ? first_ : 0);
    return c;
  }

  std::optional<FrameCondition> compare(const DisplayFilter::Node& n) const {
    const StoredField* f = storedField(n.a);
    const std::optional<Op> op = storedOp(n.op);
    if (!f || !op || n.b.field || n.arithmetic) return std::nullopt;
    return test(*f, *op, n.b.literal.value);
  }

  std::optional<FrameCondition> in(const DisplayFilter::Node& n) const {
    const StoredField* f = storedField(n.a);
    if (!f || n.set.empty()) return std::nullopt;
    std::optional<FrameCondition> any;
    for (const auto& [low, high] : n.set) {
      FrameCondition item =
          join(FrameCondition::Kind::And, test(*f, Op::Ge, low.value), test(*f, Op::Le, high.value));
      any = any ? join(FrameCondition::Kind::Or, std::move(*any), std::move(item)) : std::move(item);
    }
    if (!n.negated_in) return any;
    FrameCondition c;
    c.kind = FrameCondition::Kind::Not;
    c.children.push_back(std::move(*any));
    return c;
  }

  int64_t first_;
};

}  // namespace

std::optional<FrameCondition> DisplayFilter::storedCondition(int64_t firstTsNs) const {
  if (!root_) return FrameCondition{};
  return Translator(firstTsNs)(*root_);
}

}  // namespace rudp
