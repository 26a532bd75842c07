// An arithmetic expression of a display filter (udp.length - 8,
// -grudp.ts, {kcp.sn - kcp.una} % 2) compiled against the fields, and its
// values in a frame as Wireshark 4.0 works them out: every combination of
// its operands' values, each result an error gives left out. Private to
// analysis/filter.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "filter/filter_fields.h"
#include "filter/filter_literal.h"
#include "filter/filter_number.h"
#include "filter/filter_syntax.h"

namespace rudp {

class FilterArithmetic {
 public:
  // The field an operand names (noting it as named), or null for a value.
  using FieldLookup = std::function<const FilterFieldDef*(const FilterOperand&)>;

  // Compiles `expr`. A value in it is read as the type of `context` (the
  // field a relation's left side starts with) or, without one, as the type
  // of what is left of it; it cannot come first then. Throws FilterError
  // with tshark's reasons (a type that cannot add, incompatible types).
  static std::unique_ptr<FilterArithmetic> compile(const FilterExpr& expr, const FilterFieldDef* context,
                                                   const FilterFields& fields, const FieldLookup& lookup);
  // One value of `type`.
  static std::unique_ptr<FilterArithmetic> constant(const FilterLiteral& literal, const FilterFieldDef& type);

  // The type it has: its first field's (tshark types a result so).
  const FilterFieldDef& type() const { return *type_; }

  // Its values in `frame` into `out`; false when a field it names is absent
  // there (a relation over it is then false, whatever the operator).
  bool values(const FilterFields& fields, const FilterFrame& frame, std::vector<FilterValue>& out) const;

 private:
  class Compiler;

  FilterExpr::Kind kind_ = FilterExpr::Kind::Operand;
  const FilterFieldDef* type_ = nullptr;
  const FilterFieldDef* field_ = nullptr;  // Operand: a field's values, or
  FilterLiteral literal_;                  // this value
  std::unique_ptr<FilterArithmetic> left_, right_;
  mutable std::vector<FilterValue> xs_, ys_;  // per-frame scratch
};

}  // namespace rudp
