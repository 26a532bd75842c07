// Stalls of a direction whose sender is at the far end of the capture,
// estimated on the sender's own timeline.
//
// A capture at the receiver sees the sender's packets late (after the path)
// and its own acks early (before the path), and never sees lost data at the
// time it was sent. But every packet carries the sender's clock (ts), so the
// sender's timeline can be rebuilt:
// - the sender sent each captured copy at its ts; an original lost before
//   the capture point was sent between its captured neighbours' ts;
// - an ack the receiver sent at capture time t reached the sender at
//   S-clock t + d2 - theta, where theta is the capture-minus-sender clock
//   offset. min(capture - ts) over the sender's packets is theta + d1_min and
//   the smallest round trip of the receiver's own data is d2 + d1 + (the
//   sender's ack delay, whose minimum is ~0), so t + path_min - min(capture -
//   ts) is the ack's arrival on the sender's clock to within the jitter;
// - an ack reached the sender unless it rode on a packet of the receiver's
//   that the sender's next captured packet, sent a tick or more after that
//   copy would have arrived, does not acknowledge (its ack and bitmap tell
//   what the sender had). Pure ACKs are assumed to arrive.
// Events wait kHorizonMs (sender clock) before they are replayed in order
// through the same rule as StallTracker, so late knowledge (a copy revealing
// a lost original, the sender's acks revealing a lost ack) is in by then.
// Reported times are on the capture's clock assuming d1_min = d2_min (half
// the path each way): an asymmetric path shifts start and end alike by half
// the difference; durations do not depend on it.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "analyzers/events.h"
#include "core/contract.h"

namespace rudp::ana {

class RemoteStallEstimator {
 public:
  static constexpr double kHorizonMs = 5000;

  RemoteStallEstimator(Direction dir, double threshold_ms) : dir_(dir), thr_ms_(threshold_ms) {}

  // The remote sender's captured copy of `seq` (first or later), its ts in ms.
  void onCopy(uint32_t seq, bool first, bool reliable, double ts_ms, int64_t capture_ns, uint64_t frame);
  // The first captured copy of `seq` turned out to be a later copy: its
  // original (never captured) was sent at about `orig_ts_ms` (NaN: unknown;
  // the sender's first seq is then taken as sent when the CONNECT arrived).
  void onLostOriginal(uint32_t seq, double orig_ts_ms, bool first_copy_fed);
  // The receiver opened the connection (CONNECT) at this capture time: a
  // lost first reply of the sender was sent when that arrived.
  void onPeerOpen(int64_t capture_ns) {
    if (open_ns_ < 0) open_ns_ = capture_ns;
  }
  // A packet of the sender (sent at ts_ms, its clock) acknowledging the
  // receiver's seqs: ack and bitmap as it knew them then.
  void onSenderAck(double ts_ms, uint32_t ack, uint32_t bits);
  // A packet of the receiver carrying acks of this direction's seqs.
  void onAck(int64_t capture_ns, uint64_t frame, bool has_own_seq, uint32_t own_seq, AckStyle style,
             uint32_t ack, uint32_t bits, bool has_una, uint32_t una);
  // Replays what is older than the horizon. `path_min_ms`: the smallest RTT
  // of the receiver's own data.
  // `replay` false (the capture is not at the receiver): events age out unused.
  // `enabled` false (the capture is not at the receiver): events age out
  // unused. `hold_max_ms`: the longest the sender waits before acking.
  void advance(int64_t now_ns, double path_min_ms, double hold_max_ms, bool enabled, bool final,
               EventSink* sink, std::vector<StallEvent>& out);
  size_t memoryBytes() const { return evs_.capacity() * sizeof(Ev) + sizeof(*this); }

 private:
  enum Kind : uint8_t { Send, Ack, SendAtOpen };
  struct Ev {
    double s_ms;  // sender clock (Send) / capture ms (Ack, mapped when replayed)
    int64_t capture_ns;
    uint64_t frame;
    uint32_t seq, ack, bits, una;
    uint32_t own_seq;
    Kind kind;
    AckStyle style;
    bool reliable, has_own_seq, has_una, done;
  };
  void replay(const Ev& e, double s_ms, EventSink* sink, std::vector<StallEvent>& out);
  void cover(uint32_t seq, bool& progressed);
  void coverBelow(uint32_t limit, bool& progressed);
  void forget(uint32_t upto);
  int64_t toCapture(double s_ms) const;

  Direction dir_;
  double thr_ms_;
  bool any_ = false, has_off_ = false, replay_ = false;
  double off_min_ms_ = 0;  // min(capture - ts) = theta + d1_min
  int64_t open_ns_ = -1;
  double path_ms_ = 0;   // path_min used for the last replay
  std::vector<Ev> evs_;  // waiting, in capture order
  struct SenderAck {
    double s_ms;
    uint32_t ack, bits;
  };
  static constexpr size_t kSenderAcks = 512;
  std::vector<SenderAck> sacks_;  // ring of the sender's recent acks
  size_t sack_next_ = 0;
  bool arrived(uint32_t own_seq, double s_ms, double hold_max_ms) const;
  // The sender's state while replaying.
  static constexpr uint32_t kBits = 4096;
  std::array<uint64_t, kBits / 64> sent_{}, out_{};
  bool has_hi_ = false;
  uint32_t hi_ = 0, outstanding_ = 0;
  bool waiting_ = false;
  double start_ms_ = 0;
  uint64_t start_frame_ = 0;
  uint32_t retx_ = 0;
};

}  // namespace rudp::ana
