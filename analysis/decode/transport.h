// Decodes UDP and TCP headers (their layouts: decode/udp.h, decode/tcp.h)
// into a DecodedPacket.
#pragma once
#include <cstdint>

#include "core/packet.h"
#include "decode/bytes.h"
#include "decode/tcp.h"
#include "decode/udp.h"

namespace rudp::transport {

// `l4` starts at the transport header; l4.reported is the length the IP
// layer claims for it.
void decodeUdp(const wire::Span& l4, DecodedPacket& out);
void decodeTcp(const wire::Span& l4, DecodedPacket& out);

// Parses the option bytes between the fixed TCP header and the data.
// Returns false when an option's length is malformed; options before it
// stay filled in.
bool parseTcpOptions(const uint8_t* p, uint32_t n, TcpOptions& opts);

}  // namespace rudp::transport
