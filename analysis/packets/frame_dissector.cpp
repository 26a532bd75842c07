#include "packets/frame_dissector.h"

#include <cstdio>
#include <optional>

#include "core/error.h"
#include "decode/decoder.h"
#include "lua/host.h"
#include "packets/frame_reader.h"

namespace rudp {

namespace {

const char* const kArrow = " \xE2\x86\x92 ";  // " → ", as Wireshark writes ports

// Wireshark's TCP flag names in its order (FIN first).
std::string tcpFlags(uint8_t flags) {
  static const char* const names[] = {"FIN", "SYN", "RST", "PSH", "ACK", "URG", "ECE", "CWR"};
  std::string out;
  for (int bit = 0; bit < 8; ++bit)
    if (flags & (1u << bit)) out += (out.empty() ? "" : ", ") + std::string(names[bit]);
  return "[" + out + "]";
}

std::string icmpSummary(const IcmpError& e) {
  const std::string code = std::to_string(e.code);
  if (!e.v6 && e.type == 3) {
    static const char* const codes[] = {"Network unreachable", "Host unreachable", "Protocol unreachable",
                                        "Port unreachable", "Fragmentation needed"};
    return e.code < 5 ? std::string("Destination unreachable (") + codes[e.code] + ")"
                      : "Destination unreachable (code " + code + ")";
  }
  if (!e.v6 && e.type == 11) return "Time-to-live exceeded";
  if (e.v6 && e.type == 1) return "Destination Unreachable (code " + code + ")";
  if (e.v6 && e.type == 2) return "Packet Too Big";
  if (e.v6 && e.type == 3) return "Time Exceeded";
  return "Type " + std::to_string(e.type) + ", code " + code;
}

// Where the transport payload starts in the frame; nullopt when it lies in a
// reassembly buffer instead.
std::optional<uint32_t> payloadOffset(const RawPacket& raw, const DecodedPacket& pkt) {
  if (!pkt.payload || pkt.payload < raw.data || pkt.payload > raw.data + raw.caplen) return std::nullopt;
  return static_cast<uint32_t>(pkt.payload - raw.data);
}

constexpr int kDltEthernet = 1;

std::string macText(const uint8_t* p) {
  char buf[18];
  std::snprintf(buf, sizeof buf, "%02x:%02x:%02x:%02x:%02x:%02x", p[0], p[1], p[2], p[3], p[4], p[5]);
  return buf;
}

// An untagged Ethernet II frame carrying IPv4 or IPv6 directly.
bool plainEthernetIp(const RawPacket& raw, int linkType) {
  if (linkType != kDltEthernet || raw.caplen < 14) return false;
  const unsigned type = unsigned(raw.data[12]) << 8 | raw.data[13];
  return type == 0x0800 || type == 0x86dd;
}

std::string l3Name(L3 l3) { return l3 == L3::IPv6 ? "IPv6" : l3 == L3::IPv4 ? "IPv4" : ""; }

void setColumns(const DecodedPacket& pkt, const DissectResult& res, DissectedFrame& out) {
  if (pkt.l3 != L3::None) {
    out.source = pkt.src.toString();
    out.destination = pkt.dst.toString();
  }
  const std::string ports = std::to_string(pkt.sport) + kArrow + std::to_string(pkt.dport);
  const std::string len = std::to_string(pkt.payload_reported_len);
  if (pkt.l4 == L4::UDP) {
    out.protocol = res.protocol_col;
    out.info = res.info_col;
  } else if (pkt.l4 == L4::TCP) {
    const TcpHeader& t = pkt.tcp;
    out.protocol = "TCP";
    out.info = ports + " " + tcpFlags(t.flags) + " Seq=" + std::to_string(t.seq) +
               ((t.flags & 0x10) ? " Ack=" + std::to_string(t.ack) : "") +
               " Win=" + std::to_string(t.window) + " Len=" + len;
  } else if (pkt.has_icmp_error) {
    out.protocol = pkt.icmp.v6 ? "ICMPv6" : "ICMP";
    out.info = icmpSummary(pkt.icmp);
  } else if (pkt.ip_fragment) {
    out.protocol = l3Name(pkt.l3);
    out.info = "Fragmented IP protocol (proto=" + std::to_string(pkt.ip_proto) + ")";
  } else {
    out.protocol = pkt.l3 != L3::None ? l3Name(pkt.l3) : "Frame";
    out.info = pkt.error;
  }
}

}  // namespace

struct FrameDissector::Impl {
  FrameReader reader;
  LuaHost host;
  Decoder decoder;
  DecodedPacket pkt;
  DissectResult res;

  Impl(const std::string& capture, const DissectorOptions& dissectors, int64_t firstTsNs)
      : reader(capture), decoder(reader.linkType()) {
    loadDissectors(host, dissectors);
    host.setFirstTimestamp(firstTsNs);
  }

