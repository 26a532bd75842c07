// One transport segment in the meaning the analysis contract gives it.
#pragma once
#include <cstdint>

#include "core/contract.h"

namespace rudp {

struct Segment {
  enum Has : uint16_t {
    ConnId = 1 << 0,
    Seq = 1 << 1,
    Ack = 1 << 2,
    AckBits = 1 << 3,
    Una = 1 << 4,
    Ts = 1 << 5,
    Echo = 1 << 6,
    Channel = 1 << 7,
    Length = 1 << 8,
    Window = 1 << 9,
    Kind = 1 << 10,
    Space = 1 << 11,
    Nak = 1 << 12,  // nak_first..nak_last: seqs the sender of this segment misses
  };
  static constexpr int kNumberings = 2;  // Contract::unreliable_seq entries kept
  uint16_t has = 0;
  SegmentRole role = SegmentRole::Other;
  bool consumes_seq = true;
  Reliability reliability = Reliability::Unreliable;  // resolved: never FromField
  uint64_t conn_id = 0;
  uint64_t kind = 0;
  uint32_t seq = 0, ack = 0, ack_bits = 0, una = 0, ts = 0, ts_echo = 0;
  uint32_t channel = 0, length = 0, window = 0;
  uint32_t space = 0;  // seq space (Contract::seq_space), when Has::Space
  uint32_t nak_first = 0,
           nak_last = 0;  // one loss-list entry; a datagram's further entries are segments of their own
  // One Contract::unreliable_seq entry's values in this segment: its number,
  // the group it counts within and its space, each when the packet has it.
  struct Numbers {
    enum Part : uint8_t { Number, Group, Space };
    uint32_t value[3] = {};
    uint8_t present = 0;  // a bit per Part

    bool has(Part p) const { return (present >> p) & 1u; }
    uint32_t orZero(Part p) const { return has(p) ? value[p] : 0; }
    void set(Part p, uint32_t v) {
      value[p] = v;
      present |= uint8_t(1u << p);
    }
  };
  Numbers numbers[kNumberings];

  bool is(Has h) const { return (has & h) != 0; }
  bool numbered() const { return numbers[0].present != 0 || numbers[1].present != 0; }
};

}  // namespace rudp
