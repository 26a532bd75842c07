// A batch of decoded packets travelling through the ingest pipeline.
#pragma once
#include <cstdint>
#include <vector>

#include "core/packet.h"
#include "lua/host.h"

namespace rudp {

struct BatchSlot {
  DecodedPacket pkt;             // payload points into `payload`, or into `frame` when kept
  std::vector<uint8_t> payload;  // own copy: the reader's buffer is reused
  // The whole frame, kept only when a display filter may look at it;
  // raw.data points into `frame`.
  RawPacket raw;
  std::vector<uint8_t> frame;
  std::vector<uint8_t> quote;  // an ICMP error's quote, when `frame` does not hold it
  uint32_t lane = 0;           // dissector worker; a flow always maps to the same lane
  DissectResult res;
};

struct PacketBatch {
  std::vector<BatchSlot> slots;  // capacity kept across batches: no steady-state allocation
  size_t size = 0;
  unsigned lanes_pending = 0;  // lanes still dissecting it (DissectPool's lock)
  void clear() { size = 0; }
};

}  // namespace rudp
