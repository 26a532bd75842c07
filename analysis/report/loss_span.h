// When a loss burst's data was sent. A loss is settled when the acks move
// past it, often seconds later, so the event's own time does not say; the
// first lost copy's capture time does when the capture has it.
#pragma once
#include <cstdint>

#include "store/records.h"

namespace rudp {
class StoreReader;
}

namespace rudp::report {

struct LossSpan {
  int64_t start_ns = 0, end_ns = 0;
  uint64_t frame = 0;  // the first lost copy, else the packet that showed the gap
};

// The direction's typical time between packets (ms), 20 ms (50 Hz) when the
// capture cannot tell.
double packetGapMs(const ana::DirectionMetrics& m);

// The seqs of `ev` sent one packet gap apart: from the first lost copy (one
// packet lookup) when captured, else ending at the packet that showed the gap.
LossSpan lossSpan(StoreReader& reader, const ana::LossEvent& ev, double gapMs);

}  // namespace rudp::report
