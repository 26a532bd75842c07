// Arithmetic on display-filter values as Wireshark 4.0's field types do it
// (epan/ftypes/ftype-integer.c): fields up to 4 bytes in 32 bits, wider ones
// in 64; a difference below zero of unsigned values is signed; a result
// that overflows, or a division or remainder by zero, is no value at all.
// Private to analysis/filter.
#pragma once
#include <optional>

#include "filter/filter_fields.h"

namespace rudp {

enum class FilterArith { Add, Subtract, Multiply, Divide, Modulo, BitAnd };

// How `field`'s values take part in arithmetic.
FilterRep filterRep(const FilterFieldDef& field);
// `v` (a value of a field or a literal of `rep`'s type) held as `rep`.
FilterValue withRep(FilterValue v, FilterRep rep);

// a op b, done as a's type does it (the right operand's bits read as that
// type); nullopt when Wireshark gets an error.
std::optional<FilterValue> applyArith(FilterArith op, const FilterValue& a, const FilterValue& b);
// -v: an unsigned value becomes signed; nullopt when it does not fit.
std::optional<FilterValue> negated(const FilterValue& v);
bool nonZero(const FilterValue& v);

// <0, 0, >0 as x is below, equal to or above y, ordered as x's type orders;
// nullopt when that fails (an unsigned x against a negative y), which makes
// == and the orderings false and != true.
std::optional<int> compareNumbers(const FilterValue& x, const FilterValue& y);

// Wireshark's name of the field's type (FT_UINT16, FT_IPv4), for messages.
const char* ftypeName(const FilterFieldDef& field);

}  // namespace rudp
