#include "filter/filter_syntax.h"

#include <cctype>
#include <cstring>
#include <optional>

namespace rudp {

namespace {

enum class Tok {
  End,
  Word,
  String,
  LParen,
  RParen,
  LBrace,
  RBrace,
  Comma,
  Op,
  And,
  Or,
  Not,
  In,
  Amp,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Bad
};

struct Token {
  Tok type = Tok::End;
  std::string text;  // Word: as written; String: unescaped; Op/Bad: as written
  FilterOp op = FilterOp::AnyEq;
  bool literal = false;  // Word written with a leading ':'
  size_t pos = 0, len = 0;
};

// Characters of a bare word: field names, numbers, addresses, byte strings.
// A word never starts with '-' (that is a minus) and '/' continues one only
// after an address (addressSoFar).
bool wordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_.:/-", c) != nullptr;
}

// Whether `w` can be the address of a subnet (10.0.0.0/8, fe80::/64), so a
// '/' after it is the prefix; after anything else (frame.len/2) it divides.
bool addressSoFar(std::string_view w) {
  const bool hexOnly = w.find_first_not_of("0123456789abcdefABCDEF.:") == std::string_view::npos;
  return hexOnly && w.find_first_of(".:") != std::string_view::npos;
}

struct Keyword {
  const char* text;
  Tok type;
  FilterOp op;
};
const Keyword kKeywords[] = {
    {"and", Tok::And, {}},
    {"or", Tok::Or, {}},
    {"not", Tok::Not, {}},
    {"in", Tok::In, {}},
    {"eq", Tok::Op, FilterOp::AnyEq},
    {"any_eq", Tok::Op, FilterOp::AnyEq},
    {"ne", Tok::Op, FilterOp::AllNe},
    {"all_ne", Tok::Op, FilterOp::AllNe},
    {"all_eq", Tok::Op, FilterOp::AllEq},
    {"any_ne", Tok::Op, FilterOp::AnyNe},
    {"lt", Tok::Op, FilterOp::Lt},
    {"le", Tok::Op, FilterOp::Le},
    {"gt", Tok::Op, FilterOp::Gt},
    {"ge", Tok::Op, FilterOp::Ge},
    {"contains", Tok::Op, FilterOp::Contains},
    {"matches", Tok::Op, FilterOp::Matches},
};

struct Symbol {
  const char* text;
  Tok type;
  FilterOp op;
};
// Longest first, so "===" is not read as "==" "=".
const Symbol kSymbols[] = {
    {"===", Tok::Op, FilterOp::AllEq},
    {"!==", Tok::Op, FilterOp::AnyNe},
    {"==", Tok::Op, FilterOp::AnyEq},
    {"!=", Tok::Op, FilterOp::AllNe},
    {"~=", Tok::Op, FilterOp::AnyNe},
    {"<=", Tok::Op, FilterOp::Le},
    {">=", Tok::Op, FilterOp::Ge},
    {"&&", Tok::And, {}},
    {"||", Tok::Or, {}},
    {"<", Tok::Op, FilterOp::Lt},
    {">", Tok::Op, FilterOp::Gt},
    {"~", Tok::Op, FilterOp::Matches},
    {"!", Tok::Not, {}},
    {"&", Tok::Amp, {}},
    {"+", Tok::Plus, {}},
    {"-", Tok::Minus, {}},
    {"*", Tok::Star, {}},
    {"/", Tok::Slash, {}},
    {"%", Tok::Percent, {}},
    {"(", Tok::LParen, {}},
    {")", Tok::RParen, {}},
    {"{", Tok::LBrace, {}},
    {"}", Tok::RBrace, {}},
    {",", Tok::Comma, {}},
};

class Lexer {
 public:
  explicit Lexer(std::string_view text) : s_(text) {}

