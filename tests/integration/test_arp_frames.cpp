// ARP and RARP frames, which every Ethernet capture from a LAN holds, read
// as tshark 4.0 reads them (packet-arp.c): decode's summary lines (MAC
// addresses as Source and Destination, Protocol by opcode, Info with
// gratuitous ARP, probes and announcements named), decode -V's layer, the
// display filters' arp fields, and the packet list's rows read alone from
// the database. Checked against tshark on captures built here.
#include <catch2/catch.hpp>

#include "capture_checks.h"
#include "grudp_flow.h"
#include "packets/frame_dissector.h"
#include "store/store_reader.h"
#include "tunnel_frames.h"

using namespace rudp;
using namespace rudp::test;
using namespace rudp::testgen;

namespace {

const Mac kHostA{0x02, 0, 0, 0, 0, 0x0a}, kHostB{0x02, 0, 0, 0, 0, 0x0b};
const Mac kBroadcastMac{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, kNoMac{};
const Ip4 kA{10, 0, 0, 1}, kB{10, 0, 0, 2}, kNoIp{0, 0, 0, 0};

// An ARP message (RFC 826) of Ethernet (or `hardware`) and IPv4 addresses.
Bytes arp(uint16_t op, const Mac& sha, const Ip4& spa, const Mac& tha, const Ip4& tpa,
          uint16_t hardware = 1) {
  Bytes b;
  put16(b, hardware);
  put16(b, 0x0800);
  b.push_back(6);
  b.push_back(4);
  put16(b, op);
  b.insert(b.end(), sha.begin(), sha.end());
  b.insert(b.end(), spa.begin(), spa.end());
  b.insert(b.end(), tha.begin(), tha.end());
  b.insert(b.end(), tpa.begin(), tpa.end());
  return b;
}

Bytes onLan(const Mac& dst, const Mac& src, const Bytes& message, uint16_t etherType = 0x0806) {
  return ethernetOf(etherType, message, dst, src);
}

// Messages whose every item tshark -V prints, decode -V prints too.
std::vector<Bytes> lanFrames() {
  Bytes tagged = onLan(kBroadcastMac, kHostA, arp(1, kHostA, kA, kNoMac, kB), 0x8100);
  tagged.insert(tagged.begin() + 14, {0x00, 0x0a, 0x08, 0x06});  // VLAN 10, then ARP
  tagged.resize(60);
  return {
      onLan(kBroadcastMac, kHostA, arp(1, kHostA, kA, kNoMac, kB)),
      onLan(kHostA, kHostB, arp(2, kHostB, kB, kHostA, kA)),
      onLan(kBroadcastMac, kHostA, arp(1, kHostA, kA, kBroadcastMac, kA)),  // gratuitous request
      onLan(kBroadcastMac, kHostA, arp(1, kHostA, kA, kNoMac, kA)),         // announcement
      onLan(kBroadcastMac, kHostA, arp(1, kHostA, kNoIp, kNoMac, kB)),      // probe
      onLan(kBroadcastMac, kHostB, arp(2, kHostB, kB, kBroadcastMac, kB)),  // gratuitous reply
      onLan(kBroadcastMac, kHostA, arp(3, kHostA, kNoIp, kHostA, kNoIp), 0x8035),
      onLan(kHostA, kHostB, arp(4, kHostB, kB, kHostA, kA), 0x8035),
      onLan(kHostB, kHostA, arp(8, kHostA, kA, kHostB, kNoIp)),
      onLan(kHostA, kHostB, arp(9, kHostB, kB, kHostA, kA)),
      onLan(kHostB, kHostA, arp(11, kHostA, kA, kHostB, kB)),
      onLan(kHostB, kHostA, arp(0, kHostA, kA, kHostB, kB)),
      onLan(kHostB, kHostA, arp(24, kHostA, kA, kHostB, kB)),
      onLan(kHostB, kHostA, arp(0x6c, kHostA, kA, kHostB, kB)),
      tagged,
      onLan(kBroadcastMac, kHostA, arp(1, kHostA, kA, kNoMac, kB, 6)),  // IEEE 802 hardware
      onLan(kHostA, kHostB, arp(7, kHostB, kB, kHostA, {2, 0, 0, 0})),  // DRARP error: no address
  };
}

// Messages whose details decode -V shows only in its summary line: other
// hardware, one cut by the snap length, a malformed one.
struct OddFrame {
  Bytes frame;
  uint32_t origlen;
};
std::vector<OddFrame> oddFrames() {
  Bytes arcnet = arp(1, kHostA, kA, kNoMac, kB, 7);
  arcnet[4] = 1;                                           // 1-byte ARCNET addresses
  arcnet.erase(arcnet.begin() + 9, arcnet.begin() + 14);   // the sender's
  arcnet.erase(arcnet.begin() + 14, arcnet.begin() + 19);  // the target's
  Bytes malformed = arp(2, kHostB, kB, kHostA, kA);
  malformed[4] = 200;  // hardware addresses longer than the frame
  const Bytes whole = onLan(kBroadcastMac, kHostA, arp(1, kHostA, kA, kNoMac, kB));
  return {{onLan(kBroadcastMac, kHostA, arcnet), 60},
          {Bytes(whole.begin(), whole.begin() + 30), 60},
          {onLan(kHostA, kHostB, malformed), 60}};
}

std::string lanCapture(const TempDir& dir, bool withOdd) {
  PcapBuilder pcap(1);
  int64_t us = 1'750'000'000'000'000;
  for (const Bytes& f : lanFrames()) pcap.packet(us += 1000, f);
  if (withOdd)
    for (const OddFrame& f : oddFrames()) pcap.packet(us += 1000, f.frame, f.origlen);
  const std::string capture = dir / (withOdd ? "arp-all.pcap" : "arp-lan.pcap");
  writeFile(capture, pcap.bytes());
  return capture;
}

std::vector<std::string> linesOf(const std::vector<std::string>& argv) {
  const ProcessResult r = run(argv);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return splitLines(r.out);
}

}  // namespace

TEST_CASE("ARP and RARP frames' summary lines are tshark's: MAC addresses, Protocol by opcode, Info") {
  TempDir dir("arp-summary");
  const std::string capture = lanCapture(dir, true);
  const std::vector<std::string> want = linesOf({TSHARK_EXECUTABLE, "-n", "-r", capture}),
                                 got = linesOf({RUDPSCOPE_CLI, "decode", capture});
  REQUIRE(got.size() == 20);
  REQUIRE(want.size() == got.size());
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("frame " << i + 1);
    CHECK(got[i] == want[i]);
  }
  const auto infoOf = [&](size_t frame) { return got[frame - 1].substr(got[frame - 1].find(" ARP ") + 5); };
  CHECK(got[0].find("02:00:00:00:00:0a \u2192 ff:ff:ff:ff:ff:ff ARP 60 Who has 10.0.0.2? Tell 10.0.0.1") !=
        std::string::npos);
  CHECK(infoOf(2) == "60 10.0.0.2 is at 02:00:00:00:00:0b");
  CHECK(infoOf(3) == "60 Gratuitous ARP for 10.0.0.1 (Request)");
  CHECK(infoOf(4) == "60 ARP Announcement for 10.0.0.1");
  CHECK(infoOf(5) == "60 Who has 10.0.0.2? (ARP Probe)");
  CHECK(got[6].find(" RARP 60 Who is 02:00:00:00:00:0a? Tell 02:00:00:00:00:0a") != std::string::npos);
  CHECK(infoOf(14) == "60 Unknown ARP opcode 0x006c");
  CHECK(infoOf(19) == "60 [Packet size limited during capture]");  // 30 of 60 bytes captured
  CHECK(infoOf(20) == "60 [Malformed Packet]");
}

