// TcpNoteTracker's `details`: what Wireshark's details tree shows beyond the
// notes (stream, completeness, the SEQ/ACK analysis of packet-tcp.c's
// tcp_analyze_sequence_number after its notes, and the FIN experts).
#include <algorithm>

#include "core/seq32.h"
#include "flow/tcp_notes.h"

namespace rudp {

using namespace tcpflag;

// tcp.stream, its times and the conversation's completeness as tshark's
// one pass shows them: as of the frames before this one.
void TcpNoteTracker::streamDetails(Conversation& c, bool fresh, bool reused, const TcpHeader& tcp,
                                   std::optional<uint32_t> len, int64_t ns) {
  enum : uint8_t { kSynSent = 1, kSynAck = 2, kAckSeen = 4, kData = 8, kFinSeen = 16, kRstSeen = 32 };
  TcpFrameDetails& out = last_details_;
  out = TcpFrameDetails{};
  out.known = true;
  if (fresh) {
    c.started = true;
    c.stream = streams_++;
    c.first_ns = c.last_ns = ns;
  }
  // A conversation a SYN started on reused ports counts that SYN already.
  if (fresh && reused) c.completeness = kSynSent;
  out.stream = c.stream;
  out.stream_first_ns = c.first_ns;
  out.stream_previous_ns = c.last_ns;
  out.completeness = c.completeness;
  c.last_ns = ns;
  const uint8_t synAck = tcp.flags & (kSyn | kAck);
  const bool data = len.value_or(0) > 0;
  if (fresh && !reused) {
    if (synAck == kSyn) c.completeness |= kSynSent | (data ? kData : 0);
    return;
  }
  if (synAck == (kSyn | kAck)) c.completeness |= kSynAck;
  if (synAck == kAck) c.completeness |= data ? kData : kAckSeen;
  if ((tcp.flags & (kFin | kAck)) == (kFin | kAck)) c.completeness |= kFinSeen;
  if (tcp.flags & kRst) c.completeness |= kRstSeen;
}

// The rest of Wireshark's SEQ/ACK analysis of a segment, after its notes:
// it joins the sender's unacked segments, its ack removes the peer's it
// covers (the ack's RTT when it matches one exactly), and the bytes in
// flight are the span of the sender's unacked ones less the peer's SACKed bytes.
void TcpNoteTracker::seqAckDetails(const Conversation& c, Flow& fwd, Flow& rev, const Segment& s,
                                   const TcpHeader& tcp, const TcpNotes& notes) {
  constexpr size_t kMaxUnacked = 10000;  // Wireshark's TCP_MAX_UNACKED_SEGMENTS
  TcpFrameDetails& out = last_details_;
  if (s.has(kAck)) rev.valid_bif = true;
  if (notes.flags & TcpNotes::LostSegment) fwd.valid_bif = false;
  if ((s.len || s.has(kSyn | kFin)) && fwd.unacked.size() < kMaxUnacked)
    fwd.unacked.push_back({s.frame, s.seq, s.end(), s.ns});
  // Newest first, as Wireshark walks its list: the oldest exact match wins.
  for (size_t i = rev.unacked.size(); i-- > 0;) {
    Flow::Unacked& u = rev.unacked[i];
    if (s.ack == u.next_seq) {
      out.acks_frame = u.frame;
      out.ack_rtt_ns = s.ns - u.ns;
    } else if (seqAfter(s.ack, u.seq) && seqAtOrBefore(s.ack, u.next_seq)) {
      u.seq = s.ack;
      continue;
    } else if (seqAfter(u.next_seq, s.ack)) {
      continue;
    }
    rev.unacked.erase(rev.unacked.begin() + std::ptrdiff_t(i));
  }
  const bool bif = s.len != 0 && !fwd.unacked.empty() && fwd.valid_bif;
  if (bif) {
    uint32_t first = fwd.unacked.front().seq - fwd.base_seq,
             last = fwd.unacked.front().next_seq - fwd.base_seq;
    for (const Flow::Unacked& u : fwd.unacked) {
      first = std::min(first, u.seq - fwd.base_seq);
      last = std::max(last, u.next_seq - fwd.base_seq);
    }
    const uint32_t inFlight = last - first - rev.sacked;
    if (inFlight > 0 && inFlight < 2'000'000'000)
      out.bytes_in_flight = inFlight - (s.has(kSyn | kFin) ? 1 : 0);
    // Bytes since the last PSH: a PSH segment ends a run, the one after starts the next.
    const bool push = s.has(kPsh);
    const bool restart = fwd.push_set_last;
    fwd.push_bytes_sent = restart ? s.len : fwd.push_bytes_sent + s.len;
    fwd.push_set_last = push;
    out.push_bytes_sent = fwd.push_bytes_sent;
  }
  fwd.sacked = 0;
  for (int i = 0; i < std::min<int>(tcp.options.sack_block_count, 3); ++i)
    fwd.sacked += tcp.options.sack_blocks[size_t(i)].second - tcp.options.sack_blocks[size_t(i)].first;
  if (s.has(kFin)) {
    out.closing_initiator = !rev.closing;
    fwd.closing = fwd.closing || !rev.closing;
  }
  out.analysis = notes.flags || out.acks_frame || bif;
  out.initial_rtt_ns = c.first_rtt_ns;
  out.win_scale = fwd.win_scale;
}

}  // namespace rudp
