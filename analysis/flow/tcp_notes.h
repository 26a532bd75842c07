// Wireshark's TCP sequence analysis notes, the "[TCP Retransmission] " and
// "[TCP Dup ACK 12#3] " its Info column starts with, as tshark 4.0 sets them
// in its first pass over a capture (packet-tcp.c, tcp_analyze_sequence_number):
// per conversation and direction, from the frames in capture order; with
// them where its relative sequence numbers start, and its tcp.analysis.*
// fields.
//
// They are labels for the packet list, read the way Wireshark users read
// them; rudpscope's own TCP figures come from analyzers/tcp_analyzer, which
// checks itself against the kernel's counters instead.
//
// Not reproduced: the notes (and relative numbers) of a conversation the
// ingest's connection table closed (idle, or over its cap) and then saw
// again start afresh, where Wireshark
// keeps one conversation; and past 10,000 unacknowledged segments Wireshark
// stops counting a FIN or SYN as one sequence number, which this does not.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/packet.h"
#include "flow/connection.h"

namespace rudp {

// Where Wireshark's relative sequence numbers of a frame start: its seq
// counts from `seq`, its ack from `ack` (the other direction's base). Known
// for a segment Wireshark analyses (it knows its length); other frames show
// raw numbers.
struct TcpSeqBases {
  bool known = false;
  uint32_t seq = 0, ack = 0;
};

// A direction's base from `frame` on (the database keeps one per change).
struct TcpSeqBaseChange {
  Direction dir = Direction::ClientToServer;
  uint64_t frame = 0;
  uint32_t base = 0;
};
// The bases of a frame sent in `dir` at `frame`, from a connection's changes
// in frame order; unknown before its direction has one.
TcpSeqBases tcpSeqBasesAt(const std::vector<TcpSeqBaseChange>& changes, Direction dir, uint64_t frame);

// Whether Wireshark analyses the segment (it knows its length): then it has
// notes and relative numbers.
bool tcpSegmentAnalysed(const DecodedPacket& pkt);

// The seq and ack Wireshark shows for a header: relative to `bases` when
// known and `relative` (its preference tcp.relative_sequence_numbers, on by
// default); the ack only with the ACK flag.
uint32_t tcpShownSeq(const TcpHeader& tcp, const TcpSeqBases& bases, bool relative);
uint32_t tcpShownAck(const TcpHeader& tcp, const TcpSeqBases& bases, bool relative);
// Wireshark's calculated window: the header's shifted by the sender's window
// scale `shift` when it is known (>= 0); a SYN's is never scaled.
uint64_t tcpCalculatedWindow(const TcpHeader& tcp, int shift);

struct TcpNotes {
  enum Flag : uint16_t {
    Retransmission = 1 << 0,
    FastRetransmission = 1 << 1,
    SpuriousRetransmission = 1 << 2,
    OutOfOrder = 1 << 3,
    LostSegment = 1 << 4,  // "Previous segment not captured"
    AckedUnseen = 1 << 5,  // "ACKed unseen segment"
    WindowUpdate = 1 << 6,
    WindowFull = 1 << 7,
    KeepAlive = 1 << 8,
    KeepAliveAck = 1 << 9,
    DuplicateAck = 1 << 10,
    ZeroWindowProbe = 1 << 11,
    ZeroWindow = 1 << 12,
    ZeroWindowProbeAck = 1 << 13,
    PortsReused = 1 << 14,
  };
  uint16_t flags = 0;
  uint32_t dup_ack_num = 0;    // with DuplicateAck: the how-manieth duplicate
  uint64_t dup_ack_frame = 0;  // and the frame of the ack it repeats
  TcpSeqBases bases;           // not stored with the notes (see tcp_seq_bases)
};

// The Info column's prefix for these notes, as Wireshark prepends them
// ("[TCP Dup ACK 490#3] "); empty without notes.
std::string tcpNotesPrefix(const TcpNotes& notes);

// Wireshark's default coloring rule "Bad TCP": any note but a window update,
// a keep-alive and its ack (tcp.analysis.flags && !tcp.analysis.window_update
// && !tcp.analysis.keep_alive && !tcp.analysis.keep_alive_ack).
bool isBadTcp(const TcpNotes& notes);

// Whether Wireshark hands the TCP segment's payload on (to a dissector, or
// as Data). Not a reset's (shown as its "Reset cause"), nor a
// retransmission's or an out-of-order segment's, which could confuse a
// dissector of an in-order stream (tcp.no_subdissector_on_error); and for a
// segment captured whole (tcpSegmentWhole), which its reassembly code sees
// first, not a spurious retransmission's either.
bool tcpPayloadHandedOn(const TcpNotes& notes, const DecodedPacket& pkt);

// Whether Wireshark's TCP layer shows the payload as "Retransmitted TCP
// segment data": its reassembly code does so for a segment captured whole
// that its analysis calls a plain retransmission (not a fast or spurious
// one, which carry flags of their own).
bool tcpShowsRetransmittedData(const TcpNotes& notes, const DecodedPacket& pkt);

// Wireshark's tcp.analysis.* fields the notes give: the analysis flags, one
// per kind of note, and the duplicate ack's number and frame.
const std::vector<std::string_view>& tcpNoteFieldNames();
// Whether `name` is one of them: a frame's value needs the frames before it.
bool isTcpNoteField(std::string_view name);
// Whether field `i` of those holds a number; the others have no value
// (FT_NONE: tshark -T fields prints 1 for each occurrence).
bool tcpNoteFieldHasNumber(size_t i);
// Field `i`'s occurrences in a frame with `notes`, as tshark 4.0 adds them
// (a fast or spurious retransmission is a retransmission too; a duplicate
// ack's field and its expert item share a name): writes their values (1 for
// a field without one) to `out` and returns how many.
int tcpNoteFieldValues(size_t i, const TcpNotes& notes, uint64_t (&out)[3]);

// What Wireshark's details tree shows of a TCP frame beyond its notes
// (packet-tcp.c's SEQ/ACK analysis, stream and conversation items), worked
// out from its list of unacknowledged segments per direction.
struct TcpFrameDetails {
  bool known = false;   // the frame went through the tracker
  uint64_t stream = 0;  // tcp.stream: conversations in order of their first frame
  int64_t stream_first_ns = 0, stream_previous_ns = 0;
  uint8_t completeness = 0;        // tcp.completeness as of the frames before this one
  bool analysis = false;           // the frame has a SEQ/ACK analysis (tcp.analysis)
  uint64_t acks_frame = 0;         // tcp.analysis.acks_frame; 0: none
  int64_t ack_rtt_ns = 0;          // tcp.analysis.ack_rtt, with acks_frame; 0: not shown
  int64_t initial_rtt_ns = 0;      // tcp.analysis.initial_rtt; 0: not known yet
  uint32_t bytes_in_flight = 0;    // tcp.analysis.bytes_in_flight; 0: not shown
  uint32_t push_bytes_sent = 0;    // tcp.analysis.push_bytes_sent, shown with bytes in flight
  int64_t rto_ns = 0;              // tcp.analysis.rto, of a retransmission; 0: none
  uint64_t rto_frame = 0;          // tcp.analysis.rto_frame
  int win_scale = -1;              // the sender's window scale: -1 unknown, -2 none
  bool closing_initiator = false;  // a FIN before the peer's (else one answering it)
};

class TcpNoteTracker {
 public:
  // `details`: also keep the unacknowledged segments and what
  // TcpFrameDetails needs (the details tree; the ingest does without).
  explicit TcpNoteTracker(bool details = false) : details_(details) {}
  // Every TCP frame of a connection in capture order; `payloadLen` is the
  // segment's length as its IP header claims it (tshark's tcp.len), none
  // when the header is longer than the IP payload (then only a SYN's port
  // reuse is looked at, as Wireshark does).
  TcpNotes frame(int64_t conn, Direction dir, uint64_t frame, int64_t tsNs, const TcpHeader& tcp,
                 std::optional<uint32_t> payloadLen);
  // A decoded TCP frame: analysed when Wireshark knows its segment's length,
  // with notes only when its whole header is in the frame (tshark stops with
  // an exception before it shows them otherwise).
  TcpNotes packet(int64_t conn, Direction dir, const DecodedPacket& pkt);
  // The whole TCP header an ICMP error quotes: its conversation's stream,
  // times and completeness.
  void quoted(int64_t conn, const TcpHeader& tcp, int64_t tsNs);
  // The connection will see no more frames.
  void close(int64_t conn) { conversations_.erase(conn); }
  // The last frame's details (with `details`).
  const TcpFrameDetails& lastDetails() const { return last_details_; }  // known: the last packet()'s

