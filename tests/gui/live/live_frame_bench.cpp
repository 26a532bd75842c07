// What one live update costs off the UI thread as the watched connection
// grows: copying a LiveSnapshot (LiveView::snapshot copies under its lock)
// and turning it into rows and a timeline (makeLiveFrame). Not a test:
//   live-frame-bench [EVENTS...]   (default 10000 100000 1000000)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "jobs/live_frame.h"
#include "session/live_view.h"

namespace {

using Clock = std::chrono::steady_clock;

// One watched connection with `n` RTT samples at 100 per second of capture,
// a retransmission every 20th, one rate bucket per 10 samples.
rudp::LiveSnapshot snapshot(size_t n) {
  rudp::LiveSnapshot s;
  s.generation = 1;
  s.watched = 1;
  s.first_ts_ns = 1'700'000'000'000'000'000;
  rudp::LiveConnection c;
  c.summary.id = 1;
  c.summary.first_ts_ns = s.first_ts_ns;
  for (size_t i = 0; i < n; ++i) {
    const int64_t ts = s.first_ts_ns + int64_t(i) * 10'000'000;
    s.events.rtts.push_back(
        {i * 2 + 1, i * 2, ts, rudp::Direction::ClientToServer, 30.0 + double(i % 17), {}, {}, 32.0, 200.0});
    if (i % 20 == 10)
      s.events.retransmissions.push_back(
          {i * 2, ts, rudp::Direction::ClientToServer, uint32_t(i), i * 2 - 10});
    if (i % 10 == 0) s.events.rates.push_back({rudp::Direction::ClientToServer, ts, 20, 2400});
  }
  s.last_ts_ns = c.summary.last_ts_ns = s.events.rtts.back().ts_ns;
  s.connections.push_back(c);
  return s;
}

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

}  // namespace

int main(int argc, char** argv) {
  std::vector<size_t> sizes{10'000, 100'000, 1'000'000};
  if (argc > 1) sizes.clear();
  for (int i = 1; i < argc; ++i) sizes.push_back(std::strtoull(argv[i], nullptr, 10));
  std::printf("%12s %12s %12s\n", "rtt events", "copy ms", "frame ms");
  for (size_t n : sizes) {
    const rudp::LiveSnapshot s = snapshot(n);
    double copyMs = 1e9, frameMs = 1e9;
    for (int run = 0; run < 5; ++run) {
      auto t0 = Clock::now();
      const rudp::LiveSnapshot copy = s;
      auto t1 = Clock::now();
      const rudp::gui::LiveFrame f = rudp::gui::makeLiveFrame(copy, {150, 250, 300});
      auto t2 = Clock::now();
      if (!f.timeline || f.timeline->of(rudp::Direction::ClientToServer).rtt.size() != n) return 1;
      copyMs = std::min(copyMs, ms(t1 - t0));
      frameMs = std::min(frameMs, ms(t2 - t1));
    }
    std::printf("%12zu %12.1f %12.1f\n", n, copyMs, frameMs);
  }
  return 0;
}
