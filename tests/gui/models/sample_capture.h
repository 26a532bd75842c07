// The capture the GUI model tests check against: resources/README.md's
// sample command (3 connections, 20 s, 2 % bursty loss, a 1.5 s outage of
// the second connection at 8-9.5 s, client vantage) run through grudp-sim
// with full per-packet truth, then analysed with rudp::ingestCapture into a
// temporary SQLite file. Made once per test process.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "process.h"
#include "store/records.h"

namespace rudp::test {

struct SampleCapture {
  TempDir dir{"gui-models"};
  std::string pcap = dir / "sample.pcap";
  std::string truthPath = dir / "sample.truth.json";
  std::string db = dir / "sample.sqlite";
  nlohmann::json truth;
  CaptureInfo capture;

  // Truth times are ns since simulation start; the GUI shows seconds since
  // the capture's first frame.
  double relativeSeconds(int64_t truthNs) const;
  // The truth's connection whose conn_id is `connId`.
  const nlohmann::json& truthConnection(uint64_t connId) const;
  // The truth's connection of the 1.5 s outage (client 10.0.1.2:40001).
  const nlohmann::json& outageConnection() const;
};

const SampleCapture& sampleCapture();

// "client_to_server" / "server_to_client".
const char* truthDirection(Direction d);

// Seqs of one direction that the truth says never arrived (every copy lost),
// grouped into runs of consecutive seqs: run length -> count. What the
// analysis calls lost seqs and loss bursts.
std::map<uint32_t, uint64_t> truthNeverDeliveredRuns(const nlohmann::json& connection, Direction d);

}  // namespace rudp::test
