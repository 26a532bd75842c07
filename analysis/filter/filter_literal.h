// A value written in a display filter, read as the type of the field it is
// compared with (Wireshark reads "10.0.0.0/8", "0x1f", "DATA" or
// "00:11:22:33:44:55" by the field's type).
#pragma once
#include <memory>
#include <string>

#include "filter/filter_fields.h"
#include "filter/filter_syntax.h"

namespace rudp {

// A literal's value; `storage` owns what `value.bytes` views.
struct FilterLiteral {
  FilterValue value;
  std::shared_ptr<std::string> storage;
};

// Throws FilterError at the operand when it is not a value of `field`'s type.
FilterLiteral readLiteral(const FilterOperand& operand, const FilterFieldDef& field,
                          const FilterFields& fields);

const char* filterTypeName(FilterType type);

}  // namespace rudp
