// The UDP header (RFC 768), read as packet-udp.c reads it: what the decoder,
// the details tree and the display filters share.
#pragma once
#include <cstdint>

#include "decode/bytes.h"

namespace rudp::udp {

inline constexpr uint32_t kHeaderLen = 8;
inline constexpr uint32_t kSrcPortAt = 0, kDstPortAt = 2, kLengthAt = 4, kChecksumAt = 6;

// `p` holds the 8-byte header.
inline uint16_t srcPort(const uint8_t* p) { return wire::be16(p + kSrcPortAt); }
inline uint16_t dstPort(const uint8_t* p) { return wire::be16(p + kDstPortAt); }
// The datagram's length, header included; 0 leaves it to IP (jumbograms, TSO).
inline uint16_t length(const uint8_t* p) { return wire::be16(p + kLengthAt); }
inline uint16_t checksum(const uint8_t* p) { return wire::be16(p + kChecksumAt); }

}  // namespace rudp::udp
