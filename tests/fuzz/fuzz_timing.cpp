// Fuzz target: the analysis of UDP flows no dissector claims
// (analyzers/timing_analyzer.h) and the counter inference over their
// payloads (analyzers/counter_inference.h), fed arbitrary packet streams.
// Payloads mostly carry a field that steps a little from packet to packet
// (at an offset, width and byte order the input picks), so the fuzzer
// reaches found counters, wraps, gaps, late packets and restarts instead of
// only random bytes.
//
// Input: u8 stall threshold | u8 counter offset | u8 counter width/order |
// packets: u8 dir/flags | u8 time step | u8 ttl | u8 counter step | u8 length | payload bytes
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
  uint32_t counter = 0;
  uint64_t frame = 0;
  while (!in.empty()) {
    const uint8_t flags = in.u8();
    ts += int64_t{in.u8()} * (flags & 2 ? 10'000'000 : 1'000'000);
    const uint8_t ttl = in.u8();
    counter += static_cast<int8_t>(in.u8());
    std::vector<uint8_t> payload = in.bytes(in.u8());
    if (flags & 4) putCounter(payload, offset, width, le, counter);
    a.onPacket(++frame, ts, flags & 1 ? Direction::ServerToClient : Direction::ClientToServer,
               static_cast<uint32_t>(payload.size() + 42), ttl, payload.data(), payload.size());
    finder.add(payload.data(), payload.size());
  }
  const ConnectionMetrics m = a.finish();
  for (const DirectionMetrics& d : m.dir)
    for (const StallEvent& s : d.stalls)
      if (s.end_ns < s.start_ns) std::abort();
  const InferredField f = finder.find();
  if (f.found() && (f.offset + f.size > CounterFinder::kBytes || f.fit < CounterFinder::kMinFit || f.fit > 1))
    std::abort();
  return 0;
}
