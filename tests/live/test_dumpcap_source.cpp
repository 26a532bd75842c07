// DumpcapSource in this process (root here, so dumpcap runs as root): the
// packets dumpcap writes to its pipe, its drop counts when it stops, its
// errors as one line, and no descriptor left behind by a start that fails.
#include <catch2/catch.hpp>
#include <filesystem>
#include <thread>

#include "capture/dumpcap_source.h"
#include "core/error.h"
#include "udp_traffic.h"

using namespace rudp;
using namespace rudp::test;

namespace {

LiveOptions loopback(const std::string& filter) {
  LiveOptions o;
  o.interface = "lo";
  o.filter = filter;
  return o;
}

size_t openDescriptors() {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

}  // namespace

TEST_CASE("dumpcap's packets reach the reader, and its drop counts arrive when it stops") {
  DumpcapSource source(loopback("udp port 47161"));
  CHECK(source.linkType() == 1);  // Linux's loopback is Ethernet
  CHECK_FALSE(source.drops().counted);
  std::thread sender([] { sendUdp(47161, 80, 300, 1000); });
  RawPacket p;
  size_t packets = 0, bytes = 0;
  for (int idle = 0; packets < 80 && idle < 40;) {
    const LiveSource::Read got = source.next(p, 50);
    if (got == LiveSource::Read::Ended) break;
    if (got == LiveSource::Read::Idle) {
      ++idle;
      continue;
    }
    ++packets;
    bytes += p.caplen;
  }
  sender.join();
  CHECK(packets == 80);
  CHECK(bytes == 80 * (300 + 42));  // Ethernet, IPv4 and UDP headers
  source.stop();
  const DropCounts d = source.drops();
  CHECK(d.counted);
  CHECK(d.kernel == 0);
  CHECK(d.interface == 0);
  CHECK(source.next(p, 0) == LiveSource::Read::Ended);
}

TEST_CASE("a start dumpcap refuses is one line, and leaves no descriptor open") {
  const size_t before = openDescriptors();
  for (int i = 0; i < 5; ++i) {
    LiveOptions o = loopback("");
    o.interface = "nosuch1";
    try {
      DumpcapSource source(o);
      FAIL("dumpcap captured on a missing interface");
    } catch (const CaptureError& e) {
      CHECK(std::string(e.what()) ==
            "no interface 'nosuch1' to capture on (rudpscope-cli interfaces lists them)");
    }
  }
  CHECK(openDescriptors() == before);
}
