#include "filter/filter_number.h"

#include <cstdint>
#include <limits>

namespace rudp {

namespace {

using Rep = FilterRep;

FilterValue number(uint64_t u, Rep rep) {
  FilterValue v;
  v.u = u;
  v.rep = rep;
  return v;
}

FilterValue signed32(int32_t s) { return number(static_cast<uint64_t>(int64_t{s}), Rep::S32); }
FilterValue signed64(int64_t s) { return number(static_cast<uint64_t>(s), Rep::S64); }

uint32_t low32(const FilterValue& v) { return static_cast<uint32_t>(v.u); }
// The 64 bits a 64-bit operation reads: a 32-bit value's, zero-extended.
uint64_t bits64(const FilterValue& v) { return v.rep == Rep::S32 ? low32(v) : v.u; }

template <typename T>
std::optional<T> integerOp(FilterArith op, T a, T b) {
  T r{};
  switch (op) {
    case FilterArith::Add:
      if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
      return r;
    case FilterArith::Subtract:
      if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
      return r;
    case FilterArith::Multiply:
      if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
      return r;
    case FilterArith::BitAnd: return static_cast<T>(a & b);
    default: break;
  }
  const bool overflow = std::numeric_limits<T>::is_signed && a == std::numeric_limits<T>::min() && b == T(-1);
  if (b == 0 || overflow) return std::nullopt;
  return op == FilterArith::Divide ? a / b : a % b;
}

// Unsigned a - b below zero: done signed when both fit the signed type.
template <typename U, typename S>
std::optional<S> signedDifference(U a, U b) {
  if (a > U(std::numeric_limits<S>::max()) || b > U(std::numeric_limits<S>::max())) return std::nullopt;
  return integerOp<S>(FilterArith::Subtract, S(a), S(b));
}

std::optional<FilterValue> unsigned32(FilterArith op, uint32_t a, uint32_t b) {
  if (op == FilterArith::Subtract && b > a) {
    const auto s = signedDifference<uint32_t, int32_t>(a, b);
    return s ? std::optional(signed32(*s)) : std::nullopt;
  }
  const auto r = integerOp<uint32_t>(op, a, b);
  return r ? std::optional(number(*r, Rep::U32)) : std::nullopt;
}

std::optional<FilterValue> unsigned64(FilterArith op, uint64_t a, uint64_t b) {
  if (op == FilterArith::Subtract && b > a) {
    const auto s = signedDifference<uint64_t, int64_t>(a, b);
    return s ? std::optional(signed64(*s)) : std::nullopt;
  }
  const auto r = integerOp<uint64_t>(op, a, b);
  return r ? std::optional(number(*r, Rep::U64)) : std::nullopt;
}

std::optional<FilterValue> floating(FilterArith op, double a, double b) {
  FilterValue v;
  v.rep = Rep::Double;
  if (op == FilterArith::Divide && b == 0) return std::nullopt;
  v.d = op == FilterArith::Add        ? a + b
        : op == FilterArith::Subtract ? a - b
        : op == FilterArith::Multiply ? a * b
                                      : a / b;
  return v;
}

// Times add and subtract as nanoseconds.
FilterValue time(FilterArith op, uint64_t a, uint64_t b) {
  return number(op == FilterArith::Add ? a + b : a - b, Rep::Time);
}

// y read as a 64-bit integer of x's signedness; nullopt when it does not fit.
std::optional<uint64_t> asUnsigned(const FilterValue& y) {
  const bool negative = (y.rep == Rep::S32 || y.rep == Rep::S64) && static_cast<int64_t>(y.u) < 0;
  return negative ? std::nullopt : std::optional(y.u);
}
std::optional<int64_t> asSigned(const FilterValue& y) {
  if (y.rep == Rep::U64 && y.u > uint64_t(std::numeric_limits<int64_t>::max())) return std::nullopt;
  return static_cast<int64_t>(y.u);
}

template <typename T>
int order(T a, T b) {
  return a < b ? -1 : a > b;
}

}  // namespace

FilterRep filterRep(const FilterFieldDef& field) {
  const bool narrow = field.width > 0 && field.width <= 4;
  switch (field.type) {
    case FilterType::Unsigned: return narrow ? Rep::U32 : Rep::U64;
    case FilterType::Signed: return narrow ? Rep::S32 : Rep::S64;
    case FilterType::RelTime:
    case FilterType::AbsTime: return Rep::Time;
    case FilterType::Double: return Rep::Double;
    default: return Rep::Field;
  }
}

FilterValue withRep(FilterValue v, FilterRep rep) {
  v.rep = rep;
  if (rep == Rep::S32) v.u = static_cast<uint64_t>(int64_t{static_cast<int32_t>(low32(v))});
  if (rep == Rep::U32) v.u = low32(v);
  return v;
}

std::optional<FilterValue> applyArith(FilterArith op, const FilterValue& a, const FilterValue& b) {
  switch (a.rep) {
    case Rep::U32: return unsigned32(op, low32(a), low32(b));
    case Rep::S32: {
      const auto r = integerOp<int32_t>(op, static_cast<int32_t>(low32(a)), static_cast<int32_t>(low32(b)));
      return r ? std::optional(signed32(*r)) : std::nullopt;
    }
    case Rep::U64: return unsigned64(op, a.u, bits64(b));
    case Rep::S64: {
      const auto r = integerOp<int64_t>(op, static_cast<int64_t>(a.u), static_cast<int64_t>(bits64(b)));
      return r ? std::optional(signed64(*r)) : std::nullopt;
    }
    case Rep::Time: return time(op, a.u, b.u);
    case Rep::Double: return floating(op, a.d, b.d);
    case Rep::Field: break;
  }
  return std::nullopt;
}

std::optional<FilterValue> negated(const FilterValue& v) {
  switch (v.rep) {
    case Rep::U32:
      if (v.u > uint64_t(std::numeric_limits<int32_t>::max())) return std::nullopt;
      return signed32(-static_cast<int32_t>(v.u));
    case Rep::S32: return signed32(static_cast<int32_t>(0u - low32(v)));
    case Rep::U64:
      if (v.u > uint64_t(std::numeric_limits<int64_t>::max())) return std::nullopt;
      return signed64(-static_cast<int64_t>(v.u));
    case Rep::S64:
    case Rep::Time: return number(0 - v.u, v.rep);
    case Rep::Double: {
      FilterValue d = v;
      d.d = -v.d;
      return d;
    }
    case Rep::Field: break;
  }
  return std::nullopt;
}

bool nonZero(const FilterValue& v) { return v.rep == Rep::Double ? v.d != 0 : v.u != 0; }

std::optional<int> compareNumbers(const FilterValue& x, const FilterValue& y) {
  switch (x.rep) {
    case Rep::U32:
    case Rep::U64: {
      const auto b = asUnsigned(y);
      return b ? std::optional(order(x.u, *b)) : std::nullopt;
    }
    case Rep::S32:
    case Rep::S64: {
      const auto b = asSigned(y);
      return b ? std::optional(order(static_cast<int64_t>(x.u), *b)) : std::nullopt;
    }
    case Rep::Time: return order(static_cast<int64_t>(x.u), static_cast<int64_t>(y.u));
    case Rep::Double: return order(x.d, y.d);
    case Rep::Field: break;
  }
  return std::nullopt;
}

const char* ftypeName(const FilterFieldDef& field) {
  static const char* const kUnsigned[] = {"FT_UINT64", "FT_UINT8", "FT_UINT16", "FT_UINT24", "FT_UINT32"};
  static const char* const kSigned[] = {"FT_INT64", "FT_INT8", "FT_INT16", "FT_INT24", "FT_INT32"};
  const int width = field.width > 0 && field.width <= 4 ? field.width : 0;
  switch (field.type) {
    case FilterType::None: return "FT_NONE";
    case FilterType::Bool: return "FT_BOOLEAN";
    case FilterType::Unsigned: return kUnsigned[width];
    case FilterType::Signed: return kSigned[width];
    case FilterType::Double: return field.width == 4 ? "FT_FLOAT" : "FT_DOUBLE";
    case FilterType::RelTime: return "FT_RELATIVE_TIME";
    case FilterType::AbsTime: return "FT_ABSOLUTE_TIME";
    case FilterType::IPv4: return "FT_IPv4";
    case FilterType::IPv6: return "FT_IPv6";
    case FilterType::Ether: return "FT_ETHER";
    case FilterType::Bytes: return "FT_BYTES";
    case FilterType::String: return "FT_STRING";
    case FilterType::Protocol: return "FT_PROTOCOL";
  }
  return "FT_NONE";
}

}  // namespace rudp