 private:
  // One direction's state, as Wireshark keeps it (0 = not seen yet, as there).
  struct Flow {
    bool base_set = false;
    uint32_t base_seq = 0;
    uint32_t next_seq = 0;  // the highest seq + length sent so far
    int64_t next_seq_ns = 0;
    uint32_t last_ack = 0;
    int64_t last_ack_ns = 0;
    uint64_t last_non_dup_ack = 0;     // frame
    uint32_t dup_acks = 0;             // UINT32_MAX after an ack of unseen bytes, as Wireshark's -1
    uint32_t max_seq_to_be_acked = 0;  // the highest contiguous next_seq
    uint32_t window = UINT32_MAX;      // the header's value, unscaled
    uint16_t last_notes = 0;
    int win_scale = -1;  // -1: unknown, -2: no scaling
    bool first_ack = false;
    // With `details`: Wireshark's unacked segments (newest first), bytes in flight and SACK blocks.
    struct Unacked {
      uint64_t frame;
      uint32_t seq, next_seq;
      int64_t ns;
    };
    std::vector<Unacked> unacked;  // oldest first
    uint64_t next_seq_frame = 0;
    bool valid_bif = true, push_set_last = false;  // bytes in flight count until a segment is missed
    uint32_t push_bytes_sent = 0;
    uint32_t sacked = 0;   // bytes the last frame's SACK blocks cover
    bool closing = false;  // sent the first FIN
  };
  struct Conversation {
    std::array<Flow, 2> flow;  // by Direction
    int64_t last_syn_ns = 0;
    int64_t first_rtt_ns = 0;  // from the SYN to the first pure ACK
    // With `details`:
    bool started = false;
    uint64_t stream = 0;
    int64_t first_ns = 0, last_ns = 0;
    uint8_t completeness = 0;
  };
  struct Segment {
    uint64_t frame;
    int64_t ns;
    uint32_t seq, ack, len, window;
    uint8_t flags;
    bool has(uint8_t f) const { return flags & f; }
    bool plain() const { return !has(tcpflag::kSyn | tcpflag::kFin | tcpflag::kRst); }
    // A SYN or FIN counts one.
    uint32_t end() const { return seq + len + (has(tcpflag::kSyn | tcpflag::kFin) ? 1 : 0); }
  };