  Token next() {
    while (at_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[at_]))) ++at_;
    Token t;
    t.pos = at_;
    if (at_ >= s_.size()) return t;
    if (s_[at_] == '"' || (s_[at_] == 'r' && at_ + 1 < s_.size() && s_[at_ + 1] == '"')) return string(t);
    for (const Symbol& sym : kSymbols) {
      const size_t n = std::strlen(sym.text);
      if (s_.compare(at_, n, sym.text) != 0) continue;
      t.type = sym.type;
      t.op = sym.op;
      t.text = sym.text;
      return finish(t, n);
    }
    if (!wordChar(s_[at_])) {
      t.type = Tok::Bad;
      t.text = std::string(1, s_[at_]);
      return finish(t, 1);
    }
    return word(t);
  }

 private:
  Token finish(Token& t, size_t n) {
    t.len = n;
    at_ += n;
    return t;
  }

  Token word(Token& t) {
    size_t end = at_;
    while (end < s_.size() && wordChar(s_[end])) {
      const bool prefix = end + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[end + 1])) &&
                          addressSoFar(s_.substr(at_, end - at_));
      if (s_[end] == '/' && !prefix) break;
      ++end;
    }
    t.text = std::string(s_.substr(at_, end - at_));
    t.type = Tok::Word;
    for (const Keyword& k : kKeywords)
      if (t.text == k.text) {
        t.type = k.type;
        t.op = k.op;
      }
    // A leading ':' marks a literal, except in an IPv6 address written with
    // a leading "::" (::1, ::ffff:10.0.0.1); ":::1" is the marker and ::1.
    const bool ipv6Head = t.text.size() > 1 && t.text[1] == ':' && (t.text.size() == 2 || t.text[2] != ':');
    if (t.type == Tok::Word && t.text[0] == ':' && !ipv6Head) {
      t.literal = true;
      t.text.erase(0, 1);
    }
    return finish(t, end - at_);
  }

  // "..." with C escapes, or r"..." taken as written.
  Token string(Token& t) {
    const bool raw = s_[at_] == 'r';
    size_t i = at_ + (raw ? 2 : 1);
    t.type = Tok::String;
    for (; i < s_.size() && s_[i] != '"'; ++i) {
      if (s_[i] != '\\' || i + 1 >= s_.size()) {
        t.text += s_[i];
        continue;
      }
      if (raw) {
        t.text += s_.substr(i, 2);
        ++i;
        continue;
      }
      i = escape(i + 1, t.text);
    }
    if (i >= s_.size()) throw FilterError("the string is not closed", t.pos, s_.size() - t.pos);
    return finish(t, i + 1 - at_);
  }

  // Resolves the escape whose letter is at `i`; returns its last character.
  size_t escape(size_t i, std::string& out) const {
    static const char kFrom[] = "abfnrtv", kTo[] = "\a\b\f\n\r\t\v";
    const char c = s_[i];
    if (const char* p = std::strchr(kFrom, c); p && c) {
      out += kTo[p - kFrom];
      return i;
    }
    auto digits = [&](size_t from, size_t most, int base) {
      size_t n = 0;
      int value = 0;
      while (n < most && from + n < s_.size() && std::isxdigit(static_cast<unsigned char>(s_[from + n])) &&
             (base == 16 || (s_[from + n] >= '0' && s_[from + n] <= '7'))) {
        value = value * base + std::stoi(std::string(1, s_[from + n]), nullptr, 16);
        ++n;
      }
      if (n == 0) throw FilterError("bad escape \\" + std::string(1, c) + " in a string", from - 1, 2);
      out += static_cast<char>(value);
      return from + n - 1;
    };
    if (c == 'x') return digits(i + 1, 2, 16);
    if (c >= '0' && c <= '7') return digits(i, 3, 8);
    out += c;  // \\ \" and any other character stand for themselves
    return i;
  }

  std::string_view s_;
  size_t at_ = 0;
};

class Parser {
 public:
  explicit Parser(std::string_view text) : lexer_(text), text_(text) { advance(); }

  std::unique_ptr<FilterNode> parse() {
    auto node = orExpr();
    if (cur_.type != Tok::End) fail("\"" + cur_.text + "\" was unexpected in this context.");
    return node;
  }

 private:
  void advance() {
    last_end_ = cur_.pos + cur_.len;
    cur_ = lexer_.next();
  }

  [[noreturn]] void fail(const std::string& message) const {
    if (cur_.type == Tok::End) throw FilterError("Unexpected end of filter expression.", text_.size(), 0);
    throw FilterError(message, cur_.pos, cur_.len);
  }

  static std::unique_ptr<FilterNode> binary(FilterNode::Kind kind, std::unique_ptr<FilterNode> l,
                                            std::unique_ptr<FilterNode> r) {
    auto n = std::make_unique<FilterNode>();
    n->kind = kind;
    n->pos = l->pos;
    n->len = r->pos + r->len - l->pos;
    n->left = std::move(l);
    n->right = std::move(r);
    return n;
  }

