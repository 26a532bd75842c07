#include "flow/tcp_notes.h"

#include <algorithm>
#include <array>
#include <bit>
#include <utility>

#include "core/seq32.h"

namespace rudp {

namespace {
using namespace tcpflag;
// A fast retransmission follows the last dup ack within this; a copy is out
// of order within the first RTT, or within kOutOfOrderNs without one.
constexpr int64_t kFastRetransmissionNs = 20'000'000;
constexpr int64_t kOutOfOrderNs = 3'000'000;

// Wireshark prepends each note in this order, so the last comes first.
constexpr std::array<std::pair<TcpNotes::Flag, const char*>, 14> kPrependOrder{{
    {TcpNotes::PortsReused, "[TCP Port numbers reused] "},
    {TcpNotes::Retransmission, "[TCP Retransmission] "},
    {TcpNotes::FastRetransmission, "[TCP Fast Retransmission] "},
    {TcpNotes::SpuriousRetransmission, "[TCP Spurious Retransmission] "},
    {TcpNotes::OutOfOrder, "[TCP Out-Of-Order] "},
    {TcpNotes::LostSegment, "[TCP Previous segment not captured] "},
    {TcpNotes::AckedUnseen, "[TCP ACKed unseen segment] "},
    {TcpNotes::WindowUpdate, "[TCP Window Update] "},
    {TcpNotes::WindowFull, "[TCP Window Full] "},
    {TcpNotes::KeepAlive, "[TCP Keep-Alive] "},
    {TcpNotes::KeepAliveAck, "[TCP Keep-Alive ACK] "},
    {TcpNotes::DuplicateAck, nullptr},  // with its numbers
    {TcpNotes::ZeroWindowProbe, "[TCP ZeroWindowProbe] "},
    {TcpNotes::ZeroWindow, "[TCP ZeroWindow] "},
}};

// A payload Wireshark's TCP layer passes to its reassembly code or on (a
// reset's is shown as its "Reset cause" instead).
bool tcpPayloadDissected(const DecodedPacket& p) {
  return p.l4 == L4::TCP && p.payload_reported_len > 0 && !(p.tcp.flags & kRst);
}

// Wireshark measures these gaps as unsigned: a timestamp going back is no gap.
bool within(int64_t nowNs, int64_t thenNs, int64_t limitNs) {
  return static_cast<uint64_t>(nowNs) - static_cast<uint64_t>(thenNs) < static_cast<uint64_t>(limitNs);
}
}  // namespace

std::string tcpNotesPrefix(const TcpNotes& n) {
  std::string out;
  if (n.flags & TcpNotes::ZeroWindowProbeAck) out += "[TCP ZeroWindowProbeAck] ";
  for (auto it = kPrependOrder.rbegin(); it != kPrependOrder.rend(); ++it) {
    if (!(n.flags & it->first)) continue;
    if (it->second)
      out += it->second;
    else if (n.dup_ack_num)
      out += "[TCP Dup ACK " + std::to_string(n.dup_ack_frame) + "#" + std::to_string(n.dup_ack_num) + "] ";
  }
  return out;
}

TcpSeqBases tcpSeqBasesAt(const std::vector<TcpSeqBaseChange>& changes, Direction dir, uint64_t frame) {
  TcpSeqBases out;
  for (const TcpSeqBaseChange& c : changes) {
    if (c.frame > frame) break;
    (c.dir == dir ? out.seq : out.ack) = c.base;
    out.known = out.known || c.dir == dir;
  }
  return out;
}

uint32_t tcpShownSeq(const TcpHeader& tcp, const TcpSeqBases& bases, bool relative) {
  return relative && bases.known ? tcp.seq - bases.seq : tcp.seq;
}

uint32_t tcpShownAck(const TcpHeader& tcp, const TcpSeqBases& bases, bool relative) {
  return relative && bases.known && (tcp.flags & kAck) ? tcp.ack - bases.ack : tcp.ack;
}

uint64_t tcpCalculatedWindow(const TcpHeader& tcp, int shift) {
  return shift >= 0 && !(tcp.flags & kSyn) ? uint64_t(tcp.window) << shift : tcp.window;
}

bool tcpPayloadHandedOn(const TcpNotes& n, const DecodedPacket& p) {
  if (!tcpPayloadDissected(p)) return false;
  if (tcpSegmentWhole(p) && (n.flags & TcpNotes::SpuriousRetransmission)) return false;
  return !(n.flags & (TcpNotes::Retransmission | TcpNotes::OutOfOrder));
}

bool tcpShowsRetransmittedData(const TcpNotes& n, const DecodedPacket& p) {
  return tcpPayloadDissected(p) && tcpSegmentWhole(p) && (n.flags & TcpNotes::Retransmission);
}

bool isBadTcp(const TcpNotes& n) {
  const uint16_t harmless = TcpNotes::WindowUpdate | TcpNotes::KeepAlive | TcpNotes::KeepAliveAck;
  return n.flags && !(n.flags & harmless);
}

namespace {
constexpr uint16_t kAnyRetransmission =
    TcpNotes::Retransmission | TcpNotes::FastRetransmission | TcpNotes::SpuriousRetransmission;
enum : uint16_t { kAnyNote = 0xffff, kDupAckNum = 0, kDupAckFrame = 1 };  // with numbers: not flags

struct NoteField {
  std::string_view name;
  uint16_t flags;  // the notes it is present for; for a number, which one
  bool number;
};
constexpr std::array<NoteField, 18> kNoteFields{{
    {"tcp.analysis.flags", kAnyNote, false},
    {"tcp.analysis.retransmission", kAnyRetransmission, false},
    {"tcp.analysis.fast_retransmission", TcpNotes::FastRetransmission, false},
    {"tcp.analysis.spurious_retransmission", TcpNotes::SpuriousRetransmission, false},
    {"tcp.analysis.out_of_order", TcpNotes::OutOfOrder, false},
    {"tcp.analysis.lost_segment", TcpNotes::LostSegment, false},
    {"tcp.analysis.ack_lost_segment", TcpNotes::AckedUnseen, false},
    {"tcp.analysis.window_update", TcpNotes::WindowUpdate, false},
    {"tcp.analysis.window_full", TcpNotes::WindowFull, false},
    {"tcp.analysis.keep_alive", TcpNotes::KeepAlive, false},
    {"tcp.analysis.keep_alive_ack", TcpNotes::KeepAliveAck, false},
    {"tcp.analysis.duplicate_ack", TcpNotes::DuplicateAck, false},
    {"tcp.analysis.duplicate_ack_num", kDupAckNum, true},
    {"tcp.analysis.duplicate_ack_frame", kDupAckFrame, true},
    {"tcp.analysis.zero_window_probe", TcpNotes::ZeroWindowProbe, false},
    {"tcp.analysis.zero_window", TcpNotes::ZeroWindow, false},
    {"tcp.analysis.zero_window_probe_ack", TcpNotes::ZeroWindowProbeAck, false},
    {"tcp.analysis.reused_ports", TcpNotes::PortsReused, false},
}};
}  // namespace

const std::vector<std::string_view>& tcpNoteFieldNames() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> out;
    out.reserve(kNoteFields.size());
    for (const NoteField& f : kNoteFields) out.push_back(f.name);
    return out;
  }();
  return names;
}

