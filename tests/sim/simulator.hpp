// The GRUDP traffic simulator: N client<->server connections driven by a
// discrete-event loop, written to a pcap as seen from one vantage point.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config.hpp"
#include "truth.hpp"

namespace grudp_sim {

struct RunResult {
  uint64_t frames = 0;  // frames written to the pcap
  uint64_t sent = 0;    // datagrams sent by all endpoints (incl. lost ones)
  int64_t end_ns = 0;   // simulation time of the last processed event
  bool hit_packet_limit = false;
};

class Simulator {
 public:
  explicit Simulator(SimConfig cfg);
  ~Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  // Runs the whole simulation once, streaming frames to `pcap_path`.
  // `keep_packets` keeps per-packet truth records (memory grows with the run).
  RunResult run(const std::string& pcap_path, bool keep_packets);

  const std::vector<ConnTruth>& truth() const;
  nlohmann::json truth_json(bool with_packets) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace grudp_sim
