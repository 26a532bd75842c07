// The analyzer of one TCP connection.
//
//   TcpAnalyzer a(cfg, &sink);
//   for each packet of the connection, in capture order:
//     a.onPacket(frame, ts_ns, dir, decoded_packet, wire_bytes);
//   ConnectionMetrics m = a.finish();
//
// Per direction it keeps the segments sent and not yet cumulatively acked
// (a ring, at most kMaxSegments; older ones are forgotten) and a ring of
// recent TSvals for timestamp RTT. Reading the traffic:
// - Data: a segment (payload, SYN or FIN) whose end is past the highest end
//   seen is new. One overlapping a range already captured is a
//   retransmission (the same bytes again; a SYN again is one too). One
//   filling a range never captured is either reordered or a retransmission
//   whose earlier copies were lost before the capture point: with TCP
//   timestamps, a TSval newer than that of a higher segment already captured
//   means it was sent later, so it is a retransmission; without timestamps a
//   hole filled after more than max(srtt/2, 3 ms) is taken as one (what
//   tshark does with its out-of-order window).
// - Cause: spurious when an ack (or SACK) covering the range was captured
//   before the copy: the receiver had the bytes (at the sender it also had
//   the ack; elsewhere the ack may have been lost on its way, which is why
//   the sender resent, but the copy was still not needed). Fast when, since
//   the previous copy, a duplicate ack or a SACK block above the range showed
//   it missing (Linux retransmits after one SACK) and the copy came before
//   the RTO estimate (RFC 6298 from our samples, x2 per earlier copy the
//   timer sent: a fast copy does not back it off) expired, or, at the
//   sender, within kAckTriggerMs of the last ack that told the sender
//   something new (an ack repeating the same SACK blocks triggers nothing);
//   a second fast copy must leave within kLostAgainMs of such an ack, and
//   away from the sender echo its TSval; else
//   timeout; so is every copy after a timer's copy of the first unacked
//   segment until the cumulative ack passes what had been sent then (the
//   sender is in slow start after its timeout). On a path whose round trips are under kShortRoundTripMs (a
//   LAN), where the vantage cannot be told, the capture is judged as the
//   sender's with the round trip as the tolerance.
// - Mid-stream: a capture that starts with data in flight sees acks below
//   the first byte it captured; the bytes in between are a hole, so a copy
//   of them after duplicate acks is fast, as any hole's. Relative sequence
//   numbers then count as tshark's do (from one below the lowest byte seen
//   or acked first).
// - RTT: ack of a segment captured once (Karn's rule): capture(ack) -
//   capture(segment) for the highest segment the ack newly covers; and from
//   TCP timestamps: capture(ack) - capture of the first segment carrying the
//   TSval the ack echoes (once per distinct TSecr). Both go into the
//   direction's statistics, tagged by source in the events.
// - Lost: at the receiver's side holes in the sequence space (ranges never
//   captured and later filled by a copy); at the sender retransmissions that
//   were not spurious (a copy is only sent for data believed lost).
// - HOL blocking (away from the sender): a segment that arrived above a byte
//   still missing waits until the last missing byte below it arrives
//   (HolTracker over byte sequence numbers, one channel).
// - Stalls: StallTracker with "reliable data outstanding" = bytes in flight;
//   progress = the cumulative ack advancing; zero window from the receiver.
// - Captured twice: a packet equal in every TCP header field (and the IPv4
//   identification) to one of the last few of its direction, within
//   kCapturedTwiceMs, is the same packet seen twice by the capture (bridges,
//   VPN adapters, mirror ports, `-i any`), not something the sender sent
//   again: counted in network_duplicates and otherwise ignored, unless a
//   SYN of the peer's came in between (a SYN-ACK answering it). Without an
//   IPv4 id (IPv6, or an id of 0) only segments carrying data, SYN or FIN are
//   judged, since two identical bare acks that close together are duplicate
//   acks.
#pragma once
#include <array>
#include <climits>
#include <cstdint>
#include <optional>
#include <vector>

#include "analyzers/events.h"
#include "analyzers/hol.h"
#include "analyzers/jitter.h"
#include "analyzers/loss_run.h"
#include "analyzers/metrics.h"
#include "analyzers/rates.h"
#include "analyzers/rtt.h"
#include "analyzers/stall.h"
#include "core/packet.h"

