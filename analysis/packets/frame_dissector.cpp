#include "packets/frame_dissector.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <optional>
#include <unordered_map>

#include "core/error.h"
#include "core/label_text.h"
#include "decode/bytes.h"
#include "decode/decoder.h"
#include "decode/ethernet.h"
#include "decode/link_layer.h"
#include "decode/quic_info.h"
#include "decode/tcp.h"
#include "decode/transport.h"
#include "flow/conversation_tracker.h"
#include "lua/host.h"
#include "packets/arp_layer.h"
#include "packets/field_printer.h"
#include "packets/frame_layers.h"
#include "packets/frame_reader.h"
#include "packets/icmp_info.h"
#include "packets/icmp_layer.h"
#include "packets/ip_names.h"
#include "packets/tcp_layer.h"

namespace rudp {

namespace {

const char* const kArrow = " \xE2\x86\x92 ";  // " → ", as Wireshark writes ports

// The options tshark names in the Info column, in the header's order (a
// Windows SYN reads "MSS=1460 WS=256 SACK_PERM", a Linux one "MSS=1460
// SACK_PERM TSval=... TSecr=0 WS=128"), which TcpOptions does not keep.
// Malformed options end the list, as they end the decoder's parse.
// SACK edges count from `sackBase` (the ack's relative base, or 0).
std::string tcpOptionsInfo(const uint8_t* p, uint32_t len, uint32_t sackBase) {
  using namespace tcp;
  std::string out;
  forEachOption(p, len, [&out, sackBase](uint8_t kind, const uint8_t* v, uint32_t size) {
    if (kind == kMss && size == 2) out += " MSS=" + std::to_string(wire::be16(v));
    if (kind == kWindowScale && size == 1) out += " WS=" + std::to_string(1u << std::min<unsigned>(v[0], 14));
    if (kind == kSackPermitted && size == 0) out += " SACK_PERM";
    for (uint32_t b = 0; kind == kSack && b + 8 <= size; b += 8)
      out += " SLE=" + std::to_string(wire::be32(v + b) - sackBase) +
             " SRE=" + std::to_string(wire::be32(v + b + 4) - sackBase);
    if (kind == kTimestamps && size == 8)
      out += " TSval=" + std::to_string(wire::be32(v)) + " TSecr=" + std::to_string(wire::be32(v + 4));
    return true;
  });
  return out;
}

using namespace tcpflag;

// windowShift: the sender's agreed WS, -1 when none (a SYN's is never scaled);
// relative: Wireshark's relative sequence numbers, from `bases`.
std::string tcpInfo(const DecodedPacket& pkt, const std::string& ports, int windowShift,
                    const TcpSeqBases& bases, bool relative) {
  const TcpHeader& t = pkt.tcp;
  const uint64_t window = tcpCalculatedWindow(t, windowShift);
  std::string info = ports + " " + "[" + tcpFlagNames(t.flags) + "]" +
                     " Seq=" + std::to_string(tcpShownSeq(t, bases, relative)) +
                     ((t.flags & kAck) ? " Ack=" + std::to_string(tcpShownAck(t, bases, relative)) : "") +
                     " Win=" + std::to_string(window);
  // The whole header sits right before the payload, in the frame or in the
  // reassembly buffer.
  const uint8_t* header = pkt.payload ? pkt.payload - t.header_len : nullptr;
  if (header && (t.flags & kUrg)) info += " Urg=" + std::to_string(tcp::urgentPointer(header));
  info += " Len=" + std::to_string(pkt.payload_reported_len);
  const uint32_t sackBase = relative && bases.known ? bases.ack : 0;
  if (header) info += tcpOptionsInfo(header + 20, t.header_len - 20u, sackBase);
  return info;
}

// Where `bytes` start in the frame; nullopt when they lie in a reassembly
// buffer instead.
std::optional<uint32_t> offsetInFrame(const RawPacket& raw, const uint8_t* bytes) {
  if (!bytes || bytes < raw.data || bytes > raw.data + raw.caplen) return std::nullopt;
  return static_cast<uint32_t>(bytes - raw.data);
}

std::string l3Name(L3 l3) { return l3 == L3::IPv6 ? "IPv6" : l3 == L3::IPv4 ? "IPv4" : ""; }

// packet-ip.c's and packet-ipv6.c's Info for a fragment not reassembled here.
std::string fragmentInfo(const DecodedPacket& pkt) {
  const IpFragment& f = pkt.ip_frag;
  char buf[96];
  if (pkt.l3 == L3::IPv6)
    std::snprintf(buf, sizeof buf, "IPv6 fragment (off=%u more=%s ident=0x%08x nxt=%u)", f.offset,
                  f.more ? "y" : "n", f.id, unsigned(f.next));
  else
    std::snprintf(buf, sizeof buf, "Fragmented IP protocol (proto=%s %u, off=%u, ID=%04x)",
                  ipProtocolName(pkt.ip_proto), unsigned(pkt.ip_proto), f.offset, f.id);
  return buf;
}

// `notes`: Wireshark's TCP analysis notes of the frame, from the database.
void setColumns(const DecodedPacket& pkt, const DissectResult& res, int windowShift, const TcpNotes& notes,
                bool relative, const std::optional<EchoRequest>& echoRequest, DissectedFrame& out) {
  if (pkt.l3 != L3::None) {
    out.source = pkt.src.toString();
    out.destination = pkt.dst.toString();
  }
  const std::string ports = std::to_string(pkt.sport) + kArrow + std::to_string(pkt.dport);
  if (pkt.l4 == L4::UDP) {
    out.protocol = res.protocol_col;
    out.info = res.info_col;
  } else if (pkt.l4 == L4::TCP) {
    out.protocol = "TCP";
    out.info = tcpNotesPrefix(notes) + tcpInfo(pkt, ports, windowShift, notes.bases, relative);
  } else if (hasOwnIcmp(pkt)) {
    out.protocol = pkt.icmp_heads[0].v6 ? "ICMPv6" : "ICMP";
    out.info = icmpInfo(pkt, echoRequest);
  } else if (pkt.ip_fragment) {
    out.protocol = l3Name(pkt.l3);
    out.info = fragmentInfo(pkt);
  } else {
    out.protocol = pkt.l3 != L3::None ? l3Name(pkt.l3) : "Frame";
    out.info = pkt.error;
  }
}

// A frame with no IP packet and no tunnel: Ethernet's addresses, which
// tshark's Source and Destination show then, and ARP's columns.
void setLinkColumns(const RawPacket& raw, int dlt, DissectedFrame& out) {
  if (dlt != link::kEthernet || raw.caplen < eth::kHeaderLen) return;
  out.source = macText(raw.data + 6);
  out.destination = macText(raw.data);
  const std::optional<uint32_t> at = ethernetArpOffset(raw, dlt);
  if (!at) return;
  ArpColumns arp = arpColumns(raw, *at, raw.origlen);
  out.protocol = std::move(arp.protocol);
  out.info = std::move(arp.info);
}

}  // namespace

struct FrameDissector::Impl {
  FrameReader reader;
  LuaHost host;
  std::shared_ptr<const quic::KeyLog> keys;  // before `sequence`, which reads QUIC with them
  Decoder decoder;
  DecodedPacket pkt;
  DissectResult res;
  FilterFrameSequence sequence;
  FilterFrame last;
  TcpNotes last_notes;
  ConversationTracker in_order;                     // for frames read in order
  std::optional<TcpFrameDetails> last_tcp_details;  // the last frame's, when read in order
  int64_t first_ts_ns;
  std::optional<FieldPrinter> field_columns;
  std::string field_line;

