// Runs grudp-sim's model in memory and replays what its capture saw through
// one ContractAnalyzer per connection. The packets are taken from the sim's
// per-packet truth records of captured frames (header, frame number and
// capture time), which is exactly the pcap's content in frame order.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "analyzers/contract_analyzer.h"
#include "harness.h"
#include "simulator.hpp"

namespace anatest {

struct SimRun {
  grudp_sim::SimConfig cfg;
  std::unique_ptr<grudp_sim::Simulator> sim;
  std::vector<std::unique_ptr<Recorder>> rec;         // per connection
  std::vector<rudp::ana::ConnectionMetrics> metrics;  // per connection
  struct Ref {
    int conn = -1, dir = 0;
    uint32_t idx = 0;
  };
  std::vector<Ref> frames;  // frame number -> truth record
  const grudp_sim::PacketRecord& record(uint64_t frame) const;
  const grudp_sim::DirTruth& truth(int conn, int dir) const;
};

// Simulates `cfg` (the pcap goes to a temporary file) and analyses it.
SimRun runAndAnalyse(const grudp_sim::SimConfig& cfg, const rudp::ana::AnalyzerConfig& acfg);

// The Segment the GRUDP dissector's contract would give for a header.
rudp::Segment toSegment(const grudp_sim::Header& h);

}  // namespace anatest