  static void portReuse(Conversation& c, Flow& fwd, const TcpHeader& tcp, TcpNotes& out);
  static void baseSeqs(Flow& fwd, Flow& rev, const TcpHeader& tcp);
  static void analyze(Conversation& c, Flow& fwd, Flow& rev, const Segment& s, TcpNotes& out);
  static void ackNotes(Flow& fwd, Flow& rev, const Segment& s, TcpNotes& out);
  static void copyNotes(const Conversation& c, const Flow& fwd, const Flow& rev, const Segment& s,
                        TcpNotes& out);
  static void advance(Flow& fwd, const Segment& s, uint16_t notes);
  static void afterHeader(Conversation& c, Flow& fwd, Flow& rev, const TcpHeader& tcp, int64_t tsNs);
  void streamDetails(Conversation& c, bool fresh, bool reused, const TcpHeader& tcp,
                     std::optional<uint32_t> len, int64_t ns);
  void seqAckDetails(const Conversation& c, Flow& fwd, Flow& rev, const Segment& s, const TcpHeader& tcp,
                     const TcpNotes& notes);

  bool details_;
  uint64_t streams_ = 0;
  TcpFrameDetails last_details_;
  std::unordered_map<int64_t, Conversation> conversations_;
};

// The notes of a capture's frames read in order without the connection
// table (decode, display filters): a conversation is its address pair, as
// Wireshark finds it, and is never closed.
class TcpNotesByPair {
 public:
  explicit TcpNotesByPair(bool details = false) : tracker_(details) {}
  // No notes for a frame that is not TCP.
  TcpNotes packet(const DecodedPacket& pkt);
  // The last packet()'s; not known for a frame that is not TCP.
  const TcpFrameDetails& lastDetails() const { return last_tcp_ ? tracker_.lastDetails() : kNone; }

 private:
  std::pair<int64_t, Direction> conversation(const Endpoint& src, const Endpoint& dst);
  static constexpr TcpFrameDetails kNone{};
  std::map<std::pair<Endpoint, Endpoint>, int64_t> ids_;  // lower endpoint first
  TcpNoteTracker tracker_;
  bool last_tcp_ = false;
};

}  // namespace rudp
