// Decodes IPv4 and IPv6 headers (their layout: decode/ip.h): fills the L3
// fields of a DecodedPacket and finds the transport bytes.
#pragma once
#include <cstdint>

#include "core/packet.h"
#include "decode/bytes.h"
#include "decode/ip.h"

namespace rudp::ip {

enum class Next : uint8_t {
  Stop,       // nothing more to decode (error, fragment not reassembled, ESP, ...)
  Transport,  // `up` holds the transport (or tunnel) header and payload
  Fragment,   // a whole fragment: hand `frag` and `up.bytes`, its payload, to the reassembler
};

// The protocol above IP and its bytes.
struct Upper {
  uint8_t proto = 0;
  wire::Span bytes;
};

using Fragment = IpFragment;

// `ip`: from the start of the IP header; `ip.reported` is what the frame
// held on the wire. A length field claiming more is cut to it, with an
// error, as tshark does. Fragments set out.ip_fragment; of one not whole in
// the frame only an IPv4 first fragment's transport header is decoded.
Next decodeIPv4(const wire::Span& ip, DecodedPacket& out, Upper& up, Fragment& frag);

// Steps over hop-by-hop, routing, destination options, AH and atomic
// fragment headers.
Next decodeIPv6(const wire::Span& ip, DecodedPacket& out, Upper& up, Fragment& frag);

// Steps over the headers between a reassembled datagram's payload and its
// upper protocol (IPv4: AH; IPv6: the extension headers after the fragment header).
Next upperLayer(DecodedPacket& out, Upper& up, Fragment& frag);

}  // namespace rudp::ip
