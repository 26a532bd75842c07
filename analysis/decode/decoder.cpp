// Glue of the decode layer: link -> IP (with IPv4 reassembly) -> UDP/TCP.
// This is the per-packet hot path: nothing here allocates except the
// reassembler, and only for fragments.
#include "decode/decoder.h"

#include <cstring>
#include <string>

#include "decode/ip_layer.h"
#include "decode/ipv4_reassembler.h"
#include "decode/link_layer.h"
#include "decode/transport.h"

namespace rudp {

struct Decoder::Impl {
  int default_link_type = 0;
  // The link type of the previous frame, and whether it is read: frames
  // nearly always come in runs of one type.
  int link_type = 0;
  bool supported = false;
  std::vector<Unsupported> unsupported;
  std::string unsupported_error;
  Ipv4Reassembler reassembler;

  void setLinkType(int dlt) {
    link_type = dlt;
    supported = link::supported(dlt);
    unsupported_error = supported ? "" : "link type " + std::to_string(dlt) + " not supported";
  }
  void countUnsupported() {
    for (Unsupported& u : unsupported)
      if (u.dlt == link_type) {
        ++u.frames;
        return;
      }
    unsupported.push_back({link_type, 1});
  }
};

namespace {

// Resets every field but keeps the error string's buffer for reuse.
void reset(DecodedPacket& out) {
  std::string error = std::move(out.error);
  error.clear();
  out = DecodedPacket{};
  out.error = std::move(error);
}

void decodeTransport(const wire::Span& l4, DecodedPacket& out) {
  if (out.ip_proto == transport::kUdp)
    transport::decodeUdp(l4, out);
  else if (out.ip_proto == transport::kTcp)
    transport::decodeTcp(l4, out);
}

}  // namespace

Decoder::Decoder(int linkType) : d(std::make_unique<Impl>()) {
  d->default_link_type = linkType;
  d->setLinkType(linkType);
}

const std::vector<Decoder::Unsupported>& Decoder::unsupported() const { return d->unsupported; }

Decoder::~Decoder() = default;

void Decoder::decode(const RawPacket& in, DecodedPacket& out) {
  reset(out);
  out.frame = in.frame;
  out.ts_ns = in.ts_ns;
  out.caplen = in.caplen;
  out.origlen = in.origlen;
  out.file_offset = in.file_offset;
  const int linkType = in.link_type >= 0 ? in.link_type : d->default_link_type;
  if (linkType != d->link_type) d->setLinkType(linkType);
  if (!d->supported) {
    d->countUnsupported();
    out.error = d->unsupported_error;
    return;
  }
  if (!in.data && in.caplen != 0) {
    out.error = "no packet data";
    return;
  }

  const link::Result l2 = link::decode(d->link_type, in.data, in.caplen);
  if (l2.error) out.error = l2.error;
  if (l2.net == link::Net::None) return;
  const uint8_t* l3 = in.data + l2.offset;
  const uint32_t l3len = in.caplen - l2.offset;

  wire::Span l4;
  if (l2.net == link::Net::IPv6) {
    if (ip::decodeIPv6(l3, l3len, out, l4) == ip::Next::Transport) decodeTransport(l4, out);
    return;
  }

  ip::Ipv4Fragment frag;
  const ip::Next next = ip::decodeIPv4(l3, l3len, out, l4, frag);
  if (next == ip::Next::Transport) {
    decodeTransport(l4, out);
    return;
  }
  if (next != ip::Next::Fragment) return;

  out.ip_fragment = true;
  if (!frag.complete) return;  // snapped by the capture: cannot be reassembled
  Ipv4Reassembler::Key key;
  std::memcpy(key.src.data(), out.src.bytes.data(), 4);
  std::memcpy(key.dst.data(), out.dst.bytes.data(), 4);
  key.id = frag.id;
  key.proto = out.ip_proto;
  wire::Span whole;
  switch (d->reassembler.add(key, in.ts_ns, frag.offset, frag.more, l4.data, l4.len, whole)) {
    case Ipv4Reassembler::Result::Complete:
      out.ip_fragment = false;
      out.ip_reassembled = true;
      decodeTransport(whole, out);
      break;
    case Ipv4Reassembler::Result::Invalid:
      out.error = "IPv4 fragment inconsistent with earlier fragments";
      break;
    case Ipv4Reassembler::Result::Pending: break;
  }
}

}  // namespace rudp
