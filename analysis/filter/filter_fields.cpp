#include "filter/filter_fields.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <utility>

#include "decode/arp.h"
#include "decode/ethernet.h"
#include "decode/header_walk.h"
#include "decode/ip.h"
#include "decode/link_layer.h"
#include "decode/link_offset.h"
#include "decode/quic_fields.h"
#include "lua/host.h"

namespace rudp {

namespace {

enum Builtin {
  Frame,
  FrameNumber,
  FrameLen,
  FrameCapLen,
  FrameTimeRelative,
  FrameTimeEpoch,
  FrameTimeDelta,
  FrameTimeDeltaDisplayed,
  FrameInterface,
  Eth,
  EthSrc,
  EthDst,
  EthAddr,
  EthType,
  Vlan,
  VlanId,
  VlanPriority,
  Ip,
  IpSrc,
  IpDst,
  IpAddr,
  IpProto,
  IpId,
  IpTtl,
  Ipv6,
  Ipv6Src,
  Ipv6Dst,
  Ipv6Addr,
  Udp,
  UdpSrcPort,
  UdpDstPort,
  UdpPort,
  UdpLength,
  Tcp,
  TcpSrcPort,
  TcpDstPort,
  TcpPort,
  TcpSeqRaw,
  TcpAckRaw,
  TcpSeqNumber,  // tcp.seq and tcp.ack: relative unless -o tcp.relative_sequence_numbers:FALSE
  TcpAckNumber,
  TcpLen,
  TcpHdrLen,
  TcpFlags,
  TcpFin,
  TcpSyn,
  TcpReset,
  TcpPush,
  TcpAck,
  TcpUrg,
  TcpWindow,
  TcpMss,
  TcpWscale,
  TcpTsval,
  TcpTsecr,
  Icmp,
  Icmpv6,
  IcmpType,
  IcmpCode,
  Icmpv6Type,
  Icmpv6Code,
  Arp,
  ArpOpcode,
  ArpSrcHwMac,
  ArpSrcProtoIpv4,
  ArpDstHwMac,
  ArpDstProtoIpv4,
  ArpIsGratuitous,
  ArpIsProbe,
  ArpIsAnnouncement,
  Data,
  DataLen,
  DataData,
};

struct BuiltinDef {
  const char* name;
  FilterType type;
  int width;
};

// In Builtin's order.
const BuiltinDef kBuiltins[] = {
    {"frame", FilterType::Protocol, 0},
    {"frame.number", FilterType::Unsigned, 4},
    {"frame.len", FilterType::Unsigned, 4},
    {"frame.cap_len", FilterType::Unsigned, 4},
    {"frame.time_relative", FilterType::RelTime, 0},
    {"frame.time_epoch", FilterType::AbsTime, 0},
    {"frame.time_delta", FilterType::RelTime, 0},
    {"frame.time_delta_displayed", FilterType::RelTime, 0},
    {"frame.interface_id", FilterType::Unsigned, 4},
    {"eth", FilterType::Protocol, 0},
    {"eth.src", FilterType::Ether, 0},
    {"eth.dst", FilterType::Ether, 0},
    {"eth.addr", FilterType::Ether, 0},
    {"eth.type", FilterType::Unsigned, 2},
    {"vlan", FilterType::Protocol, 0},
    {"vlan.id", FilterType::Unsigned, 2},
    {"vlan.priority", FilterType::Unsigned, 2},
    {"ip", FilterType::Protocol, 0},
    {"ip.src", FilterType::IPv4, 0},
    {"ip.dst", FilterType::IPv4, 0},
    {"ip.addr", FilterType::IPv4, 0},
    {"ip.proto", FilterType::Unsigned, 1},
    {"ip.id", FilterType::Unsigned, 2},
    {"ip.ttl", FilterType::Unsigned, 1},
    {"ipv6", FilterType::Protocol, 0},
    {"ipv6.src", FilterType::IPv6, 0},
    {"ipv6.dst", FilterType::IPv6, 0},
    {"ipv6.addr", FilterType::IPv6, 0},
    {"udp", FilterType::Protocol, 0},
    {"udp.srcport", FilterType::Unsigned, 2},
    {"udp.dstport", FilterType::Unsigned, 2},
    {"udp.port", FilterType::Unsigned, 2},
    {"udp.length", FilterType::Unsigned, 2},
    {"tcp", FilterType::Protocol, 0},
    {"tcp.srcport", FilterType::Unsigned, 2},
    {"tcp.dstport", FilterType::Unsigned, 2},
    {"tcp.port", FilterType::Unsigned, 2},
    {"tcp.seq_raw", FilterType::Unsigned, 4},
    {"tcp.ack_raw", FilterType::Unsigned, 4},
    {"tcp.seq", FilterType::Unsigned, 4},
    {"tcp.ack", FilterType::Unsigned, 4},
    {"tcp.len", FilterType::Unsigned, 4},
    {"tcp.hdr_len", FilterType::Unsigned, 1},
    {"tcp.flags", FilterType::Unsigned, 2},
    {"tcp.flags.fin", FilterType::Bool, 0},
    {"tcp.flags.syn", FilterType::Bool, 0},
    {"tcp.flags.reset", FilterType::Bool, 0},
    {"tcp.flags.push", FilterType::Bool, 0},
    {"tcp.flags.ack", FilterType::Bool, 0},
    {"tcp.flags.urg", FilterType::Bool, 0},
    {"tcp.window_size_value", FilterType::Unsigned, 2},
    {"tcp.options.mss_val", FilterType::Unsigned, 2},
    {"tcp.options.wscale.shift", FilterType::Unsigned, 1},
    {"tcp.options.timestamp.tsval", FilterType::Unsigned, 4},
    {"tcp.options.timestamp.tsecr", FilterType::Unsigned, 4},
    {"icmp", FilterType::Protocol, 0},
    {"icmpv6", FilterType::Protocol, 0},
    {"icmp.type", FilterType::Unsigned, 1},
    {"icmp.code", FilterType::Unsigned, 1},
    {"icmpv6.type", FilterType::Unsigned, 1},
    {"icmpv6.code", FilterType::Unsigned, 1},
    {"arp", FilterType::Protocol, 0},
    {"arp.opcode", FilterType::Unsigned, 2},
    {"arp.src.hw_mac", FilterType::Ether, 0},
    {"arp.src.proto_ipv4", FilterType::IPv4, 0},
    {"arp.dst.hw_mac", FilterType::Ether, 0},
    {"arp.dst.proto_ipv4", FilterType::IPv4, 0},
    {"arp.isgratuitous", FilterType::Bool, 0},
    {"arp.isprobe", FilterType::Bool, 0},
    {"arp.isannouncement", FilterType::Bool, 0},
    {"data", FilterType::Protocol, 0},
    {"data.len", FilterType::Unsigned, 4},
    {"data.data", FilterType::Bytes, 0},
};

// Protocols whose bytes a filter can read (contains, matches, ==).
bool protocolHasBytes(int b) {
  return b == Frame || b == Eth || b == Ip || b == Udp || b == Tcp || b == Arp || b == Data;
}

FilterType luaType(FieldType t) {
  switch (t) {
    case FieldType::None: return FilterType::None;
    case FieldType::Bool: return FilterType::Bool;
    case FieldType::Int8:
    case FieldType::Int16:
    case FieldType::Int24:
    case FieldType::Int32:
    case FieldType::Int64: return FilterType::Signed;
    case FieldType::Bytes: return FilterType::Bytes;
    case FieldType::String: return FilterType::String;
    case FieldType::Float:
    case FieldType::Double: return FilterType::Double;
    case FieldType::IPv4: return FilterType::IPv4;
    case FieldType::Ether: return FilterType::Ether;
    case FieldType::Protocol: return FilterType::Protocol;
    default: return FilterType::Unsigned;
  }
}

FilterValue number(uint64_t u) {
  FilterValue v;
  v.u = u;
  return v;
}

FilterValue address(const IpAddress& a) {
  FilterValue v;
  v.ip = a;
  return v;
}

FilterValue byteView(const uint8_t* p, size_t n) {
  FilterValue v;
  v.bytes = std::string_view(reinterpret_cast<const char*>(p), n);
  return v;
}

// Where the transport payload starts in the frame; -1 when it lies in a
// reassembly buffer instead.
int64_t payloadOffset(const FilterFrame& f) {
  const RawPacket& raw = *f.raw;
  const uint8_t* p = f.pkt->payload;
  if (!p || p < raw.data || p > raw.data + raw.caplen) return -1;
  return p - raw.data;
}

// The frame's own IP datagram when its header is plainly in the frame (no
// tunnel): from the network layer's start to the header's total length.
std::optional<std::pair<uint32_t, uint32_t>> ownIpDatagram(const FilterFrame& f) {
  const RawPacket& raw = *f.raw;
  const std::optional<uint32_t> at = networkLayerOffset(raw, f.link_type);
  if (!at || f.pkt->outer_count != 0) return std::nullopt;
  const uint8_t* p = raw.data + *at;
  const uint32_t captured = raw.caplen - *at;
  if (f.pkt->l3 == L3::IPv4 && ip::v4::kMinHeaderLen <= captured && ip::version(p) == 4)
    return std::pair{*at, std::min(ip::v4::totalLength(p), captured)};
  if (f.pkt->l3 == L3::IPv6 && ip::v6::kHeaderLen <= captured && ip::version(p) == 6)
    return std::pair{*at, std::min(ip::v6::kHeaderLen + ip::v6::payloadLength(p), captured)};
  return std::nullopt;
}

// tshark's data layers: an IPv4 fragment held for reassembly (its bytes
// after the IP header), then a TCP payload or a UDP payload no Lua protocol
// took. Each as its bytes.
void dataLayers(const FilterFrame& f, std::vector<FilterValue>& out) {
  const DecodedPacket& p = *f.pkt;
  if (p.ip_fragment && p.l3 == L3::IPv4)
    if (const auto own = ownIpDatagram(f)) {
      const uint32_t headerLen = ip::v4::headerLength(f.raw->data + own->first);
      if (own->second > headerLen)
        out.push_back(byteView(f.raw->data + own->first + headerLen, own->second - headerLen));
    }
  const OfferedPayload udp = offeredUdpPayload(p);
  // Neither a Lua protocol nor QUIC took it: tshark's Data layer.
  if (udp.len > 0 && (!f.res || f.res->proto < 0) && !f.quic) out.push_back(byteView(udp.data, udp.len));
  const bool tcpData = f.tcp_notes && tcpPayloadHandedOn(*f.tcp_notes, p);
  if (tcpData && p.payload_len > 0) out.push_back(byteView(p.payload, p.payload_len));
}

void ethernet(int which, const RawPacket& raw, std::vector<FilterValue>& out) {
  if (raw.caplen < 14) return;
  const uint8_t* d = raw.data;
  switch (which) {
    case Eth: out.push_back(byteView(d, raw.caplen)); return;
    case EthDst: out.push_back(byteView(d, 6)); return;
    case EthSrc: out.push_back(byteView(d + 6, 6)); return;
    case EthAddr:
      out.push_back(byteView(d, 6));
      out.push_back(byteView(d + 6, 6));
      return;
    case EthType: out.push_back(number(be16(d + eth::kTypeAt))); return;
    default: break;
  }
  eth::walkTags(be16(d + eth::kTypeAt), d, raw.caplen, eth::kHeaderLen, [&](unsigned tpid, uint32_t at) {
    if (!eth::isVlanProtocol(tpid)) return;  // 802.1ad is tshark's ieee8021ad, not vlan
    const unsigned tci = be16(d + at);
    if (which == Vlan) out.push_back(byteView(d + at, 4));
    if (which == VlanId) out.push_back(number(tci & 0xfff));
    if (which == VlanPriority) out.push_back(number(tci >> 13));
  });
}

// One item per IPv4 (`l3` IPv4) or IPv6 header, outermost first, with no bytes.
void ipHeaderItems(L3 l3, const DecodedPacket& p, std::vector<FilterValue>& out) {
  forEachIpHeader(p, [&](const OuterHeader& h) {
    if (h.l3 == l3) out.push_back({});
  });
}

// Each builtin's header_walk.h field, looked up by name once (not per frame).
const std::optional<HeaderField>& headerFieldOf(int which) {
  static const auto fields = [] {
    std::array<std::optional<HeaderField>, std::size(kBuiltins)> t;
    for (size_t i = 0; i < t.size(); ++i) t[i] = headerFieldNamed(kBuiltins[i].name);
    return t;
  }();
  return fields[size_t(which)];
}

// ip.src, udp.port, ...: header_walk.h's fields, in every IP header.
void ipHeaderValues(int which, const DecodedPacket& p, std::vector<FilterValue>& out) {
  const std::optional<HeaderField>& field = headerFieldOf(which);
  if (!field) return;
  forEachIpHeader(p, [&](const OuterHeader& h) {
    headerFieldValues(
        *field, h, [&](const IpAddress& a) { out.push_back(address(a)); },
        [&](uint64_t n) { out.push_back(number(n)); });
  });
}

// The packet's own UDP or TCP header and payload, when they are in the frame.
// A reassembled datagram's are in the reassembly buffer, which holds the
// whole IP payload: the transport header right before the payload.
void transportBytes(const FilterFrame& f, uint32_t header, std::vector<FilterValue>& out) {
  const DecodedPacket& p = *f.pkt;
  const int64_t at = payloadOffset(f);
  if (at >= header)
    out.push_back(byteView(f.raw->data + at - header, header + p.payload_len));
  else if (at < 0 && p.ip_reassembled && p.payload)
    out.push_back(byteView(p.payload - header, header + p.payload_len));
}

// One item per IPv4 header, outermost first; the frame's own datagram has
// its bytes.
void ipProtocol(const FilterFrame& f, std::vector<FilterValue>& out) {
  ipHeaderItems(L3::IPv4, *f.pkt, out);
  const auto own = ownIpDatagram(f);  // only without tunnels: then the packet's is the first
  if (own && f.pkt->l3 == L3::IPv4 && !out.empty())
    out.front() = byteView(f.raw->data + own->first, own->second);
}

// One item per UDP header, outermost first; only the packet's own header has
// its bytes at hand.
void udpProtocol(const FilterFrame& f, std::vector<FilterValue>& out) {
  const DecodedPacket& p = *f.pkt;
  for (int i = 0; i < p.outer_count; ++i)
    if (p.outer[i].udp) out.push_back({});
  if (p.l4 == L4::UDP) {
    const size_t before = out.size();
    transportBytes(f, 8, out);
    if (out.size() == before) out.push_back({});
  }
  if (p.has_icmp_error && p.icmp.quoted.udp) out.push_back({});
}

// relative: tcp.seq and tcp.ack as Wireshark's relative numbers, from the frame's notes.
void tcp(int which, const FilterFrame& f, bool relative, std::vector<FilterValue>& out) {
  const DecodedPacket& p = *f.pkt;
  const TcpFields t = tcpFieldsOf(p);
  if (!t.header) return;
  const TcpHeader& h = *t.header;
  const TcpOptions& o = h.options;
  auto put = [&](bool present, uint64_t v) {
    if (present) out.push_back(number(v));
  };
  const bool whole = t.whole;
  switch (which) {
    case Tcp:
      if (p.l4 == L4::TCP) transportBytes(f, h.header_len, out);
      if (out.empty()) out.push_back({});
      break;
    case TcpSrcPort: put(true, t.sport); break;
    case TcpDstPort: put(true, t.dport); break;
    case TcpPort:
      put(true, t.sport);
      put(true, t.dport);
      break;
    case TcpSeqRaw: put(true, h.seq); break;
    case TcpSeqNumber: put(true, f.tcp_notes ? tcpShownSeq(h, f.tcp_notes->bases, relative) : h.seq); break;
    case TcpAckRaw: put(whole, h.ack); break;
    case TcpAckNumber: put(whole, f.tcp_notes ? tcpShownAck(h, f.tcp_notes->bases, relative) : h.ack); break;
    case TcpLen: put(t.has_len && !p.ip_fragment, p.payload_reported_len); break;
    case TcpHdrLen: put(whole, h.header_len); break;
    case TcpFlags: put(whole, h.flags); break;
    case TcpWindow: put(whole, h.window); break;
    case TcpMss: put(whole && o.mss, o.mss); break;
    case TcpWscale: put(whole && o.window_scale >= 0, uint64_t(o.window_scale)); break;
    case TcpTsval: put(whole && o.has_timestamps, o.tsval); break;
    case TcpTsecr: put(whole && o.has_timestamps, o.tsecr); break;
    default: {
      using namespace tcpflag;
      static const uint8_t kBits[] = {kFin, kSyn, kRst, kPsh, kAck, kUrg};  // TcpFin..TcpUrg
      put(whole, (h.flags & kBits[which - TcpFin]) != 0);
    }
  }
}

void icmpValues(int which, const DecodedPacket& p, std::vector<FilterValue>& out) {
  const bool v6 = which == Icmpv6Type || which == Icmpv6Code, code = which == IcmpCode || which == Icmpv6Code;
  forEachIcmpValue(p, v6, code, [&](uint8_t value) { out.push_back(number(value)); });
}

void frame(int which, const FilterFrame& f, std::vector<FilterValue>& out) {
  const RawPacket& raw = *f.raw;
  switch (which) {
    case Frame: out.push_back(byteView(raw.data, raw.caplen)); break;
    case FrameNumber: out.push_back(number(raw.frame)); break;
    case FrameLen: out.push_back(number(raw.origlen)); break;
    case FrameCapLen: out.push_back(number(raw.caplen)); break;
    case FrameTimeRelative: out.push_back(number(uint64_t(raw.ts_ns - f.first_ts_ns))); break;
    case FrameTimeEpoch: out.push_back(number(uint64_t(raw.ts_ns))); break;
    case FrameTimeDelta: out.push_back(number(uint64_t(raw.ts_ns - f.prev_ts_ns))); break;
    case FrameTimeDeltaDisplayed: out.push_back(number(uint64_t(raw.ts_ns - f.shown_ts_ns))); break;
    case FrameInterface:
      if (raw.interface_id >= 0) out.push_back(number(uint64_t(raw.interface_id)));
      break;
    default: break;
  }
}

// packet-arp.c's fields of an Ethernet frame's ARP or RARP message: the
// addresses once the whole message is captured, as the details tree has them.
void arpValues(int which, const FilterFrame& f, std::vector<FilterValue>& out) {
  const RawPacket& raw = *f.raw;
  const std::optional<uint32_t> at =
      f.pkt->outer_count == 0 ? ethernetArpOffset(raw, f.link_type) : std::nullopt;
  if (!at) return;
  const uint32_t captured = raw.caplen - *at;
  if (which == Arp)
    return out.push_back(byteView(
        raw.data + *at, captured < 8 ? captured : std::min(captured, readArp(raw.data + *at).length())));
  if (which == ArpOpcode && captured >= 8) return out.push_back(number(readArp(raw.data + *at).op));
  const std::optional<ArpMessage> m = wholeArpMessage(raw, f.link_type);
  if (!m) return;
  if (which == ArpSrcHwMac && m->ether()) out.push_back(byteView(m->p + m->sha(), 6));
  if (which == ArpDstHwMac && m->ether()) out.push_back(byteView(m->p + m->tha(), 6));
  if (which == ArpSrcProtoIpv4 && m->ipv4()) out.push_back(address(ipv4Address(m->p + m->spa())));
  if (which == ArpDstProtoIpv4 && m->ipv4() && m->op != kDrarpError)
    out.push_back(address(ipv4Address(m->p + m->tpa())));
  const bool flag = which == ArpIsGratuitous ? m->gratuitous()
                    : which == ArpIsProbe    ? m->probe()
                                             : which == ArpIsAnnouncement && m->announcement();
  if (flag) out.push_back(number(1));
}

void data(int which, const FilterFrame& f, std::vector<FilterValue>& out) {
  const size_t from = out.size();
  dataLayers(f, out);
  if (which == DataLen)
    for (size_t i = from; i < out.size(); ++i) out[i] = number(out[i].bytes.size());
}

void builtinValues(int which, const FilterFrame& f, bool relative, std::vector<FilterValue>& out) {
  const DecodedPacket& p = *f.pkt;
  if (which <= FrameInterface) return frame(which, f, out);
  if (which <= VlanPriority) {
    if (f.link_type == link::kEthernet) ethernet(which, *f.raw, out);
    return;
  }
  if (which == Udp) return udpProtocol(f, out);
  if (which == Ip) return ipProtocol(f, out);
  if (which == Ipv6) return ipHeaderItems(L3::IPv6, p, out);
  if (which <= UdpLength) return ipHeaderValues(which, p, out);
  if (which <= TcpTsecr) return tcp(which, f, relative, out);
  if (which >= Arp && which <= ArpIsAnnouncement) return arpValues(which, f, out);
  if (which == Icmp && p.l3 == L3::IPv4 && p.ip_proto == ip::kIcmp && !p.ip_fragment) out.push_back({});
  if (which == Icmpv6 && p.l3 == L3::IPv6 && p.ip_proto == ip::kIcmpv6 && !p.ip_fragment) out.push_back({});
  if (which >= IcmpType && which <= Icmpv6Code) icmpValues(which, p, out);
  if (which >= Data) data(which, f, out);
}

void tcpNoteValues(int which, const FilterFrame& f, std::vector<FilterValue>& out) {
  if (!f.tcp_notes) return;
  uint64_t values[3];
  const int n = tcpNoteFieldValues(static_cast<size_t>(which), *f.tcp_notes, values);
  for (int i = 0; i < n; ++i) out.push_back(number(values[i]));
}

void streamValues(int which, const FilterFrame& f, bool relative, std::vector<FilterValue>& out) {
  int64_t values[kMaxStreamFieldValues];
  const int n = streamFieldValues(size_t(which), streamFactsOf(f, relative), values);
  for (int i = 0; i < n; ++i) out.push_back(number(uint64_t(values[i])));
}

void quicValues(int which, const FilterFrame& f, std::vector<FilterValue>& out) {
  if (!f.quic) return;
  std::vector<quic::FieldValue> values;
  quic::fieldValues(size_t(which), *f.quic, values);
  for (const quic::FieldValue& v : values) {
    FilterValue x = number(v.u);
    x.bytes = v.bytes;
    out.push_back(x);
  }
}

FilterType quicFilterType(quic::FieldType t) {
  switch (t) {
    case quic::FieldType::Protocol: return FilterType::Protocol;
    case quic::FieldType::Bool: return FilterType::Bool;
    case quic::FieldType::Bytes: return FilterType::Bytes;
    default: return FilterType::Unsigned;
  }
}

void luaValues(const FilterFieldDef& def, const FilterFrame& f, std::vector<FilterValue>& out) {
  if (!f.res) return;
  const DissectResult& r = *f.res;
  const OfferedPayload dissected = offeredUdpPayload(*f.pkt);  // the bytes the values point into
  for (const FieldValue& v : r.values) {
    if (v.field != def.lua) continue;
    FilterValue x = number(v.u);
    switch (def.type) {
      case FilterType::Double: std::memcpy(&x.d, &v.u, sizeof x.d); break;
      case FilterType::IPv4:
        x.ip.family = 4;
        for (int i = 0; i < 4; ++i) x.ip.bytes[i] = uint8_t(v.u >> (24 - 8 * i));
        break;
      case FilterType::Ether:
      case FilterType::Bytes:
      case FilterType::String: x.bytes = std::string_view(r.strings).substr(v.str_off, v.str_len); break;
      case FilterType::Protocol:
        if (v.offset != FieldValue::kNoBytes && dissected.data &&
            uint64_t(v.offset) + v.length <= dissected.len)
          x = byteView(dissected.data + v.offset, v.length);
        break;
      default: break;
    }
    out.push_back(x);
  }
}

}  // namespace

FilterFields::FilterFields(const LuaHost& host) : host_(host) {
  const auto& fields = host.fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    FilterFieldDef d;
    d.name = fields[i].abbrev;
    d.type = luaType(fields[i].type);
    d.width = fieldTypeWidth(fields[i].type);  // 0: 8 bytes
    d.lua = static_cast<int>(i);
    d.has_bytes = d.type == FilterType::Protocol;
    lua_.push_back(std::move(d));
  }
}

