// The analyzer of one connection of a two-level protocol (contract version
// 2: RakNet; the shape of QUIC, UDT, GameNetworkingSockets).
//
//   TwoLevelAnalyzer a(contract.two_level, cfg, &sink);
//   for each datagram of the connection, in capture order:
//     a.onPacket(frame, ts_ns, dir, datagram, wire_bytes);
//   ConnectionMetrics m = a.finish();
//
// Reading the traffic:
// - Packet level: every datagram of a direction carries a number of its own,
//   never resent. The peer acknowledges numbers by records of ranges; a NAK
//   record names numbers that did not arrive.
//   - Datagrams lost before the capture point are the numbers never captured
//     between captured ones (exact at the receiver, where every arrival is
//     captured). Each run is placed between the neighbours that did arrive.
//   - Datagrams lost after it are the ones the receiver NAKed (a NAK can be
//     lost too: then the loss shows only as the resends it causes).
//   - RTT: one sample per ack datagram, from the capture of its largest newly
//     acknowledged packet to the ack's capture (a number is sent once, so no
//     Karn ambiguity). What it measures depends on the vantage (vantage.h),
//     read from the two directions' smallest samples.
// - Message level: a reliable message keeps its id (RakNet's reliable
//   message number) in every copy, whatever packet carries it.
//   - A copy of an id already captured is a resend. Its cause, from the
//     previous copy's packet: spurious when that packet's ack was captured
//     before the resend, fast (NAK-driven) when a NAK of it was, else timeout.
//   - The fragments of one split message count as one message: a resend of
//     several of its fragments is one resend (its k-th copy, counted once).
//   - Response time: a message's first captured copy to the ack of the packet
//     that carried the copy that arrived (the first acknowledged one). A split
//     message is one sample: its first fragment's first copy to the ack that
//     delivered its last missing fragment.
//   - Head-of-line blocking per ordering channel, by the ordering index: a
//     message (all its fragments) that arrives before an earlier index waits
//     until that one arrives. Capture times, so only observable at (or near)
//     the receiver.
//   - Stalls: StallTracker on the sender's timeline: reliable messages
//     outstanding and no ack delivering one for the threshold.
// - Spacing and tick (jitter.h): the gaps between the datagrams that carry a
//   first copy or an unreliable message (one that carries only resends is not
//   part of the sender's tick). No sender timestamp, so no jitter.
// Memory: the packets of the last kKeepPackets numbers and the messages they
// carried; per ordering channel at most kMaxWaiting indices; per split id one
// number.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "analyzers/events.h"
#include "analyzers/jitter.h"
#include "analyzers/metrics.h"
#include "analyzers/rates.h"
#include "analyzers/rtt.h"
#include "analyzers/stall.h"
#include "core/contract.h"
#include "core/seq32.h"
#include "flow/two_level_datagram.h"

namespace rudp::ana {

class TwoLevelAnalyzer {
 public:
  static constexpr uint64_t kKeepPackets = 1u << 16;
  static constexpr size_t kMaxWaiting = 4096;  // ordering indices waiting for an earlier one, per channel

  TwoLevelAnalyzer(const TwoLevelContract& contract, const AnalyzerConfig& cfg, EventSink* sink);
  TwoLevelAnalyzer(const TwoLevelAnalyzer&) = delete;
  TwoLevelAnalyzer& operator=(const TwoLevelAnalyzer&) = delete;

  void onPacket(uint64_t frame, int64_t ts_ns, Direction dir, const TwoLevelDatagram& d, uint32_t wire_bytes);
  ConnectionMetrics finish();

 private:
  struct Sent {  // a numbered packet of the direction, as captured
    uint64_t frame = 0;
    int64_t ns = 0;
    bool acked = false, naked = false;
    int64_t ack_ns = 0, nak_ns = 0;
    std::vector<uint64_t> reliable;  // unwrapped ids of the reliable messages it carried
  };
  struct Msg {  // a reliable message (or one fragment of a split one)
    uint64_t first_frame = 0, last_frame = 0, last_packet = 0;
    int64_t first_ns = 0, last_ns = 0;
    uint32_t copies = 0;
    bool delivered = false, split = false;
    uint32_t split_id = 0;
  };
  struct SplitDelivery {   // a split message whose fragments are not all delivered yet
    int64_t first_ns = 0;  // its first fragment's first copy
    uint32_t delivered = 0, need = 1;
  };
  struct Ordered {  // one ordering index of one channel, at the receiver
    uint32_t fragments = 0, need = 1;
    int64_t arrival_ns = 0;  // of its last fragment's first copy
  };
  struct Channel {
    explicit Channel(int bits) : index(bits) {}
    SerialUnwrapper index;
    bool started = false;
    uint64_t next = 0;
    int64_t delivered_ns = 0;
    std::map<uint64_t, Ordered> waiting;
  };
  struct Dir {
    Dir(Direction d, const AnalyzerConfig& cfg, int numberBits, int idBits)
        : id(d), numbers(numberBits), ids(idBits), rtt(cfg), response(cfg), stall(d, cfg.stall_ms), rate(d) {}
    Direction id;
    SerialUnwrapper numbers, ids;
    std::map<uint64_t, Sent> sent;
    std::unordered_map<uint64_t, Msg> msgs;
    std::map<uint32_t, uint32_t> split_copies;  // split id -> the highest copy counted as a resend
    std::map<uint32_t, SplitDelivery> split_delivery;
    std::map<uint32_t, Channel> channels;
    bool any_number = false;
    uint64_t highest = 0;  // highest number captured
    int64_t highest_ns = 0;
    uint32_t outstanding = 0;  // reliable messages captured, not yet acknowledged
    RttTracker rtt;
    ResponseTracker response;
    JitterTracker spacing;
    StallTracker stall;
    RateTracker rate;
    DirectionMetrics m;
  };

  Dir& other(const Dir& d) { return dirs_[d.id == Direction::ClientToServer ? 1 : 0]; }
  bool onNumber(Dir& d, uint64_t n, uint64_t frame, int64_t ns);  // false: a duplicate
  // True when `msg` is a first copy or unreliable (part of the sender's tick).
  bool onMessage(Dir& d, const Message& msg, uint64_t packet, uint64_t frame, int64_t ns);
  void delivered(Dir& data, const Msg& m, int64_t ns);
  void resend(Dir& d, Msg& m, uint64_t id, uint64_t packet, uint64_t frame, int64_t ns);
  void onOrdered(Dir& d, const Message& msg, int64_t ns);
  void onAcks(Dir& data, const TwoLevelDatagram& d, uint64_t frame, int64_t ns);
  void onNak(Dir& data, const TwoLevelDatagram& d, uint64_t frame, int64_t ns);
  void acked(Dir& data, Sent& s, uint64_t frame, int64_t ns);
  void lossRun(Dir& d, uint64_t first, uint32_t count, uint64_t frame, int64_t ns, uint64_t first_frame);
  void forgetOld(Dir& d);

  EventSink* sink_;
  AnalyzerConfig cfg_;
  uint32_t number_mask_, id_mask_;  // events carry the numbers as the wire has them
  int order_bits_;
  std::array<Dir, 2> dirs_;
  bool finished_ = false;
};

}  // namespace rudp::ana