TEST_CASE("an ARP message's details are tshark's, with the padding after it") {
  TempDir dir("arp-details");
  const std::string out = verboseAsTshark(lanCapture(dir, false));
  CHECK(occurrences(out, "\nAddress Resolution Protocol (") == 17);
  CHECK(occurrences(out, "\nAddress Resolution Protocol (ARP Probe)\n") == 1);
  CHECK(occurrences(out, "\n    [Is gratuitous: True]\n") == 3);
  CHECK(occurrences(out, "\n    Opcode: Unknown (108)\n") == 1);
  CHECK(occurrences(out, "\n    Padding: 000000000000000000000000000000000000\n") == 16);
  CHECK(occurrences(out, "\n    DRARP error status: no address (2)\n") == 1);
  CHECK(occurrences(out, "\n    Padding: 0000000000000000000000000000\n") == 1);  // after the VLAN tag
}

TEST_CASE("arp display filters select tshark's frames") {
  TempDir dir("arp-filters");
  const std::string capture = lanCapture(dir, true);
  const std::pair<const char*, size_t> filters[] = {
      {"arp", 20},
      {"not arp", 0},
      {"arp.opcode == 2", 3},
      {"arp.opcode in {3..9}", 5},
      {"arp.isgratuitous", 3},  // an announcement is gratuitous too
      {"arp.isprobe", 1},
      {"arp.isannouncement", 1},
      {"arp.src.proto_ipv4 == 10.0.0.1", 11},
      // A DRARP error's target protocol address is its error status.
      {"arp.dst.proto_ipv4 == 10.0.0.0/24 && !arp.isgratuitous", 12},
      {"arp.src.hw_mac == 02:00:00:00:00:0b", 5},
      {"arp.dst.hw_mac == 00:00:00:00:00:00", 5},
      {"eth.type == 0x8035", 2},
      {"arp contains 0a:00:00:02", 15},
  };
  for (const auto& [filter, frames] : filters) {
    INFO(filter);
    CHECK(compareWithTshark(capture, {"frame.number"}, {}, filter) == frames);
  }
}

TEST_CASE("the packet list's rows of ARP frames, each read alone, show tshark's columns") {
  TempDir dir("arp-rows");
  const std::string capture = lanCapture(dir, true), db = dir / "arp.sqlite";
  const ProcessResult analysed = run({RUDPSCOPE_CLI, "analyze", capture, "--db", db});
  INFO(analysed.err);
  REQUIRE(analysed.status == 0);
  const std::vector<std::string> want =
      linesOf({TSHARK_EXECUTABLE, "-n", "-r", capture, "-T", "fields", "-e", "_ws.col.Source", "-e",
               "_ws.col.Destination", "-e", "_ws.col.Protocol", "-e", "_ws.col.Info"});
  StoreReader reader(db);
  const std::vector<PacketRecord> rows = reader.packets({});
  REQUIRE(rows.size() == 20);
  REQUIRE(want.size() == rows.size());
  DissectorOptions none;
  none.load_defaults = false;
  FrameDissector dissector(capture, none, reader.capture().first_ts_ns);
  for (size_t i = rows.size(); i-- > 0;) {
    const DissectedFrame f = dissector.dissect(rows[i], false);
    INFO("frame " << rows[i].frame);
    CHECK(f.source + "\t" + f.destination + "\t" + f.protocol + "\t" + f.info == want[i]);
  }
}