const FilterFieldDef* FilterFields::find(std::string_view name) const {
  static const std::vector<FilterFieldDef> builtins = [] {
    std::vector<FilterFieldDef> out;
    for (const BuiltinDef& b : kBuiltins) {
      FilterFieldDef d;
      d.name = b.name;
      d.type = b.type;
      d.width = b.width;
      d.builtin = static_cast<int>(out.size());
      d.has_bytes = protocolHasBytes(d.builtin);
      out.push_back(std::move(d));
    }
    const auto& notes = tcpNoteFieldNames();
    for (size_t i = 0; i < notes.size(); ++i) {
      FilterFieldDef d;
      d.name = notes[i];
      d.type = tcpNoteFieldHasNumber(i) ? FilterType::Unsigned : FilterType::None;
      d.width = 4;
      d.tcp_note = static_cast<int>(i);
      out.push_back(std::move(d));
    }
    const auto& streams = streamFieldNames();
    for (size_t i = 0; i < streams.size(); ++i) {
      FilterFieldDef d;
      d.name = streams[i];
      const StreamFieldType t = streamFieldType(i);
      d.type = t == StreamFieldType::Unsigned  ? FilterType::Unsigned
               : t == StreamFieldType::Seconds ? FilterType::RelTime
                                               : FilterType::None;
      d.width = 0;
      d.stream_field = static_cast<int>(i);
      out.push_back(std::move(d));
    }
    const auto& quicNames = quic::fieldNames();
    for (size_t i = 0; i < quicNames.size(); ++i) {
      FilterFieldDef d;
      d.name = quicNames[i];
      d.type = quicFilterType(quic::fieldType(i));
      d.width = 0;
      d.quic_field = static_cast<int>(i);
      out.push_back(std::move(d));
    }
    return out;
  }();
  for (const auto* list : {&builtins, &lua_})
    for (const FilterFieldDef& d : *list)
      if (d.name == name) return &d;
  return nullptr;
}

