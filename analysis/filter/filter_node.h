// The compiled form of a display filter, shared by its evaluation
// (display_filter.cpp) and its translation to a stored-field query
// (stored_condition.cpp). Private to analysis/filter.
#pragma once
#include <memory>
#include <utility>
#include <vector>

#include "filter/display_filter.h"
#include "filter/filter_arithmetic.h"
#include "filter/filter_literal.h"

namespace rudp {

struct FilterRegex;  // a compiled PCRE2 pattern (display_filter.cpp)

// One side of a relation: a field's values in the frame, a literal, or
// the values of an arithmetic expression.
struct FilterTerm {
  const FilterFieldDef* field = nullptr;
  FilterLiteral literal;
  std::shared_ptr<const FilterArithmetic> arithmetic;
};

struct DisplayFilter::Node {
  FilterNode::Kind kind = FilterNode::Kind::Exists;
  std::unique_ptr<Node> left, right;
  FilterTerm a, b;  // Compare: a op b; Exists, In, Value: a
  FilterOp op = FilterOp::AnyEq;
  FilterType type = FilterType::None;
  bool arithmetic = false;  // Compare: its sides are numbers, ordered as Wireshark orders them
  std::vector<std::pair<FilterLiteral, FilterLiteral>> set;  // In: low, high (equal for a value)
  bool negated_in = false;
  std::shared_ptr<FilterRegex> regex;
  mutable std::vector<FilterValue> xs, ys;  // per-frame scratch

  bool test(const FilterFields& fields, const FilterFrame& f) const;
  bool relation(const FilterFields& fields, const FilterFrame& f) const;
  bool pair(const FilterValue& x, const FilterValue& y) const;
};

}  // namespace rudp