bool isTcpNoteField(std::string_view name) {
  const auto& names = tcpNoteFieldNames();
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool tcpNoteFieldHasNumber(size_t i) { return kNoteFields.at(i).number; }

int tcpNoteFieldValues(size_t i, const TcpNotes& n, uint64_t (&out)[3]) {
  const NoteField& f = kNoteFields.at(i);
  const bool dupAck = n.flags && n.dup_ack_num;  // its items hang under the flags
  if (f.number) {
    out[0] = f.flags == kDupAckNum ? n.dup_ack_num : n.dup_ack_frame;
    return dupAck ? 1 : 0;
  }
  int count = f.flags == kAnyNote ? n.flags != 0 : std::popcount(static_cast<uint16_t>(n.flags & f.flags));
  if (f.flags == TcpNotes::DuplicateAck && dupAck) ++count;  // and its expert item
  std::fill(out, out + count, 1);
  return count;
}

TcpNotes TcpNoteTracker::frame(int64_t conn, Direction dir, uint64_t frame, int64_t tsNs,
                               const TcpHeader& tcp, std::optional<uint32_t> payloadLen) {
  Conversation& c = conversations_[conn];
  const int d = static_cast<int>(dir);
  Flow& fwd = c.flow[d];
  Flow& rev = c.flow[1 - d];
  TcpNotes out;
  portReuse(c, fwd, tcp, out);
  if (details_) streamDetails(c, !c.started, out.flags & TcpNotes::PortsReused, tcp, payloadLen, tsNs);
  if (!payloadLen) return out;
  baseSeqs(fwd, rev, tcp);
  out.bases = {true, fwd.base_seq, rev.base_seq};
  const Segment s{frame, tsNs, tcp.seq, tcp.ack, *payloadLen, tcp.window, tcp.flags};
  // Wireshark's RTO of a retransmission: from its oldest unacked segment, else the last new data.
  const bool olderData = !fwd.unacked.empty();
  const Flow::Unacked oldest =
      olderData ? fwd.unacked.front() : Flow::Unacked{fwd.next_seq_frame, 0, 0, fwd.next_seq_ns};
  analyze(c, fwd, rev, s, out);
  afterHeader(c, fwd, rev, tcp, tsNs);
  if (details_) {
    last_details_.rto_ns = (out.flags & TcpNotes::Retransmission) ? tsNs - oldest.ns : 0;
    last_details_.rto_frame = oldest.frame;
    seqAckDetails(c, fwd, rev, s, tcp, out);
  }
  return out;
}

bool tcpSegmentAnalysed(const DecodedPacket& pkt) {
  using Extent = TcpHeader::Extent;
  const Extent e = pkt.tcp.extent;
  return pkt.l4 == L4::TCP && !pkt.ip_fragment && e != Extent::BadLength && e != Extent::PastIpPayload;
}

TcpNotes TcpNoteTracker::packet(int64_t conn, Direction dir, const DecodedPacket& pkt) {
  using Extent = TcpHeader::Extent;
  const Extent e = pkt.tcp.extent;
  last_details_.known = false;
  if (pkt.l4 != L4::TCP || pkt.ip_fragment || e == Extent::BadLength) return {};
  const std::optional<uint32_t> len =
      tcpSegmentAnalysed(pkt) ? std::optional(pkt.payload_reported_len) : std::nullopt;
  TcpNotes notes = frame(conn, dir, pkt.frame, pkt.ts_ns, pkt.tcp, len);
  if (e != Extent::Whole) notes = TcpNotes{.bases = notes.bases};  // relative numbers, but no notes
  return notes;
}

TcpNotes TcpNotesByPair::packet(const DecodedPacket& pkt) {
  // Wireshark's TCP dissector also runs on the whole TCP header an ICMP
  // error quotes: that conversation's stream and times, nothing else.
  const bool quoted = pkt.has_icmp_error && pkt.icmp.has_quoted_tcp && pkt.icmp.quoted_tcp.header_len != 0;
  last_tcp_ = pkt.l4 == L4::TCP || quoted;
  if (quoted) {
    const IcmpError& e = pkt.icmp;
    tracker_.quoted(
        conversation({e.quoted.src, e.quoted_tcp_sport}, {e.quoted.dst, e.quoted_tcp_dport}).first,
        e.quoted_tcp, pkt.ts_ns);
    return {};
  }
  if (!last_tcp_) return {};
  const auto [id, dir] = conversation({pkt.src, pkt.sport}, {pkt.dst, pkt.dport});
  return tracker_.packet(id, dir, pkt);
}

std::pair<int64_t, Direction> TcpNotesByPair::conversation(const Endpoint& src, const Endpoint& dst) {
  const bool srcLower = src < dst;
  const auto key = srcLower ? std::pair{src, dst} : std::pair{dst, src};
  const int64_t id = ids_.try_emplace(key, int64_t(ids_.size())).first->second;
  return {id, srcLower ? Direction::ClientToServer : Direction::ServerToClient};
}

void TcpNoteTracker::quoted(int64_t conn, const TcpHeader& tcp, int64_t tsNs) {
  Conversation& c = conversations_[conn];
  last_details_.known = false;
  if (details_) streamDetails(c, !c.started, false, tcp, std::nullopt, tsNs);
}

// A SYN with another initial seq than the conversation's starts a new one
// on the same ports; a SYN repeated resumes from what was acked.
void TcpNoteTracker::portReuse(Conversation& c, Flow& fwd, const TcpHeader& tcp, TcpNotes& out) {
  if (!fwd.base_set || !(tcp.flags & kSyn)) return;
  if (tcp.flags & kAck) {
    if (tcp.seq == fwd.base_seq) return;
    fwd.base_seq = tcp.seq;
    out.flags |= TcpNotes::PortsReused;
  } else if (tcp.seq != fwd.base_seq) {
    c = Conversation{};  // fwd and rev now refer to the fresh flows
    out.flags |= TcpNotes::PortsReused;
  } else {
    fwd.next_seq = fwd.max_seq_to_be_acked;
  }
}

// Where relative numbers start: the first SYN's seq, else one below the
// first seq; the other direction's one below the first ack seen.
void TcpNoteTracker::baseSeqs(Flow& fwd, Flow& rev, const TcpHeader& tcp) {
  if (!fwd.base_set) {
    fwd.base_seq = (tcp.flags & kSyn) ? tcp.seq : tcp.seq - 1;
    fwd.base_set = true;
  }
  if (!rev.base_set && (tcp.flags & kAck)) {
    rev.base_seq = tcp.ack - 1;
    rev.base_set = true;
  }
}

void TcpNoteTracker::analyze(Conversation& c, Flow& fwd, Flow& rev, const Segment& s, TcpNotes& out) {
  ackNotes(fwd, rev, s, out);
  if (s.ack != fwd.last_ack) {
    fwd.last_non_dup_ack = s.frame;
    fwd.dup_acks = 0;
  }
  // Acks past the highest contiguous seq seen the other way: bytes the capture missed.
  if (rev.max_seq_to_be_acked && seqAfter(s.ack, rev.max_seq_to_be_acked) && s.has(kAck)) {
    if (seqBefore(rev.max_seq_to_be_acked, rev.next_seq)) {
      rev.max_seq_to_be_acked = rev.next_seq;
      out.flags |= TcpNotes::AckedUnseen;
    } else {
      if (rev.dup_acks == 0) out.flags |= TcpNotes::AckedUnseen;
      rev.dup_acks = UINT32_MAX;
    }
  }
  if (s.len > 0 || s.has(kSyn | kFin)) copyNotes(c, fwd, rev, s, out);
  advance(fwd, s, out.flags);
}

// The notes about this segment as data or as an ack, in Wireshark's order;
// some end the checks early.
void TcpNoteTracker::ackNotes(Flow& fwd, Flow& rev, const Segment& s, TcpNotes& out) {
  if (s.len == 1 && s.seq == fwd.next_seq && rev.window == 0) {
    out.flags |= TcpNotes::ZeroWindowProbe;
    return;
  }
  if (s.window == 0 && s.plain()) out.flags |= TcpNotes::ZeroWindow;
  if (fwd.next_seq && seqAfter(s.seq, fwd.next_seq) && !s.has(kRst)) out.flags |= TcpNotes::LostSegment;
  if (s.len <= 1 && s.seq == fwd.next_seq - 1 && s.plain()) out.flags |= TcpNotes::KeepAlive;
  const bool sameAck = s.len == 0 && s.seq == fwd.next_seq && s.ack == fwd.last_ack && s.plain();
  if (sameAck && s.window && s.window != fwd.window) out.flags |= TcpNotes::WindowUpdate;
  if (s.len > 0 && rev.win_scale != -1 && s.plain()) {
    const int shift = rev.first_ack || rev.win_scale == -2 ? 0 : rev.win_scale;
    if (s.seq + s.len == rev.last_ack + (rev.window << shift)) out.flags |= TcpNotes::WindowFull;
  }
  if (!sameAck || s.window != fwd.window) return;
  if (s.window && (rev.last_notes & TcpNotes::KeepAlive)) {
    out.flags |= TcpNotes::KeepAliveAck;
  } else if (s.window == 0 && (rev.last_notes & TcpNotes::ZeroWindowProbe)) {
    out.flags |= TcpNotes::ZeroWindowProbeAck;
  } else if (s.window) {
    fwd.dup_acks = fwd.dup_acks == UINT32_MAX ? 1 : fwd.dup_acks + 1;
    out.flags |= TcpNotes::DuplicateAck;
    out.dup_ack_num = fwd.dup_acks;
    out.dup_ack_frame = fwd.last_non_dup_ack;
  }
}

// Data (or a SYN or FIN) that does not advance the seq: which kind of copy.
void TcpNoteTracker::copyNotes(const Conversation& c, const Flow& fwd, const Flow& rev, const Segment& s,
                               TcpNotes& out) {
  if (out.flags & TcpNotes::KeepAlive) return;
  bool notAdvanced = fwd.next_seq && seqBefore(s.seq, fwd.next_seq);
  if (s.len > 1 && fwd.next_seq - 1 == s.seq) notAdvanced = false;  // after a possible zero window probe
  if (s.len > 0 && rev.last_ack && seqAtOrBefore(s.seq + s.len, rev.last_ack)) {
    out.flags |= TcpNotes::SpuriousRetransmission;
    return;
  }
  if (!notAdvanced) return;
  if (rev.dup_acks >= 2 && rev.last_ack == s.seq && within(s.ns, rev.last_ack_ns, kFastRetransmissionNs)) {
    out.flags |= TcpNotes::FastRetransmission;
    return;
  }
  const int64_t outOfOrder = c.first_rtt_ns ? c.first_rtt_ns : kOutOfOrderNs;
  if (within(s.ns, fwd.next_seq_ns, outOfOrder) && fwd.next_seq != s.end()) {
    out.flags |= TcpNotes::OutOfOrder;
    return;
  }
  out.flags |= TcpNotes::Retransmission;
}

// What the next segments are judged against.
void TcpNoteTracker::advance(Flow& fwd, const Segment& s, uint16_t notes) {
  const bool probe = notes & TcpNotes::ZeroWindowProbe;  // probes do not advance
  if ((seqAfter(s.end(), fwd.next_seq) || !fwd.next_seq) && !probe) {
    fwd.next_seq = s.end();
    fwd.next_seq_ns = s.ns;
    fwd.next_seq_frame = s.frame;
  }
  if ((s.seq == fwd.max_seq_to_be_acked || !fwd.max_seq_to_be_acked) && !probe)
    fwd.max_seq_to_be_acked = fwd.next_seq;
  fwd.window = s.window;
  fwd.last_ack = s.ack;
  fwd.last_ack_ns = s.ns;
  fwd.last_notes = notes;
}

// What Wireshark learns from the header after the analysis: the handshake's
// round trip and window scaling.
void TcpNoteTracker::afterHeader(Conversation& c, Flow& fwd, Flow& rev, const TcpHeader& tcp, int64_t tsNs) {
  const bool syn = tcp.flags & kSyn, ack = tcp.flags & kAck;
  if (syn) {
    if (!ack) c.last_syn_ns = tsNs;
    fwd.first_ack = true;
  }
  if (ack && !syn) {
    if (c.last_syn_ns != 0 && c.first_rtt_ns == 0) c.first_rtt_ns = tsNs - c.last_syn_ns;
    fwd.first_ack = false;
  }
  if (tcp.options.window_scale >= 0) fwd.win_scale = static_cast<uint8_t>(tcp.options.window_scale);
  if (!syn) return;
  if (fwd.win_scale == -1) {
    fwd.win_scale = -2;  // a SYN without WS: neither side scales
    rev.win_scale = -2;
  } else if (ack && rev.win_scale == -2) {
    fwd.win_scale = -2;
  }
}

}  // namespace rudp