void FilterFields::collect(const FilterFieldDef& field, const FilterFrame& frame,
                           std::vector<FilterValue>& out) const {
  if (field.builtin >= 0)
    builtinValues(field.builtin, frame, host_.tcpRelativeSequenceNumbers(), out);
  else if (field.tcp_note >= 0)
    tcpNoteValues(field.tcp_note, frame, out);
  else if (field.stream_field >= 0)
    streamValues(field.stream_field, frame, host_.tcpRelativeSequenceNumbers(), out);
  else if (field.quic_field >= 0)
    quicValues(field.quic_field, frame, out);
  else
    luaValues(field, frame, out);
}

std::vector<std::string> FilterFields::builtinNames() {
  std::vector<std::string> out;
  for (const BuiltinDef& b : kBuiltins) out.emplace_back(b.name);
  for (std::string_view n : tcpNoteFieldNames()) out.emplace_back(n);
  for (std::string_view n : streamFieldNames()) out.emplace_back(n);
  for (std::string_view n : quic::fieldNames()) out.emplace_back(n);
  return out;
}

const quic::Datagram* FilterFrameSequence::readQuic(const DecodedPacket& pkt, const DissectResult* res) {
  const bool offered = pkt.l4 == L4::UDP && pkt.payload && pkt.payload_len > 0 && !pkt.in_error_pkt &&
                       !pkt.ip_fragment && !(res && res->proto >= 0);
  if (!offered) return nullptr;
  const quic::Endpoint src{pkt.src, pkt.sport}, dst{pkt.dst, pkt.dport};
  return quic_->read(src, dst, pkt.payload, pkt.payload_len, datagram_) ? &datagram_ : nullptr;
}

}  // namespace rudp
