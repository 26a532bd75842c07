// Turns one dissection result into segments, following a protocol's contract.
#pragma once
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
  void finish(Segment& s, bool ackValid, bool echoValid, bool reliable, bool unsequenced) const;

  const Contract& c_;
  std::vector<Slot> slot_;  // field id -> meaning
  // field id -> further meanings (a field may also select the seq space or be
  // part of an unreliable numbering): bit 0 seq space, 1+i number of
  // numbering i, 3+i its group, 5+i its space.
  std::vector<uint8_t> extra_;
};

}  // namespace rudp
