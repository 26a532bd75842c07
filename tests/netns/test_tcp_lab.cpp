// Real Linux TCP (tests/netns/tcp_lab.sh) against the kernel's own counters.
//
// For each matrix cell the lab runs a game-like workload through a router
// namespace that drops TCP segments, captures at the client and the server,
// and records the sender namespaces' `nstat` TcpRetransSegs. This test then
//  (a) checks the truth is sane and that the captures agree with the router's
//      drop counters frame for frame;
//  (b) counts retransmissions in each capture by a simple, obviously correct
//      rule (a segment carrying data, SYN or FIN whose whole sequence range
//      was already seen earlier in the same direction) and requires it to
//      EQUAL TcpRetransSegs at the sender's own capture point; records
//      tshark's labels on the same files and classifies every difference;
//  (c) compares `rudpscope-cli analyze --json` with the truth: retransmissions
//      and fast ones against the kernel, no invented reordering;
//  (d) compares every seq/ack RTT sample with tshark's ack_rtt.
// The checks are in tcp_lab_checks.h, shared with test_tcp_lab_data.cpp.
// Exits 77 (ctest SKIP_RETURN_CODE) when it cannot create namespaces.
#include <unistd.h>

#include <cstdlib>

#include "tcp_lab_checks.h"

using namespace tcplab;

namespace {

[[noreturn]] void skipAll(const std::string& why) {
  std::cerr << "SKIPPED: netns TCP lab cannot run here: " << why << "\n";
  std::cout << "SKIPPED: netns TCP lab cannot run here: " << why << std::endl;
  std::exit(77);  // ctest SKIP_RETURN_CODE
}

void requireLabOrSkip() {
  static bool checked = false;
  if (checked) return;
  if (geteuid() != 0) skipAll("not root (needs CAP_SYS_ADMIN for ip netns, nftables, capture)");
  for (const char* tool : {"ip", "nft", "tcpdump", "nstat", "ss", "cc"}) {
    auto r = run({"sh", "-c", std::string("command -v ") + tool});
    if (r.status != 0) skipAll(std::string(tool) + " not installed");
  }
  std::string probe = "rsc-probe-" + std::to_string(getpid());
  auto r = run({"ip", "netns", "add", probe});
  if (r.status != 0) skipAll("`ip netns add` refused: " + r.err);
  run({"ip", "netns", "del", probe});
  checked = true;
}

void runCell(const Cell& cell) {
  requireLabOrSkip();
  fs::path dir = fs::path(NETNS_RUN_DIR) / cell.name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::create_directories(fs::path(NETNS_RUN_DIR) / "bin");
  setenv("TCP_LAB_BIN", (fs::path(NETNS_RUN_DIR) / "bin").c_str(), 1);
  char lossBuf[32];
  std::snprintf(lossBuf, sizeof lossBuf, "%g", cell.loss);
  auto lab = run({"bash", TCP_LAB_SCRIPT, "--out", dir.string(), "--loss", lossBuf, "--nagle",
                  cell.nagle ? "on" : "off", "--drop-at", cell.dropAt, "--duration",
                  std::to_string(cell.duration), "--topology", cell.topology});
  if (lab.status == 77) skipAll(lab.err);
  INFO("tcp_lab.sh stderr:\n" << lab.err);
  REQUIRE(lab.status == 0);
  checkCell(cell, dir);
}

}  // namespace

TEST_CASE("tcp lab: loss 0% Nagle off", "[netns][tcp]") { runCell({"loss0-nodelay", 0, false}); }
TEST_CASE("tcp lab: loss 0% Nagle on", "[netns][tcp]") { runCell({"loss0-nagle", 0, true}); }
TEST_CASE("tcp lab: loss 2% Nagle off", "[netns][tcp]") { runCell({"loss2-nodelay", 2, false}); }
TEST_CASE("tcp lab: loss 2% Nagle on", "[netns][tcp]") { runCell({"loss2-nagle", 2, true}); }
TEST_CASE("tcp lab: loss 5% Nagle off", "[netns][tcp]") { runCell({"loss5-nodelay", 5, false}); }
TEST_CASE("tcp lab: loss 5% Nagle on", "[netns][tcp]") { runCell({"loss5-nagle", 5, true}); }
TEST_CASE("tcp lab: loss 5% Nagle off dropped at the receivers input so captures see every copy",
          "[netns][tcp]") {
  runCell({"loss5-nodelay-endpoints", 5, false, "endpoints"});
}

// A LAN: both ends' packets keep their initial TTL and round trips are tens
// of microseconds, so the vantage cannot be told; fast retransmissions must
// still equal the kernel's at both capture points.
TEST_CASE("tcp lab: two namespaces on one veth pair (LAN), loss 5% Nagle on", "[netns][tcp]") {
  runCell({"lan-loss5-nagle", 5, true, "endpoints", 12, "direct"});
}
TEST_CASE("tcp lab: two namespaces on one veth pair (LAN), loss 5% Nagle off", "[netns][tcp]") {
  runCell({"lan-loss5-nodelay", 5, false, "endpoints", 12, "direct"});
}

// Hidden (run by hand: netns_tcp_tests "[stress]"): heavy loss, so SYN,
// SYN-ACK and FIN retransmissions and RTO backoff chains happen too.
TEST_CASE("tcp lab: loss 30% Nagle off short", "[.][stress][netns][tcp]") {
  runCell({"loss30-nodelay", 30, false, "router", 6});
}
TEST_CASE("tcp lab: loss 30% Nagle on short", "[.][stress][netns][tcp]") {
  runCell({"loss30-nagle", 30, true, "router", 6});
}
