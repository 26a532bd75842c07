// A capture set (simulated GRUDP at loss 1, 5 and 10 % and two RTO floors, and a
// real Linux TCP capture): the matrix has one point per capture, at its
// labels, and each value is what `analyze --json` says of that capture.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_checks.h"
#include "process.h"
#include "store/sqlite.h"

using namespace rudp::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

void simulate(const std::string& path, const std::string& loss, const std::string& rtoMs) {
  const auto r = run({GRUDP_SIM, "--out", path, "--connections", "1", "--duration", "20", "--seed", "21",
                      "--loss", loss, "--delay-ms", "30", "--rto-min-ms", rtoMs, "--vantage", "client"});
  REQUIRE(r.status == 0);
}

// What `analyze --json` says of the busiest connection's client-to-server direction.
json analysedDirection(const std::string& capture, const std::string& db) {
  const auto r = run({RUDPSCOPE_CLI, "analyze", capture, "--db", db, "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const json out = json::parse(r.out);
  const json* best = nullptr;
  for (const auto& c : out["connections"]) {
    const json& d = c["directions"]["client_to_server"];
    if (!best || d["data_packets"].get<uint64_t>() > (*best)["data_packets"].get<uint64_t>()) best = &d;
  }
  REQUIRE(best);
  return *best;
}

struct CaptureSet {
  TempDir dir{"cmp-set"};
  std::string folder = dir / "set";
  CaptureSet() {
    fs::create_directories(folder);
    simulate(folder + "/grudp_loss1_rto50.pcap", "0.01", "50");
    simulate(folder + "/grudp_loss5_rto50.pcap", "0.05", "50");
    simulate(folder + "/grudp_loss1_rto200.pcap", "0.01", "200");
    simulate(folder + "/grudp_loss5_rto200.pcap", "0.05", "200");
    simulate(folder + "/grudp_loss10_rto200.pcap", "0.10", "200");
    // Real Linux TCP at 5 % loss (tests/netns), labelled by a sidecar.
    fs::copy_file(std::string(NETNS_DATA_DIR) + "/loss5-nodelay/client.pcap", folder + "/tcp.pcap");
    std::ofstream(folder + "/tcp.pcap.labels")
        << "# the namespace lab's run\nstack=tcp-cubic loss=5\nrto=200\n";
  }
};

const json* pointOf(const json& matrix, const std::string& capture) {
  for (const auto& p : matrix["panels"])
    for (const auto& l : p["lines"])
      for (const auto& pt : l["points"])
        if (fs::path(pt["capture"].get<std::string>()).filename() == capture) return &pt;
  return nullptr;
}

}  // namespace

TEST_CASE("a capture set's matrix: one point per capture, each equal to its capture's analysis") {
  CaptureSet set;
  const auto r = run({RUDPSCOPE_CLI, "compare", set.folder, "--json", "--metric", "share_over_300", "--x",
                      "loss", "--group", "stack", "--panel", "rto"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
  const json out = json::parse(r.out);
  const json& m = out["matrix"];
  REQUIRE(m["skipped"].empty());
  REQUIRE(m["panels"].size() == 2);
  CHECK(m["panels"][0]["panel"] == "50");
  CHECK(m["panels"][1]["panel"] == "200");
  CHECK(m["panels"][0]["lines"].size() == 1);  // grudp only
  REQUIRE(m["panels"][1]["lines"].size() == 2);
  CHECK(m["panels"][1]["lines"][0]["group"] == "grudp");
  CHECK(m["panels"][1]["lines"][1]["group"] == "tcp-cubic");
  size_t points = 0;
  for (const auto& p : m["panels"])
    for (const auto& l : p["lines"]) points += l["points"].size();
  CHECK(points == 6);

  const std::pair<const char*, double> expectedX[] = {
      {"grudp_loss1_rto50.pcap", 1},  {"grudp_loss5_rto50.pcap", 5},    {"grudp_loss1_rto200.pcap", 1},
      {"grudp_loss5_rto200.pcap", 5}, {"grudp_loss10_rto200.pcap", 10}, {"tcp.pcap", 5}};
  for (const auto& [name, x] : expectedX) {
    INFO(name);
    const json* pt = pointOf(m, name);
    REQUIRE(pt);
    CHECK((*pt)["x"].get<double>() == x);
    const json ours = analysedDirection(set.folder + "/" + name, set.dir / (std::string(name) + ".sqlite"));
    const double share = ours["response_ms"]["share_above"]["300"].get<double>();
    CHECK((*pt)["y"].get<double>() == Approx(100.0 * share).epsilon(1e-12));
  }
  // The TCP capture's loss repairs were timeouts and fast retransmissions,
  // exactly as its analysis counted them.
  for (const auto& c : out["connections"]) {
    if (fs::path(c["capture"].get<std::string>()).filename() != "tcp.pcap" || c["dir"] != "c2s") continue;
    const json ours = analysedDirection(set.folder + "/tcp.pcap", set.dir / "tcp2.sqlite");
    CHECK(c["retx_fast"] == ours["retransmissions_fast"]);
    CHECK(c["retx_timeout"] == ours["retransmissions_timeout"]);
    CHECK(c["labels"] == json({{"stack", "tcp-cubic"}, {"loss", "5"}, {"rto", "200"}}));
    // Goodput's bytes, from the packets as decode prints them: every TCP
    // payload byte the client sent, and those of the copies the database
    // lists as retransmissions.
    const auto dec = run({RUDPSCOPE_CLI, "decode", set.folder + "/tcp.pcap", "-e", "frame.number", "-e",
                          "ip.src", "-e", "tcp.srcport", "-e", "tcp.len"});
    REQUIRE(dec.status == 0);
    std::map<uint64_t, uint64_t> clientLen;  // frame -> TCP payload
    const std::string client = c["client"].get<std::string>();
    for (const auto& line : splitLines(dec.out)) {
      std::istringstream f(line);
      std::string frame, ip, port, len;
      std::getline(f, frame, '\t'), std::getline(f, ip, '\t'), std::getline(f, port, '\t'),
          std::getline(f, len);
      if (ip + ":" + port == client && !len.empty()) clientLen[std::stoull(frame)] = std::stoull(len);
    }
    uint64_t all = 0, retransmitted = 0;
    for (const auto& [frame, len] : clientLen) all += len;
    rudp::sql::Database db(set.folder + "/tcp.pcap.rudpscope.sqlite", rudp::sql::Database::Mode::ReadOnly);
    rudp::sql::Statement st(db, "SELECT frame FROM retransmissions WHERE conn = ? AND dir = 0");
    st.bind(1, c["conn"].get<int64_t>());
    while (st.step()) retransmitted += clientLen.at(static_cast<uint64_t>(st.int64(0)));
    CHECK(c["payload_bytes"] == all);
    CHECK(c["retransmitted_payload_bytes"] == retransmitted);
    CHECK(retransmitted > 0);  // the capture has retransmissions: the subtraction is exercised
    CHECK(c["goodput"].get<double>() ==
          Approx(double(all - retransmitted) * 8 / c["duration_s"].get<double>() / 1000).epsilon(1e-12));
  }
}

TEST_CASE("compare's second run reuses every database and prints the same") {
  CaptureSet set;
  const auto first = run({RUDPSCOPE_CLI, "compare", set.folder, "--csv", "--panel", "rto"});
  REQUIRE(first.status == 0);
  const auto second = run({RUDPSCOPE_CLI, "compare", set.folder, "--json", "--panel", "rto"});
  REQUIRE(second.status == 0);
  const json secondOut = json::parse(second.out);  // held: a range-for over a temporary's member dangles
  REQUIRE(secondOut["captures"].size() == 6);
  for (const auto& c : secondOut["captures"]) CHECK(c["reused"] == true);
  const auto third = run({RUDPSCOPE_CLI, "compare", set.folder, "--csv", "--panel", "rto"});
  CHECK(third.out == first.out);
  // CSV: a header, one line per connection direction, a blank line, the matrix.
  std::istringstream lines(first.out);
  std::string line;
  std::getline(lines, line);
  CHECK(line.rfind("capture,loss,rto,stack,conn,protocol,client,server,dir,response_mean,", 0) == 0);
  size_t rows = 0;
  while (std::getline(lines, line) && !line.empty()) ++rows;
  CHECK(rows == secondOut["connections"].size());
  std::getline(lines, line);
  CHECK(line == "panel:rto,group:stack,x:loss,share_over_300,capture,conn");
  size_t points = 0;
  while (std::getline(lines, line)) ++points;
  CHECK(points == 6);
}

TEST_CASE("compare's errors are one line") {
  TempDir dir("cmp-err");
  SECTION("a missing path") {
    requireOneLineError(run({RUDPSCOPE_CLI, "compare", dir / "nothing"}), "no such file or folder: ");
  }
  SECTION("a folder without captures") {
    requireOneLineError(run({RUDPSCOPE_CLI, "compare", dir.path.string()}), "holds no capture");
  }
  SECTION("an unknown metric names the valid ones") {
    simulate(dir / "grudp_loss1.pcap", "0.01", "200");
    requireOneLineError(run({RUDPSCOPE_CLI, "compare", dir / "grudp_loss1.pcap", "--metric", "speed"}),
                        "no metric 'speed'; the metrics are: response_mean, ");
  }
  SECTION("a bad label and a bad sidecar") {
    simulate(dir / "grudp_loss1.pcap", "0.01", "200");
    requireOneLineError(run({RUDPSCOPE_CLI, "compare", dir / "grudp_loss1.pcap", "--label", "loss"}),
                        "a label is KEY=VALUE, not 'loss'");
    std::ofstream(dir / "grudp_loss1.pcap.labels") << "stack=x oops\n";
    requireOneLineError(run({RUDPSCOPE_CLI, "compare", dir / "grudp_loss1.pcap"}),
                        "grudp_loss1.pcap.labels: a label is KEY=VALUE, not 'oops'");
  }
  SECTION("a capture without the matrix's label is left out, and said so") {
    simulate(dir / "game.pcap", "0.01", "200");
    const auto r = run({RUDPSCOPE_CLI, "compare", dir / "game.pcap"});
    REQUIRE(r.status == 0);
    CHECK(r.out.find("left out: " + (dir / "game.pcap") + ": no label 'loss'") != std::string::npos);
  }
}

TEST_CASE("compare --html writes the table, the loss bursts and the matrix chart with a point per capture") {
  CaptureSet set;
  const std::string page = set.dir / "cmp.html";
  const auto r = run({RUDPSCOPE_CLI, "compare", set.folder, "--json", "--panel", "rto", "--html", page});
  REQUIRE(r.status == 0);
  const json m = json::parse(r.out)["matrix"];
  std::ifstream f(page);
  const std::string html((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  CHECK(html.find("<th>[6]</th>") != std::string::npos);  // loss-burst columns, one per capture
  CHECK(html.find("<th>[7]</th>") == std::string::npos);
  // Every point is a circle titled with its capture; a larger value sits higher.
  std::map<std::string, double> cy;
  for (size_t at = html.find("<circle"); at != std::string::npos; at = html.find("<circle", at + 1)) {
    const size_t end = html.find("</circle>", at);
    const std::string el = html.substr(at, end - at);
    const size_t c = el.find("cy=\"") + 4;
    const size_t t = el.find("<title>") + 7;
    cy[el.substr(t, el.find("</title>") - t)] = std::stod(el.substr(c, el.find('"', c) - c));
  }
  REQUIRE(cy.size() == 6);
  std::vector<std::pair<double, double>> valueAndY;
  for (const auto& p : m["panels"])
    for (const auto& l : p["lines"])
      for (const auto& pt : l["points"]) {
        REQUIRE(cy.count(pt["capture"].get<std::string>()) == 1);
        valueAndY.emplace_back(pt["y"].get<double>(), cy[pt["capture"].get<std::string>()]);
      }
  for (const auto& [v1, y1] : valueAndY)
    for (const auto& [v2, y2] : valueAndY) {
      if (v1 == v2) CHECK(y1 == y2);
      if (v1 > v2) CHECK(y1 < y2);
    }
}

TEST_CASE("a direction captured at its receiver has no round-trip figures, and says why once") {
  TempDir dir("cmp-recv");
  simulate(dir / "grudp_loss1.pcap", "0.01", "200");
  simulate(dir / "grudp_loss5.pcap", "0.05", "200");
  const auto r = run({RUDPSCOPE_CLI, "compare", dir / "grudp_loss1.pcap", dir / "grudp_loss5.pcap", "--json",
                      "--direction", "s2c", "--panel", ""});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const std::string why =
      "s2c of 2 of 2 captures (" + (dir / "grudp_loss1.pcap") + ", " + (dir / "grudp_loss5.pcap") +
      ") was captured at the receiver of its data (the client), where a round trip is only"
      " the receiver's ack delay and a lost original never arrives: RTT, response time"
      " and loss recovery are not shown; capture at the server to compare them";
  CHECK(r.err == "rudpscope-cli: warning: " + why + "\n");
  const json out = json::parse(r.out);
  CHECK(out["warnings"] == json::array({why}));
  size_t s2c = 0;
  for (const auto& c : out["connections"]) {
    const bool receiver = c["dir"] == "s2c";
    s2c += receiver;
    for (const char* key : {"response_mean", "response_p99", "share_over_300", "rtt_mean", "recovery_mean"}) {
      INFO(c["dir"] << " " << key);
      CHECK(c[key].is_null() == receiver);
    }
    CHECK(c["retransmissions"].is_number());  // counts stay
  }
  CHECK(s2c == 2);
  for (const auto& p : out["matrix"]["panels"])
    for (const auto& l : p["lines"])
      for (const auto& pt : l["points"]) CHECK(pt["y"].is_null());
  // The client's own data, read at its sender: measured, and nothing to warn about.
  const auto c2s = run({RUDPSCOPE_CLI, "compare", dir / "grudp_loss1.pcap", "--json"});
  REQUIRE(c2s.status == 0);
  CHECK(c2s.err.empty());
  CHECK(json::parse(c2s.out)["warnings"].empty());
}

TEST_CASE(
    "a share over a limit the analysis did not count is left out with why, and --genre sets the limits") {
  TempDir dir("cmp-limits");
  simulate(dir / "grudp_loss5.pcap", "0.05", "200");
  const std::string cap = dir / "grudp_loss5.pcap";
  const auto r = run({RUDPSCOPE_CLI, "compare", cap, "--json", "--metric", "share_over_100", "--panel", ""});
  REQUIRE(r.status == 0);
  const json m = json::parse(r.out)["matrix"];
  CHECK(m["panels"].empty());
  CHECK(m["skipped"] ==
        json::array({cap + ": analysed with response limits 150, 250, 300 ms, not 100 (analyse"
                           " it again with --rtt-limits including 100)"}));

  // The fps genre counts 50, 100 and 150 ms: the point is there, equal to analyze's share.
  const auto fps = run({RUDPSCOPE_CLI, "compare", cap, "--json", "--metric", "share_over_100", "--panel", "",
                        "--genre", "fps", "-q"});
  INFO(fps.err);
  REQUIRE(fps.status == 0);
  const json f = json::parse(fps.out)["matrix"];
  CHECK(f["skipped"].empty());
  REQUIRE(f["panels"].size() == 1);
  const json& pt = f["panels"][0]["lines"][0]["points"][0];
  const auto ana =
      run({RUDPSCOPE_CLI, "analyze", cap, "--db", dir / "fps.sqlite", "--json", "--genre", "fps"});
  REQUIRE(ana.status == 0);
  const json analysed = json::parse(ana.out);  // held: d refers into it
  const json& d = analysed["connections"][0]["directions"]["client_to_server"];
  const double share = d["response_ms"]["share_above"]["100"].get<double>();
  CHECK(share > 0.0);  // 5 % loss with a 200 ms RTO floor: repaired messages take longer than 100 ms
  CHECK(pt["y"].get<double>() == Approx(100.0 * share).epsilon(1e-12));

  // Each capture has its own database: compare takes no --db.
  const auto db = run({RUDPSCOPE_CLI, "compare", cap, "--db", dir / "one.sqlite"});
  CHECK(db.status != 0);
  CHECK(db.err.find("--db") != std::string::npos);
}
