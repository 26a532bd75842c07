// A condition on the columns every stored frame has (its number, lengths and
// time): what a display filter over those fields becomes, so the store
// answers it from its narrow frame index instead of reading the capture again.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace rudp {

// One frame's stored columns, indexed by FrameCondition::Column.
using FrameColumns = std::array<int64_t, 4>;

struct FrameCondition {
  enum class Kind { All, And, Or, Not, Compare } kind = Kind::All;
  enum class Column { Frame, WireLength, CapturedLength, TimeNs } column = Column::Frame;
  enum class Op { Eq, Ne, Lt, Le, Gt, Ge } op = Op::Eq;
  int64_t value = 0;                     // TimeNs: nanoseconds since the epoch
  std::vector<FrameCondition> children;  // And, Or: two; Not: one

  bool holdsFor(const FrameColumns& frame) const {
    switch (kind) {
      case Kind::All: return true;
      case Kind::And: return children[0].holdsFor(frame) && children[1].holdsFor(frame);
      case Kind::Or: return children[0].holdsFor(frame) || children[1].holdsFor(frame);
      case Kind::Not: return !children[0].holdsFor(frame);
      case Kind::Compare: break;
    }
    const int64_t v = frame[static_cast<size_t>(column)];
    switch (op) {
      case Op::Eq: return v == value;
      case Op::Ne: return v != value;
      case Op::Lt: return v < value;
      case Op::Le: return v <= value;
      case Op::Gt: return v > value;
      case Op::Ge: return v >= value;
    }
    return false;
  }
};

}  // namespace rudp
