// rudpscope-cli lab, run for real: a small experiment (GRUDP and Linux TCP
// cubic, loss 2 and 8 %, one-way delay 40 ms, 10 s each) in network
// namespaces, with every cell's counters check passing and a matrix of one
// point per capture equal to `rudpscope-cli analyze --json` of that capture;
// one cell of each other stack (TCP BBR, ENet, KCP) with its counters checks;
// and the one line it prints without root.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "process.h"

namespace fs = std::filesystem;
using nlohmann::json;
using rudp::test::run;
using rudp::test::splitLines;

namespace {

json readJson(const fs::path& p) {
  std::ifstream in(p);
  INFO("reading " << p);
  REQUIRE(in.good());
  return json::parse(in);
}

std::string readText(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// `analyze --json` of a capture into a database of its own, and the busiest
// connection's client->server figures (the matrix's rule: most data packets).
json analyzedClientToServer(const std::string& capture, const fs::path& scratch) {
  const auto r =
      run({RUDPSCOPE_CLI, "analyze", capture, "--db", (scratch / "a.sqlite").string(), "--json", "-q"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  fs::remove(scratch / "a.sqlite");
  const json a = json::parse(r.out);
  json best;
  for (const auto& c : a.at("connections")) {
    const json& d = c.at("directions").at("client_to_server");
    if (best.is_null() || d.at("data_packets").get<uint64_t>() > best.at("data_packets").get<uint64_t>())
      best = d;
  }
  REQUIRE_FALSE(best.is_null());
  return best;
}

struct Cell {
  std::string stack;
  int loss;
};
const Cell kCells[] = {{"grudp", 2}, {"grudp", 8}, {"tcp-cubic", 2}, {"tcp-cubic", 8}};
constexpr int kDelay = 40;

// This machine's kernel has no netem (the lab's notes); a kernel with it gets the other ending.
const std::string kImpairment =
    std::string(
        "impairment: loss by nftables (numgen random drop on the router's output, each way), one-way"
        " delay by delay_relay (every frame held in the router namespace); ") +
    (std::filesystem::exists("/sys/module/sch_netem")
         ? "netem is there but not used: the relay's delay is the same on every kernel"
         : "this kernel has no netem");

std::string cellName(const Cell& c) {
  return c.stack + "_loss" + std::to_string(c.loss) + "_delay" + std::to_string(kDelay);
}

// ctest's SKIP_RETURN_CODE: lab creates network namespaces.
void skipWithoutRoot() {
  if (geteuid() == 0) return;
  std::cout << "SKIPPED: rudpscope-cli lab needs root (network namespaces)" << std::endl;
  std::exit(77);
}

}  // namespace

TEST_CASE(
    "a small lab run: counters checks pass and the matrix has one point per capture, equal to analyze") {
  skipWithoutRoot();
  const fs::path out = fs::path(LAB_RUN_DIR) / "small";
  fs::remove_all(out);
  const auto r =
      run({RUDPSCOPE_CLI, "lab", "--stacks", "grudp,tcp-cubic", "--loss", "2,8", "--delay",
           std::to_string(kDelay), "--seconds", "10", "-o", out.string(), "--metric", "retransmissions"});
  std::cout << r.out << r.err;
  REQUIRE(r.status == 0);

  // How the path is impaired, one line per cell in stack x loss x delay
  // order, then the summary.
  auto lines = splitLines(r.out);
  REQUIRE(lines.size() == 7);
  CHECK(lines[0] == kImpairment);
  lines.erase(lines.begin());
  for (size_t i = 0; i < 4; ++i) {
    const std::regex line("^" + kCells[i].stack + " +loss +" + std::to_string(kCells[i].loss) + "%  delay +" +
                          std::to_string(kDelay) + " ms  PASS  path rtt [0-9.]+ ms \\(asked 2x40\\) .*");
    CHECK(std::regex_match(lines[i], line));
  }
  CHECK(lines[4].rfind("matrix: " + (out / "matrix.csv").string() + " (retransmissions against loss", 0) ==
        0);
  CHECK(lines[5] == "4 cells: 4 passed, 0 failed, 0 skipped");

  std::map<std::string, json> c2sOf;  // capture -> analyze's client->server figures
  for (const Cell& c : kCells) {
    const std::string capture = (out / (cellName(c) + ".pcapng")).string();
    INFO(capture);
    CHECK(readText(capture + ".labels") ==
          "stack=" + c.stack + " loss=" + std::to_string(c.loss) + " delay=" + std::to_string(kDelay) + "\n");
    const json result = readJson(out / (cellName(c) + ".json"));
    CHECK(result.at("result") == "PASS");
    CHECK(result.at("failures").empty());
    // The exact counter check of the sender's direction is among them and held.
    const std::string key = c.stack == "grudp" ? "c2s retransmissions = client retransmissions"
                                               : "c2s retransmissions = client TcpRetransSegs";
    int found = 0;
    for (const auto& k : result.at("checks"))
      if (k.at("what") == key) {
        ++found;
        CHECK(k.at("ok") == true);
        CHECK(k.at("analysis") == k.at("counter"));
      }
    CHECK(found == 1);
    // The relay's delay is in the capture: the path's RTT (TCP: the
    // handshake; GRUDP: the smallest RTT sample) within 2 ms above 2 x 40 ms.
    const double pathRtt = result.at("figures").at("path_rtt_ms").get<double>();
    CHECK(pathRtt >= 2.0 * kDelay);
    CHECK(pathRtt <= 2.0 * kDelay + 2.0);
    c2sOf[capture] = analyzedClientToServer(capture, out);
    CHECK(c2sOf[capture].at("rtt_ms").at("min") == result.at("figures").at("c2s_rtt_min_ms"));
  }

  // matrix.json: one panel (delay 40), one line per stack, one point per capture at x = loss.
  const json m = readJson(out / "matrix.json");
  CHECK(m.at("metric") == "retransmissions");
  CHECK(m.at("skipped").empty());
  REQUIRE(m.at("panels").size() == 1);
  CHECK(m.at("panels")[0].at("panel") == std::to_string(kDelay));
  const json& lines2 = m.at("panels")[0].at("lines");
  REQUIRE(lines2.size() == 2);
  size_t points = 0;
  for (const auto& line : lines2) {
    const std::string stack = line.at("group");
    REQUIRE(line.at("points").size() == 2);
    for (size_t i = 0; i < 2; ++i) {
      const json& p = line.at("points")[i];
      const Cell c{stack, i == 0 ? 2 : 8};
      const std::string capture = (out / (cellName(c) + ".pcapng")).string();
      INFO(stack << " point " << i << ": " << p.dump());
      CHECK(p.at("x") == c.loss);
      CHECK(p.at("capture") == capture);
      REQUIRE(c2sOf.count(capture) == 1);
      CHECK(p.at("y") == c2sOf[capture].at("retransmissions"));
      ++points;
    }
  }
  CHECK(points == 4);
  // matrix.csv holds the same four points (and its header).
  CHECK(splitLines(readText(out / "matrix.csv")).size() == 5);
}

TEST_CASE(
    "a small lab run of the other stacks, one cell each (tcp-bbr, enet, kcp): every counters check passes") {
  skipWithoutRoot();
  const fs::path out = fs::path(LAB_RUN_DIR) / "others";
  fs::remove_all(out);
  // Captured as the README sets capture up for users: through dumpcap.
  const auto r =
      run({RUDPSCOPE_CLI, "lab", "--stacks", "tcp-bbr,enet,kcp", "--loss", "5", "--delay", "30", "--seconds",
           "8", "-o", out.string(), "--metric", "retransmissions", "--capture-as", "rudpscope-test"});
  std::cout << r.out << r.err;
  auto lines = splitLines(r.out);
  CHECK(lines.at(0) == kImpairment);
  REQUIRE(r.status == 0);
  lines.erase(std::remove_if(lines.begin(), lines.end(),
                             [](const std::string& l) { return l.rfind("    failed: ", 0) == 0; }),
              lines.end());
  REQUIRE(lines.size() == 6);
  lines.erase(lines.begin());
  CHECK(lines[4] == "3 cells: 3 passed, 0 failed, 0 skipped");
  // The sender's retransmissions against the stack's own counter, exactly.
  const std::pair<std::string, std::string> retransmissionCheck[] = {
      {"tcp-bbr", "c2s retransmissions = client TcpRetransSegs"},
      {"enet", "c2s retransmissions - DISCONNECT resends = client packetsLost"},
      {"kcp", "c2s retransmissions = client RetransSegs"}};
  for (size_t i = 0; i < 3; ++i) {
    const auto& [stack, key] = retransmissionCheck[i];
    INFO(stack);
    CHECK(std::regex_match(lines[i], std::regex("^" + stack + " +loss +5%  delay +30 ms  PASS .*")));
    const json result = readJson(out / (stack + "_loss5_delay30.json"));
    CHECK(result.at("result") == "PASS");
    CHECK(result.at("failures").empty());
    int found = 0;
    for (const auto& k : result.at("checks")) {
      if (k.at("what") == "client congestion control is bbr") found += 10 * (k.at("ok") == true);
      if (k.at("what") != key) continue;
      ++found;
      CHECK(k.at("ok") == true);
      CHECK(k.at("analysis") == k.at("counter"));
      CHECK(k.at("counter").get<double>() > 0);  // 5 % loss: the stack did resend
    }
    CHECK(found == (stack == "tcp-bbr" ? 11 : 1));
  }
}

TEST_CASE("without root, lab says so in one line and exits 2 before doing anything") {
  rudp::test::TempDir dir("lab-nobody");
  fs::permissions(dir.path, fs::perms::all);
  const std::string out = dir / "set";
  std::vector<std::string> argv = {RUDPSCOPE_CLI, "lab",     "--stacks", "grudp", "--loss",
                                   "1",           "--delay", "30",       "-o",    out};
  if (geteuid() == 0)
    argv.insert(argv.begin(), {"setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"});
  const auto r = run(argv);
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "lab needs root: it creates network namespaces; run it with sudo\n");
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("a small lab run of UDT4 through the real library: every counters check passes") {
  // RakNet is left out: in 1 of 4 runs at 5 % loss the wheel's RakNet never
  // handed the app a split message whose every fragment the capture shows
  // arriving (tests/lab/README.md), so its "received = sent" check fails on
  // the library, not on the analysis.
  skipWithoutRoot();
  const fs::path out = fs::path(LAB_RUN_DIR) / "udt";
  fs::remove_all(out);
  const auto r =
      run({RUDPSCOPE_CLI, "lab", "--stacks", "udt", "--loss", "5", "--delay", "30", "--seconds", "8", "-o",
           out.string(), "--metric", "retransmissions", "--capture-as", "rudpscope-test"});
  std::cout << r.out << r.err;
  auto lines = splitLines(r.out);
  CHECK(lines.at(0) == kImpairment);
  REQUIRE(r.status == 0);
  REQUIRE(lines.size() == 4);
  CHECK(std::regex_match(lines[1], std::regex("^udt +loss +5%  delay +30 ms  PASS .*")));
  CHECK(lines[3] == "1 cells: 1 passed, 0 failed, 0 skipped");
  const json result = readJson(out / "udt_loss5_delay30.json");
  CHECK(result.at("result") == "PASS");
  // The client's resends and data packets against its perfmon, exactly.
  int found = 0;
  for (const auto& k : result.at("checks")) {
    const std::string what = k.at("what");
    if (what != "c2s retransmissions = client pktRetransTotal" &&
        what != "c2s data packets = client pktSentTotal")
      continue;
    ++found;
    CHECK(k.at("ok") == true);
    CHECK(k.at("analysis") == k.at("counter"));
    CHECK(k.at("counter").get<double>() > 0);  // 8 s at 5 % loss: the client sent and resent
  }
  CHECK(found == 2);
}

TEST_CASE("a small lab run of QUIC through quic-go: the analysis equals the client's qlog") {
  skipWithoutRoot();
  if (!fs::exists(fs::path(LAB_TOOLS_DIR) / "quic_workload")) {
    std::cout << "SKIPPED: quic_workload not built (Go >= 1.26 and the Go module proxy)" << std::endl;
    std::exit(77);
  }
  const fs::path out = fs::path(LAB_RUN_DIR) / "quic";
  fs::remove_all(out);
  const auto r = run({RUDPSCOPE_CLI, "lab", "--stacks", "quic", "--loss", "5", "--delay", "30", "--seconds",
                      "8", "-o", out.string()});
  std::cout << r.out << r.err;
  auto lines = splitLines(r.out);
  REQUIRE(r.status == 0);
  REQUIRE(lines.size() == 4);
  CHECK(std::regex_match(lines[1], std::regex("^quic +loss +5%  delay +30 ms  PASS .*")));
  CHECK(lines[3] == "1 cells: 1 passed, 0 failed, 0 skipped");
  const json result = readJson(out / "quic_loss5_delay30.json");
  CHECK(result.at("result") == "PASS");
  // The qlog checks, each exact but the min RTT's (quic-go's clock, float32).
  int found = 0;
  for (const auto& k : result.at("checks")) {
    const std::string what = k.at("what");
    if (what.find("qlog") == std::string::npos) continue;
    ++found;
    CHECK(k.at("ok") == true);
    if (what.find("min_rtt") == std::string::npos) CHECK(k.at("analysis") == k.at("counter"));
  }
  CHECK(found == 4);
  // The set's key log: the client's secrets, so the matrix read the capture decrypted.
  CHECK(fs::file_size(out / "tls.keylog") > 0);
  const json matrix = readJson(out / "matrix.json");
  CHECK(matrix.dump().find("quic_loss5_delay30.pcapng") != std::string::npos);
}