  // Wireshark's precedence: or < and < not (4.0 has no xor).
  std::unique_ptr<FilterNode> orExpr() {
    auto n = andExpr();
    while (cur_.type == Tok::Or) {
      countOperator();
      advance();
      n = binary(FilterNode::Kind::Or, std::move(n), andExpr());
    }
    return n;
  }
  std::unique_ptr<FilterNode> andExpr() {
    auto n = unary();
    while (cur_.type == Tok::And) {
      countOperator();
      advance();
      n = binary(FilterNode::Kind::And, std::move(n), unary());
    }
    return n;
  }

  // The parser recurses into (...), {...} and not: deeper nesting, or more
  // operators (each a level of the tree), is refused. tshark 4.0 refuses
  // about 100 parentheses already.
  static constexpr int kMostNesting = 256, kMostOperators = 2000;
  class Nested {
   public:
    explicit Nested(Parser& p) : p_(p) {
      if (++p_.depth_ > kMostNesting) p_.fail("the filter nests more than 256 levels deep.");
    }
    ~Nested() { --p_.depth_; }
    Nested(const Nested&) = delete;
    Nested& operator=(const Nested&) = delete;

   private:
    Parser& p_;
  };
  void countOperator() {
    if (++operators_ > kMostOperators) fail("the filter has more than 2000 operators.");
  }

  std::unique_ptr<FilterNode> unary() {
    const Nested nested(*this);
    if (cur_.type == Tok::Not) {
      const size_t pos = cur_.pos;
      advance();
      auto n = std::make_unique<FilterNode>();
      n->kind = FilterNode::Kind::Not;
      n->left = unary();
      n->pos = pos;
      n->len = n->left->pos + n->left->len - pos;
      return n;
    }
    if (cur_.type == Tok::LParen) {
      advance();
      auto n = orExpr();
      if (cur_.type != Tok::RParen) fail("\"" + cur_.text + "\" was unexpected in this context.");
      advance();
      return n;
    }
    return relation();
  }

  FilterOperand operand() {
    if (cur_.type == Tok::Bad && cur_.text == "[")
      fail("slices ([...]) are not supported by rudpscope's display filters.");
    if (cur_.type != Tok::Word && cur_.type != Tok::String)
      fail("\"" + cur_.text + "\" was unexpected in this context.");
    FilterOperand o;
    o.kind = cur_.type == Tok::String ? FilterOperand::Kind::String : FilterOperand::Kind::Word;
    o.text = cur_.text;
    o.literal = cur_.literal;
    o.pos = cur_.pos;
    o.len = cur_.len;
    advance();
    if (cur_.type == Tok::LParen && o.kind == FilterOperand::Kind::Word)
      fail("functions are not supported by rudpscope's display filters.");
    return o;
  }

  // A relation, a set test, or an operand or arithmetic expression alone.
  std::unique_ptr<FilterNode> relation() {
    auto n = std::make_unique<FilterNode>();
    n->lhs = arithmetic();
    n->pos = n->lhs.pos;
    n->kind = n->lhs.isOperand() ? FilterNode::Kind::Exists : FilterNode::Kind::Value;
    const bool textual = cur_.op == FilterOp::Contains || cur_.op == FilterOp::Matches;
    if (cur_.type == Tok::Op) {
      if (textual && !n->lhs.isOperand()) unexpected();  // 4.0: only an operand contains or matches
      n->kind = FilterNode::Kind::Compare;
      n->op = cur_.op;
      n->op_text = cur_.text;
      advance();
      n->rhs = textual ? operandExpr() : arithmetic();
    } else if (cur_.type == Tok::In || cur_.type == Tok::Not) {
      if (!n->lhs.isOperand()) unexpected();
      n->kind = FilterNode::Kind::In;
      n->negated_in = cur_.type == Tok::Not;
      advance();
      if (n->negated_in) {
        if (cur_.type != Tok::In) unexpected();
        advance();
      }
      set(*n);
    }
    n->len = last_end_ - n->pos;
    return n;
  }

  [[noreturn]] void unexpected() const { fail("\"" + cur_.text + "\" was unexpected in this context."); }

  FilterExpr operandExpr() {
    FilterExpr e;
    e.operand = operand();
    e.pos = e.operand.pos;
    e.len = e.operand.len;
    return e;
  }

