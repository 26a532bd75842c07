// The analyzer of one QUIC connection (decode/quic_session.h gives its
// packets), read as the sending endpoint reads its own traffic (RFC 9002):
//
//   QuicAnalyzer a(cfg, &sink);
//   for each datagram of the connection, in capture order:
//     a.onDatagram(frame, ts_ns, dir, datagram, wire_bytes, ackSenderParameters);
//   ConnectionMetrics m = a.finish();
//
// - Packet level, per packet-number space: every packet is sent once; the
//   peer's ACK frames acknowledge ranges of numbers.
//   - RTT (RFC 9002 5): a sample when an ACK newly acknowledges its largest
//     number and some newly acknowledged packet is ack-eliciting: latest =
//     the ACK's capture time minus that packet's. min_rtt, smoothed_rtt and
//     rttvar as the RFC updates them, with the ACK delay (scaled by the
//     acknowledging side's ack_delay_exponent, capped at its max_ack_delay
//     once the handshake is confirmed; 0 in the Initial and Handshake
//     spaces) taken off when that keeps the sample above min_rtt. Captured
//     at the sender, these are the values the endpoint computed.
//   - Loss as the sender declares it (RFC 9002 6.1) at each ACK and when the
//     loss timer would fire: a packet below the largest acknowledged is lost
//     when it was sent at least max(9/8 × max(smoothed, latest), 1 ms)
//     before (time threshold) or 3 packets were sent after it (packet
//     threshold: quic-go's reading; the RFC counts numbers, and quic-go skips
//     some on purpose).
//     Declared lost and acknowledged later: a spurious loss.
//   - Numbers a sender skipped (quic-go skips some on purpose) were never
//     sent: never lost.
// - Stream level: a STREAM frame carrying bytes of a stream already sent is
//   a resend. Its cause, from the earlier copy's packet: spurious when that
//   packet was acknowledged before the resend, fast when it was declared
//   lost (by the thresholds), else timeout (a PTO probe). Response time per
//   chunk: its first copy to the ACK of the first packet that delivered it.
//   DATAGRAM frames are never resent: counted, and lost with their packet.
// Memory: every packet sent, until the connection ends (a game connection's
// numbers, not a bulk transfer's; the flow table closes idle ones).
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "analyzers/events.h"
#include "analyzers/jitter.h"
#include "analyzers/loss_run.h"
#include "analyzers/metrics.h"
#include "analyzers/rates.h"
#include "analyzers/rtt.h"
#include "analyzers/stall.h"
#include "analyzers/timing_analyzer.h"
#include "decode/quic_session.h"

namespace rudp::ana {

// RFC 9002 5's RTT estimator, in ms.
struct QuicRtt {
  bool has_sample = false;
  double latest = 0, min = 0, smoothed = 333, rttvar = 333.0 / 2;
  double adjusted = 0;  // the last sample less the ACK delay, where that was taken off
  // Adds a sample; `ackDelay` already scaled and capped (0 where ignored).
  void add(double latestMs, double ackDelayMs);
  double lossDelay() const;                // 9/8 × max(smoothed, latest), at least 1 ms
  double pto(double maxAckDelayMs) const;  // smoothed + max(4 rttvar, 1 ms) + max_ack_delay
};

// A QUIC connection as its endpoints read it. Whether its 1-RTT packets
// open is known at the first one; until then its datagrams wait (the
// handshake's few). A connection whose 1-RTT packets stay encrypted gets the
// timing analysis of any flow that is not decoded (TimingAnalyzer: tick,
// gaps, silences; no payload counters, its bytes are ciphertext) and the
// RTT of the handshake packets that did open.
class QuicAnalyzer {
 public:
  QuicAnalyzer(const AnalyzerConfig& cfg, EventSink* sink, AddressEvidence addresses = {});
  ~QuicAnalyzer();
  QuicAnalyzer(const QuicAnalyzer&) = delete;
  QuicAnalyzer& operator=(const QuicAnalyzer&) = delete;

  // `ackParams`: the transport parameters of the side that sent this
  // datagram (its ACK delays are in its units).
  void onDatagram(uint64_t frame, int64_t ts_ns, Direction dir, const quic::Datagram& d, uint32_t wire_bytes,
                  const quic::TransportParameters& ackParams, uint8_t ttl = 0);
  ConnectionMetrics finish();

  // What the sender of `dir` declared lost, in the order it did.
  struct Declared {
    quic::Space space = quic::Space::Application;
    uint64_t number = 0;
    bool packet_threshold = false;  // else the time threshold
    int64_t at_ns = 0;
    bool spurious = false;  // acknowledged later
  };
  const std::vector<Declared>& declared(Direction dir) const { return dirs_[int(dir)].declared; }
  // Every RTT sample of the sender of `dir`: which packet, which ACK, and
  // the estimator after it.
  struct Sample {
    quic::Space space = quic::Space::Application;
    uint64_t acked = 0;       // the largest acknowledged number
    uint64_t ack_packet = 0;  // the number of the packet carrying the ACK
    double ack_delay_ms = 0;  // as used (scaled, capped; 0 outside 1-RTT)
    QuicRtt after;
  };
  const std::vector<Sample>& rttHistory(Direction dir) const { return dirs_[int(dir)].history; }
  uint64_t datagramsSent(Direction dir) const { return dirs_[int(dir)].datagrams; }
  uint64_t datagramsLost(Direction dir) const;

