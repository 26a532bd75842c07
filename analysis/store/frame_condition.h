// A condition on the columns every stored frame has (its number, lengths and
// time): what a display filter over those fields becomes, so the store
// answers it with one query instead of reading the capture again.
#pragma once
#include <cstdint>
#include <vector>

namespace rudp {

struct FrameCondition {
  enum class Kind { All, And, Or, Not, Compare } kind = Kind::All;
  enum class Column { Frame, WireLength, CapturedLength, TimeNs } column = Column::Frame;
  enum class Op { Eq, Ne, Lt, Le, Gt, Ge } op = Op::Eq;
  int64_t value = 0;                     // TimeNs: nanoseconds since the epoch
  std::vector<FrameCondition> children;  // And, Or: two; Not: one
};

}  // namespace rudp
