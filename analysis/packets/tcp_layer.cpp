#include "packets/tcp_layer.h"

#include <algorithm>

#include "core/label_text.h"
#include "core/seq32.h"
#include "decode/bytes.h"
#include "decode/tcp.h"
#include "packets/frame_time.h"

namespace rudp {

namespace {

using namespace tcpflag;

// Wireshark's words for the handshake, data and teardown seen so far.
std::string completenessText(uint8_t value) {
  const std::string n = " (" + std::to_string(value) + ")";
  switch (value) {
    case 1: return "Incomplete, SYN_SENT" + n;
    case 3: return "Incomplete, CLIENT_ESTABLISHED" + n;
    case 7: return "Incomplete, ESTABLISHED" + n;
    case 15: return "Incomplete, DATA" + n;
    case 31:
    case 47:
    case 63: return "Complete, WITH_DATA" + n;
    case 23:
    case 39:
    case 55: return "Complete, NO_DATA" + n;
    default: return "Incomplete" + n;
  }
}
std::string setText(bool set) { return set ? "Set" : "Not set"; }

// "·······AP···": each of the 12 flag bits by its letter when set.
std::string flagLetters(unsigned flags) {
  static const char kLetters[] = "RRRACEUAPRSF";
  std::string out;
  for (int bit = 11; bit >= 0; --bit)
    out += (flags >> bit & 1) ? std::string(1, kLetters[11 - bit]) : "\xC2\xB7";
  return out;
}

void flagLines(LayerTree& tree, uint32_t at, unsigned flags, const DecodedPacket& pkt,
               const TcpLayerFacts& f) {
  tree.item(1, "Flags: " + hexNumber(flags, 3) + " (" + tcpFlagNames(flags) + ")", at + tcp::kDataOffsetAt, 2,
            "tcp.flags", hexNumber(flags, 3));
  struct Line {
    unsigned mask;
    const char *name, *field;
  };
  static const Line kLines[] = {{0xe00, "Reserved", nullptr},
                                {0x100, "Accurate ECN", nullptr},
                                {0x080, "Congestion Window Reduced", nullptr},
                                {0x040, "ECN-Echo", nullptr},
                                {0x020, "Urgent", "tcp.flags.urg"},
                                {0x010, "Acknowledgment", "tcp.flags.ack"},
                                {0x008, "Push", "tcp.flags.push"},
                                {0x004, "Reset", "tcp.flags.reset"},
                                {0x002, "Syn", "tcp.flags.syn"},
                                {0x001, "Fin", "tcp.flags.fin"}};
  for (const Line& l : kLines) {
    const bool set = flags & l.mask;
    tree.item(2, bitPattern(flags, l.mask, 12) + l.name + ": " + setText(set), at + tcp::kDataOffsetAt, 2,
              l.field ? l.field : "", set ? "1" : "0");
    if (l.mask == kSyn && set)
      tree.expert(3, "Chat", "Sequence",
                  (flags & kAck)
                      ? "Connection establish acknowledge (SYN+ACK): server port " + std::to_string(pkt.sport)
                      : "Connection establish request (SYN): server port " + std::to_string(pkt.dport));
    if (l.mask == kFin && set) tree.expert(3, "Chat", "Sequence", "Connection finish (FIN)");
    if (l.mask == kRst && set) tree.expert(3, "Warning", "Sequence", "Connection reset (RST)");
  }
  tree.generated(2, "TCP Flags: " + flagLetters(flags));
  if ((flags & kFin) && f.details)
    tree.expert(3, "Note", "Sequence",
                f.details->closing_initiator ? "This frame initiates the connection closing"
                                             : "This frame undergoes the connection closing");
}

void windowLines(LayerTree& tree, uint32_t at, const DecodedPacket& pkt, const TcpLayerFacts& f) {
  const unsigned window = pkt.tcp.window;
  tree.item(1, "Window: " + std::to_string(window), at + tcp::kWindowAt, 2, "tcp.window_size_value",
            std::to_string(window));
  const int scale = f.details ? f.details->win_scale : -1;
  const bool syn = pkt.tcp.flags & kSyn;
  tree.generated(1, "Calculated window size: " + std::to_string(tcpCalculatedWindow(pkt.tcp, scale)));
  if (syn || !f.details) return;
  tree.generated(1,
                 "Window size scaling factor: " + (scale == -1   ? std::string("-1 (unknown)")
                                                   : scale == -2 ? std::string("-2 (no window scaling used)")
                                                                 : std::to_string(1u << scale)));
}

// One option's lines; returns the option's summary name.
std::string optionLines(LayerTree& tree, uint32_t o, uint8_t kind, const uint8_t* v, uint32_t size,
                        const TcpLayerFacts& f) {
  using namespace tcp;
  const std::string length = "Length: " + std::to_string(size + 2);
  if (kind == 1 || kind == 0) {
    const char* name = kind == 1 ? "No-Operation (NOP)" : "End of Option List (EOL)";
    tree.item(2, std::string("TCP Option - ") + name, o, 1);
    tree.item(3, kind == 1 ? "Kind: No-Operation (1)" : "Kind: End of Option List (0)", o, 1);
    return name;
  }
  if (kind == kMss && size == 2) {
    const std::string mss = std::to_string(wire::be16(v));
    tree.item(2, "TCP Option - Maximum segment size: " + mss + " bytes", o, 4);
    tree.item(3, "Kind: Maximum Segment Size (2)", o, 1);
    tree.item(3, length, o + 1, 1);
    tree.item(3, "MSS Value: " + mss, o + 2, 2, "tcp.options.mss_val", mss);
    return "Maximum segment size";
  }
  if (kind == kWindowScale && size == 1) {
    const std::string shift = std::to_string(v[0]),
                      multiplier = std::to_string(1u << std::min<unsigned>(v[0], 14));
    tree.item(2, "TCP Option - Window scale: " + shift + " (multiply by " + multiplier + ")", o, 3);
    tree.item(3, "Kind: Window Scale (3)", o, 1);
    tree.item(3, length, o + 1, 1);
    tree.item(3, "Shift count: " + shift, o + 2, 1, "tcp.options.wscale.shift", shift);
    tree.generated(3, "Multiplier: " + multiplier);
    return "Window scale";
  }
  if (kind == kSackPermitted && size == 0) {
    tree.item(2, "TCP Option - SACK permitted", o, 2);
    tree.item(3, "Kind: SACK Permitted (4)", o, 1);
    tree.item(3, length, o + 1, 1);
    return "SACK permitted";
  }
  if (kind == kTimestamps && size == 8) {
    const std::string tsval = std::to_string(wire::be32(v)), tsecr = std::to_string(wire::be32(v + 4));
    tree.item(2, "TCP Option - Timestamps: TSval " + tsval + ", TSecr " + tsecr, o, 10);
    tree.item(3, "Kind: Time Stamp Option (8)", o, 1);
    tree.item(3, length, o + 1, 1);
    tree.item(3, "Timestamp value: " + tsval, o + 2, 4, "tcp.options.timestamp.tsval", tsval);
    tree.item(3, "Timestamp echo reply: " + tsecr, o + 6, 4, "tcp.options.timestamp.tsecr", tsecr);
    return "Timestamps";
  }
  if (kind == kSack && size % 8 == 0 && size > 0) {
    const bool relative = f.relative && f.notes.bases.known;
    const uint32_t base = relative ? f.notes.bases.ack : 0;
    const std::string suffix = relative ? " (relative)" : "";
    std::string edges;
    for (uint32_t b = 0; b < size; b += 8)
      edges +=
          " " + std::to_string(wire::be32(v + b) - base) + "-" + std::to_string(wire::be32(v + b + 4) - base);
    tree.item(2, "TCP Option - SACK" + edges, o, size + 2);
    tree.item(3, "Kind: SACK (5)", o, 1);
    tree.item(3, length, o + 1, 1);
    for (uint32_t b = 0; b < size; b += 8) {
      tree.item(3, "left edge = " + std::to_string(wire::be32(v + b) - base) + suffix, o + 2 + b, 4);
      tree.item(3, "right edge = " + std::to_string(wire::be32(v + b + 4) - base) + suffix, o + 6 + b, 4);
    }
    tree.generated(3, "TCP SACK Count: " + std::to_string(size / 8));
    // RFC 2883's D-SACK: the first block already acked, or inside the second.
    const uint32_t left0 = wire::be32(v), right0 = wire::be32(v + 4);
    const bool insideSecond =
        size >= 16 && seqBefore(wire::be32(v + 8), right0) && seqAtOrBefore(right0, wire::be32(v + 12));
    if (seqAtOrBefore(right0, f.ack_raw) || insideSecond) {
      tree.generated(3, "D-SACK Left Edge = " + std::to_string(left0 - base) + suffix);
      tree.generated(3, "D-SACK Right Edge = " + std::to_string(right0 - base) + suffix);
      tree.item(3, "D-SACK Sequence", o + 2, 8);
      tree.expert(4, "Warning", "Sequence", "D-SACK Sequence");
    }
    return "SACK";
  }
  tree.item(2, "TCP Option - Unknown (" + std::to_string(kind) + ")", o, size + 2);
  return "Unknown";
}

void optionsLines(LayerTree& tree, uint32_t at, const uint8_t* header, uint32_t headerLen,
                  const TcpLayerFacts& f) {
  if (headerLen <= tcp::kMinHeaderLen) return;
  const size_t summary = tree.size();
  std::string names;
  const uint32_t first = at + tcp::kMinHeaderLen;
  tcp::forEachOptionAt(header + tcp::kMinHeaderLen, headerLen - tcp::kMinHeaderLen,
                       [&](uint32_t i, uint8_t kind, const uint8_t* v, uint32_t size) {
                         names += ", " + optionLines(tree, first + i, kind, v, size, f);
                         return true;
                       });
  const uint32_t length = headerLen - tcp::kMinHeaderLen;
  tree.insert(summary,
              FrameItem{"Options: (" + std::to_string(length) + " bytes)" + names, 1, first, length, {}, {}});
}

void analysisFlags(LayerTree& tree, const TcpNotes& n, const TcpFrameDetails& d) {
  using F = TcpNotes;
  tree.generated(2, "TCP Analysis Flags", "tcp.analysis.flags");
  if (n.flags & F::PortsReused)
    tree.expert(3, "Note", "Sequence",
                "A new tcp session is started with the same ports as an earlier session in this trace");
  if (n.flags & F::Retransmission) {
    tree.expert(3, "Note", "Sequence", "This frame is a (suspected) retransmission");
    if (d.rto_ns) {
      tree.generated(3, "The RTO for this segment was: " + secondsText(d.rto_ns));
      tree.generated(3, "RTO based on delta from frame: " + std::to_string(d.rto_frame));
    }
  }
  if (n.flags & F::FastRetransmission)
    tree.expert(3, "Note", "Sequence", "This frame is a (suspected) fast retransmission");
  if (n.flags & F::SpuriousRetransmission)
    tree.expert(3, "Note", "Sequence", "This frame is a (suspected) spurious retransmission");
  if (n.flags & (F::FastRetransmission | F::SpuriousRetransmission))
    tree.expert(3, "Note", "Sequence", "This frame is a (suspected) retransmission");
  if (n.flags & F::OutOfOrder)
    tree.expert(3, "Warning", "Sequence", "This frame is a (suspected) out-of-order segment");
  if (n.flags & F::LostSegment)
    tree.expert(3, "Warning", "Sequence", "Previous segment(s) not captured (common at capture start)");
  if (n.flags & F::AckedUnseen)
    tree.expert(3, "Warning", "Sequence", "ACKed segment that wasn't captured (common at capture start)");
  if (n.flags & F::WindowUpdate) tree.expert(3, "Chat", "Sequence", "TCP window update");
  if (n.flags & F::WindowFull)
    tree.expert(3, "Warning", "Sequence", "TCP window specified by the receiver is now completely full");
  if (n.flags & F::KeepAlive) tree.expert(3, "Note", "Sequence", "TCP keep-alive segment");
  if (n.flags & F::KeepAliveAck) tree.expert(3, "Note", "Sequence", "ACK to a TCP keep-alive segment");
  if (n.dup_ack_num) {
    if (n.flags & F::DuplicateAck)
      tree.generated(3, "This is a TCP duplicate ack", "tcp.analysis.duplicate_ack");
    tree.generated(2, "Duplicate ACK #: " + std::to_string(n.dup_ack_num), "tcp.analysis.duplicate_ack_num",
                   std::to_string(n.dup_ack_num));
    tree.generated(2, "Duplicate to the ACK in frame: " + std::to_string(n.dup_ack_frame),
                   "tcp.analysis.duplicate_ack_frame", std::to_string(n.dup_ack_frame));
    tree.expert(3, "Note", "Sequence", "Duplicate ACK (#" + std::to_string(n.dup_ack_num) + ")");
  }
  if (n.flags & F::ZeroWindowProbe) tree.expert(3, "Note", "Sequence", "TCP Zero Window Probe");
  if (n.flags & F::ZeroWindow) tree.expert(3, "Warning", "Sequence", "TCP Zero Window segment");
  if (n.flags & F::ZeroWindowProbeAck) tree.expert(3, "Note", "Sequence", "ACK to a TCP Zero Window Probe");
}

void seqAckAnalysis(LayerTree& tree, const TcpNotes& n, const TcpFrameDetails& d) {
  if (!d.analysis) return;
  tree.generated(1, "SEQ/ACK analysis");
  if (d.acks_frame) {
    const std::string frame = std::to_string(d.acks_frame);
    tree.generated(2, "This is an ACK to the segment in frame: " + frame, "tcp.analysis.acks_frame", frame);
    if (d.ack_rtt_ns)
      tree.generated(2, "The RTT to ACK the segment was: " + secondsText(d.ack_rtt_ns),
                     "tcp.analysis.ack_rtt", formatSeconds(d.ack_rtt_ns, 9));
  }
  if (d.initial_rtt_ns)
    tree.generated(2, "iRTT: " + secondsText(d.initial_rtt_ns), "tcp.analysis.initial_rtt",
                   formatSeconds(d.initial_rtt_ns, 9));
  if (d.bytes_in_flight) {
    const std::string bytes = std::to_string(d.bytes_in_flight), push = std::to_string(d.push_bytes_sent);
    tree.generated(2, "Bytes in flight: " + bytes, "tcp.analysis.bytes_in_flight", bytes);
    tree.generated(2, "Bytes sent since last PSH flag: " + push, "tcp.analysis.push_bytes_sent", push);
  }
  if (n.flags) analysisFlags(tree, n, d);
}

}  // namespace

std::string tcpFlagNames(unsigned flags) {
  static const char* const kNames[] = {"FIN", "SYN", "RST", "PSH", "ACK", "URG", "ECE", "CWR", "AE"};
  std::string out;
  for (int bit = 0; bit < 9; ++bit)
    if (flags & (1u << bit)) out += (out.empty() ? "" : ", ") + std::string(kNames[bit]);
  if (flags & 0xe00) out += out.empty() ? "Reserved" : ", Reserved";
  return out.empty() ? "<None>" : out;
}

void addTcpLayer(LayerTree& tree, uint32_t at, const uint8_t* header, const DecodedPacket& pkt,
                 const TcpLayerFacts& f) {
  const TcpHeader& t = pkt.tcp;
  const std::string sport = std::to_string(pkt.sport), dport = std::to_string(pkt.dport);
  tree.layer("Transmission Control Protocol, Src Port: " + sport + ", Dst Port: " + dport + ", " + f.summary,
             "tcp", at, t.header_len);
  tree.item(1, "Source Port: " + sport, at + tcp::kSrcPortAt, 2, "tcp.srcport", sport);
  tree.item(1, "Destination Port: " + dport, at + tcp::kDstPortAt, 2, "tcp.dstport", dport);
  const TcpFrameDetails* d = f.details;
  if (d) {
    tree.generated(1, "Stream index: " + std::to_string(d->stream), "tcp.stream", std::to_string(d->stream));
    tree.generated(1, "Conversation completeness: " + completenessText(d->completeness));
  }
  const uint32_t len = pkt.payload_reported_len;
  tree.generated(1, "TCP Segment Len: " + std::to_string(len), "tcp.len", std::to_string(len));
  const uint32_t seq = tcpShownSeq(t, f.notes.bases, f.relative),
                 ack = tcpShownAck(t, f.notes.bases, f.relative);
  const bool ackFlag = t.flags & kAck;
  const std::string relSeq = f.relative ? "    (relative sequence number)" : "";
  tree.item(1, "Sequence Number: " + std::to_string(seq) + relSeq, at + tcp::kSeqAt, 4, "tcp.seq",
            std::to_string(seq));
  if (f.relative)
    tree.item(1, "Sequence Number (raw): " + std::to_string(t.seq), at + tcp::kSeqAt, 4, "tcp.seq_raw",
              std::to_string(t.seq));
  const uint32_t next = seq + len + ((t.flags & (kSyn | kFin)) ? 1 : 0);
  tree.generated(1, "Next Sequence Number: " + std::to_string(next) + relSeq);
  const std::string relAck = ackFlag && f.relative ? "    (relative ack number)" : "";
  tree.item(1, "Acknowledgment Number: " + std::to_string(ack) + relAck, at + tcp::kAckAt, 4, "tcp.ack",
            std::to_string(ack));
  if (!ackFlag && t.ack != 0)
    tree.expert(2, "Note", "Protocol",
                "The acknowledgment number field is nonzero while the ACK flag is not set");
  if (!ackFlag || f.relative)
    tree.item(1, "Acknowledgment number (raw): " + std::to_string(t.ack), at + tcp::kAckAt, 4, "tcp.ack_raw",
              std::to_string(t.ack));
  tree.bits(
      1, at + tcp::kDataOffsetAt, 1, 0xf0,
      "Header Length: " + std::to_string(t.header_len) + " bytes (" + std::to_string(t.header_len / 4) + ")",
      "tcp.hdr_len");
  flagLines(tree, at, tcp::allFlags(header), pkt, f);
  windowLines(tree, at, pkt, f);
  tree.item(1, "Checksum: " + hexNumber(wire::be16(header + tcp::kChecksumAt), 4) + " [unverified]",
            at + tcp::kChecksumAt, 2);
  tree.generated(1, "Checksum Status: Unverified");
  tree.item(1, "Urgent Pointer: " + std::to_string(tcp::urgentPointer(header)), at + tcp::kUrgentAt, 2);
  optionsLines(tree, at, header, t.header_len, f);
  if (d) {
    tree.generated(1, "Timestamps");
    tree.generated(
        2, "Time since first frame in this TCP stream: " + secondsText(pkt.ts_ns - d->stream_first_ns));
    tree.generated(
        2, "Time since previous frame in this TCP stream: " + secondsText(pkt.ts_ns - d->stream_previous_ns));
    seqAckAnalysis(tree, f.notes, *d);
  }
  const uint32_t shown = std::min(len, pkt.payload_len);
  if (shown == 0) return;  // packet-tcp.c: nothing after the header captured, no payload item
  if (t.flags & kRst) {    // RFC 1122's text explaining the reset
    const std::string cause = asciiText(pkt.payload, shown);
    tree.item(1, fieldLabel("Reset cause", cause), at + t.header_len, shown, "tcp.reset_cause", cause);
    const uint8_t* end = pkt.payload + shown;
    const uint8_t* nul = std::find(pkt.payload, end, uint8_t(0));
    if (std::any_of(nul, end, [](uint8_t c) { return c != 0; }))  // proto.c's check of a string's bytes
      tree.expert(2, "Warning", "Undecoded", "Trailing stray characters");
    return;
  }
  const std::string bytes = std::to_string(len) + (len == 1 ? " byte)" : " bytes)");
  tree.item(1, "TCP payload (" + bytes, at + t.header_len, shown);
  if (tcpShowsRetransmittedData(f.notes, pkt))
    tree.item(1, "Retransmitted TCP segment data (" + bytes, at + t.header_len, shown);
}

}  // namespace rudp
