#include "sample_capture.h"

#include <catch2/catch.hpp>
#include <fstream>

#include "session/ingest.h"

namespace rudp::test {

namespace {
std::unique_ptr<SampleCapture> make() {
  auto s = std::make_unique<SampleCapture>();
  const ProcessResult sim =
      run({GRUDP_SIM,    "--out",      s->pcap,     "--truth",     s->truthPath, "--connections", "3",
           "--duration", "20",         "--seed",    "1",           "--loss",     "0.02",          "--burst",
           "3",          "--delay-ms", "40",        "--jitter-ms", "5",          "--reorder",     "0.01",
           "--outage",   "8:9.5@1",    "--vantage", "client"});
  INFO(sim.err);
  REQUIRE(sim.status == 0);
  std::ifstream f(s->truthPath);
  s->truth = nlohmann::json::parse(f);
  s->capture = ingestCapture(s->pcap, s->db, DissectorOptions{}).capture;
  return s;
}
}  // namespace

const SampleCapture& sampleCapture() {
  static const std::unique_ptr<SampleCapture> sample = make();
  return *sample;
}

double SampleCapture::relativeSeconds(int64_t truthNs) const {
  const auto epochNs = static_cast<int64_t>(truth["time_base"]["pcap_epoch_s"].get<double>() * 1e9);
  return static_cast<double>(epochNs + truthNs - capture.first_ts_ns) / 1e9;
}

const nlohmann::json& SampleCapture::truthConnection(uint64_t connId) const {
  for (const auto& c : truth["connections"])
    if (c["conn_id"].get<uint64_t>() == connId) return c;
  FAIL("no truth connection with conn_id " << connId);
  throw;
}

const nlohmann::json& SampleCapture::outageConnection() const {
  for (const auto& c : truth["connections"])
    if (c["client"] == "10.0.1.2:40001") return c;
  FAIL("no outage connection in the truth");
  throw;
}

const char* truthDirection(Direction d) {
  return d == Direction::ClientToServer ? "client_to_server" : "server_to_client";
}

std::map<uint32_t, uint64_t> truthNeverDeliveredRuns(const nlohmann::json& connection, Direction d) {
  const uint32_t initial =
      connection[d == Direction::ClientToServer ? "client_initial_seq" : "server_initial_seq"];
  std::map<uint32_t, bool> delivered;  // seq offset from the initial seq (wraps) -> any copy arrived
  for (const auto& p : connection["directions"][truthDirection(d)]["packets"]) {
    if (p["type"] == "ACK") continue;  // a pure ACK takes no seq
    const uint32_t offset = p["seq"].get<uint32_t>() - initial;
    delivered[offset] = delivered[offset] || !p["lost"].get<bool>();
  }
  std::map<uint32_t, uint64_t> runs;
  uint32_t run = 0;
  for (auto it = delivered.begin(); it != delivered.end(); ++it) {
    const bool lost = !it->second;
    const auto next = std::next(it);
    run = lost ? run + 1 : 0;
    const bool runEnds = next == delivered.end() || next->first != it->first + 1 || next->second;
    if (lost && runEnds) {
      ++runs[run];
      run = 0;
    }
  }
  return runs;
}

}  // namespace rudp::test
