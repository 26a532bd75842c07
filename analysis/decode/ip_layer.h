// IPv4 and IPv6 headers: fills the L3 fields of a DecodedPacket and finds
// the transport bytes.
#pragma once
#include <cstdint>

#include "core/packet.h"
#include "decode/bytes.h"

namespace rudp::ip {

enum class Next : uint8_t {
  Stop,       // nothing more to decode (error, non-first fragment, ESP, ...)
  Transport,  // `l4` holds the transport header and payload
  Fragment,   // IPv4 fragment: hand `frag` to the reassembler
};

struct Ipv4Fragment {
  uint16_t id = 0;
  uint32_t offset = 0;    // in bytes
  bool more = false;      // MF flag
  bool complete = false;  // the whole fragment was captured
};

// `p`/`n`: captured bytes from the start of the IP header.
Next decodeIPv4(const uint8_t* p, uint32_t n, DecodedPacket& out, wire::Span& l4, Ipv4Fragment& frag);

// Skips hop-by-hop, routing, destination options, AH and atomic fragment
// headers. A real IPv6 fragment is flagged ip_fragment and not decoded further.
Next decodeIPv6(const uint8_t* p, uint32_t n, DecodedPacket& out, wire::Span& l4);

}  // namespace rudp::ip
