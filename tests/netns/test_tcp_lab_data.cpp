// The checks of test_tcp_lab.cpp on lab runs committed under data/ (made by
// tcp_lab.sh on 2026-11-22, all checks passing): the same exact
// expectations against the kernel's counters recorded with them, without
// root, namespaces or random loss, so they run in the default test command.
#include "tcp_lab_checks.h"

using namespace tcplab;

namespace {
void checkCommitted(const Cell& cell) {
  // The checks write their databases and results beside the captures: work
  // on a copy in the build tree.
  const fs::path src = fs::path(NETNS_DATA_DIR) / cell.name;
  const fs::path dir = fs::path(NETNS_DATA_RUN_DIR) / cell.name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const char* f : {"client.pcap", "server.pcap", "truth.json"}) fs::copy_file(src / f, dir / f);
  checkCell(cell, dir);
}
}  // namespace

TEST_CASE("loss 5% Nagle on (tail loss probes, RACK after their SACKs)", "[tcp]") {
  checkCommitted({"loss5-nagle", 5, true});
}
TEST_CASE("loss 5% Nagle off", "[tcp]") { checkCommitted({"loss5-nodelay", 5, false}); }
TEST_CASE("two namespaces on one veth pair (LAN), loss 5% Nagle on", "[tcp]") {
  checkCommitted({"lan-loss5-nagle", 5, true, "endpoints", 12, "direct"});
}
TEST_CASE("loss 5% Nagle off dropped at the receivers input", "[tcp]") {
  checkCommitted({"loss5-nodelay-endpoints", 5, false, "endpoints"});
}
