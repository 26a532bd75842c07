// Field values as `tshark -T fields -e ABBR` prints one occurrence (4.0).
// Verified against tshark 4.0.17 (tests/unit/lua/test_format.cpp):
// OCT and DEC_HEX print decimal, HEX and HEX_DEC print 0x + the field
// width in hex digits, bools 1/0, none fields "1", empty bytes
// "<MISSING>", a proto item its label if one was given else its filter
// name; tshark then escapes \n \r \t in every value.
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "lua/state.h"

namespace rudp::lua {

namespace {

void appendEscaped(std::string& out, const char* p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    switch (p[i]) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: out += p[i];
    }
  }
}

std::string charRepr(uint8_t c) {
  std::string r = "'";
  switch (c) {
    case '\a': r += "\\a"; break;
    case '\b': r += "\\b"; break;
    case '\f': r += "\\f"; break;
    case '\n': r += "\\n"; break;
    case '\r': r += "\\r"; break;
    case '\t': r += "\\t"; break;
    case '\v': r += "\\v"; break;
    case '\\': r += "\\\\"; break;
    case '\'': r += "\\'"; break;
    case 0: r += "\\0"; break;
    default:
      if (c >= 0x20 && c < 0x7f) {
        r += static_cast<char>(c);
      } else {
        char buf[8];
        snprintf(buf, sizeof buf, "\\%03o", c);
        r += buf;
      }
  }
  return r + "'";
}

int hexDigits(FieldType t) {
  switch (t) {
    case FieldType::UInt8: return 2;
    case FieldType::UInt16: return 4;
    case FieldType::UInt24: return 6;
    case FieldType::UInt64: return 16;
    default: return 8;
  }
}

}  // namespace

std::string formatField(const State& s, const FieldValue& v, const DissectResult& r) {
  if (v.field < 0 || static_cast<size_t>(v.field) >= s.fields.size()) return {};
  const FieldInfo& fi = s.fields[v.field];
  const char* str = r.strings.data() + v.str_off;
  const bool str_ok = static_cast<size_t>(v.str_off) + v.str_len <= r.strings.size();
  char buf[64];
  std::string out;
  switch (fi.type) {
    case FieldType::Protocol:
      if (v.u == 1 && str_ok)
        appendEscaped(out, str, v.str_len);
      else
        out = fi.abbrev;
      return out;
    case FieldType::None: return "1";
    case FieldType::Bool: return v.u ? "1" : "0";
    case FieldType::UInt8:
    case FieldType::UInt16:
    case FieldType::UInt24:
    case FieldType::UInt32:
    case FieldType::UInt64: {
      const int b = fi.base & 0xFF;
      if (b == 2 || b == 5)
        snprintf(buf, sizeof buf, "0x%0*" PRIx64, hexDigits(fi.type), v.u);
      else
        snprintf(buf, sizeof buf, "%" PRIu64, v.u);
      return buf;
    }
    case FieldType::FrameNum: snprintf(buf, sizeof buf, "%" PRIu64, v.u); return buf;
    case FieldType::Int8:
    case FieldType::Int16:
    case FieldType::Int24:
    case FieldType::Int32:
    case FieldType::Int64: snprintf(buf, sizeof buf, "%" PRId64, static_cast<int64_t>(v.u)); return buf;
    case FieldType::Char: return charRepr(static_cast<uint8_t>(v.u));
    case FieldType::Bytes:
    case FieldType::Ether: {
      if (!str_ok || v.str_len == 0) return "<MISSING>";
      const char* sep = nullptr;
      if (fi.type == FieldType::Ether || fi.base == 10)
        sep = ":";
      else if (fi.base == 8)
        sep = ".";
      else if (fi.base == 9)
        sep = "-";
      else if (fi.base == 11)
        sep = " ";
      static const char hex[] = "0123456789abcdef";
      for (uint32_t i = 0; i < v.str_len; ++i) {
        if (i && sep) out += sep;
        out += hex[static_cast<uint8_t>(str[i]) >> 4];
        out += hex[static_cast<uint8_t>(str[i]) & 15];
      }
      return out;
    }
    case FieldType::String:
      if (str_ok) appendEscaped(out, str, v.str_len);
      return out;
    case FieldType::Float:
    case FieldType::Double: {
      double d;
      memcpy(&d, &v.u, 8);
      if (fi.type == FieldType::Float)
        snprintf(buf, sizeof buf, "%.6g", static_cast<double>(static_cast<float>(d)));
      else
        snprintf(buf, sizeof buf, "%.15g", d);
      return buf;
    }
    case FieldType::IPv4:
      snprintf(buf, sizeof buf, "%u.%u.%u.%u", static_cast<unsigned>(v.u >> 24 & 255),
               static_cast<unsigned>(v.u >> 16 & 255), static_cast<unsigned>(v.u >> 8 & 255),
               static_cast<unsigned>(v.u & 255));
      return buf;
  }
  return out;
}

}  // namespace rudp::lua
