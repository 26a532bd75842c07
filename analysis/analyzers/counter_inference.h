// A per-packet sequence counter found in the payloads of a flow no dissector
// claims, and what it tells: packets lost before the capture, duplicates,
// reordering. Everything here is inferred, and every view says so.
//
// CounterFinder looks at the first kSample payloads of a direction (their
// first kBytes bytes: a bounded sample, so it costs little and cannot run
// away). A candidate is every (offset, width 1/2/4 bytes, byte order) the
// sample covers; between consecutive packets its step is the difference
// modulo its width. It is a counter when
//   - at least kMinStepOne of the steps are exactly +1, and
//   - at least kMinFit of them are small (|step| <= kNearSteps, not 0):
//     a lost packet skips a few numbers, a reordered one steps back.
// Random bytes pass neither (a byte steps by +1 with probability 1/256), a
// constant field never steps, a timestamp steps by its tick. Of the
// counters found the best fit wins; on a tie the wider field (a u16 whose
// high byte is still 0 looks like a u8), then the smaller offset.
//
// CounterTracker then reads that field from every packet of the direction:
// a step of +k (1 < k <= kMaxJump) is k-1 packets lost before the capture,
// placed at the packet after the gap; a number at or below the highest is a
// duplicate when it was seen within the last kWindow numbers, else a late
// (reordered) packet, which takes its loss back and splits its run of losses
// in the burst histogram; a jump beyond kMaxJump either way is a restart of
// the counter, not a loss. A run's LossEvent is streamed once no late packet
// can fill it any more (it left the window, the counter restarted, or
// flush() at the end), so the events add up to lost().
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "analyzers/events.h"

namespace rudp::ana {

struct InferredField {
  uint8_t offset = 0, size = 0;  // bytes into the UDP payload; size 0: none found
  bool little_endian = false;    // meaningless for size 1
  double fit = 0;                // share of the sample that fits (each kind says how)
  double unit_hz = 0;            // a timestamp: its ticks per second (field_inference.h)
  bool echo_next = false;        // an ack echo: the next number expected, not the last received
  bool found() const { return size != 0; }
};

// The field's value in `payload`, false when the payload is too short.
bool readField(const InferredField& f, const uint8_t* payload, size_t len, uint32_t& value);
// The value of `size` bytes at `p`.
uint32_t fieldValue(const uint8_t* p, uint8_t size, bool littleEndian);
// (to - from) modulo 2^(8 size), as a signed step.
int64_t signedStep(uint32_t from, uint32_t to, uint8_t size);
// True when the two fields share a byte.
bool overlaps(const InferredField& a, const InferredField& b);
// Calls `fn(InferredField)` for every field the first `bytes` bytes hold:
// u32, u16, then u8 (with `withBytes`), both byte orders, smaller offsets
// first (the order the finders break ties in).
template <typename Fn>
void forEachField(size_t bytes, bool withBytes, Fn&& fn) {
  for (uint8_t size : {4, 2, 1}) {
    if (size == 1 && !withBytes) continue;
    for (uint8_t offset = 0; offset + size <= bytes; ++offset)
      for (bool le : {false, true})
        if (size > 1 || !le) fn(InferredField{offset, size, le});
  }
}

class CounterFinder {
 public:
  static constexpr size_t kSample = 256;
  static constexpr size_t kBytes = 32;
  static constexpr size_t kMinPairs = 32;
  static constexpr double kMinStepOne = 0.5;
  static constexpr double kMinFit = 0.9;
  static constexpr int64_t kNearSteps = 16;

  // Adds one payload of the sample (ignored once it is full).
  void add(const uint8_t* payload, size_t len);
  bool full() const { return sample_.size() >= kSample; }
  size_t size() const { return sample_.size(); }
  // The best counter of the sample, or size 0.
  InferredField find() const;

  struct Head {
    std::array<uint8_t, kBytes> bytes{};
    uint8_t len = 0;
  };
  const std::vector<Head>& sample() const { return sample_; }
  void clear() { std::vector<Head>().swap(sample_); }

 private:
  double fitOf(const InferredField& f, double& stepOne) const;
  std::vector<Head> sample_;
};

class CounterTracker {
 public:
  static constexpr int64_t kMaxJump = 1024;
  static constexpr size_t kWindow = 1024;

  CounterTracker(InferredField field, Direction dir) : field_(field), dir_(dir) {}
  // One packet of the direction, capture order.
  void add(const uint8_t* payload, size_t len, int64_t ts_ns, uint64_t frame, EventSink* sink);
  // The LossEvents of the runs still open (at the end of the flow).
  void flush(EventSink* sink);

  uint64_t lost() const { return lost_; }
  uint64_t duplicates() const { return duplicates_; }
  uint64_t reordered() const { return reordered_; }
  uint64_t restarts() const { return restarts_; }
  const std::map<uint32_t, uint64_t>& lossBursts() const { return bursts_; }

 private:
  // Lost numbers first..first+length-1, noticed at the packet after the gap.
  struct Run {
    int64_t length = 0;
    uint32_t first_raw = 0;  // the field's value of `first`
    uint64_t frame = 0;      // the packet after the gap
    int64_t ts_ns = 0;
  };
  int64_t stepFrom(uint32_t from, uint32_t to) const;  // signed, modulo the field's width
  void addRun(int64_t first, Run run);
  void fillLate(int64_t n);  // a number of an open run of losses arrived
  void emitRun(const Run& run, EventSink* sink) const;
  bool& seen(int64_t n) { return seen_[static_cast<size_t>(n) % kWindow]; }
  void restart(int64_t n, EventSink* sink);

  InferredField field_;
  Direction dir_;
  bool any_ = false;
  uint32_t last_raw_ = 0;  // of the highest number
  int64_t high_ = 0;       // unwrapped highest number seen
  std::array<bool, kWindow> seen_{};
  uint64_t lost_ = 0, duplicates_ = 0, reordered_ = 0, restarts_ = 0;
  std::map<uint32_t, uint64_t> bursts_;
  std::map<int64_t, Run> runs_;  // open runs of lost numbers in the window, by first number
};

}  // namespace rudp::ana
