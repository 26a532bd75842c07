#include "filter/filter_literal.h"

#include <arpa/inet.h>

#include <strings.h>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "lua/host.h"

namespace rudp {

namespace {

[[noreturn]] void fail(const FilterOperand& o, const std::string& message) {
  throw FilterError(message, o.pos, o.len);
}

std::string quoted(const FilterOperand& o) { return "\"" + o.text + "\""; }

FilterLiteral number(uint64_t u) {
  FilterLiteral l;
  l.value.u = u;
  return l;
}

// The whole text as a C integer (decimal, 0x hex, 0 octal).
bool parseInteger(const std::string& text, bool isSigned, uint64_t& out) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  if (!isSigned && text[0] == '-') return false;
  errno = 0;
  char* end = nullptr;
  out = isSigned ? static_cast<uint64_t>(std::strtoll(text.c_str(), &end, 0))
                 : std::strtoull(text.c_str(), &end, 0);
  return errno == 0 && end && *end == '\0';
}

FilterLiteral integer(const FilterOperand& o, const FilterFieldDef& f, const FilterFields& fields) {
  const bool isSigned = f.type == FilterType::Signed;
  uint64_t u = 0;
  if (!parseInteger(o.text, isSigned, u)) {
    static const std::vector<std::pair<int64_t, std::string>> kNone;
    const auto& names = f.lua >= 0 ? fields.host().valueNames(f.lua) : kNone;
    for (const auto& [value, name] : names)
      if (strcasecmp(name.c_str(), o.text.c_str()) == 0) return number(static_cast<uint64_t>(value));
    if (!names.empty()) fail(o, quoted(o) + " cannot be found among the possible values for " + f.name + ".");
    fail(o, quoted(o) + " is not a valid number.");
  }
  const int bits = (f.width > 0 && f.width < 8 ? f.width : 8) * 8;
  if (bits < 64) {
    const int64_t s = static_cast<int64_t>(u);
    const bool fits = isSigned ? s >= -(int64_t(1) << (bits - 1)) && s < (int64_t(1) << (bits - 1))
                               : u < (uint64_t(1) << bits);
    if (!fits)
      fail(o, quoted(o) + " is out of range for " + f.name + " (" + std::to_string(bits) + " bits).");
  }
  return number(u);
}

FilterLiteral boolean(const FilterOperand& o) {
  if (strcasecmp(o.text.c_str(), "true") == 0) return number(1);
  if (strcasecmp(o.text.c_str(), "false") == 0) return number(0);
  uint64_t u = 0;
  if (!parseInteger(o.text, true, u)) fail(o, quoted(o) + " is not a valid boolean.");
  return number(u != 0);
}

// Seconds with up to nine decimals, read exactly into nanoseconds.
FilterLiteral seconds(const FilterOperand& o) {
  const std::string& t = o.text;
  size_t i = t[0] == '-' ? 1 : 0;
  const size_t digitsFrom = i;
  int64_t whole = 0, frac = 0;
  for (; i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])); ++i)
    if (i - digitsFrom < 12) whole = whole * 10 + (t[i] - '0');
  bool ok = i > digitsFrom && i - digitsFrom <= 12;
  if (ok && i < t.size() && t[i] == '.') {
    int places = 0;
    for (++i; i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])) && places < 9; ++i, ++places)
      frac = frac * 10 + (t[i] - '0');
    for (; places < 9; ++places) frac *= 10;
  }
  if (!ok || i != t.size()) fail(o, quoted(o) + " is not a valid time in seconds.");
  // Past int64 nanoseconds (about 292 years) a time stays at the limit: it
  // still orders after every frame's.
  int64_t ns = 0;
  if (__builtin_mul_overflow(whole, 1000000000, &ns) || __builtin_add_overflow(ns, frac, &ns))
    ns = std::numeric_limits<int64_t>::max();
  return number(static_cast<uint64_t>(t[0] == '-' ? -ns : ns));
}

