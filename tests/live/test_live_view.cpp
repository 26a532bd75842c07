// ingestLive's LiveView on loopback: what a window shows while capturing is
// published often enough, and ends equal to the database.
#include <catch2/catch.hpp>
#include <chrono>
#include <future>
#include <thread>

#include "analyzers/metrics.h"
#include "process.h"
#include "session/ingest.h"
#include "session/live_view.h"
#include "store/store_reader.h"
#include "udp_traffic.h"

using namespace rudp;
using namespace rudp::test;

namespace {

void requireSameSummary(const ConnectionSummary& live, const ConnectionSummary& stored) {
  CHECK(live.id == stored.id);
  CHECK(live.protocol == stored.protocol);
  CHECK(live.client == stored.client);
  CHECK(live.server == stored.server);
  CHECK(live.first_ts_ns == stored.first_ts_ns);
  CHECK(live.last_ts_ns == stored.last_ts_ns);
  for (int d = 0; d < 2; ++d) {
    CHECK(live.dir[d].packets == stored.dir[d].packets);
    CHECK(live.dir[d].bytes == stored.dir[d].bytes);
    CHECK(live.dir[d].payload_bytes == stored.dir[d].payload_bytes);
  }
}

}  // namespace

TEST_CASE("the live view updates at least 5 times a second and ends equal to the database") {
  TempDir dir("live-view");
  std::atomic<bool> stop{false};
  LiveOptions o;
  o.interface = "lo";
  o.filter = "udp portrange 47110-47111";
  o.output = dir / "view.pcapng";
  o.stop = &stop;
  LiveCapture capture(o);
  LiveView view;
  auto done = std::async(std::launch::async, [&] {
    return ingestLive(capture, dir / "view.sqlite", DissectorOptions{}, IngestOptions{}, ProgressSink{},
                      &view);
  });
  // Two connections, one after the other, 2 s of traffic in all.
  const auto start = std::chrono::steady_clock::now();
  std::thread first([] { sendUdp(47110, 1000, 100, 1000); });
  first.join();
  const uint64_t midway = view.snapshot().generation;
  std::thread second([] { sendUdp(47111, 1000, 100, 1000); });
  second.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const LiveSnapshot before = view.snapshot();
  stop = true;
  const IngestResult r = done.get();
  INFO("publishes: " << before.generation << " in " << seconds << " s");
  CHECK(double(before.generation) / seconds >= 5.0);
  CHECK(midway >= 5);
  CHECK(before.packets == 2000);
  CHECK_FALSE(before.finished);

  const LiveSnapshot after = view.snapshot();
  CHECK(after.finished);
  StoreReader reader(r.db_path);
  const std::vector<ConnectionSummary> stored = reader.connections();
  REQUIRE(stored.size() == 2);
  REQUIRE(after.connections.size() == 2);
  for (size_t i = 0; i < 2; ++i) requireSameSummary(after.connections[i].summary, stored[i]);
  CHECK(after.packets == reader.capture().packet_count);
}

namespace {

void requireSameFigures(const ana::DirectionMetrics& live, const ana::DirectionMetrics& stored) {
  CHECK(live.retransmissions == stored.retransmissions);
  CHECK(live.retransmissions_timeout == stored.retransmissions_timeout);
  CHECK(live.retransmissions_fast == stored.retransmissions_fast);
  CHECK(live.retransmissions_spurious == stored.retransmissions_spurious);
  CHECK(live.retransmissions_inferred == stored.retransmissions_inferred);
  CHECK(live.lost == stored.lost);
  CHECK(live.loss_bursts == stored.loss_bursts);
  CHECK(live.stalls.size() == stored.stalls.size());
  CHECK(live.rtt.samples == stored.rtt.samples);
  CHECK(live.rtt.min == stored.rtt.min);
  CHECK(live.rtt.p50 == stored.rtt.p50);
  CHECK(live.rtt.p95 == stored.rtt.p95);
  CHECK(live.rtt.p99 == stored.rtt.p99);
  CHECK(live.rtt.max == stored.rtt.max);
  CHECK(live.rtt.mean == Approx(stored.rtt.mean).epsilon(1e-12));
  CHECK(live.rtt.share_above == stored.rtt.share_above);
}

}  // namespace

TEST_CASE("the live view's figures of GRUDP endpoints with loss end equal to the stored analysis") {
  TempDir dir("live-view-grudp");
  std::atomic<bool> stop{false};
  LiveOptions o;
  o.interface = "lo";
  o.filter = "udp port 47112";
  o.output = dir / "grudp.pcapng";
  o.stop = &stop;
  LiveCapture capture(o);
  LiveView view;
  auto done = std::async(std::launch::async, [&] {
    return ingestLive(capture, dir / "grudp.sqlite", DissectorOptions{}, IngestOptions{}, ProgressSink{},
                      &view);
  });
  Background server({GRUDP_ENDPOINT, "server", "--port", "47112", "--exit-after-clients", "--loss", "8",
                     "--burst", "2", "--delay-ms", "30", "--seed", "21", "--quiet"});
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  REQUIRE(run({GRUDP_ENDPOINT, "client", "--server", "127.0.0.1:47112", "--clients", "2", "--duration", "3",
               "--loss", "8", "--burst", "2", "--seed", "22", "--quiet"})
              .status == 0);
  REQUIRE(server.wait().status == 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  stop = true;
  const IngestResult r = done.get();

  const LiveSnapshot live = view.snapshot();
  StoreReader reader(r.db_path);
  const std::vector<ConnectionRecord> stored = reader.connectionRecords();
  REQUIRE(stored.size() == 2);
  REQUIRE(live.connections.size() == 2);
  uint64_t retransmissions = 0;
  for (size_t i = 0; i < 2; ++i) {
    requireSameSummary(live.connections[i].summary, stored[i].summary);
    for (size_t d = 0; d < 2; ++d) {
      INFO("connection " << i + 1 << " direction " << d);
      requireSameFigures(live.connections[i].metrics[d], stored[i].metrics.dir[d]);
      retransmissions += stored[i].metrics.dir[d].retransmissions;
    }
  }
  CHECK(retransmissions >= 4);  // the comparison is not between empty figures
}