  void layerItems(const RawPacket& raw, std::optional<uint32_t> payload, DissectedFrame& out) const;
  void dissectorItems(std::optional<uint32_t> payload, DissectedFrame& out) const;
};

void FrameDissector::Impl::layerItems(const RawPacket& raw, std::optional<uint32_t> payload,
                                      DissectedFrame& out) const {
  auto add = [&out](std::string label, uint32_t offset, uint32_t length) {
    out.items.push_back(FrameItem{std::move(label), 0, offset, length, {}, {}});
  };
  add("Frame " + std::to_string(raw.frame) + ": " + std::to_string(raw.origlen) + " bytes on wire (" +
          std::to_string(uint64_t(raw.origlen) * 8) + " bits), " + std::to_string(raw.caplen) +
          " bytes captured (" + std::to_string(uint64_t(raw.caplen) * 8) + " bits)",
      0, raw.caplen);
  const bool ethernet = plainEthernetIp(raw, raw.link_type >= 0 ? raw.link_type : reader.linkType());
  if (ethernet) add("Ethernet II, Src: " + macText(raw.data + 6) + ", Dst: " + macText(raw.data), 0, 14);
  const uint32_t header = pkt.l4 == L4::UDP ? 8 : pkt.l4 == L4::TCP ? pkt.tcp.header_len : 0;
  const uint32_t at = payload && *payload >= header ? *payload - header : FrameItem::kNoBytes;
  // The IP header's bytes when they are plainly known: right after an
  // Ethernet header, up to the transport header (no tunnel in between).
  const bool ipKnown = ethernet && pkt.outer_count == 0 && at != FrameItem::kNoBytes && at > 14;
  if (pkt.l3 == L3::IPv4 || pkt.l3 == L3::IPv6)
    add((pkt.l3 == L3::IPv4 ? "Internet Protocol Version 4, Src: " : "Internet Protocol Version 6, Src: ") +
            pkt.src.toString() + ", Dst: " + pkt.dst.toString(),
        ipKnown ? 14 : FrameItem::kNoBytes, ipKnown ? at - 14 : 0);
  const std::string ports =
      "Src Port: " + std::to_string(pkt.sport) + ", Dst Port: " + std::to_string(pkt.dport);
  if (pkt.l4 == L4::UDP) add("User Datagram Protocol, " + ports, at, header);
  if (pkt.l4 == L4::TCP)
    add("Transmission Control Protocol, " + ports + ", Seq: " + std::to_string(pkt.tcp.seq) +
            ", Len: " + std::to_string(pkt.payload_reported_len),
        at, header);
  if (!pkt.error.empty()) add("[Malformed: " + pkt.error + "]", FrameItem::kNoBytes, 0);
}

void FrameDissector::Impl::dissectorItems(std::optional<uint32_t> payload, DissectedFrame& out) const {
  const auto& fields = host.fields();
  for (const FieldValue& v : res.values) {
    const FieldInfo& f = fields[v.field];
    FrameItem item;
    item.depth = v.depth;  // the protocol's own item is a layer, as in Wireshark
    item.field = f.abbrev;
    if (f.type == FieldType::Protocol) {
      item.label = v.u == 1 ? std::string(res.strings, v.str_off, v.str_len)
                            : host.protocols()[f.proto_index].description;
    } else {
      item.value = host.formatValue(v, res);
      item.label = f.name + ": " + item.value;
    }
    if (payload && v.offset != FieldValue::kNoBytes) {
      item.offset = *payload + v.offset;
      item.length = v.length;
    }
    out.items.push_back(std::move(item));
  }
  if (res.lua_error)
    out.items.push_back(FrameItem{"[Lua Error: " + res.error + "]", 1, FrameItem::kNoBytes, 0, {}, {}});
}

FrameDissector::FrameDissector(const std::string& capture, const DissectorOptions& dissectors,
                               int64_t firstTsNs)
    : d(std::make_unique<Impl>(capture, dissectors, firstTsNs)) {}

FrameDissector::~FrameDissector() = default;

int FrameDissector::timestampDigits() const { return d->reader.timestampDigits(); }

bool FrameDissector::seeks() const { return d->reader.seeks(); }

DissectedFrame FrameDissector::dissect(const PacketRecord& stored, bool withItems) {
  const RawPacket& raw = d->reader.read(stored.frame, stored.file_offset);
  if (raw.ts_ns != stored.ts_ns || raw.caplen != stored.caplen)
    throw CaptureError("frame " + std::to_string(stored.frame) +
                       " differs from the one analysed: the capture changed since (analyse it again)");
  DissectedFrame out;
  out.frame = raw.frame;
  out.bytes.assign(raw.data, raw.data + raw.caplen);
  d->decoder.decode(raw, d->pkt);
  d->res.clear();
  if (d->pkt.l4 == L4::UDP) d->host.dissectUdp(d->pkt, true, d->res);
  setColumns(d->pkt, d->res, out);
  if (withItems) {
    const std::optional<uint32_t> payload = payloadOffset(raw, d->pkt);
    d->layerItems(raw, payload, out);
    d->dissectorItems(payload, out);
  }
  return out;
}

}  // namespace rudp
