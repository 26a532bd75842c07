// The game's traffic inside the encapsulations real captures contain: GRE,
// VXLAN, GENEVE, IP in IP, MPLS, PPPoE, PPP link types, GTP-U and 802.11.
// Each capture is built here byte by byte around one GRUDP flow (packets
// both ways); `decode` must print what tshark prints for it (every
// occurrence of a field, outermost first), and `analyze` must find that one
// flow, the inner one, with every packet.
#include <catch2/catch.hpp>

#include <cstdio>

#include "capture_checks.h"
#include "grudp_flow.h"
#include "tunnel_frames.h"

using namespace rudp;
using namespace rudp::test;
using namespace rudp::testgen;
using namespace rudp::testgen::flow;

namespace {

const Ip4 kTunA{192, 0, 2, 1}, kTunB{198, 51, 100, 2};
const Ip6 kTunA6{0x20, 0x01, 0x0d, 0xb8, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
const Ip6 kTunB6{0x20, 0x01, 0x0d, 0xb8, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
const Mac kMacA{2, 0, 0, 0, 0, 1}, kMacB{2, 0, 0, 0, 0, 2};
const std::vector<std::string> kFields = {
    "frame.number",  "ip.src",   "ip.dst",      "ip.proto",      "ip.ttl",     "ip.id",
    "ipv6.src",      "ipv6.dst", "udp.srcport", "udp.dstport",   "udp.length", "tcp.srcport",
    "tcp.seq",       "tcp.len",  "grudp.seq",   "grudp.conn_id", "udp.stream", "udp.time_relative",
    "udp.time_delta"};

// The tunnel's own IPv4/IPv6 header, in the direction of packet `i`.
Bytes outer4(int i, uint8_t proto, const Bytes& payload) {
  return ipv4(fromClient(i) ? kTunA : kTunB, fromClient(i) ? kTunB : kTunA, proto, payload,
              uint16_t(0x300 + i));
}
Bytes outer6(int i, uint8_t proto, const Bytes& payload) {
  return ipv6(fromClient(i) ? kTunA6 : kTunB6, fromClient(i) ? kTunB6 : kTunA6, proto, {}, payload, 60);
}
// A UDP tunnel (VXLAN, GENEVE, GTP-U) to `port`, source port as a hash would pick it.
Bytes outerUdp4(int i, uint16_t port, const Bytes& payload) {
  const Ip4& a = fromClient(i) ? kTunA : kTunB;
  const Ip4& b = fromClient(i) ? kTunB : kTunA;
  return ipv4(a, b, 17, udp(a, b, uint16_t(49152 + i), port, payload), uint16_t(0x300 + i));
}

// Whether `decode -V` must print tshark -V's tree in full: every tunnel's
// and link's layers are built, but not 802.11's and radiotap's.
enum class Details { AsTshark, NotBuilt };

// tshark agrees on every line (the details tree too), and analyze finds the one inner GRUDP flow.
void checkCapture(const std::string& capture, size_t frames = kPackets, Details details = Details::AsTshark) {
  checkOneFlow(capture, kFields, frames, "grudp", kPackets);
  if (details == Details::AsTshark) verboseAsTshark(capture);
}

Bytes eth(const Bytes& ip) { return ethernet(kMacB, kMacA, ip); }

}  // namespace

TEST_CASE(
    "GRE with checksum and key and sequence flags carries IPv4 and IPv6 and Ethernet as tshark reads them") {
  TempDir dir("tunnel-gre");
  const uint16_t flagSets[] = {
      0, kGreKey, kGreSeq, kGreChecksum | kGreKey | kGreSeq, kGreChecksum, kGreKey | kGreSeq};
  checkCapture(writeCapture(dir / "gre4.pcap", 1, false, [&](int i, const Bytes& inner) {
    return eth(outer4(i, 47, gre(flagSets[i], 0x0800, inner)));
  }));
  checkCapture(writeCapture(dir / "gre6.pcap", 1, true, [&](int i, const Bytes& inner) {
    return eth(outer6(i, 47, gre(flagSets[i], 0x86dd, inner)));
  }));
  const std::string teb = writeCapture(dir / "gre-teb.pcap", 1, false, [&](int i, const Bytes& inner) {
    return eth(outer4(i, 47, gre(kGreKey, 0x6558, eth(inner))));
  });
  checkCapture(teb);
  CHECK(decodeLines(teb, {"ip.src", "udp.srcport"})[0] == "192.0.2.1,10.0.0.1\t50000");
  // WCCP: version 2 puts a redirect header (service 89, buckets 0 and 72) before the IPv4 packet, version 1
  // none.
  checkCapture(writeCapture(dir / "wccp.pcap", 1, false, [&](int i, const Bytes& inner) {
    Bytes body = i % 2 ? Bytes{0x05, 0x59, 0x00, 0x48} : Bytes{};
    append(body, inner);
    return eth(outer4(i, 47, gre(0, 0x883e, body)));
  }));
}

TEST_CASE("TCP inside GRE and VXLAN shows the inner tcp.seq and is one inner connection") {
  TempDir dir("tunnel-tcp");
  struct Segment {
    bool client;
    uint32_t seq, ack;
    uint8_t flags;
    size_t bytes;
  };
  const Segment segments[] = {{true, 1000, 0, kSyn, 0},
                              {false, 5000, 1001, kSyn | kAckBit, 0},
                              {true, 1001, 5001, kAckBit | kPsh, 40},
                              {false, 5001, 1041, kAckBit | kPsh, 12},
                              {true, 1041, 5013, kAckBit, 0}};
  PcapBuilder pcap(1);
  int64_t t = 1'750'000'000'000'000;
  for (int i = 0; i < 5; ++i) {
    const Segment& g = segments[i];
    const Ip4& a = g.client ? kClient : kServer;
    const Ip4& b = g.client ? kServer : kClient;
    const uint16_t sport = g.client ? 51000 : 443, dport = g.client ? 443 : 51000;
    const Bytes opts = g.flags & kSyn ? optMss(1400) : Bytes{};
    const Bytes ip =
        ipv4(a, b, 6, tcp(a, b, sport, dport, g.seq, g.ack, g.flags, 64000, opts, pattern(g.bytes, 3)));
    const int side = g.client ? 0 : 1;  // as fromClient() numbers packets
    pcap.packet(t += 10'000, i % 2 ? eth(outer4(side, 47, gre(0, 0x0800, ip)))
                                   : eth(outerUdp4(side, 4789, vxlan(5, eth(ip)))));
  }
  const std::string f = dir / "tcp.pcap";
  writeFile(f, pcap.bytes());
  CHECK(compareWithTshark(f, kFields) == 5);
  CHECK(compareWithTshark(f, {"tcp.ack", "tcp.window_size_value", "tcp.options.mss_val", "udp.length"}) == 5);
  const nlohmann::json j = analyzeJson(f);
  REQUIRE(j["connections"].size() == 1);
  CHECK(j["connections"][0]["protocol"] == "tcp");
  CHECK(packetsOf(j["connections"][0]) == 5);
}

TEST_CASE("VXLAN and GENEVE print the outer and the game's UDP and the flow is the inner one") {
  TempDir dir("tunnel-udp");
  const std::string vx = writeCapture(dir / "vxlan.pcap", 1, false, [&](int i, const Bytes& inner) {
    return eth(outerUdp4(i, 4789, vxlan(0x1234, eth(inner))));
  });
  checkCapture(vx);
  CHECK(decodeLines(vx, {"ip.src", "udp.srcport", "udp.dstport"})[1] ==
        "198.51.100.2,10.0.0.2\t49153,7777\t4789,50000");
  // Options of 0 and 3 words; Ethernet inside, or IP straight after the header.
  checkCapture(writeCapture(dir / "geneve.pcap", 1, false, [&](int i, const Bytes& inner) {
    const Bytes body =
        i % 2 ? geneve(0x0800, uint8_t(i % 4), inner) : geneve(0x6558, uint8_t(i % 4), eth(inner));
    return eth(outerUdp4(i, 6081, body));
  }));
  checkCapture(writeCapture(dir / "geneve6.pcap", 1, true, [&](int i, const Bytes& inner) {
    return eth(outerUdp4(i, 6081, geneve(0x86dd, 2, inner)));
  }));
}

TEST_CASE("ERSPAN types I to III and MPLS in UDP carry the game's traffic") {
  TempDir dir("tunnel-mirror");
  checkCapture(writeCapture(dir / "erspan.pcap", 1, false, [&](int i, const Bytes& inner) {
    switch (i % 3) {
      case 0: return eth(outer4(i, 47, gre(0, 0x88be, eth(inner))));
      case 1: return eth(outer4(i, 47, gre(kGreSeq, 0x88be, erspanII(eth(inner)), 0, uint32_t(i))));
      default: return eth(outer4(i, 47, gre(0, 0x22eb, erspanIII(eth(inner), i == 5))));
    }
  }));
  checkCapture(writeCapture(dir / "mpls-udp.pcap", 1, true, [&](int i, const Bytes& inner) {
    return eth(outerUdp4(i, 6635, mpls({300}, inner)));
  }));
}

TEST_CASE("IP in IP as 4in4 and 6in4 and 4in6 and 6in6") {
  TempDir dir("tunnel-ipip");
  checkCapture(writeCapture(dir / "4in4.pcap", 1, false,
                            [&](int i, const Bytes& inner) { return eth(outer4(i, 4, inner)); }));
  checkCapture(writeCapture(dir / "6in4.pcap", 1, true,
                            [&](int i, const Bytes& inner) { return eth(outer4(i, 41, inner)); }));
  checkCapture(writeCapture(dir / "4in6.pcap", 1, false,
                            [&](int i, const Bytes& inner) { return eth(outer6(i, 4, inner)); }));
  checkCapture(writeCapture(dir / "6in6.pcap", 1, true,
                            [&](int i, const Bytes& inner) { return eth(outer6(i, 41, inner)); }));
}

TEST_CASE("MPLS label stacks over Ethernet and VLAN carry IPv4 and IPv6") {
  TempDir dir("tunnel-mpls");
  checkCapture(writeCapture(dir / "mpls4.pcap", 1, false, [&](int i, const Bytes& inner) {
    return ethernetOf(0x8847,
                      mpls(i % 2 ? std::vector<uint32_t>{16} : std::vector<uint32_t>{100, 200, 3}, inner));
  }));
  checkCapture(writeCapture(dir / "mpls-multicast.pcap", 1, false, [&](int, const Bytes& inner) {
    return ethernetOf(0x8848, mpls({0, 700}, inner));
  }));
  checkCapture(writeCapture(dir / "mpls6.pcap", 1, true, [&](int i, const Bytes& inner) {
    Bytes vlan;
    put16(vlan, uint16_t(10 + i));
    put16(vlan, 0x8847);
    append(vlan, mpls({2000, 2}, inner));
    return ethernetOf(0x8100, vlan);
  }));
}

TEST_CASE("PPPoE sessions and the PPP and Cisco HDLC link types carry IPv4 and IPv6") {
  TempDir dir("tunnel-ppp");
  checkCapture(writeCapture(dir / "pppoe4.pcap", 1, false,
                            [&](int, const Bytes& inner) { return ethernetOf(0x8864, pppoe(inner)); }));
  checkCapture(writeCapture(dir / "pppoe6.pcap", 1, true,
                            [&](int, const Bytes& inner) { return ethernetOf(0x8864, pppoe(inner)); }));
  checkCapture(writeCapture(dir / "ppp.pcap", 9, false,
                            [&](int i, const Bytes& inner) { return ppp(inner, i % 2 == 0); }));
  checkCapture(writeCapture(dir / "ppp-serial.pcap", 50, true,
                            [&](int, const Bytes& inner) { return ppp(inner, true); }));
  checkCapture(
      writeCapture(dir / "ppp-ether.pcap", 51, false, [&](int, const Bytes& inner) { return pppoe(inner); }));
  // Cisco HDLC, as its own link type and inside DLT_PPP files.
  checkCapture(writeCapture(dir / "c-hdlc.pcap", 104, false,
                            [&](int, const Bytes& inner) { return ciscoHdlc(inner); }));
  checkCapture(writeCapture(dir / "ppp-chdlc.pcap", 9, true, [&](int i, const Bytes& inner) {
    return i % 2 ? ciscoHdlc(inner) : ppp(inner, true);
  }));
}

TEST_CASE("GTP-U with and without extension headers carries the subscriber's IP packet") {
  TempDir dir("tunnel-gtp");
  checkCapture(writeCapture(dir / "gtpu4.pcap", 1, false, [&](int i, const Bytes& inner) {
    return eth(outerUdp4(i, 2152, gtpu(0x1000 + uint32_t(i % 2), inner, i % 3 == 0)));
  }));
  checkCapture(writeCapture(dir / "gtpu6.pcap", 1, true, [&](int i, const Bytes& inner) {
    return eth(outerUdp4(i, 2152, gtpu(0x2000, inner, i % 2 == 1)));
  }));
}

TEST_CASE("802.11 data frames with radiotap or without and QoS or not and protected frames skipped") {
  TempDir dir("tunnel-wifi");
  const Bytes sealed = ieee80211(grudpPacket(0, false), true, true);
  // QoS data with a padded header, plain data with an FCS after it.
  const auto radio = [&](int i, const Bytes& inner) {
    return i % 2 == 0 ? radiotap(ieee80211(inner, true, false, true), 0x20)
                      : radiotap(ieee80211(inner, false), 0x10);
  };
  checkCapture(writeCapture(dir / "radiotap.pcap", 127, false, radio, {radiotap(sealed)}), kPackets + 1,
               Details::NotBuilt);
  checkCapture(
      writeCapture(dir / "wlan.pcap", 105, true,
                   [&](int i, const Bytes& inner) { return ieee80211(inner, i % 2 == 1); }, {sealed}),
      kPackets + 1, Details::NotBuilt);
}

TEST_CASE("GTP-U in VXLAN in GRE in 6in4 keeps every header's fields in order") {
  TempDir dir("tunnel-nested");
  const std::string f = writeCapture(dir / "nested.pcap", 1, false, [&](int i, const Bytes& inner) {
    const Bytes vx = vxlan(7, eth(outerUdp4(i, 2152, gtpu(9, inner))));
    return eth(outer4(i, 41, outer6(i, 47, gre(kGreKey, 0x0800, outerUdp4(i, 4789, vx)))));
  });
  checkCapture(f);
  CHECK(decodeLines(f, {"ip.src", "ipv6.src", "udp.dstport"})[0] ==
        "192.0.2.1,192.0.2.1,192.0.2.1,10.0.0.1\t2001:db8:ff00::1\t4789,2152,7777");
}

TEST_CASE("headers cut short inside a tunnel and tunnels nested too deep keep the outer fields") {
  TempDir dir("tunnel-broken");
  const Bytes inner = grudpPacket(0, false);
  const Bytes cutGre = eth(outer4(0, 47, Bytes{0x20, 0x00, 0x08, 0x00, 0x12}));  // key flag, key missing
  const Bytes cutInner = eth(outer4(0, 4, Bytes(inner.begin(), inner.begin() + 12)));
  const Bytes deep = eth(outer4(0, 4, outer4(0, 4, outer4(0, 4, outer4(0, 4, outer4(0, 4, inner))))));
  PcapBuilder pcap(1);
  pcap.packet(1'750'000'000'000'000, cutGre)
      .packet(1'750'000'000'020'000, cutInner)
      .packet(1'750'000'000'040'000, deep);
  const std::string f = dir / "broken.pcap";
  writeFile(f, pcap.bytes());
  const std::vector<std::string> lines = decodeLines(f, {"ip.src", "ip.proto", "udp.srcport"});
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "192.0.2.1\t47\t");
  CHECK(lines[1] == "192.0.2.1\t4\t");
  // Four tunnels are followed; the fifth IP header is the last one read.
  CHECK(lines[2] == "192.0.2.1,192.0.2.1,192.0.2.1,192.0.2.1,192.0.2.1\t4,4,4,4,4\t");
  // Each is a decode error: GRE truncated, IPv4 truncated, too many nested tunnels.
  CHECK(analyzeJson(f)["capture"]["decode_errors"] == 3);
}

TEST_CASE("decode -V shows each tunnel's own header as tshark does: a GRE checksum checked, -O one of them") {
  TempDir dir("tunnel-details");
  // Frames 0 and 1: GRE with a checksum, right then wrong; 2 and 3: VXLAN;
  // 4: GTP-U with a PDU session container; 5: GENEVE with an option.
  const Bytes good = gre(kGreChecksum | kGreKey, 0x0800, grudpPacket(1, false));
  char shouldBe[5];
  std::snprintf(shouldBe, sizeof shouldBe, "%02x%02x", good[4], good[5]);
  const std::string f = writeCapture(dir / "details.pcap", 1, false, [&](int i, const Bytes& inner) {
    switch (i) {
      case 0: return eth(outer4(i, 47, gre(kGreChecksum | kGreKey, 0x0800, inner)));
      case 1: {
        Bytes bad = good;
        bad[4] ^= 0x5a;
        return eth(outer4(i, 47, bad));
      }
      case 4: return eth(outerUdp4(i, 2152, gtpu(0x1000, inner, true)));
      case 5: return eth(outerUdp4(i, 6081, geneve(0x0800, 2, inner)));
      default: return eth(outerUdp4(i, 4789, vxlan(0x1234, eth(inner))));
    }
  });
  const std::string out = verboseAsTshark(f);
  CHECK(occurrences(out, "\nGeneric Routing Encapsulation (IP)\n") == 2);
  CHECK(occurrences(out, " [correct]\n    [Checksum Status: Good]\n    Offset: 0\n    Key: 0x00001234\n") ==
        1);
  CHECK(
      occurrences(out, " incorrect, should be 0x" + std::string(shouldBe) +
                           "\n        [Expert Info (Warning/Protocol): Incorrect GRE Checksum [should be 0x" +
                           std::string(shouldBe) + "]]\n") == 1);
  CHECK(occurrences(out, "\nVirtual eXtensible Local Area Network\n") == 2);
  CHECK(occurrences(out, "\n    VXLAN Network Identifier (VNI): 4660\n") == 2);
  // Each VXLAN frame has two Ethernet layers: the frame's and the one it carries.
  CHECK(occurrences(out, "\nEthernet II, ") == 6 + 2);
  CHECK(occurrences(out, "\nGPRS Tunneling Protocol\n") == 1);
  CHECK(occurrences(out, "\n    Extension header (PDU Session container)\n") == 1);
  CHECK(occurrences(out, "\n            ..00 1001 = QoS Flow Identifier (QFI): 9\n") == 1);
  CHECK(occurrences(out, "\nGeneric Network Virtualization Encapsulation, VNI: 0x00abcd\n") == 1);
  CHECK(occurrences(out, "\n        Unknown, Class: Open vSwitch (0x0101) Type: 0x01 (Non-critical)\n") == 1);
  // Every frame's own (inner) UDP layer and each UDP tunnel's.
  CHECK(occurrences(out, "\nUser Datagram Protocol, ") == 6 + 4);

  // -O expands only the layers named, as tshark's does.
  std::vector<std::string> ts = {TSHARK_EXECUTABLE, "-n", "-r", f, "-O", "gre,vxlan,gtp,geneve"};
  for (const auto& a : tsharkDissectorArgs()) ts.push_back(a);
  const ProcessResult t = run(ts), o = run({RUDPSCOPE_CLI, "decode", f, "-O", "gre,vxlan,gtp,geneve"});
  REQUIRE(t.status == 0);
  REQUIRE(o.status == 0);
  CHECK(o.out == t.out);
}
