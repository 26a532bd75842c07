// IPv4 and IPv6 headers (RFC 791, RFC 8200), read as packet-ip.c and
// packet-ipv6.c read them: the protocol numbers, the field offsets and the
// extension-header rules that the decoder, the details tree and the display
// filters share.
#pragma once
#include <cstdint>

#include "decode/bytes.h"

namespace rudp::ip {

// Protocol numbers (IANA), as an IPv4 header's protocol or an IPv6 next header.
inline constexpr uint8_t kHopByHop = 0, kIcmp = 1, kIgmp = 2, kIpInIp = 4, kTcp = 6, kUdp = 17,
                         kIpv6InIp = 41, kRouting = 43, kFragmentHeader = 44, kGre = 47, kAuthHeader = 51,
                         kIcmpv6 = 58, kDestOptions = 60, kOspf = 89, kPim = 103;

// The version nibble both headers start with.
inline unsigned version(const uint8_t* p) { return p[0] >> 4; }

namespace v4 {
inline constexpr uint32_t kMinHeaderLen = 20;
inline constexpr uint32_t kDsAt = 1, kTotalLengthAt = 2, kIdAt = 4, kFragmentAt = 6, kTtlAt = 8,
                          kProtocolAt = 9, kChecksumAt = 10, kSrcAt = 12, kDstAt = 16;
// The 16-bit flags-and-offset field: the offset counts 8-byte units.
inline constexpr uint16_t kDontFragment = 0x4000, kMoreFragments = 0x2000, kOffsetMask = 0x1fff;

// `p` holds at least the 20-byte fixed header.
inline uint32_t headerLength(const uint8_t* p) { return uint32_t(p[0] & 0x0f) * 4; }
inline uint32_t totalLength(const uint8_t* p) { return wire::be16(p + kTotalLengthAt); }
inline uint32_t fragmentOffset(uint16_t field) { return uint32_t(field & kOffsetMask) * 8; }
}  // namespace v4

namespace v6 {
inline constexpr uint32_t kHeaderLen = 40;
inline constexpr uint32_t kPayloadLengthAt = 4, kNextHeaderAt = 6, kHopLimitAt = 7, kSrcAt = 8, kDstAt = 24;
inline constexpr uint32_t kFragmentHeaderLen = 8;
// The fragment header's offset-and-flags word (at its byte 2): the offset in
// 8-byte units above three bits, M the lowest.
inline constexpr uint16_t kFragmentOffsetMask = 0xfff8, kFragmentMore = 0x0001;

inline uint32_t payloadLength(const uint8_t* p) { return wire::be16(p + kPayloadLengthAt); }

// The extension headers packet-ipv6.c walks (AH is ip::isExtension's).
inline bool isExtension(unsigned next) {
  return next == kHopByHop || next == kRouting || next == kFragmentHeader || next == kDestOptions;
}
}  // namespace v6

// A header between IP and its upper protocol: AH after IPv4 as after IPv6
// (RFC 4302), the others IPv6's only.
inline bool isExtension(bool ipv6, uint8_t proto) {
  return proto == kAuthHeader || (ipv6 && v6::isExtension(proto));
}

// An extension header's length from its first two bytes at `p`: the fragment
// header is 8 bytes, AH counts 4-byte words minus 2, the others 8-byte words
// minus 1.
inline uint32_t extensionLength(uint8_t proto, const uint8_t* p) {
  if (proto == kFragmentHeader) return v6::kFragmentHeaderLen;
  if (proto == kAuthHeader) return (uint32_t(p[1]) + 2) * 4;
  return (uint32_t(p[1]) + 1) * 8;
}

}  // namespace rudp::ip