  // The binary operators of one precedence level: 0 &, 1 + -, 2 * / %.
  static std::optional<FilterExpr::Kind> binaryOperator(Tok t, int level) {
    using K = FilterExpr::Kind;
    if (level == 0) return t == Tok::Amp ? std::optional(K::BitAnd) : std::nullopt;
    if (level == 1 && (t == Tok::Plus || t == Tok::Minus)) return t == Tok::Plus ? K::Add : K::Subtract;
    if (level != 2) return std::nullopt;
    if (t == Tok::Star) return K::Multiply;
    if (t == Tok::Slash) return K::Divide;
    return t == Tok::Percent ? std::optional(K::Modulo) : std::nullopt;
  }

  FilterExpr arithmetic(int level = 0) {
    FilterExpr e = level == 2 ? unaryExpr() : arithmetic(level + 1);
    while (const auto kind = binaryOperator(cur_.type, level)) {
      FilterExpr joined;
      joined.kind = *kind;
      joined.op_text = cur_.text;
      countOperator();
      advance();
      joined.right = std::make_unique<FilterExpr>(level == 2 ? unaryExpr() : arithmetic(level + 1));
      joined.pos = e.pos;
      joined.len = joined.right->pos + joined.right->len - e.pos;
      joined.left = std::make_unique<FilterExpr>(std::move(e));
      e = std::move(joined);
    }
    return e;
  }

  // -operand, +operand, {expression} or an operand.
  FilterExpr unaryExpr() {
    const Token sign = cur_;
    if (sign.type == Tok::LBrace) {
      const Nested nested(*this);
      advance();
      FilterExpr e = arithmetic();
      if (cur_.type != Tok::RBrace) unexpected();
      advance();
      return e;
    }
    if (sign.type != Tok::Minus && sign.type != Tok::Plus) return operandExpr();
    advance();
    FilterExpr inner = operandExpr();
    if (sign.type == Tok::Plus) return inner;
    FilterExpr e;
    e.kind = FilterExpr::Kind::Negate;
    e.op_text = sign.text;
    e.pos = sign.pos;
    e.len = inner.pos + inner.len - sign.pos;
    e.left = std::make_unique<FilterExpr>(std::move(inner));
    return e;
  }

  void set(FilterNode& n) {
    if (cur_.type != Tok::LBrace) fail("\"" + cur_.text + "\" was unexpected in this context.");
    advance();
    for (;;) {
      n.set.push_back(setItem());
      if (cur_.type == Tok::RBrace) break;
      if (cur_.type != Tok::Comma) fail("\"" + cur_.text + "\" was unexpected in this context.");
      advance();
    }
    advance();
  }

  // A value, or a range written "lo..hi" (one word), "lo .. hi" or "lo ..hi".
  FilterSetItem setItem() {
    FilterSetItem item;
    item.low = signedOperand();
    std::string rest;
    size_t restPos = 0;
    const size_t dots =
        item.low.kind == FilterOperand::Kind::Word ? item.low.text.find("..") : std::string::npos;
    if (dots != std::string::npos) {
      rest = item.low.text.substr(dots + 2);
      restPos = item.low.pos + dots + 2;
      item.low.text.resize(dots);
      item.low.len = dots;
    } else if (cur_.type == Tok::Word && cur_.text.rfind("..", 0) == 0) {
      rest = cur_.text.substr(2);
      restPos = cur_.pos + 2;
      advance();
    } else {
      return item;
    }
    item.range = true;
    if (rest.empty()) {
      item.high = signedOperand();
    } else {
      item.high = item.low;
      item.high.text = rest;
      item.high.pos = restPos;
      item.high.len = rest.size();
    }
    return item;
  }

  // A set member may be written with a sign (-1, +2): one word here.
  FilterOperand signedOperand() {
    if (cur_.type != Tok::Minus && cur_.type != Tok::Plus) return operand();
    const Token sign = cur_;
    advance();
    FilterOperand o = operand();
    if (sign.type == Tok::Minus) o.text.insert(0, "-");
    o.len = o.pos + o.len - sign.pos;
    o.pos = sign.pos;
    return o;
  }

  Lexer lexer_;
  std::string_view text_;
  Token cur_;
  size_t last_end_ = 0;
  int depth_ = 0, operators_ = 0;
};

}  // namespace

std::string describeFilterError(const std::string& option, std::string_view text, const FilterError& e) {
  return option + " \"" + std::string(text) + "\": " + e.what() + " (at column " +
         std::to_string(e.position() + 1) + ")";
}

std::unique_ptr<FilterNode> parseFilter(std::string_view text) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return nullptr;
  Parser p(text);
  return p.parse();
}

}  // namespace rudp
