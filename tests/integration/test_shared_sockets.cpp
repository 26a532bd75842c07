// Several protocols on one socket: a KCP socket that also carries datagrams
// no dissector claims (the 56-byte heartbeats of nDPI's kcp.pcap) stays one
// KCP connection that counts them as foreign, whichever comes first. Each
// capture is built here byte by byte.
#include <catch2/catch.hpp>

#include "capture_checks.h"
#include "capture_files.h"

using namespace rudp;
using namespace rudp::test;
using namespace rudp::testgen;

namespace {

const Ip4 kClient{10, 0, 0, 1}, kServer{10, 0, 0, 2};
const Mac kMacC{2, 0, 0, 0, 0, 1}, kMacS{2, 0, 0, 0, 0, 2};
constexpr uint16_t kClientPort = 47356, kServerPort = 8000;
constexpr uint32_t kConv = 0x0a;
constexpr uint8_t kPush = 81, kAckCmd = 82;

// One KCP segment (little-endian header, ikcp.c's layout).
Bytes kcpSegment(uint8_t cmd, uint32_t sn, uint32_t una, uint32_t ts, const Bytes& data = {}) {
  Bytes b;
  putLe32(b, kConv);
  b.push_back(cmd);
  b.push_back(0);  // frg
  putLe16(b, 128);
  putLe32(b, ts);
  putLe32(b, sn);
  putLe32(b, una);
  putLe32(b, uint32_t(data.size()));
  append(b, data);
  return b;
}

Bytes heartbeat() {
  Bytes b;
  for (int i = 0; i < 14; ++i) append(b, {0xf0, 0x0f, 0xf0, 0x0f});
  return b;
}

Bytes frame(bool fromClient, const Bytes& payload) {
  const Ip4& a = fromClient ? kClient : kServer;
  const Ip4& b = fromClient ? kServer : kClient;
  const uint16_t sp = fromClient ? kClientPort : kServerPort, dp = fromClient ? kServerPort : kClientPort;
  return ethernet(fromClient ? kMacS : kMacC, fromClient ? kMacC : kMacS,
                  ipv4(a, b, 17, udp(a, b, sp, dp, payload)));
}

// `pushes` PUSH/ACK exchanges; heartbeats both ways before the first
// exchange (`heartbeatsFirst`) or after each one.
std::string writeCapture(const TempDir& dir, const std::string& name, int pushes, bool heartbeatsFirst) {
  PcapBuilder pcap(1);
  int64_t t = 1'750'000'000'000'000;
  auto add = [&](bool fromClient, const Bytes& payload) {
    pcap.packet(t += 10'000'000, frame(fromClient, payload));
  };
  auto heartbeats = [&] {
    add(true, heartbeat());
    add(false, heartbeat());
  };
  if (heartbeatsFirst) heartbeats();
  for (int i = 0; i < pushes; ++i) {
    const uint32_t sn = uint32_t(i), ts = uint32_t(100 + 30 * i);
    add(true, kcpSegment(kPush, sn, sn, ts, pattern(40, uint8_t(i))));
    add(false, kcpSegment(kAckCmd, sn, sn + 1, ts));
    if (!heartbeatsFirst) heartbeats();
  }
  const std::string path = dir / (name + ".pcap");
  writeFile(path, pcap.bytes());
  return path;
}

void checkOneKcpConnection(const std::string& capture, uint64_t packetsEachWay, uint64_t foreignEachWay) {
  INFO(capture);
  const nlohmann::json j = analyzeJson(capture);
  REQUIRE(j["connections"].size() == 1);
  const nlohmann::json& c = j["connections"][0];
  CHECK(c["protocol"] == "kcp");
  CHECK(c["client"] == "10.0.0.1:47356");
  CHECK(c["server"] == "10.0.0.2:8000");
  for (const char* d : {"client_to_server", "server_to_client"}) {
    INFO(d);
    CHECK(c["directions"][d]["packets"] == packetsEachWay);
    CHECK(c["directions"][d]["foreign"] == foreignEachWay);
    CHECK(c["directions"][d]["segments"] == packetsEachWay - foreignEachWay);
    CHECK(c["directions"][d]["retransmissions"] == 0);
    CHECK(c["directions"][d]["lost"] == 0);
  }
}

}  // namespace

TEST_CASE("a KCP socket carrying heartbeats no dissector claims is one KCP connection counting them") {
  TempDir dir("shared-socket");
  checkOneKcpConnection(writeCapture(dir, "kcp-then-heartbeats", 5, false), 10, 5);
  const std::string capture = writeCapture(dir, "kcp-then-heartbeats", 5, false);
  const ProcessResult r = run({RUDPSCOPE_CLI, "analyze", capture, "--db", capture + ".table.sqlite"});
  CHECK(r.out.find(
            "10 datagrams on this socket are not kcp (5 c>s, 5 s>c): counted in packets, not analysed") !=
        std::string::npos);
}

TEST_CASE("heartbeats before the first KCP datagram join the KCP connection that follows") {
  TempDir dir("shared-socket-first");
  checkOneKcpConnection(writeCapture(dir, "heartbeats-then-kcp", 4, true), 5, 1);
}
