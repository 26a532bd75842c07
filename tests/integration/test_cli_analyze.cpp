// `rudpscope-cli analyze` against the simulator's ground truth.
#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>

#include "process.h"
#include "store/store_reader.h"

using namespace rudp::test;
using nlohmann::json;

namespace {
json readJson(const std::string& path) {
  std::ifstream f(path);
  return json::parse(f);
}

uint64_t capturedIn(const json& dirTruth) {
  uint64_t n = 0;
  for (const auto& p : dirTruth["packets"])
    if (p["frame"].is_number() && p["frame"].get<uint64_t>() != 0) ++n;
  return n;
}
}  // namespace

TEST_CASE("analyze finds every simulated connection with exact per-direction packet counts") {
  TempDir dir("analyze");
  for (const std::string vantage : {"client", "server"}) {
    SECTION(vantage) {
      std::string cap = dir / (vantage + ".pcap"), truth = dir / (vantage + ".json");
      auto sim = run({GRUDP_SIM, "--out", cap, "--truth", truth, "--connections", "4", "--duration", "3",
                      "--seed", "11", "--loss", "0.05", "--vantage", vantage});
      REQUIRE(sim.status == 0);
      json t = readJson(truth);
      auto r = run({RUDPSCOPE_CLI, "analyze", cap, "--db", dir / (vantage + ".sqlite"), "--json"});
      INFO(r.err);
      REQUIRE(r.status == 0);
      json out = json::parse(r.out);
      CHECK(out["capture"]["packets"] == t["frames"]);
      CHECK(out["capture"]["malformed"] == 0);
      CHECK(out["capture"]["dissector_errors"] == 0);
      const auto& conns = out["connections"];
      REQUIRE(conns.size() == t["connections"].size());
      for (const auto& tc : t["connections"]) {
        auto it = std::find_if(conns.begin(), conns.end(),
                               [&](const json& c) { return c["conn_id"] == tc["conn_id"]; });
        REQUIRE(it != conns.end());
        const json& c = *it;
        CHECK(c["protocol"] == "grudp");
        CHECK(c["client"] == tc["client"]);
        CHECK(c["server"] == tc["server"]);
        CHECK(c["roles_from_handshake"] == true);
        for (const char* d : {"client_to_server", "server_to_client"}) {
          INFO(d);
          CHECK(c["directions"][d]["packets"].get<uint64_t>() == capturedIn(tc["directions"][d]));
        }
      }
    }
  }
}

TEST_CASE("analyze of the bundled sample writes a database beside a copy of it") {
  TempDir dir("sample");
  std::string cap = dir / "sample.pcap";
  std::filesystem::copy_file(std::string(RUDPSCOPE_SOURCE_DIR) + "/resources/sample.pcap", cap);
  auto r = run({RUDPSCOPE_CLI, "analyze", cap});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(std::filesystem::exists(cap + ".rudpscope.sqlite"));
  CHECK(r.out.find("grudp") != std::string::npos);
  json t = readJson(std::string(RUDPSCOPE_SOURCE_DIR) + "/resources/sample.truth.json");
  auto j = run({RUDPSCOPE_CLI, "analyze", cap, "--json"});
  REQUIRE(j.status == 0);
  CHECK(json::parse(j.out)["capture"]["packets"] == t["frames"]);
  CHECK(json::parse(j.out)["connections"].size() == t["connections"].size());
}

