// Throughput and memory of the contract analyzer on simulator traffic.
// Run explicitly: analyzer_truth_tests "[bench]"
#include <catch2/catch.hpp>

#include <cstdio>
#include <ctime>

#include "sim_feed.h"

using namespace anatest;
using namespace grudp_sim;

TEST_CASE("contract analyzer throughput and memory", "[.][bench]") {
  SimConfig cfg;
  cfg.connections = 100;
  cfg.duration_s = 60;
  cfg.seed = 42;
  cfg.vantage = grudp_sim::Vantage::Client;
  cfg.c2s.loss = cfg.s2c.loss = 0.05;
  cfg.c2s.burst = cfg.s2c.burst = 2;
  cfg.c2s.delay_ms = cfg.s2c.delay_ms = 80;
  Simulator sim(cfg);
  const RunResult rr = sim.run("/tmp/ana-bench.pcap", true);
  std::remove("/tmp/ana-bench.pcap");
  struct Item {
    uint32_t conn;
    int64_t ns;
    Direction dir;
    rudp::Segment seg;
  };
  std::vector<Item> items(rr.frames);
  for (size_t c = 0; c < sim.truth().size(); ++c)
    for (int d = 0; d < 2; ++d)
      for (const PacketRecord& p : sim.truth()[c].dir[d].packets)
        if (p.frame) items[p.frame - 1] = {uint32_t(c), p.capture_ns, Direction(d), toSegment(p.h)};

  ana::AnalyzerConfig acfg;
  const rudp::Contract contract = grudpContract();
  double best = 1e9;
  size_t peak = 0;
  for (int rep = 0; rep < 3; ++rep) {
    std::vector<std::unique_ptr<ana::ContractAnalyzer>> an;
    for (size_t c = 0; c < sim.truth().size(); ++c)
      an.push_back(std::make_unique<ana::ContractAnalyzer>(contract, acfg, nullptr));
    const std::clock_t c0 = std::clock();  // CPU time: the machine may be busy
    uint64_t f = 0;
    for (const Item& it : items) an[it.conn]->onPacket(++f, it.ns, it.dir, &it.seg, 1, 120);
    for (auto& a : an) a->finish();
    const double s = double(std::clock() - c0) / CLOCKS_PER_SEC;
    best = std::min(best, s);
    size_t mem = 0;
    for (auto& a : an) mem += a->memoryBytes();
    peak = std::max(peak, mem);
  }
  std::printf(
      "analyzer: %zu packets, %zu connections: %.1f ns/packet (%.2f M packets/s); %.1f KiB per connection\n",
      items.size(), sim.truth().size(), best * 1e9 / double(items.size()), double(items.size()) / best / 1e6,
      double(peak) / double(sim.truth().size()) / 1024);
  CHECK(best * 1e9 / double(items.size()) < 1000);  // the 30% of a ~3.3 us ingest per packet
}
