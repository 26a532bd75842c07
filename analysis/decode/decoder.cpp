// Glue of the decode layer: link -> IP (with reassembly) -> UDP/TCP,
// and on through tunnels (GRE, ERSPAN, IP in IP, VXLAN, GENEVE, GTP-U, MPLS
// in UDP) to the innermost IP packet, at most kMaxTunnels deep; the outer
// headers are kept in out.outer. An ICMP error keeps the head of the
// datagram it quotes in out.icmp.
// This is the per-packet hot path: nothing here allocates except the
// reassembler, and only for fragments.
#include "decode/decoder.h"

#include <algorithm>
#include <string>

#include "decode/icmp.h"
#include "decode/ip_layer.h"
#include "decode/ip_reassembler.h"
#include "decode/link_layer.h"
#include "decode/transport.h"
#include "decode/tunnel.h"

namespace rudp {

namespace {

// The IP packet inside a link layer or a tunnel (net None: there is none).
struct Inner {
  link::Net net = link::Net::None;
  wire::Span bytes;
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
  IpReassembler reassembler;
  uint64_t frame = 0;  // the frame being decoded

  void setLinkType(int dlt) {
    link_type = dlt;
    supported = link::supported(dlt);
    unsupported_error = supported ? "" : "link type " + std::to_string(dlt) + " not supported";
  }
  bool decodeIp(const Inner& ip, int64_t ts_ns, bool mayReassemble, DecodedPacket& out, ip::Upper& up);
  bool reassemble(const ip::Fragment& frag, int64_t ts_ns, DecodedPacket& out, ip::Upper& up);
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

Inner inside(const wire::Span& s, const link::Result& r, DecodedPacket& out) {
  if (r.error) out.error = r.error;
  if (r.net == link::Net::None) return {};
  return {r.net, wire::tail(s, r.offset)};
}

// The UDP payload's bytes, as far as the UDP length and the frame hold them.
wire::Span udpPayload(const wire::Span& udp, const DecodedPacket& out) {
  return {out.payload, out.payload_len, std::min(out.payload_reported_len, udp.reported - udp::kHeaderLen)};
}

// Decodes the transport header in `up`; returns the packet a tunnel in it carries.
Inner decodePayload(const ip::Upper& up, DecodedPacket& out) {
  const wire::Span& l4 = up.bytes;
  switch (up.proto) {
    case ip::kUdp:
      transport::decodeUdp(l4, out);
      if (!out.payload) return {};
      return inside(udpPayload(l4, out), tunnel::udp(out.sport, out.dport, out.payload, out.payload_len),
                    out);
    case ip::kTcp: transport::decodeTcp(l4, out); return {};
    case ip::kIcmp:
    case ip::kIcmpv6: icmp::decode(up.proto, l4, out); return {};
    case ip::kGre: return inside(l4, tunnel::gre(l4.data, l4.len), out);
    default: return inside(l4, tunnel::ipInIp(up.proto), out);
  }
}

IpReassembler::Key reassemblyKey(const DecodedPacket& out, const ip::Fragment& frag) {
  return {out.src, out.dst, frag.id, out.l3 == L3::IPv4 ? out.ip_proto : uint8_t(0)};
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
  out.ip_frag = fresh.ip_frag;
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

std::unique_ptr<Decoder> Decoder::clone() const {
  auto copy = std::make_unique<Decoder>(d->default_link_type);
  *copy->d = *d;
  return copy;
}

void Decoder::decode(const RawPacket& in, DecodedPacket& out) {
  reset(out);
  out.frame = in.frame;
  d->frame = in.frame;
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

  // Some writers leave origlen 0.
  const wire::Span frame{in.data, in.caplen, std::max(in.origlen, in.caplen)};
  Inner next = inside(frame, link::decode(d->link_type, in.data, in.caplen), out);
  while (next.net != link::Net::None) {
    ip::Upper up;
    if (!d->decodeIp(next, in.ts_ns, !out.ip_reassembled, out, up)) return;
    const Inner inner = decodePayload(up, out);
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
                             ip::Upper& up) {
  ip::Fragment frag;
  const ip::Next next = ip.net == link::Net::IPv6 ? ip::decodeIPv6(ip.bytes, out, up, frag)
                                                  : ip::decodeIPv4(ip.bytes, out, up, frag);
  if (next != ip::Next::Fragment) return next == ip::Next::Transport;
  return mayReassemble && reassemble(frag, ts_ns, out, up) &&
         ip::upperLayer(out, up, frag) == ip::Next::Transport;
}

// Adds the fragment in `up` to its datagram; when that completes it, `up`
// becomes the datagram's payload.
bool Decoder::Impl::reassemble(const ip::Fragment& frag, int64_t ts_ns, DecodedPacket& out, ip::Upper& up) {
  switch (reassembler.add(reassemblyKey(out, frag), ts_ns, frag.offset, frag.more, up.bytes.data,
                          up.bytes.len, up.bytes, frame)) {
    case IpReassembler::Result::Complete:
      out.ip_fragment = false;
      out.ip_reassembled = true;
      return true;
    case IpReassembler::Result::Invalid:
      out.error = "IP fragment inconsistent with earlier fragments";
      return false;
    case IpReassembler::Result::Pending: return false;
  }
  return false;
}

const std::vector<IpFragmentPiece>& Decoder::reassembledPieces() const {
  return d->reassembler.completedPieces();
}

}  // namespace rudp
