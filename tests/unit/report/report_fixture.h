// Real captures for the report tests: made by grudp-sim, analysed by the
// real pipeline (rudp::ingestCapture) into a real SQLite file.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "process.h"
#include "session/ingest.h"
#include "store/records.h"

namespace rudp::test {

struct AnalysedCapture {
  explicit AnalysedCapture(const std::string& tag) : dir(tag) {}
  TempDir dir;
  std::string pcap, db;
  nlohmann::json truth;  // null when the capture has none
  CaptureInfo info;

  // Truth time (ns since simulation start) in seconds since the capture's
  // first packet, the clock the report's texts and axes use.
  double secondsSinceCaptureStart(int64_t truthNs) const;
  // The database id of the truth's connection `index` (matched by client).
  int64_t connectionId(size_t index) const;
};

// grudp-sim with `simArgs` (plus --out and --truth), then ingest.
AnalysedCapture simulateAndAnalyse(const std::string& tag, const std::vector<std::string>& simArgs,
                                   const IngestOptions& options = {},
                                   const DissectorOptions& dissectors = {});
// The committed sample (resources/sample.pcap and its truth), analysed.
AnalysedCapture analysedSample(const IngestOptions& options = {});

// The sample's simulator arguments (resources/README.md) without the output options.
std::vector<std::string> sampleSimArgs();

// Runs report_facts.py on an HTML report and returns what it found; fails
// the test when the page is not well-formed XML.
nlohmann::json reportFacts(const std::string& htmlPath);

}  // namespace rudp::test
