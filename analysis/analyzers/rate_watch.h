// Rate drops and bursts of a ticking stream that no dissector decodes: the
// stream's rhythm changing, as opposed to stopping (a silence is a stall).
//
// The usual gap is the median of a direction's first kReferenceGaps gaps
// (the tick it started with). A gap is slow at kSlowFactor usual gaps or
// more, fast at kFastFactor or less. A run of slow (a drop) or fast (a
// burst) gaps lasting kMinRunNs and kMinRunGaps gaps is a rate change, from
// the packet before its first gap to the packet ending its last. One stray
// gap of another kind inside a run (a packet lost before the capture, one
// late) does not end it; two in a row do. A gap longer than the silence
// threshold ends the run (the silence is a stall of its own). A run still
// going at the end is `open`: the rate changed from then on.
//
// O(1) per packet; memory: the first kReferenceGaps packet times, then at
// most kMaxChanges changes.
#pragma once
#include <cstdint>
#include <vector>

#include "analyzers/events.h"

namespace rudp::ana {

class RateWatch {
 public:
  static constexpr size_t kReferenceGaps = 256;
  static constexpr double kSlowFactor = 2, kFastFactor = 0.5;
  static constexpr int64_t kMinRunNs = 1'000'000'000;
  static constexpr uint64_t kMinRunGaps = 5;
  static constexpr size_t kMaxChanges = 1024;

  RateWatch(Direction dir, int64_t silence_ns) : dir_(dir), silence_ns_(silence_ns) {}
  void add(int64_t ns, uint64_t frame);
  // The changes found; a run still going is closed as open.
  std::vector<RateChangeEvent> finish();

 private:
  enum class Pace : uint8_t { Usual, Slow, Fast };
  struct Packet {
    int64_t ns = 0;
    uint64_t frame = 0;
  };
  Pace paceOf(int64_t gap_ns) const;
  void judge(const Packet& from, const Packet& to);
  void start(Pace pace, const Packet& from, const Packet& to);
  void close(bool open);

  Direction dir_;
  int64_t silence_ns_;
  std::vector<Packet> early_;  // until the usual gap is known
  double usual_ns_ = 0;
  Packet last_;
  bool any_ = false;
  Pace run_ = Pace::Usual;
  Packet run_first_, run_last_;
  uint64_t run_gaps_ = 0;
  bool stray_ = false;  // the gap after run_last_ was of another pace
  std::vector<RateChangeEvent> out_;
};

}  // namespace rudp::ana