namespace rudp::ana {

class TcpAnalyzer {
 public:
  static constexpr uint32_t kMaxSegments = 8192;
  // At the sender: a copy this soon after an ack showing its bytes missing
  // was sent by loss detection on that ack (fast), not by a timer. Not 1 ms:
  // pacing (BBR, fq) holds the copy back behind the previous packet; the
  // netns lab saw 1.4, 1.5, 3.0, 3.9 and 16.7 ms (an app-limited BBR flow
  // after a 1448-byte probe). A stack that waits for three duplicate acks
  // and then times out within this window of one would be called fast.
  static constexpr double kAckTriggerMs = 20.0;
  // A fast copy lost too goes again as the ack showing it missing arrives
  // (the netns lab: 0.02 ms after it).
  static constexpr double kLostAgainMs = 1.0;
  // Copies of one packet seen on two interfaces arrive tens of microseconds
  // apart (1kxun.pcap: 30-60 us); a sender's own copy of a segment comes an
  // RTT (fast) or an RTO (timeout) later and has a new IPv4 id.
  static constexpr double kCapturedTwiceMs = 1.0;

  TcpAnalyzer(const AnalyzerConfig& cfg, EventSink* sink);
  TcpAnalyzer(const TcpAnalyzer&) = delete;
  TcpAnalyzer& operator=(const TcpAnalyzer&) = delete;

  void onPacket(uint64_t frame, int64_t ts_ns, Direction dir, const DecodedPacket& p, uint32_t wire_bytes);
  ConnectionMetrics finish();
  Vantage vantage() const { return vantage_; }

 private:
  std::optional<uint32_t> tsecr_;  // the packet being analysed echoes this TSval
  struct Seg {
    uint32_t start = 0, end = 0;  // [start, end) in sequence space
    uint32_t tsval = 0;
    int32_t ip_id = -1;  // IPv4 identification of the first copy; -1 unknown
    uint16_t copies = 0;
    bool sacked = false, fast_done = false, retx_first = false;
    uint16_t timer_copies = 0;  // copies its retransmission timer sent (each doubles the next timer)
    bool behind_ack = false;    // a hole a later bare ack numbered past
    int64_t first_ns = 0, last_ns = 0;
    int64_t hole_ns = -1, hole_first_ns = -1;  // latest / first ack showing it missing since its last copy
    // The latest such ack that told the sender something new (bytes newly
    // acked or SACKed, or a dup ack without SACK): what loss detection acts
    // on; an ack repeating the same SACK blocks triggers nothing.
    int64_t hole_news_ns = -1;
    std::optional<uint32_t> hole_tsval;  // the TSval of that ack
    uint64_t first_frame = 0, last_frame = 0;
  };
  static void markHole(Seg& s, int64_t ns, const TcpOptions& ack, bool news) {
    s.hole_ns = ns;
    if (s.hole_first_ns < 0) s.hole_first_ns = ns;
    if (!news) return;
    s.hole_news_ns = ns;
    s.hole_tsval = ack.has_timestamps ? std::optional(ack.tsval) : std::nullopt;
  }
  // What makes a packet the same packet captured again.
  struct Sighting {
    uint32_t seq = 0, ack = 0, tsval = 0, tsecr = 0, len = 0;
    int32_t ip_id = -1;  // -1: none to compare (IPv6, or 0)
    uint16_t window = 0;
    uint8_t flags = 0;
    bool has_ts = false;
    int64_t ns = INT64_MIN;
    bool operator==(const Sighting& o) const {
      return seq == o.seq && ack == o.ack && tsval == o.tsval && tsecr == o.tsecr && len == o.len &&
             ip_id == o.ip_id && window == o.window && flags == o.flags && has_ts == o.has_ts;
    }
  };
  // A segment the cumulative ack covered, kept a while so that a later copy
  // of it links the copies the capture saw.
  struct Acked {
    uint32_t start = 0, end = 0;
    uint16_t copies = 0;
    bool retx_first = false;
    int64_t last_ns = 0;
    uint64_t first_frame = 0, last_frame = 0;
  };
  static constexpr size_t kAckedKept = 16;
  struct TsSend {
    uint32_t tsval;
    int64_t ns;
    uint64_t frame;
  };
  struct Dir {
    Dir(Direction d, const AnalyzerConfig& cfg)
        : id(d), rtt(cfg), response(cfg), stall(d, cfg.stall_ms), rate(d) {}
    Direction id;
    bool started = false, any_ack = false, has_ts = false, has_echo = false, zero_window = false;
    uint32_t isn = 0, nxt = 0, una = 0;  // highest end captured; highest cumulative ack
    // Acks of this direction's data captured before any of that data (a
    // capture started mid-stream): the first and the latest.
    bool has_early_ack = false, mid_stream = false;
    // After a retransmission timeout the sender resends what is still
    // missing below what it had sent (Linux: TCPSlowStartRetrans), not by
    // fast recovery, until the cumulative ack passes that point.
    bool rto_recovery = false;
    uint32_t recovery_point = 0;
    uint32_t early_ack_first = 0, early_ack_last = 0;
    uint32_t dupacks = 0, last_echo = 0;
    std::vector<Seg> segs;  // ring, in seq order
    size_t head = 0, count = 0;
    size_t holes = 0;            // segs never captured (copies == 0)
    HolTracker hol;              // data that arrived above a hole, at the receiver
    std::vector<TsSend> tsring;  // recent TSvals, in capture order
    size_t ts_head = 0;
    int64_t zero_since = -1;
    uint64_t zero_frame = 0;
    RttTracker rtt;
    ResponseTracker response;
    JitterTracker jitter;
    StallTracker stall;
    RateTracker rate;
    DirectionMetrics m;
    LossRun loss_run;  // of lost segments
    uint64_t dup_data = 0;
    std::vector<Acked> acked;  // ring of the last kAckedKept, allocated on the first ack
    size_t acked_next = 0;
    std::array<Sighting, 4> recent{};  // the direction's last packets, a ring
    size_t recent_next = 0;
    int64_t first_syn_ns = INT64_MIN, last_syn_ns = INT64_MIN;  // the direction's SYNs
    uint32_t syns = 0;
    // IP TTL / hop limit of this direction's packets: all at a usual initial
    // value (64, 128, 255) means no router between the sender and the capture.
    bool ttl_seen = false, ttl_initial = true;
  };

