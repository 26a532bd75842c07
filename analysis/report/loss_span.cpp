#include "report/loss_span.h"

#include "store/store_reader.h"

namespace rudp::report {

double packetGapMs(const ana::DirectionMetrics& m) {
  return m.gaps.samples > 0 && m.gaps.p50 > 0 ? m.gaps.p50 : 20.0;
}

LossSpan lossSpan(StoreReader& reader, const ana::LossEvent& ev, double gapMs) {
  const auto span = static_cast<int64_t>(ev.count * gapMs * 1e6);
  LossSpan s{ev.ts_ns - span, ev.ts_ns, ev.frame};
  if (ev.first_frame != 0) {
    if (auto first = reader.packet(ev.first_frame)) {
      s.start_ns = first->ts_ns;
      s.end_ns = first->ts_ns + span;
      s.frame = ev.first_frame;
    }
  }
  return s;
}

}  // namespace rudp::report
