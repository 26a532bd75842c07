// The comparison's own figures against the simulator's ground truth: the
// message response time (first copy to the first ack covering it) and the
// loss recovery time (original to its last copy), at the client.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "process.h"

using namespace rudp::test;
using nlohmann::json;

namespace {

constexpr uint32_t kReliable = 0x01, kAck = 0x08;

json readJson(const std::string& path) {
  std::ifstream f(path);
  return json::parse(f);
}

// Nearest rank, as the analysis' Percentiles: the smallest sample with at
// least q*n samples at or below it.
double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size())));
  return v[std::max<size_t>(rank, 1) - 1];
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

// Does an ack (highest seq, bitmap of the 32 before it) cover `seq`?
bool covers(uint32_t ack, uint32_t bits, uint32_t seq) {
  const uint32_t behind = ack - seq;  // wraps as the protocol's seqs do
  return behind == 0 || (behind <= 32 && (bits >> (behind - 1)) & 1u);
}

struct Truth {
  std::vector<double> response_ms, recovery_ms;
};

// From the simulator's per-packet truth of one connection (capture at the
// client): every reliable client packet's first copy, the first captured
// server packet whose ack covers it, and the last copy of a lost one.
Truth truthOf(const json& conn) {
  struct Copies {
    int64_t first_ns = -1, last_ns = -1;
    int copies = 0;
    bool firstLost = false;
  };
  std::map<uint32_t, Copies> sent;  // seq -> copies, reliable only
  for (const auto& p : conn["directions"]["client_to_server"]["packets"]) {
    if (!(p["flags"].get<uint32_t>() & kReliable) || !p.contains("frame")) continue;
    Copies& c = sent[p["seq"].get<uint32_t>()];
    const int64_t ns = p["capture_ns"].get<int64_t>();
    if (c.copies++ == 0) c.first_ns = ns, c.firstLost = p["lost"].get<bool>();
    c.last_ns = ns;
  }
  std::vector<std::pair<int64_t, std::pair<uint32_t, uint32_t>>> acks;  // capture time, (ack, bits)
  for (const auto& p : conn["directions"]["server_to_client"]["packets"])
    if ((p["flags"].get<uint32_t>() & kAck) && p.contains("frame") && !p["lost"].get<bool>())
      acks.push_back({p["capture_ns"].get<int64_t>(),
                      {p["ack"]["ack"].get<uint32_t>(), p["ack"]["ack_bits"].get<uint32_t>()}});
  std::sort(acks.begin(), acks.end());
  Truth t;
  for (const auto& [seq, c] : sent) {
    for (const auto& [ns, a] : acks)
      if (ns >= c.first_ns && covers(a.first, a.second, seq)) {
        t.response_ms.push_back(static_cast<double>(ns - c.first_ns) / 1e6);
        break;
      }
    if (c.copies > 1 && c.firstLost)
      t.recovery_ms.push_back(static_cast<double>(c.last_ns - c.first_ns) / 1e6);
  }
  return t;
}

void requireDistribution(const json& ours, const std::vector<double>& truth) {
  INFO("ours: " << ours.dump());
  REQUIRE(ours["count"] == truth.size());
  REQUIRE(!truth.empty());
  CHECK(ours["mean"].get<double>() == Approx(mean(truth)).epsilon(1e-9));
  CHECK(ours["p50"].get<double>() == Approx(quantile(truth, 0.50)).margin(1e-6));
  CHECK(ours["p95"].get<double>() == Approx(quantile(truth, 0.95)).margin(1e-6));
  CHECK(ours["p99"].get<double>() == Approx(quantile(truth, 0.99)).margin(1e-6));
  CHECK(ours["max"].get<double>() == Approx(*std::max_element(truth.begin(), truth.end())).margin(1e-6));
}

}  // namespace

TEST_CASE("response time and loss recovery at the client equal the simulator's truth") {
  TempDir dir("cmp-truth");
  const std::string cap = dir / "grudp_loss8.pcap", truth = dir / "t.json";
  REQUIRE(run({GRUDP_SIM,    "--out",      cap,      "--truth",   truth,    "--connections", "1",
               "--duration", "30",         "--seed", "11",        "--loss", "0.08",          "--burst",
               "2",          "--delay-ms", "40",     "--vantage", "client", "--nsec"})
              .status == 0);
  const auto r = run({RUDPSCOPE_CLI, "compare", cap, "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const json out = json::parse(r.out);
  const json& c2s = out["connections"][0];
  REQUIRE(c2s["dir"] == "c2s");
  const Truth t = truthOf(readJson(truth)["connections"][0]);
  SECTION("response time: every reliable message, the repaired ones in full") {
    requireDistribution(c2s["response_ms"], t.response_ms);
    // The repaired messages make the tail: more than RTT samples alone show.
    CHECK(c2s["response_ms"]["max"].get<double>() > c2s["rtt_ms"]["max"].get<double>());
    const double over = static_cast<double>(
        std::count_if(t.response_ms.begin(), t.response_ms.end(), [](double v) { return v > 150.0; }));
    CHECK(c2s["share_over_150"].get<double>() ==
          Approx(100.0 * over / static_cast<double>(t.response_ms.size())).epsilon(1e-12));
  }
  SECTION("loss recovery: from the lost original to the copy that got through") {
    requireDistribution(c2s["loss_recovery_ms"], t.recovery_ms);
  }
}