  Impl(const std::string& capture, const DissectorOptions& dissectors, int64_t firstTsNs)
      : reader(capture),
        keys(loadKeyLog(dissectors, capture)),
        decoder(reader.linkType()),
        sequence(reader.linkType(), false, keys.get()),
        first_ts_ns(firstTsNs) {
    loadDissectors(host, dissectors);
    host.setFirstTimestamp(firstTsNs);
  }

  int dltOf(const RawPacket& raw) const { return raw.link_type >= 0 ? raw.link_type : reader.linkType(); }
  void layerItems(const RawPacket& raw, std::optional<uint32_t> payload, const FrameTimes& times,
                  DissectedFrame& out) const;
  void dissectorItems(std::optional<uint32_t> payload, DissectedFrame& out) const;

  // A TCP payload handed on, or a UDP payload (an ICMP error's quoted one
  // too) no Lua protocol took: tshark's "Data" layer (the game's ports have
  // no built-in dissector). Empty: none.
  OfferedPayload dataHandedOn() const {
    if (tcpPayloadHandedOn(last_notes, pkt)) return {pkt.payload, pkt.payload_len};
    return res.proto < 0 && !last.quic ? offeredUdpPayload(pkt) : OfferedPayload{};
  }

  std::optional<FrameUdpStreams> last_udp;         // the last frame's, when read in order or from the replay
  std::optional<EchoRequest> last_echo_request;    // likewise: the request an echo reply answers
  std::optional<EchoRequest> stored_echo_request;  // the stored row's, when dissecting one