 private:
  struct Chunk {  // a stream frame's bytes in one packet
    uint64_t stream = 0, offset = 0, length = 0;
  };
  struct Sent {
    uint64_t frame = 0;
    int64_t ns = 0;
    bool ack_eliciting = false;  // RTT samples need one newly acknowledged
    bool in_flight = false;      // ack-eliciting or PADDING: may be declared lost (RFC 9002 2)
    bool acked = false, lost = false;
    int64_t ack_ns = 0;
    uint32_t datagrams = 0;
    std::vector<Chunk> chunks;
  };
  struct StreamChunk {  // the bytes of one stream from an offset, across copies
    uint64_t end = 0;
    int64_t first_ns = 0;
    uint64_t first_frame = 0, last_frame = 0;
    int64_t last_ns = 0;
    uint32_t copies = 0;
    bool delivered = false;
    std::vector<std::pair<int, uint64_t>> packets;  // (space, number) of each copy
  };
  using SentMap = std::map<uint64_t, Sent>;
  struct Dir {
    Dir(Direction d, const AnalyzerConfig& cfg)
        : id(d), rtt(cfg), spin_rtt(cfg), response(cfg), stall(d, cfg.stall_ms), rate(d) {}
    Direction id;
    std::array<SentMap, quic::kSpaces> sent;
    std::array<uint64_t, quic::kSpaces> first_open{};     // firstOpen()'s last answer
    std::array<uint64_t, quic::kSpaces> first_unacked{};  // every number below it is acknowledged
    std::array<int64_t, quic::kSpaces> largest_acked{-1, -1, -1};
    std::map<std::pair<uint64_t, uint64_t>, StreamChunk> chunks;  // (stream, offset)
    QuicRtt estimator;
    std::vector<Sample> history;
    std::vector<Declared> declared;
    uint64_t datagrams = 0;
    uint32_t outstanding = 0;  // stream chunks sent and not yet delivered
    bool confirmed = false;    // the handshake is confirmed (HANDSHAKE_DONE seen)
    bool closed = false;       // its sender sent CONNECTION_CLOSE: it declares no loss after (RFC 9000 10.2)
    RttTracker rtt;
    // Encrypted: RTT from this direction's spin edges (RFC 9000 17.4), one
    // edge to the next being one round trip wherever the capture is.
    RttTracker spin_rtt;
    int spin = -1;  // the spin value of its last 1-RTT packet; -1 before one
    int64_t spin_edge_ns = -1;
    uint64_t spin_edge_frame = 0;
    ResponseTracker response;
    JitterTracker spacing;
    StallTracker stall;
    RateTracker rate;
    LossRun run;
    uint64_t run_last = 0;  // the number the open loss run ended at
    DirectionMetrics m;
  };

  struct Waiting {  // a datagram before the first 1-RTT packet
    uint64_t frame;
    int64_t ts_ns;
    Direction dir;
    quic::Datagram d;
    uint32_t wire_bytes;
    quic::TransportParameters params;
    uint8_t ttl;
  };
  enum class Mode : uint8_t { Unknown, Decoded, Encrypted };
  // A handshake this long without a 1-RTT packet (a hostile capture's
  // endless Initials) is read as it goes: memory stays bounded.
  static constexpr size_t kMaxWaiting = 64;

  Dir& other(const Dir& d) { return dirs_[d.id == Direction::ClientToServer ? 1 : 0]; }
  void decide(Mode mode);
  void take(uint64_t frame, int64_t ts_ns, Direction dir, const quic::Datagram& d, uint32_t wire_bytes,
            const quic::TransportParameters& ackParams, uint8_t ttl);
  void readPackets(Dir& x, uint64_t frame, int64_t ts_ns, const quic::Datagram& d,
                   const quic::TransportParameters& ackParams);
  ConnectionMetrics finishEncrypted();
  void onSpin(Dir& x, uint64_t frame, int64_t ts_ns, const quic::Datagram& d);
  double handshakeMinRttMs() const;
  void onPacket(Dir& d, const quic::Packet& p, uint64_t frame, int64_t ns);
  void onStreamFrame(Dir& d, const quic::Frame& f, int space, uint64_t number, uint64_t frame, int64_t ns);
  void onAck(Dir& data, quic::Space space, const quic::Frame& ack, uint64_t ackPacket, uint64_t frame,
             int64_t ns, const quic::TransportParameters& ackParams);
  void acked(Dir& data, int space, uint64_t number, Sent& s, int64_t ns);
  SentMap::iterator firstOpen(Dir& d, int space);
  void detectLost(Dir& d, int space, uint64_t frame, int64_t now);
  void declareLost(Dir& d, int space, uint64_t number, Sent& s, bool packetThreshold, uint64_t frame,
                   int64_t now);
  void fireLossTimers(int64_t now, uint64_t frame);

  EventSink* sink_;
  AnalyzerConfig cfg_;
  std::array<Dir, 2> dirs_;
  bool finished_ = false;
  AddressEvidence addresses_;
  Mode mode_ = Mode::Unknown;
  std::vector<Waiting> waiting_;
  std::unique_ptr<TimingAnalyzer> timing_;  // Mode::Encrypted
};

}  // namespace rudp::ana
