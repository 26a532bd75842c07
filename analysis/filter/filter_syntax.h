// Wireshark 4.0 display-filter syntax, parsed into a tree; what the names
// mean (fields, literals, types) is decided later by DisplayFilter.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace rudp {

// A filter that cannot be used: the message and the characters it is about.
class FilterError : public Error {
 public:
  FilterError(const std::string& message, size_t position, size_t length)
      : Error(message), position_(position), length_(length) {}
  size_t position() const { return position_; }  // 0-based, in bytes
  size_t length() const { return length_; }

 private:
  size_t position_, length_;
};

// One line for a command line: `option "text": message (at column N)`.
std::string describeFilterError(const std::string& option, std::string_view text, const FilterError& e);

// One side of a relation as written: a name (a field, or a literal such as
// 10.0.0.0/8 or DATA) or a quoted string.
struct FilterOperand {
  enum class Kind { Word, String } kind = Kind::Word;
  std::string text;         // the word, or the string with its escapes resolved
  bool literal = false;     // written with a leading ':' (never a field)
  size_t pos = 0, len = 0;  // where it is written
};

enum class FilterOp { AnyEq, AllNe, AllEq, AnyNe, Lt, Le, Gt, Ge, Contains, Matches };

// One member of a set: a value, or a range lo..hi (both ends included).
struct FilterSetItem {
  FilterOperand low, high;
  bool range = false;
};

// An arithmetic expression as written, or one operand alone. Wireshark
// 4.0's precedence: & below + and -, below * / and %, below unary - and +
// (which take one operand, not a {group}); {braces} group.
struct FilterExpr {
  enum class Kind { Operand, Negate, Add, Subtract, Multiply, Divide, Modulo, BitAnd } kind = Kind::Operand;
  FilterOperand operand;                    // Operand
  std::unique_ptr<FilterExpr> left, right;  // Negate: left
  std::string op_text;                      // the operator as written ("+", "&")
  size_t pos = 0, len = 0;
  bool isOperand() const { return kind == Kind::Operand; }
};

struct FilterNode {
  // Value: an arithmetic expression alone, true where one of its values is not zero.
  enum class Kind { Or, And, Not, Exists, Compare, In, Value } kind;
  size_t pos = 0, len = 0;
  std::unique_ptr<FilterNode> left, right;  // Or/And: both; Not: left
  FilterExpr lhs;                           // Exists, In: an operand; Compare, Value
  FilterExpr rhs;                           // Compare
  FilterOp op = FilterOp::AnyEq;            // Compare
  std::string op_text;                      // the operator as written ("==", "eq")
  std::vector<FilterSetItem> set;           // In
  bool negated_in = false;                  // `not in`
};

// Parses `text`; throws FilterError with the position of the first problem.
// An empty (or all-blank) text gives null: every frame passes.
std::unique_ptr<FilterNode> parseFilter(std::string_view text);

}  // namespace rudp