  FrameDissector::ConnectionHead connection_head;
  std::unordered_map<int64_t, std::array<int8_t, 2>> window_shifts;  // by connection, per direction
  FrameDissector::ConnectionSeqBases connection_seq_bases;
  std::unordered_map<int64_t, std::vector<TcpSeqBaseChange>> seq_bases;  // by connection

  // Where a stored TCP row's relative numbers start; unknown without the
  // database's bases. Read once per connection.
  TcpSeqBases seqBasesOf(const PacketRecord& row) {
    const bool tcp = row.conn != 0 && row.segments == 0 && row.flags;
    if (!connection_seq_bases || !tcp) return {};
    auto it = seq_bases.find(row.conn);
    if (it == seq_bases.end()) it = seq_bases.emplace(row.conn, connection_seq_bases(row.conn)).first;
    return tcpSeqBasesAt(it->second, row.dir, row.frame);
  }

  // The window shift of a stored TCP row's sender (-1: none): the shifts of
  // its connection's handshake, read once per connection.
  int windowShiftOf(const PacketRecord& row) {
    const bool tcp = row.conn != 0 && row.segments == 0 && row.flags;
    if (!connection_head || !tcp) return -1;
    auto it = window_shifts.find(row.conn);
    if (it == window_shifts.end()) it = window_shifts.emplace(row.conn, handshakeShifts(row.conn)).first;
    return it->second[size_t(row.dir)];
  }

  // Each end's WS when both the SYN and the SYN-ACK carry one (window scaling
  // is on only then), else none.
  std::array<int8_t, 2> handshakeShifts(int64_t conn) {
    std::optional<PacketRecord> syn, synAck;
    for (const PacketRecord& r : connection_head(conn)) {
      const int64_t flags = r.flags.value_or(0);
      if (r.segments != 0 || !(flags & kSyn)) continue;
      std::optional<PacketRecord>& first = (flags & kAck) ? synAck : syn;
      if (!first) first = r;
    }
    std::array<int8_t, 2> shifts{-1, -1};
    if (!syn || !synAck) return shifts;
    const int8_t a = windowScaleOf(*syn), b = windowScaleOf(*synAck);
    if (a < 0 || b < 0) return shifts;
    shifts[size_t(syn->dir)] = a;
    shifts[size_t(synAck->dir)] = b;
    return shifts;
  }