  Seg& at(Dir& d, size_t i) { return d.segs[(d.head + i) & (d.segs.size() - 1)]; }
  void push(Dir& d, const Seg& s, size_t pos);
  void popFront(Dir& d);
  std::optional<uint32_t> firstMissing(Dir& d);
  void settleHol(Dir& d, std::optional<uint32_t> missing);
  bool capturedTwice(Dir& d, const DecodedPacket& p, uint32_t len, int64_t ns);
  void recordTsval(Dir& d, uint32_t tsval, uint64_t frame, int64_t ns);
  void start(Dir& d, uint32_t seq, bool syn);
  void extendBack(Dir& d, uint32_t ack, int64_t ns);
  bool shortPath() const;
  void onData(Dir& d, const DecodedPacket& p, uint32_t len, uint64_t frame, int64_t ns);
  // onData's cases: data past nxt, a copy of a captured segment, bytes that fill a hole.
  void onNewData(Dir& d, Seg& s, const TcpOptions& o, uint64_t frame, int64_t ns);
  size_t segmentHolding(Dir& d, uint32_t seq);
  bool holeFillIsCopy(Dir& d, size_t hole, const Seg& s, const TcpOptions& o, int64_t ns);
  void fillHole(Dir& d, size_t hole, Seg& s, bool copy, uint64_t frame, int64_t ns);
  void onAck(Dir& d, const DecodedPacket& p, bool pure, uint64_t frame, int64_t ns);
  // onAck's parts: an ack of new data, its Karn sample, SACK blocks, a timestamp echo.
  void ackNewData(Dir& d, uint32_t a, const TcpOptions& o, uint64_t frame, int64_t ns);
  void karnSample(Dir& d, uint32_t a, uint64_t frame, int64_t ns);
  void applySack(Dir& d, uint32_t a, const TcpOptions& o, int64_t ns);
  void echoSample(Dir& d, uint32_t tsecr, uint64_t frame, int64_t ns);
  void retransmission(Dir& d, Seg& s, bool direct, uint64_t frame, int64_t ns);
  RetxCause timeoutOrFast(Dir& d, Seg& s, double since_previous_ms, bool sender, int64_t ns);
  bool lostAgain(const Dir& d, const Seg& s, bool sender, int64_t ns) const;
  void rememberAcked(Dir& d, const Seg& s);
  void copyOfAcked(Dir& d, Seg& copy, uint64_t frame, int64_t ns);
  void rttSample(Dir& d, double ms, RttSource src, uint64_t frame, uint64_t data_frame, int64_t ns);
  void lossRun(Dir& d, bool lost, uint64_t frame, int64_t ns, uint32_t seq);
  void updateVantage();
  Dir& other(const Dir& d) { return dirs_[d.id == Direction::ClientToServer ? 1 : 0]; }

  AnalyzerConfig cfg_;
  EventSink* sink_;
  std::array<Dir, 2> dirs_;
  Vantage vantage_ = Vantage::Unknown;
  int64_t syn_ns_ = -1, synack_ns_ = -1, last_ns_ = 0;
  ConnectionMetrics conn_;
  bool finished_ = false;
};

}  // namespace rudp::ana
