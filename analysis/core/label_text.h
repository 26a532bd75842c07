// Pieces of Wireshark's details-tree labels (proto.c), shared by the Lua
// host's items and the built-in layers.
#pragma once
#include <algorithm>
#include <cstdint>
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

}  // namespace rudp
