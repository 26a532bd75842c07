// Captures the widget tests check against: grudp-sim's model (rudp_sim, in
// process, with per-packet truth) writes a pcap, rudp::ingestCapture
// analyses it into a temporary SQLite file, and the timeline data of a
// connection is loaded from it as the GUI loads it.
#pragma once
#include <QTemporaryDir>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "config.hpp"
#include "truth.hpp"
#include "widgets/timeline_data.h"

namespace rudp::test {

struct SimCapture {
  QTemporaryDir dir;
  std::string pcap, db;
  grudp_sim::SimConfig config;
  std::vector<grudp_sim::ConnTruth> truth;

  // Capture time (ns, as stored) of a truth time (ns since simulation start).
  int64_t captureNs(int64_t truthNs) const { return config.epoch_s * 1'000'000'000 + truthNs; }
  // The database id of the truth's connection `index`.
  int64_t connOf(size_t index) const;
  std::shared_ptr<const gui::TimelineData> timeline(int64_t conn) const;
};

// Simulates `config` (nanosecond timestamps forced) and analyses it; `edit`,
// when given, writes the analysed capture from the simulated one.
using CaptureEdit = std::function<void(const std::string& simulated, const std::string& edited)>;
std::unique_ptr<SimCapture> makeSimCapture(grudp_sim::SimConfig config, const std::string& name,
                                           const CaptureEdit& edit = {});

// The widget tests' capture, made once per process: 2 connections, 12 s,
// 3 % bursty loss (mean run 2) both ways, 40 ms +- 5 ms, 1 % reordering, an
// outage of connection 1 from 4 to 5.5 s, client vantage.
const SimCapture& mainCapture();
grudp_sim::SimConfig mainConfig();

// Folder for the PNGs the tests render (created).
std::string artifactPath(const std::string& file);

}  // namespace rudp::test
