// Two more fields a flow no dissector claims may carry, found in the same
// bounded sample as its counter (counter_inference.h), and what they give.
//
// A sender timestamp: a u16 or u32 (either byte order) that rises with
// capture time at a usual unit (kUnitsHz: ms, 100 us, 1/65536 s, 90 kHz,
// us). With the right unit, capture time minus the field's time is the
// one-way delay plus a constant: it stays within kTsSlackMs of its median for
// at least kMinFit of the sample, which spans at least kMinSpanNs (a wrong
// unit drifts away over that span; a constant field or random bytes never
// fit). Of the fitting fields the one with the smallest spread wins: an
// echoed timestamp also fits but carries the round trip's variation. It
// gives RFC 3550 jitter (jitter.h) for the direction.
//
// An ack echo: a field in one direction that follows the other direction's
// counter. At any vantage the echoing side can only have received what was
// captured before its packet, so the field is never ahead of the highest
// number the other side had sent by then (by one at most: a "next expected"
// field, KCP's una style) and never more than kMaxEchoLag behind. The field
// must change at least kMinEchoChanges times (a constant is no echo), name
// numbers the other side was captured sending (or the next one) in kMinFit
// of its changes (a field that merely rises more slowly, as a call number
// beside a packet serial, names none), and be at most as wide as the counter
// (a truncated echo is fine). The widest field that fits wins, then the best
// fit.
//
// EchoRtt turns them into RTT samples of the counter's direction: from a
// packet's capture to the first reverse packet whose echo changed to its
// number, for numbers captured once (Karn's rule: a second copy makes the
// sample ambiguous). What it measures depends on the vantage (vantage.h).
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "analyzers/counter_inference.h"

namespace rudp::ana {

struct SampledPacket {
  CounterFinder::Head head;
  int64_t ns = 0;
  uint64_t frame = 0;
};

constexpr std::array<double, 5> kUnitsHz{1e3, 1e4, 65536, 90000, 1e6};
constexpr int64_t kMinSpanNs = 1'000'000'000;
constexpr double kTsSlackMs = 50;
constexpr int64_t kMaxEchoLag = 1023;
constexpr uint64_t kMinEchoChanges = 8;

// The sender timestamp of a direction's sample, or size 0; never a field
// overlapping `seq`.
InferredField findTimestamp(std::span<const SampledPacket> sample, const InferredField& seq);

// In `echoing`'s sample, the field that echoes `counter`, the counter of the
// other direction whose packets (all of them up to the end of `echoing`'s
// sample, capture order) are `other`; or size 0. Never a field overlapping
// `mine` (the echoing direction's own counter and timestamp).
InferredField findEcho(std::span<const SampledPacket> echoing, std::span<const InferredField> mine,
                       std::span<const SampledPacket> other, const InferredField& counter);

class EchoRtt {
 public:
  static constexpr size_t kWindow = 1024;
  EchoRtt(InferredField counter, InferredField echo) : counter_(counter), echo_(echo) {}
  // A packet of the counter's direction.
  void onData(const uint8_t* payload, size_t len, int64_t ns, uint64_t frame);
  // A packet of the echoing direction; true with the sample (ms) and the
  // echoed packet's frame when its echo changed to a number captured once.
  bool onEcho(const uint8_t* payload, size_t len, int64_t ns, double& ms, uint64_t& data_frame);

 private:
  struct Slot {
    int64_t n = -1;
    int64_t ns = 0;
    uint64_t frame = 0;
    uint32_t copies = 0;
  };
  Slot& slot(int64_t n) { return slots_[static_cast<size_t>(n) % kWindow]; }

  InferredField counter_, echo_;
  std::vector<Slot> slots_ =
      std::vector<Slot>(kWindow);  // on the heap: every undecoded flow holds an optional one
  bool any_ = false, any_echo_ = false;
  int64_t high_ = 0;       // unwrapped highest number captured
  uint32_t high_raw_ = 0;  // its value
  uint32_t last_echo_ = 0;
};

}  // namespace rudp::ana
