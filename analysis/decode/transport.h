// UDP and TCP headers, including TCP options.
#pragma once
#include <cstdint>

#include "core/packet.h"
#include "decode/bytes.h"

namespace rudp::transport {

inline constexpr uint8_t kTcp = 6;
inline constexpr uint8_t kUdp = 17;

// `l4` starts at the transport header; l4.reported is the length the IP
// layer claims for it.
void decodeUdp(const wire::Span& l4, DecodedPacket& out);
void decodeTcp(const wire::Span& l4, DecodedPacket& out);

// Parses the option bytes between the fixed TCP header and the data.
// Returns false when an option's length is malformed; options before it
// stay filled in.
bool parseTcpOptions(const uint8_t* p, uint32_t n, TcpOptions& opts);

}  // namespace rudp::transport
