// Fuzz target: the analysis of UDP flows no dissector claims
// (analyzers/timing_analyzer.h) and the field inference over their
// payloads (analyzers/counter_inference.h, field_inference.h), fed arbitrary
// packet streams. Payloads mostly carry a field that steps a little from
// packet to packet (at an offset, width and byte order the input picks), an
// echo of the other direction's counter a little behind it, and a ms clock,
// so the fuzzer reaches found counters, echoes and clocks, wraps, gaps, late
// packets and restarts instead of only random bytes.
//
// Input: u8 stall threshold | u8 counter offset | u8 counter width/order |
// packets: u8 dir/flags | u8 time step | u8 ttl | u8 counter step | u8 echo lag | u8 length | payload bytes
#include <cstring>

#include "analyzers/timing_analyzer.h"
#include "fuzz_common.h"

using namespace rudp;
using namespace rudp::ana;

namespace {

struct Sink : EventSink {
  uint64_t n = 0;
  void onRate(const RateEvent&) override { ++n; }
  void onLoss(const LossEvent& e) override { n += e.count; }
  void onStall(const StallEvent& e) override {
    if (e.end_ns < e.start_ns || e.duration_ms < 0) std::abort();
    ++n;
  }
};

void putCounter(std::vector<uint8_t>& p, uint8_t offset, uint8_t width, bool le, uint32_t v) {
  for (uint8_t i = 0; i < width && offset + i < p.size(); ++i)
    p[offset + i] = static_cast<uint8_t>(v >> (8 * (le ? i : width - 1 - i)));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Reader in(data, size);
  AnalyzerConfig cfg;
  cfg.stall_ms = 1 + in.u8();
  const uint8_t offset = in.u8() % 20, shape = in.u8();
  const uint8_t width = (shape & 3) == 0 ? 1 : (shape & 3) == 1 ? 2 : 4;
  const bool le = shape & 4;
  Sink sink;
  TimingAnalyzer a(cfg, &sink, AddressEvidence{bool(shape & 8), bool(shape & 16)});
  CounterFinder finder;
  int64_t ts = 0;
  uint32_t counter[2] = {0, 0};
  uint64_t frame = 0;
  const uint8_t echoAt = static_cast<uint8_t>(offset + width),
                clockAt = static_cast<uint8_t>(offset + 2 * width);
  while (!in.empty()) {
    const uint8_t flags = in.u8();
    const int d = flags & 1;
    ts += int64_t{in.u8()} * (flags & 2 ? 10'000'000 : 1'000'000);
    const uint8_t ttl = in.u8();
    counter[d] += static_cast<int8_t>(in.u8());
    const uint8_t lag = in.u8();
    std::vector<uint8_t> payload = in.bytes(in.u8());
    if (flags & 4) putCounter(payload, offset, width, le, counter[d]);
    if (flags & 8) putCounter(payload, echoAt, width, le, counter[1 - d] - lag % 8);
    if (flags & 16) putCounter(payload, clockAt, 4, le, static_cast<uint32_t>(ts / 1'000'000));
    a.onPacket(++frame, ts, d ? Direction::ServerToClient : Direction::ClientToServer,
               static_cast<uint32_t>(payload.size() + 42), ttl, payload.data(), payload.size());
    finder.add(payload.data(), payload.size());
  }
  const ConnectionMetrics m = a.finish();
  for (const DirectionMetrics& d : m.dir) {
    for (const StallEvent& s : d.stalls)
      if (s.end_ns < s.start_ns) std::abort();
    for (const InferredField* f : {&d.seq_field, &d.ack_field, &d.ts_field})
      if (f->found() &&
          (f->offset + f->size > CounterFinder::kBytes || f->fit < CounterFinder::kMinFit || f->fit > 1))
        std::abort();
    if (overlaps(d.seq_field, d.ack_field) || overlaps(d.seq_field, d.ts_field) ||
        overlaps(d.ts_field, d.ack_field))
      std::abort();
    if (d.rtt.samples > 0 && d.rtt.min < 0) std::abort();  // an echo never comes before what it echoes
    if (d.ts_field.found() && d.ts_field.unit_hz <= 0) std::abort();
  }
  const InferredField f = finder.find();
  if (f.found() && (f.offset + f.size > CounterFinder::kBytes || f.fit < CounterFinder::kMinFit || f.fit > 1))
    std::abort();
  return 0;
}