TEST_CASE("analyze -Y analyses exactly the frames tshark -Y selects, with the same figures as without it") {
  TempDir dir("analyze-filter");
  const std::string cap = dir / "sample.pcap", filter = "ip.addr == 10.0.1.2";
  std::filesystem::copy_file(std::string(RUDPSCOPE_SOURCE_DIR) + "/resources/sample.pcap", cap);
  const auto all = run({RUDPSCOPE_CLI, "analyze", cap, "--db", dir / "all.sqlite", "--json", "-q"});
  const auto some =
      run({RUDPSCOPE_CLI, "analyze", cap, "--db", dir / "some.sqlite", "--json", "-q", "-Y", filter});
  INFO(all.err << some.err);
  REQUIRE(all.status == 0);
  REQUIRE(some.status == 0);
  const auto ts =
      run({TSHARK_EXECUTABLE, "-n", "-r", cap, "-Y", filter, "-T", "fields", "-e", "frame.number"});
  REQUIRE(ts.status == 0);
  const std::vector<std::string> expected = splitLines(ts.out);
  const json a = json::parse(all.out), b = json::parse(some.out);
  const uint64_t frames = a["capture"]["packets"];
  REQUIRE(expected.size() > 1000);
  REQUIRE(expected.size() < frames);
  CHECK(b["capture"]["packets"] == expected.size());
  CHECK(some.err == "rudpscope-cli: -Y \"" + filter + "\": " + std::to_string(expected.size()) +
                        " frames analysed, " + std::to_string(frames - expected.size()) + " left out\n");
  rudp::StoreReader reader(dir / "some.sqlite");
  std::vector<std::string> stored;
  reader.forEachPacket({}, [&](const rudp::PacketRecord& p) { stored.push_back(std::to_string(p.frame)); });
  CHECK(stored == expected);
  CHECK(reader.settings().display_filter == filter);
  // The client's connection, analysed alone, has the figures it has among the others.
  REQUIRE(b["connections"].size() == 1);
  json alone = b["connections"][0], among;
  for (const json& c : a["connections"])
    if (c["client"] == alone["client"]) among = c;
  REQUIRE(among.is_object());
  alone.erase("id");
  among.erase("id");
  CHECK(alone == among);
  // A bad filter: one line, before anything is written.
  const auto bad =
      run({RUDPSCOPE_CLI, "analyze", cap, "--db", dir / "bad.sqlite", "-Y", "ip.addr == 10.0.1"});
  CHECK(bad.status != 0);
  CHECK(bad.err ==
        "rudpscope-cli: -Y \"ip.addr == 10.0.1\": \"10.0.1\" is not a valid IPv4 address (rudpscope does not "
        "resolve host names). (at column 12)\n");
  CHECK_FALSE(std::filesystem::exists(dir / "bad.sqlite"));
}

TEST_CASE("past the open-connection cap connections close early and nothing is lost or split") {
  // 3000 two-packet connections (GRUDP CONNECT/ACCEPT, every fourth a TCP
  // SYN/RST), 50 us apart. With --max-open 100 the flow table closes the
  // longest-silent connections between batches; a connection's two packets
  // are adjacent and batches hold an even number of packets, so none is split.
  TempDir dir("scan");
  const std::string cap = dir / "scan.pcap";
  REQUIRE(run({MAKE_SCAN, cap, "3000"}).status == 0);
  auto capped =
      run({RUDPSCOPE_CLI, "analyze", cap, "--db", dir / "capped.sqlite", "--json", "--max-open", "100"});
  auto open = run({RUDPSCOPE_CLI, "analyze", cap, "--db", dir / "open.sqlite", "--json"});
  INFO(capped.err);
  REQUIRE(capped.status == 0);
  REQUIRE(open.status == 0);
  CHECK(capped.err.find("connections were closed early: more than 100 were open at once") !=
        std::string::npos);
  CHECK(open.err.find("closed early") == std::string::npos);
  json a = json::parse(capped.out), b = json::parse(open.out);
  REQUIRE(a["connections"].size() == 3000);
  for (size_t i = 0; i < 3000; ++i) {
    const json& c = a["connections"][i];
    INFO("connection " << i + 1);
    CHECK(c["id"] == i + 1);
    CHECK(c["protocol"] == (i % 4 == 3 ? "tcp" : "grudp"));
    CHECK(c["directions"]["client_to_server"]["packets"] == 1);
    CHECK(c["directions"]["server_to_client"]["packets"] == 1);
    if (i % 4 != 3) {
      CHECK(c["connect_attempts"] == 1);
      CHECK(c["directions"]["client_to_server"]["lost"] == 0);
    }
  }
  // Closing early changed nothing for connections that were over anyway.
  a.erase("database");
  b.erase("database");
  CHECK(a == b);
}
