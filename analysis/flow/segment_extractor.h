// Turns one dissection result into segments, following a protocol's contract.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "flow/segment.h"
#include "lua/host.h"

namespace rudp {

class SegmentExtractor {
 public:
  // `fieldCount` is LuaHost::fields().size().
  SegmentExtractor(const Contract& contract, size_t fieldCount);

  // Appends the segments of `r` to `out` (cleared first). A datagram whose
  // contract declares no segment field yields exactly one segment when any
  // contract field was present.
  void extract(const DissectResult& r, std::vector<Segment>& out) const;

 private:
  enum Slot : uint8_t {
    None,
    SegStart,
    ConnId,
    Kind,
    Seq,
    Reliable,
    Unseq,
    Ack,
    AckBits,
    AckValid,
    Una,
    Ts,
    Echo,
    EchoValid,
    Channel,
    Length,
    Window,
    NakFirst,
    NakLast
  };
  // What fields say about the segment beyond their values: whether its ack
  // and its echo are valid, how reliable it is.
  struct Flags {
    bool ack_valid = true, echo_valid = true, reliable = false, unsequenced = false;
  };
  struct Building {
    Segment seg;
    Flags flags;
  };
  using NakList = std::vector<std::pair<uint32_t, uint32_t>>;

  void set(Slot slot, uint64_t value, Building& b, NakList& moreNaks) const;
  static void setExtra(uint8_t extra, uint32_t value, Segment& s);
  // Appends the segment built, then one per further loss-list entry.
  void emit(Building& b, NakList& moreNaks, std::vector<Segment>& out) const;
  void finish(Segment& s, const Flags& f) const;

  const Contract& c_;
  std::vector<Slot> slot_;  // field id -> meaning
  // field id -> further meanings (a field may also select the seq space or be
  // part of an unreliable numbering): kSeqSpaceBit and numberBit(i, part).
  std::vector<uint8_t> extra_;
};

}  // namespace rudp