FilterLiteral ipAddress(const FilterOperand& o, int family) {
  const size_t slash = o.text.find('/');
  const std::string host = o.text.substr(0, slash);
  FilterLiteral l;
  l.value.ip.family = static_cast<uint8_t>(family);
  if (inet_pton(family == 4 ? AF_INET : AF_INET6, host.c_str(), l.value.ip.bytes.data()) != 1)
    fail(o, quoted(o) + " is not a valid IPv" + std::to_string(family) +
                " address (rudpscope does not resolve host names).");
  if (slash != std::string::npos) {
    uint64_t bits = 0;
    const int most = family == 4 ? 32 : 128;
    if (!parseInteger(o.text.substr(slash + 1), false, bits) || bits > uint64_t(most))
      fail(o, quoted(o) + " has a bad prefix length (0 to " + std::to_string(most) + ").");
    l.value.prefix = static_cast<int>(bits);
  }
  return l;
}

// "01:02:03", "01-02-03", "01.02.03", "010203", or Cisco's "0102.0304.0506".
bool parseBytes(const std::string& t, std::string& out) {
  const bool cisco = t.size() == 14 && t[4] == '.' && t[9] == '.';
  if (cisco) return parseBytes(t.substr(0, 4) + t.substr(5, 4) + t.substr(10, 4), out);
  const bool separated = t.find_first_of(":-.") != std::string::npos;
  size_t i = 0;
  while (i < t.size()) {
    size_t n = 0;
    while (i + n < t.size() && std::isxdigit(static_cast<unsigned char>(t[i + n])) && n < 2) ++n;
    if (n == 0 || (!separated && n != 2)) return false;
    out += static_cast<char>(std::stoi(t.substr(i, n), nullptr, 16));
    i += n;
    if (separated && i < t.size()) {
      if (!std::strchr(":-.", t[i]) || i + 1 == t.size()) return false;
      ++i;
    }
  }
  return !out.empty();
}

FilterLiteral bytes(const FilterOperand& o, const FilterFieldDef& f) {
  FilterLiteral l;
  l.storage = std::make_shared<std::string>();
  const bool asText = o.kind == FilterOperand::Kind::String && f.type != FilterType::Ether;
  if (asText)
    *l.storage = o.text;
  else if (!parseBytes(o.text, *l.storage))
    fail(o, quoted(o) + " is not a valid byte string.");
  if (f.type == FilterType::Ether && l.storage->size() != 6)
    fail(o, quoted(o) + " is not a valid Ethernet address.");
  l.value.bytes = *l.storage;
  return l;
}

FilterLiteral text(const FilterOperand& o) {
  FilterLiteral l;
  l.storage = std::make_shared<std::string>(o.text);
  l.value.bytes = *l.storage;
  return l;
}

FilterLiteral floating(const FilterOperand& o) {
  char* end = nullptr;
  FilterLiteral l;
  l.value.d = std::strtod(o.text.c_str(), &end);
  if (o.text.empty() || !end || *end) fail(o, quoted(o) + " is not a valid floating-point number.");
  return l;
}

}  // namespace

const char* filterTypeName(FilterType type) {
  switch (type) {
    case FilterType::None: return "Label";
    case FilterType::Bool: return "Boolean";
    case FilterType::Unsigned: return "Unsigned integer";
    case FilterType::Signed: return "Signed integer";
    case FilterType::Double: return "Floating point";
    case FilterType::RelTime: return "Time offset";
    case FilterType::AbsTime: return "Date and time";
    case FilterType::IPv4: return "IPv4 address";
    case FilterType::IPv6: return "IPv6 address";
    case FilterType::Ether: return "Ethernet or other MAC address";
    case FilterType::Bytes: return "Byte sequence";
    case FilterType::String: return "Character string";
    case FilterType::Protocol: return "Protocol";
  }
  return "";
}

FilterLiteral readLiteral(const FilterOperand& o, const FilterFieldDef& f, const FilterFields& fields) {
  switch (f.type) {
    case FilterType::Unsigned:
    case FilterType::Signed: return integer(o, f, fields);
    case FilterType::Bool: return boolean(o);
    case FilterType::Double: return floating(o);
    case FilterType::RelTime:
    case FilterType::AbsTime: return seconds(o);
    case FilterType::IPv4: return ipAddress(o, 4);
    case FilterType::IPv6: return ipAddress(o, 6);
    case FilterType::Ether:
    case FilterType::Bytes:
    case FilterType::Protocol: return bytes(o, f);
    case FilterType::String: return text(o);
    case FilterType::None: break;
  }
  fail(o, f.name + " has no value to compare; test it alone.");
}

}  // namespace rudp
