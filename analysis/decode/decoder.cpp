// Glue of the decode layer: link -> IP (with IPv4 reassembly) -> UDP/TCP,
// and on through tunnels (GRE, ERSPAN, IP in IP, VXLAN, GENEVE, GTP-U, MPLS
// in UDP) to the innermost IP packet, at most kMaxTunnels deep; the outer
// headers are kept in out.outer.
// This is the per-packet hot path: nothing here allocates except the
// reassembler, and only for fragments.
#include "decode/decoder.h"

#include <cstring>
#include <string>

#include "decode/ip_layer.h"
#include "decode/ipv4_reassembler.h"
#include "decode/link_layer.h"
#include "decode/transport.h"
#include "decode/tunnel.h"

namespace rudp {

namespace {

// The IP packet inside a tunnel (net None: there is none).
struct Inner {
  link::Net net = link::Net::None;
  const uint8_t* data = nullptr;
  uint32_t len = 0;
};

}  // namespace

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
  bool decodeIp(const Inner& ip, int64_t ts_ns, bool mayReassemble, DecodedPacket& out, wire::Span& l4);
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

Inner inside(const uint8_t* p, uint32_t len, const link::Result& r, DecodedPacket& out) {
  if (r.error) out.error = r.error;
  if (r.net == link::Net::None) return {};
  return {r.net, p + r.offset, len - r.offset};
}

// Decodes the transport header in `l4`; returns the packet a tunnel in it carries.
Inner decodePayload(const wire::Span& l4, DecodedPacket& out) {
  switch (out.ip_proto) {
    case transport::kUdp:
      transport::decodeUdp(l4, out);
      if (!out.payload) return {};
      return inside(out.payload, out.payload_len,
                    tunnel::udp(out.sport, out.dport, out.payload, out.payload_len), out);
    case transport::kTcp: transport::decodeTcp(l4, out); return {};
    case tunnel::kGre: return inside(l4.data, l4.len, tunnel::gre(l4.data, l4.len), out);
    default: return inside(l4.data, l4.len, tunnel::ipInIp(out.ip_proto), out);
  }
}

// Files the current IP (and UDP) header as a tunnel's and clears them for the inner packet.
void enterTunnel(DecodedPacket& out) {
  out.outer[out.outer_count++] = ipHeaderOf(out);
  const DecodedPacket fresh;
  out.l3 = fresh.l3;
  out.src = fresh.src;
  out.dst = fresh.dst;
  out.ip_proto = fresh.ip_proto;
  out.ip_id = fresh.ip_id;
  out.ip_ttl = fresh.ip_ttl;
  out.ip_fragment = fresh.ip_fragment;  // ip_reassembled stays: the frame did complete a datagram
  out.l4 = fresh.l4;
  out.sport = fresh.sport;
  out.dport = fresh.dport;
  out.tcp = fresh.tcp;
  out.payload = fresh.payload;
  out.payload_len = fresh.payload_len;
  out.payload_reported_len = fresh.payload_reported_len;
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
  Inner next{l2.net, in.data + l2.offset, in.caplen - l2.offset};
  while (next.net != link::Net::None) {
    wire::Span l4;
    if (!d->decodeIp(next, in.ts_ns, !out.ip_reassembled, out, l4)) return;
    const Inner inner = decodePayload(l4, out);
    if (inner.net == link::Net::None) return;
    if (out.outer_count == kMaxTunnels) {
      out.error = "too many nested tunnels";
      return;
    }
    enterTunnel(out);
    next = inner;
  }
}

// Returns false when nothing above the IP header can be decoded (yet).
// `mayReassemble` is false inside a reassembled datagram: its bytes live in
// the reassembler's buffer, which the next add() may overwrite.
bool Decoder::Impl::decodeIp(const Inner& ip, int64_t ts_ns, bool mayReassemble, DecodedPacket& out,
                             wire::Span& l4) {
  if (ip.net == link::Net::IPv6) return ip::decodeIPv6(ip.data, ip.len, out, l4) == ip::Next::Transport;

  ip::Ipv4Fragment frag;
  const ip::Next next = ip::decodeIPv4(ip.data, ip.len, out, l4, frag);
  if (next != ip::Next::Fragment) return next == ip::Next::Transport;

  out.ip_fragment = true;
  if (!frag.complete || !mayReassemble) return false;  // snapped by the capture, or see above
  Ipv4Reassembler::Key key;
  std::memcpy(key.src.data(), out.src.bytes.data(), 4);
  std::memcpy(key.dst.data(), out.dst.bytes.data(), 4);
  key.id = frag.id;
  key.proto = out.ip_proto;
  switch (reassembler.add(key, ts_ns, frag.offset, frag.more, l4.data, l4.len, l4)) {
    case Ipv4Reassembler::Result::Complete:
      out.ip_fragment = false;
      out.ip_reassembled = true;
      return true;
    case Ipv4Reassembler::Result::Invalid:
      out.error = "IPv4 fragment inconsistent with earlier fragments";
      return false;
    case Ipv4Reassembler::Result::Pending: return false;
  }
  return false;
}

}  // namespace rudp
