// ICMP and ICMPv6 errors: the datagram they quote says which connection an
// error (port unreachable: the server went away) is about.
#pragma once
#include <cstdint>
#include <string>

#include "core/packet.h"
#include "decode/bytes.h"

namespace rudp::icmp {

// `l4` starts at the ICMP header of protocol `proto` (ip::kIcmp or ip::kIcmpv6).
// Adds its type and code to out.icmp_heads. For an error message that quotes
// an IP header, sets out.has_icmp_error and out.icmp (and adds a quoted ICMP
// header's type and code); anything else (echo, neighbour discovery, a quote
// too short to hold an IP header) has only its own type and code.
void decode(uint8_t proto, const wire::Span& l4, DecodedPacket& out);

// "port unreachable", "TTL exceeded in transit", ... as Wireshark names them.
std::string describe(bool v6, uint8_t type, uint8_t code);

}  // namespace rudp::icmp
