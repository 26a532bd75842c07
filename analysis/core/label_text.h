// Pieces of Wireshark's details-tree labels (proto.c), shared by the Lua
// host's items and the built-in layers.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

namespace rudp {

// The bit pattern before a bitmask field's label: the mask's bits, most
// significant first, '.' outside it, a space every four bits, then "= "
// ("0001 .... = Version: 1").
inline std::string bitPattern(uint64_t bits, uint64_t mask, int width) {
  std::string out;
  for (int i = width - 1; i >= 0; --i) {
    const uint64_t bit = 1ull << i;
    out += (mask & bit) ? ((bits & bit) ? '1' : '0') : '.';
    if (i > 0 && i % 4 == 0) out += ' ';
  }
  return out + " = ";
}

// Bytes in hex; a label's (`cut`) end after 36 bytes with "…".
inline std::string hexBytes(const uint8_t* p, uint32_t n, bool cut = true) {
  static const char kDigits[] = "0123456789abcdef";
  constexpr uint32_t kLabelBytes = 36;
  const uint32_t shown = cut ? std::min(n, kLabelBytes) : n;
  std::string out;
  out.reserve(size_t(shown) * 2 + 3);
  for (uint32_t i = 0; i < shown; ++i) {
    out += kDigits[p[i] >> 4];
    out += kDigits[p[i] & 15];
  }
  return shown < n ? out + "\xE2\x80\xA6" : out;
}

// "02:00:00:00:00:01": a MAC address as tshark -n prints it.
inline std::string macText(const uint8_t* p) {
  char buf[18];
  std::snprintf(buf, sizeof buf, "%02x:%02x:%02x:%02x:%02x:%02x", p[0], p[1], p[2], p[3], p[4], p[5]);
  return buf;
}

// Bytes read as ENC_ASCII text and shown as Wireshark's format_text shows
// it: up to the first NUL; bytes past 0x7f as U+FFFD; control characters
// as C escapes (\n, \t, ..., else octal \033).
inline std::string asciiText(const uint8_t* p, uint32_t n) {
  std::string out;
  for (uint32_t i = 0; i < n && p[i] != 0; ++i) {
    const uint8_t c = p[i];
    static const char kEscapes[] = "abtnvfr";  // \a (7) to \r (13)
    if (c >= 0x80)
      out += "\xEF\xBF\xBD";
    else if (c >= 0x20 && c < 0x7f)
      out += char(c);
    else if (c >= 7 && c <= 13)
      out += std::string("\\") + kEscapes[c - 7];
    else
      out += {'\\', char('0' + (c >> 6)), char('0' + ((c >> 3) & 7)), char('0' + (c & 7))};
  }
  return out;
}

// A field's label "name: text" as proto.c's label_fill writes it into its
// 240-byte buffer: a longer one becomes "name [truncated]: text" cut to
// 238 bytes, at a UTF-8 character's start.
inline std::string fieldLabel(const std::string& name, const std::string& text) {
  constexpr size_t kItemLabelLength = 240;
  std::string label = name + ": " + text;
  if (label.size() < kItemLabelLength) return label;
  label = name + " [truncated]: " + text;
  size_t cut = kItemLabelLength - 2;
  while (cut > 0 && (uint8_t(label[cut]) & 0xC0) == 0x80) --cut;
  label.resize(cut);
  return label;
}

}  // namespace rudp
