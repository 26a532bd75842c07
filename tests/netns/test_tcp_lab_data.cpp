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
  for (const char* f : {"client.pcap", "server.pcap", "truth.json", "reads-client.txt", "reads-server.txt"})
    if (fs::exists(src / f)) fs::copy_file(src / f, dir / f);
  checkCell(cell, dir);
}
}  // namespace

TEST_CASE("loss 5% Nagle on (tail loss probes, RACK after their SACKs)", "[tcp]") {
  checkCommitted({"loss5-nagle", 5, true});
}
TEST_CASE("loss 5% Nagle off", "[tcp]") { checkCommitted({"loss5-nodelay", 5, false}); }
TEST_CASE("loss 5% Nagle off, with the applications' reads (HOL against the application)", "[tcp]") {
  checkCommitted({"loss5-nodelay-reads", 5, false});
}
TEST_CASE("two namespaces on one veth pair (LAN), loss 5% Nagle on", "[tcp]") {
  checkCommitted({"lan-loss5-nagle", 5, true, "endpoints", 12, "direct"});
}
TEST_CASE("loss 5% Nagle off dropped at the receivers input", "[tcp]") {
  checkCommitted({"loss5-nodelay-endpoints", 5, false, "endpoints"});
}

// The lab's own HOL rule (tcp_lab_hol.h) on segments worked out by hand: a
// SYN, 100 bytes in order, the next 100 lost, two segments above the hole, a
// copy of one of them, the repair.
TEST_CASE("the receiver's HOL truth on a hand-made exchange", "[tcp]") {
  const uint32_t from = ipv4("10.0.0.1"), isn = 1000;
  auto seg = [&](double ms, uint32_t start, uint32_t len, uint8_t flags = 0x10) {
    Seg s;
    s.sip = from;
    s.ns = int64_t(ms * 1e6);
    s.seq = isn + 1 + start;
    s.len = len;
    s.flags = flags;
    return s;
  };
  Seg syn = seg(0, 0, 0, 0x02);
  syn.seq = isn;
  const std::vector<Seg> segs = {
      syn, seg(1, 0, 100), seg(3, 200, 100), seg(4, 300, 100), seg(5, 200, 100), seg(10, 100, 100)};
  const std::vector<AppRead> reads = {{int64_t(1.1e6), 100}, {int64_t(10.2e6), 400}};
  const HolTruth t = holTruth(segs, from, reads);
  CHECK(t.copiesAboveHole == 3);  // the copy too: the kernel queues it again
  CHECK(t.blocked == 2);
  CHECK(t.captureMs == Approx(7 + 6));
  CHECK(t.captureMaxMs == Approx(7));
  CHECK(t.appMs == Approx(7.2 + 6.2));
  CHECK(t.appMaxMs == Approx(7.2));
  CHECK(t.fillWakeUpMs == Approx(0.2 + 0.2));  // the repair read 0.2 ms after it came, both waiting with it
  CHECK(t.inOrderAppMaxMs == Approx(0.1));     // the first segment's
  CHECK(t.readApartFromFiller == 0);
  CHECK(t.readBeforeArrival == 0);
  CHECK(t.neverRead == 0);
  // Read apart from the repair (the kernel would not allow it), and never.
  const HolTruth apart =
      holTruth(segs, from, {{int64_t(1.1e6), 100}, {int64_t(10.2e6), 200}, {int64_t(11e6), 300}});
  CHECK(apart.readApartFromFiller == 2);
  CHECK(apart.neverRead == 1);
}