  int8_t windowScaleOf(const PacketRecord& row) {
    // A decoder of its own: the list's follows the frames shown (reassembly).
    Decoder handshake(reader.linkType());
    DecodedPacket p;
    handshake.decode(reader.read(row.frame, row.file_offset), p);
    return p.l4 == L4::TCP ? p.tcp.options.window_scale : int8_t(-1);
  }
};

void FrameDissector::Impl::layerItems(const RawPacket& raw, std::optional<uint32_t> payload,
                                      const FrameTimes& times, DissectedFrame& out) const {
  LayerInputs in;
  in.raw = &raw;
  in.dlt = dltOf(raw);
  in.pkt = &pkt;
  in.payload = payload;
  in.times = times;
  if (last_udp && last_udp->own >= 0) in.stream = last_udp->header[size_t(last_udp->own)];
  for (int i = 0; last_udp && i < pkt.outer_count; ++i)
    if (pkt.outer[i].udp) in.tunnel_streams.push_back(last_udp->header[in.tunnel_streams.size()]);
  in.echo_request = last_echo_request;
  if (last_udp && last_udp->count > 0 && pkt.has_icmp_error && pkt.icmp.quoted.udp)
    in.quoted_stream = last_udp->header[last_udp->count - 1u];
  if (pkt.ip_reassembled) {
    in.ip.reassembled = true;
    in.ip.pieces = decoder.reassembledPieces();
    const uint32_t header = transportHeaderLength(pkt);
    in.ip.datagram = pkt.payload ? pkt.payload - header : nullptr;
    in.ip.datagram_length = pkt.payload_reported_len + header;
  }
  const TcpSeqBases& bases = last_notes.bases;
  const bool relative = host.tcpRelativeSequenceNumbers();
  in.tcp.notes = last_notes;
  in.tcp.relative = relative;
  in.tcp.ack_raw = pkt.tcp.ack;
  in.tcp.details = last_tcp_details ? &*last_tcp_details : nullptr;
  if (pkt.l4 == L4::TCP)
    in.tcp.summary =
        "Seq: " + std::to_string(tcpShownSeq(pkt.tcp, bases, relative)) +
        ((pkt.tcp.flags & kAck) ? ", Ack: " + std::to_string(tcpShownAck(pkt.tcp, bases, relative)) : "") +
        ", Len: " + std::to_string(pkt.payload_reported_len);
  for (const int layer : res.layers)
    in.lua_layers.push_back(layer < 0 ? "data" : host.protocols()[layer].name);
  in.data = dataHandedOn().len > 0;
  in.quic = last.quic;
  addLayerItems(in, out.items);
}

void FrameDissector::Impl::dissectorItems(std::optional<uint32_t> payload, DissectedFrame& out) const {
  const auto& fields = host.fields();
  for (const TreeLine& line : res.tree) {
    FrameItem item;
    item.depth = line.depth;  // the protocol's own item is a layer, as in Wireshark
    item.label = line.label;
    if (line.field >= 0) item.field = fields[line.field].abbrev;
    item.value = line.value;
    if (payload && line.offset != FieldValue::kNoBytes) {
      item.offset = *payload + line.offset;
      item.length = line.length;
    }
    out.items.push_back(std::move(item));
  }
  if (const OfferedPayload data = dataHandedOn(); data.len > 0)
    addDataLayer(data.data, data.len, payload, out.items);
  if (res.lua_error)
    out.items.push_back(FrameItem{"[Lua Error: " + res.error + "]", 1, FrameItem::kNoBytes, 0, {}, {}});
}

FrameDissector::FrameDissector(const std::string& capture, const DissectorOptions& dissectors,
                               int64_t firstTsNs)
    : d(std::make_unique<Impl>(capture, dissectors, firstTsNs)) {}

FrameDissector::~FrameDissector() = default;

const Decoder& FrameDissector::decoder() const { return d->decoder; }

int FrameDissector::timestampDigits() const { return d->reader.timestampDigits(); }

void FrameDissector::setFieldColumns(const std::vector<std::string>& fields) {
  if (fields.empty())
    d->field_columns.reset();
  else
    d->field_columns.emplace(d->host, fields, false);
}

DisplayFilter FrameDissector::compileFilter(std::string_view text) const { return {text, d->host}; }

bool FrameDissector::lastPasses(const DisplayFilter& filter) {
  return d->last.raw && filter.matchesShown(d->last, d->sequence);
}

bool FrameDissector::seeks() const { return d->reader.seeks(); }

void FrameDissector::setConnectionHead(ConnectionHead head) {
  d->connection_head = std::move(head);
  d->window_shifts.clear();
}

void FrameDissector::setConnectionSeqBases(ConnectionSeqBases bases) {
  d->connection_seq_bases = std::move(bases);
  d->seq_bases.clear();
}

DissectedFrame FrameDissector::dissect(const PacketRecord& stored, bool withItems, const FrameTimes* times,
                                       const ConversationFacts* facts) {
  const int shift = d->windowShiftOf(stored);  // may read other frames: before this one's
  const RawPacket& raw = d->reader.read(stored.frame, stored.file_offset);
  if (raw.ts_ns != stored.ts_ns || raw.caplen != stored.caplen)
    throw CaptureError("frame " + std::to_string(stored.frame) +
                       " differs from the one analysed: the capture changed since (analyse it again)");
  TcpNotes notes = stored.tcp_notes;
  notes.bases = d->seqBasesOf(stored);
  if (facts && facts->frame != stored.frame) facts = nullptr;
  d->stored_echo_request = stored.echo_request;
  return dissectFrame(raw, withItems, shift, &notes, times, facts);
}

DissectedFrame FrameDissector::dissect(const RawPacket& raw, bool withItems) {
  return dissectFrame(raw, withItems, -1, nullptr, nullptr, nullptr);
}

DissectedFrame FrameDissector::dissectFrame(const RawPacket& raw, bool withItems, int windowShift,
                                            const TcpNotes* storedNotes, const FrameTimes* times,
                                            const ConversationFacts* facts) {
  DissectedFrame out;
  out.frame = raw.frame;
  out.bytes.assign(raw.data, raw.data + raw.caplen);
  d->decoder.decode(raw, d->pkt);
  d->host.dissect(d->pkt, true, d->res, withItems);
  if (!storedNotes) {
    const ConversationFrame& c = d->in_order.next(d->pkt);
    d->last_notes = c.notes;
    d->last_tcp_details = c.tcp;
    d->last_udp = c.udp;
    d->last_echo_request = c.echo_request;
    if (c.tcp) windowShift = c.tcp->win_scale;  // the handshake seen in order
  } else {
    d->last_notes = *storedNotes;
    d->last_tcp_details = facts ? facts->tcp : std::nullopt;
    d->last_udp = facts ? std::optional(facts->udp) : std::nullopt;
    d->last_echo_request = facts ? facts->echo_request : d->stored_echo_request;
  }
  d->last_notes.bases.known = d->last_notes.bases.known && tcpSegmentAnalysed(d->pkt);
  d->last = d->sequence.next(raw, d->pkt, &d->res);
  d->last.tcp_notes = &d->last_notes;  // the sequence's own follow no conversations
  d->last.tcp_details = d->last_tcp_details ? &*d->last_tcp_details : nullptr;
  d->last.udp_streams = d->last_udp ? &*d->last_udp : nullptr;
  if (d->res.proto >= 0) out.lua_protocol = d->host.protocols()[d->res.proto].name;
  setColumns(d->pkt, d->res, windowShift, d->last_notes, d->host.tcpRelativeSequenceNumbers(),
             d->last_echo_request, out);
  if (d->pkt.l3 == L3::None && d->pkt.outer_count == 0) setLinkColumns(raw, d->dltOf(raw), out);
  if (d->last.quic) {  // a UDP payload no Lua protocol took, read as QUIC
    out.protocol = quic::kProtocolColumn;
    out.info = quic::infoColumn(*d->last.quic);
  }
  if (d->field_columns) {
    d->field_line.clear();
    FilterFrame frame = d->last;
    frame.first_ts_ns = d->first_ts_ns;  // the capture's, as this frame may be read alone
    d->field_columns->line(frame, d->field_line);
    d->field_line.pop_back();  // its '\n'
    size_t from = 0;
    for (size_t tab; (tab = d->field_line.find('\t', from)) != std::string::npos; from = tab + 1)
      out.field_columns.push_back(d->field_line.substr(from, tab - from));
    out.field_columns.push_back(d->field_line.substr(from));
  }
  if (withItems) {
    const std::optional<uint32_t> payload = offsetInFrame(raw, d->pkt.payload);
    const FrameTimes inOrder{raw.ts_ns, d->last.first_ts_ns, d->last.prev_ts_ns, d->last.shown_ts_ns};
    d->layerItems(raw, payload, times ? *times : inOrder, out);
    // The bytes the dissectors had: an ICMP error's are those of the datagram it quotes.
    const uint8_t* offered = d->pkt.has_icmp_error ? d->pkt.icmp.quoted_payload : d->pkt.payload;
    d->dissectorItems(offsetInFrame(raw, offered), out);
  }
  return out;
}

}  // namespace rudp
