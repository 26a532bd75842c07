// End to end through grudp.lua: what `analyze` stores and prints for GRUDP
// equals the simulator's ground truth where the capture point can know it.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "db_compare.h"
#include "process.h"
#include "store/sqlite.h"

using namespace rudp;
using namespace rudp::test;
using nlohmann::json;

namespace {
json readJson(const std::string& path) {
  std::ifstream f(path);
  return json::parse(f);
}

const json& connectionById(const json& out, const json& id) {
  for (const auto& c : out["connections"])
    if (c["conn_id"] == id) return c;
  FAIL("connection " << id << " not found");
  throw;
}
}  // namespace

TEST_CASE("at the client, client-to-server retransmissions, RTT samples and stalls are exact") {
  TempDir dir("truth");
  const std::string cap = dir / "c.pcap", truth = dir / "c.json", db = dir / "c.sqlite";
  REQUIRE(run({GRUDP_SIM, "--out", cap, "--truth", truth, "--connections", "3", "--duration", "10", "--seed",
               "5", "--loss", "0.05", "--burst", "2", "--delay-ms", "60", "--vantage", "client"})
              .status == 0);
  auto r = run({RUDPSCOPE_CLI, "analyze", cap, "--db", db, "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  json out = json::parse(r.out), t = readJson(truth);
  sql::Database store(db, sql::Database::Mode::ReadOnly);

  uint64_t samplesChecked = 0, stallsChecked = 0;
  for (const auto& tc : t["connections"]) {
    const json& c = connectionById(out, tc["conn_id"]);
    CHECK(c["vantage"] == "client");
    const json& truthC2s = tc["directions"]["client_to_server"];
    const json& ours = c["directions"]["client_to_server"];
    const json& retx = truthC2s["summary"]["retransmissions"];
    CHECK(ours["retransmissions"] == retx["total"]);
    CHECK(ours["retransmissions_timeout"] == retx["timeout"]);
    CHECK(ours["retransmissions_fast"] == retx["fast"]);
    CHECK(ours["retransmissions_spurious"] == 0);

    // Every stored RTT sample of client->server data is the true RTT of the
    // ack packet that carried it, within 1 ms.
    std::map<uint64_t, double> trueRtt;  // frame of the ack packet -> RTT
    for (const auto& p : tc["directions"]["server_to_client"]["packets"])
      if (p.contains("ack") && p["ack"].is_object() && p["ack"]["true_rtt_ms"].is_number() &&
          p["frame"].is_number())
        trueRtt[p["frame"].get<uint64_t>()] = p["ack"]["true_rtt_ms"].get<double>();
    sql::Statement st(store, "SELECT frame, rtt_ms FROM rtt_samples WHERE conn = ? AND dir = 0");
    st.bind(1, c["id"].get<int64_t>());
    while (st.step()) {
      auto it = trueRtt.find(static_cast<uint64_t>(st.int64(0)));
      REQUIRE(it != trueRtt.end());
      CHECK(std::abs(st.real(1) - it->second) <= 1.0);
      ++samplesChecked;
    }

    // Every true stall is found with the same boundaries (within one 30 Hz
    // tick), and no other.
    const json& trueStalls = truthC2s["summary"]["stalls"];
    REQUIRE(ours["stalls"].size() == trueStalls.size());
    for (size_t i = 0; i < trueStalls.size(); ++i) {
      const double epoch = t["time_base"]["pcap_epoch_s"].get<double>();
      CHECK(std::abs(ours["stalls"][i]["start"].get<double>() - epoch -
                     trueStalls[i]["start_ns"].get<double>() / 1e9) < 1.0 / 30);
      CHECK(std::abs(ours["stalls"][i]["end"].get<double>() - epoch -
                     trueStalls[i]["end_ns"].get<double>() / 1e9) < 1.0 / 30);
      ++stallsChecked;
    }
  }
  CHECK(samplesChecked > 500);  // the run has hundreds of acks per connection
  CHECK(stallsChecked == 3);    // this seed's truth holds three stalls
}

TEST_CASE("parallel dissection writes exactly what a single thread writes") {
  TempDir dir("lanes");
  const std::string cap = dir / "p.pcap";
  REQUIRE(run({GRUDP_SIM, "--out", cap, "--connections", "12", "--duration", "5", "--seed", "9", "--loss",
               "0.03"})
              .status == 0);
  REQUIRE(run({RUDPSCOPE_CLI, "analyze", cap, "--db", dir / "one.sqlite", "-q", "-j", "1"}).status == 0);
  REQUIRE(run({RUDPSCOPE_CLI, "analyze", cap, "--db", dir / "three.sqlite", "-q", "-j", "3"}).status == 0);
  const auto rows = requireSameTables(dir / "one.sqlite", dir / "three.sqlite");
  CHECK(rows.at("packets") > 1000);
  CHECK(rows.at("retransmissions") > 10);
}
