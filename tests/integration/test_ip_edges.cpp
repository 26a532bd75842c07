// The IP layer's edge cases real game captures contain: IPv6 fragments,
// a first IPv4 fragment longer than its frame, AH after IPv4 and IPv6, and
// frames shorter on the wire than their IP length. Each capture is built
// here byte by byte around one flow (packets both ways); `decode` must print
// what tshark 4.0 prints for it, and `analyze` must find that flow with
// every packet the capture holds whole enough to read.
#include <catch2/catch.hpp>

#include <algorithm>

#include "capture_checks.h"
#include "grudp_flow.h"

using namespace rudp;
using namespace rudp::test;
using namespace rudp::testgen;
using namespace rudp::testgen::flow;

namespace {

const std::vector<std::string> kFields = {
    "frame.number", "frame.len", "frame.cap_len", "ip.src",      "ip.dst",       "ip.proto",
    "ip.id",        "ipv6.src",  "ipv6.dst",      "udp.srcport", "udp.dstport",  "udp.length",
    "tcp.srcport",  "tcp.seq",   "tcp.len",       "grudp.seq",   "grudp.conn_id"};

Bytes slice(const Bytes& b, size_t off, size_t len) {
  return Bytes(b.begin() + std::ptrdiff_t(off), b.begin() + std::ptrdiff_t(off + len));
}

// Packet `i` of the flow in IPv6 fragments, each in an Ethernet frame, in
// order: data (70 to 76 bytes of UDP) in three, 32 bytes and 32 and the
// rest; acks (40 bytes) in two, 24 and 16.
std::vector<Bytes> fragments6(int i) {
  const Bytes seg = grudpSegment(i, true);
  const size_t chunk = fromClient(i) ? 32 : 24;
  const auto [src, dst] = ends6(i);
  std::vector<Bytes> out;
  for (size_t off = 0; off < seg.size(); off += chunk) {
    const size_t len = std::min(chunk, seg.size() - off);
    const Bytes header = fragmentHeader(17, uint32_t(off), off + len < seg.size(), 0x80000000u + uint32_t(i));
    out.push_back(inEthernet(ipv6(src, dst, 44, header, slice(seg, off, len))));
  }
  return out;
}

// Packet `i` of the flow in two IPv4 fragments, the first of `firstLen`
// bytes after the IP header; `body` is what the IP header carries.
std::pair<Bytes, Bytes> fragments4(int i, uint8_t proto, const Bytes& body, size_t firstLen) {
  const auto [src, dst] = ends4(i);
  const auto id = uint16_t(0x200 + i);
  return {inEthernet(ipv4(src, dst, proto, slice(body, 0, firstLen), id, 0x2000)),
          inEthernet(ipv4(src, dst, proto, slice(body, firstLen, body.size() - firstLen), id,
                          uint16_t(firstLen / 8)))};
}

std::vector<Frame> framesOf(const std::vector<Bytes>& frames) {
  std::vector<Frame> out;
  for (const Bytes& f : frames) out.push_back({f});
  return out;
}

uint64_t payloadBytes(const nlohmann::json& connection, const char* direction) {
  return connection["directions"][direction]["payload_bytes"].get<uint64_t>();
}

struct TcpSegment {
  bool client;
  uint32_t seq, ack;
  uint8_t flags;
  size_t bytes;
};

// A TCP connection's segment as an IPv4 or IPv6 packet in an Ethernet frame.
Bytes tcpFrame(const TcpSegment& g, bool v6) {
  const uint16_t sport = g.client ? 51000 : 443, dport = g.client ? 443 : 51000;
  const int side = g.client ? 0 : 1;  // as fromClient() numbers packets
  const Bytes data = pattern(g.bytes, 3);
  if (v6) {
    const auto [a, b] = ends6(side);
    return inEthernet(ipv6(a, b, 6, {}, tcp(a, b, sport, dport, g.seq, g.ack, g.flags, 64000, {}, data)));
  }
  const auto [a, b] = ends4(side);
  return inEthernet(ipv4(a, b, 6, tcp(a, b, sport, dport, g.seq, g.ack, g.flags, 64000, {}, data)));
}

}  // namespace

TEST_CASE(
    "IPv6 fragments both ways reassemble on the frame completing them in any order and a lost one "
    "leaves its datagram out") {
  TempDir dir("ip-frag6");
  std::vector<Bytes> f = fragments6(0);
  const std::vector<Bytes> p1 = fragments6(1), p2 = fragments6(2), p3 = fragments6(3), p4 = fragments6(4),
                           p5 = fragments6(5), lost = fragments6(6);
  f.insert(f.end(), p1.begin(), p1.end());
  f.insert(f.end(), p2.rbegin(), p2.rend());               // last fragment first
  f.insert(f.end(), {p4[0], p3[1], p4[2], p3[0], p4[1]});  // two datagrams interleaved
  f.insert(f.end(), p5.begin(), p5.end());
  f.insert(f.end(), {lost[0], lost[2]});  // a seventh datagram's middle fragment never arrives
  REQUIRE(f.size() == 17);
  const std::string capture = writePcap(dir / "frag6.pcap", 1, framesOf(f));
  checkOneFlow(capture, kFields, 17, "grudp", kPackets);
  // The datagram shows on the frame that completed it: 3, 5, 8, 12 and 13, 15.
  const std::vector<std::string> lines = decodeLines(capture, {"frame.number", "grudp.seq"});
  REQUIRE(lines.size() == 17);
  CHECK(lines[7] == "8\t2");
  CHECK(lines[11] == "12\t2");
  CHECK(lines[12] == "13\t3");
  CHECK(lines[16] == "17\t");
}

TEST_CASE("a first IPv4 fragment longer than its frame has its UDP header read from the bytes there") {
  TempDir dir("ip-first-frag");
  // Packets 0 and 2 in two fragments whose first frame ends after the GRUDP
  // header: packet 0's was that short on the wire, packet 2's was cut by the
  // snap length. Neither datagram can be reassembled.
  std::vector<Frame> frames;
  for (int i = 0; i < kPackets; ++i) {
    if (i != 0 && i != 2) {
      frames.push_back({inEthernet(grudpPacket(i, false))});
      continue;
    }
    auto [first, second] = fragments4(i, 17, grudpSegment(i, false), 48);
    const auto onWire = uint32_t(first.size());
    first.resize(14 + 20 + 8 + 32);
    frames.push_back({first, i == 0 ? 0 : onWire});
    frames.push_back({second});
  }
  const std::string capture = writePcap(dir / "first-frag.pcap", 1, frames);
  checkOneFlow(capture, kFields, kPackets + 2, "grudp", kPackets);
  const std::vector<std::string> lines =
      decodeLines(capture, {"frame.len", "frame.cap_len", "udp.length", "grudp.seq"});
  REQUIRE(lines.size() == kPackets + 2);
  CHECK(lines[0] == "74\t74\t70\t1");
  CHECK(lines[1] == "60\t60\t\t");
  CHECK(lines[3] == "82\t74\t72\t2");
  // Only the frame short on the wire is a decode error.
  CHECK(analyzeJson(capture)["capture"]["decode_errors"] == 1);
}

TEST_CASE("AH after IPv4 and IPv6 carries the game's UDP, also in a reassembled IPv4 datagram") {
  TempDir dir("ip-ah");
  std::vector<Frame> frames;
  for (int i = 0; i < kPackets; ++i) {
    const auto [src, dst] = ends4(i);
    Bytes body = authHeader(17, 0x1000 + uint32_t(i % 2), uint32_t(i + 1));
    append(body, grudpSegment(i, false));
    if (i != 4) {
      frames.push_back({inEthernet(ipv4(src, dst, 51, body, uint16_t(0x200 + i)))});
      continue;
    }
    const auto [first, second] = fragments4(i, 51, body, 56);
    frames.push_back({first});
    frames.push_back({second});
  }
  checkOneFlow(writePcap(dir / "ah4.pcap", 1, frames), kFields, kPackets + 1, "grudp", kPackets);
  const std::string ah6 = writeCapture(dir / "ah6.pcap", 1, true, [&](int i, const Bytes&) {
    const auto [src, dst] = ends6(i);
    return inEthernet(ipv6(src, dst, 51, authHeader(17, 0x2000, uint32_t(i + 1)), grudpSegment(i, true)));
  });
  checkOneFlow(ah6, kFields, kPackets, "grudp", kPackets);
}

TEST_CASE("TCP in a frame shorter on the wire than its IP length counts the bytes the frame held") {
  TempDir dir("ip-short-tcp");
  const TcpSegment segments[] = {{true, 1000, 0, kSyn, 0},
                                 {false, 5000, 1001, kSyn | kAckBit, 0},
                                 {true, 1001, 5001, kAckBit | kPsh, 140},
                                 {false, 5001, 1141, kAckBit | kPsh, 100},
                                 {true, 1141, 5101, kAckBit, 0}};
  for (const bool v6 : {false, true}) {
    // Segment 2 lost its last 100 bytes before the capture: the frame was
    // that short on the wire. Segment 3 lost 60 to the snap length only.
    std::vector<Frame> frames;
    for (const TcpSegment& g : segments) frames.push_back({tcpFrame(g, v6)});
    frames[2].bytes.resize(frames[2].bytes.size() - 100);
    frames[3].origlen = uint32_t(frames[3].bytes.size());
    frames[3].bytes.resize(frames[3].bytes.size() - 60);
    const std::string capture = writePcap(dir / (v6 ? "tcp6.pcap" : "tcp4.pcap"), 1, frames);
    checkOneFlow(capture, kFields, 5, "tcp", 5);
    CHECK(decodeLines(capture, {"tcp.len"}) == std::vector<std::string>{"0", "0", "40", "100", "0"});
    const nlohmann::json j = analyzeJson(capture);
    CHECK(payloadBytes(j["connections"][0], "client_to_server") == 40);
    CHECK(payloadBytes(j["connections"][0], "server_to_client") == 100);
    CHECK(j["capture"]["decode_errors"] == 1);
  }
}

namespace {

struct TtlCase {
  Ip4 dst;
  uint8_t proto, ttl;
};

// An IPv4 packet to `c.dst` with TTL `c.ttl`: a UDP datagram, or 8 bytes of
// another protocol (IGMP, VRRP, PIM, OSPF).
Bytes ttlFrame(const TtlCase& c) {
  const Bytes body = c.proto == 17 ? udp(kClient, c.dst, 50000, 7777, pattern(12, 5)) : pattern(8, 7);
  return inEthernet(ipv4(kClient, c.dst, c.proto, body, 0x4d2, 0x4000, {}, c.ttl));
}

// The top-level IPv4 layers of a `-V` print, each with its lines.
std::vector<std::string> ipv4Layers(const std::string& verbose) {
  std::vector<std::string> layers;
  bool in = false;
  for (const std::string& line : splitLines(verbose)) {
    const bool layerLine = line.empty() || line[0] != ' ';
    if (layerLine) in = line.rfind("Internet Protocol Version 4,", 0) == 0;
    if (in && layerLine) layers.emplace_back();
    if (in) layers.back() += line + "\n";
  }
  return layers;
}

}  // namespace

TEST_CASE("an IPv4 TTL too small, or not the one the Local Network Control Block expects, is tshark's note") {
  TempDir dir("ip-ttl");
  const Ip4 mdns{224, 0, 0, 251}, llmnr{224, 0, 0, 252}, rip{224, 0, 0, 9}, igmp{224, 0, 0, 22},
      vrrp{224, 0, 0, 18}, group{239, 1, 2, 3};
  const std::vector<TtlCase> cases = {{kServer, 17, 1}, {kServer, 17, 4}, {kServer, 17, 5}, {kServer, 17, 0},
                                      {group, 17, 1},   {mdns, 17, 1},    {mdns, 17, 255},  {llmnr, 17, 7},
                                      {rip, 17, 3},     {igmp, 2, 2},     {vrrp, 112, 1},   {kServer, 103, 1},
                                      {kServer, 89, 1}, {rip, 17, 1}};
  std::vector<Frame> frames;
  for (const TtlCase& c : cases) frames.push_back({ttlFrame(c)});
  // A traceroute's probe (TTL 1) quoted by the router's time exceeded: the
  // note is under the quoted header's TTL, one level deeper.
  const Bytes probe = ipv4(kClient, kServer, 17, grudpSegment(0, false), 0x200, 0x4000, {}, 1);
  frames.push_back({inEthernet(ipv4(kRouter, kClient, 1, icmp4Error(11, 0, probe)))});
  const std::string capture = writePcap(dir / "ttl.pcap", 1, frames);

  const ProcessResult t = run({TSHARK_EXECUTABLE, "-n", "-r", capture, "-V"}),
                      o = run({RUDPSCOPE_CLI, "decode", capture, "-V"});
  INFO(t.err << o.err);
  REQUIRE(t.status == 0);
  REQUIRE(o.status == 0);
  const std::vector<std::string> ours = ipv4Layers(o.out);
  REQUIRE(ours.size() == cases.size() + 1);
  CHECK(ours == ipv4Layers(t.out));
  const std::string note = "\n    Time to Live: %\n        [Expert Info (Note/Sequence): ";
  auto noted = [&](const char* ttl, const std::string& message) {
    std::string n = note;
    n.replace(n.find('%'), 1, ttl);
    return occurrences(o.out, n + message + "]\n");
  };
  CHECK(noted("1", "\"Time To Live\" only 1") == 1);
  CHECK(noted("4", "\"Time To Live\" only 4") == 1);
  CHECK(noted("0", "\"Time To Live\" only 0") == 1);
  CHECK(noted("1",
              "\"Time To Live\" != 255 for a packet sent to the Local Network Control Block (see "
              "RFC 3171)") == 2);  // mDNS and VRRP
  CHECK(noted("3",
              "\"Time To Live\" != 1 for a packet sent to the Local Network Control Block (see RFC 3171)") ==
        1);
  CHECK(noted("2",
              "\"Time To Live\" != 1 for a packet sent to the Local Network Control Block (see RFC 3171)") ==
        1);  // IGMP
  CHECK(occurrences(o.out, "[Expert Info (Note/Sequence): \"Time To Live\"") == 8);
  CHECK(occurrences(o.out,
                    "\n        Time to Live: 1\n            [Expert Info (Note/Sequence): "
                    "\"Time To Live\" only 1]\n") == 1);
  CHECK(occurrences(o.out, "[Expert Info (Note/Sequence): \"Time To Live\"") ==
        occurrences(t.out, "[Expert Info (Note/Sequence): \"Time To Live\""));
}

TEST_CASE(
    "a UDP datagram without a checksum is tshark's: ignored over IPv4 and when quoted, illegal over IPv6") {
  TempDir dir("udp-zero-checksum");
  const Bytes grudp4 = withoutChecksum(grudpSegment(0, false)),
              grudp6 = withoutChecksum(grudpSegment(1, true)),
              other4 = withoutChecksum(udp(kClient, kServer, 50001, 9999, pattern(12, 3))),
              other6 = withoutChecksum(udp(kClient6, kServer6, 50001, 9999, pattern(12, 3)));
  const auto [src6, dst6] = ends6(1);
  const Bytes packet6 = ipv6(src6, dst6, 17, {}, grudp6);
  const std::vector<Frame> frames = {
      {inEthernet(ipv4(kClient, kServer, 17, grudp4))},
      {inEthernet(packet6)},
      {inEthernet(ipv4(kClient, kServer, 17, other4))},
      {inEthernet(ipv6(kClient6, kServer6, 17, {}, other6))},
      // The client's port unreachable about the server's datagram (frame 2).
      {inEthernet(ipv6(dst6, src6, 58, {}, icmp6Error(dst6, src6, 1, 4, packet6)))}};
  const std::string capture = writePcap(dir / "zero.pcap", 1, frames);

  const std::string out = verboseAsTshark(capture);
  CHECK(occurrences(
            out, "\n    Checksum: 0x0000 [zero-value ignored]\n        [Checksum Status: Not present]\n") ==
        2);
  CHECK(occurrences(out,
                    "\n    Checksum: 0x0000 [zero-value illegal]\n        [Expert Info (Error/Checksum): "
                    "Illegal checksum value (0)]\n") == 2);
  CHECK(occurrences(out, "\n        [Checksum Status: Illegal]\n") == 2);
  // The quote of frame 5, one level deeper: ignored, as packet-udp.c does in an error packet.
  CHECK(occurrences(out,
                    "\n        Checksum: 0x0000 [zero-value ignored]\n            [Checksum Status: Not "
                    "present]\n") == 1);
}

TEST_CASE("UDP to or from a port LBL traceroute probes has tshark's Possible traceroute note") {
  TempDir dir("udp-traceroute");
  // Destination ports around the probes' range (33435..33464), then a
  // source port in it; TTL 1 to 3 as traceroute sends them.
  const std::vector<std::pair<uint16_t, uint16_t>> ports = {{40000, 33434}, {40000, 33435}, {40000, 33437},
                                                            {40000, 33438}, {40000, 33464}, {40000, 33465},
                                                            {33436, 40000}};
  std::vector<Frame> frames;
  for (size_t i = 0; i < ports.size(); ++i) {
    const Bytes datagram = udp(kClient, kServer, ports[i].first, ports[i].second, pattern(32, uint8_t(i)));
    frames.push_back(
        {inEthernet(ipv4(kClient, kServer, 17, datagram, uint16_t(0x300 + i), 0, {}, uint8_t(1 + i / 3)))});
  }
  const std::string capture = writePcap(dir / "traceroute.pcap", 1, frames);
  const std::string out = verboseAsTshark(capture);
  auto note = [&](const std::string& port, const char* hop) {
    return occurrences(
        out, "Port: " + port + "\n        [Expert Info (Chat/Sequence): Possible traceroute: " + hop + "]\n");
  };
  CHECK(note("33435", "hop #1, attempt #1") == 1);
  CHECK(note("33437", "hop #1, attempt #3") == 1);
  CHECK(note("33438", "hop #2, attempt #1") == 1);
  CHECK(note("33464", "hop #10, attempt #3") == 1);
  CHECK(note("33436", "hop #1, attempt #2") == 1);
  CHECK(occurrences(out, "Possible traceroute: hop") == 5 * 2);  // the expert line and its message
}

TEST_CASE("an IPv6 address's 6to4, Teredo, SLAAC, ISATAP and NAT64 parts are tshark's lines") {
  TempDir dir("ipv6-embedded");
  // RFC 4380's Teredo example: server 65.54.227.120, port 40000, client 192.0.2.45.
  const Ip6 sixToFour{0x20, 0x02, 0xc0, 0x00, 0x02, 0x04, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 1},
      teredo{0x20, 0x01, 0x00, 0x00, 0x41, 0x36, 0xe3, 0x78, 0x80, 0x00, 0x63, 0xbf, 0x3f, 0xff, 0xfd, 0xd2},
      slaac{0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55},
      isatap{0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x00, 0x5e, 0xfe, 0xc0, 0x00, 0x02, 0x01},
      nat64{0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0, 0xc0, 0x00, 0x02, 0x21};
  const std::vector<std::pair<Ip6, Ip6>> ends = {
      {sixToFour, teredo}, {slaac, isatap}, {kClient6, nat64}, {teredo, slaac}, {kClient6, kServer6}};
  std::vector<Frame> frames;
  for (const auto& [src, dst] : ends)
    frames.push_back({inEthernet(ipv6(src, dst, 17, {}, udp(src, dst, 40001, 40002, pattern(16, 9))))});
  const std::string capture = writePcap(dir / "embedded.pcap", 1, frames);
  const std::string out = verboseAsTshark(capture);
  CHECK(occurrences(out, "\n    [Source 6to4 Gateway IPv4: 192.0.2.4]\n    [Source 6to4 SLA ID: 1]\n") == 1);
  CHECK(occurrences(out,
                    "\n    [Destination Teredo Server IPv4: 65.54.227.120]\n    [Destination Teredo Port: "
                    "40000]\n    [Destination Teredo Client IPv4: 192.0.2.45]\n") == 1);
  CHECK(occurrences(out, "\n    [Source Teredo Server IPv4: 65.54.227.120]\n") == 1);
  CHECK(occurrences(out, "\n    [Source SLAAC MAC: 00:11:22:33:44:55]\n") == 1);
  CHECK(occurrences(out, "\n    [Destination SLAAC MAC: 00:11:22:33:44:55]\n") == 1);
  CHECK(occurrences(out, "\n    [Destination ISATAP IPv4: 192.0.2.1]\n") == 1);
  CHECK(occurrences(out,
                    "\n    [Embedded IPv4 Prefix: 0064ff9b0000000000000000]\n    [Destination Embedded "
                    "IPv4: 192.0.2.33]\n    [Embedded IPv4: 192.0.2.33]\n") == 1);
  size_t lines = 0;
  for (const char* kind : {" 6to4 ", " Teredo ", " SLAAC ", " ISATAP ", "Embedded IPv4"})
    lines += occurrences(out, kind);
  CHECK(lines == 2 + 6 + 2 + 1 + 3);  // frame 4's Teredo source too; none in frame 5
}

TEST_CASE(
    "a fragment sent twice is listed twice in the reassembly tree, the copy with tshark's overlap flag") {
  TempDir dir("ip-frag-overlap");
  // Packet 0 in IPv4 fragments, its first sent twice; packet 2 in IPv6
  // fragments, its middle one sent twice.
  const auto [first, second] = fragments4(0, 17, grudpSegment(0, false), 24);
  const std::vector<Bytes> six = fragments6(2);
  REQUIRE(six.size() == 3);
  const std::string capture =
      writePcap(dir / "overlap.pcap", 1, framesOf({first, first, second, six[0], six[1], six[1], six[2]}));
  const std::string out = verboseAsTshark(capture);
  CHECK(occurrences(out,
                    "\n        [Frame: 1, payload: 0-23 (24 bytes)]\n        [Frame: 2, payload: 0-23 (24 "
                    "bytes)]\n            [Fragment overlap: True]\n") == 1);
  CHECK(occurrences(out, "[Frame: 6, payload: 32-63 (32 bytes)]\n            [Fragment overlap: True]\n") ==
        1);
  CHECK(occurrences(out, "[Fragment overlap: True]") == 2);
  CHECK(occurrences(out, "\n    [3 IPv4 Fragments (") == 1);
  CHECK(occurrences(out, "\n    [4 IPv6 Fragments (") == 1);
  // The IPv6 fragment header's items, and each held fragment's bytes as Data.
  CHECK(occurrences(out,
                    "\n    Fragment Header for IPv6\n        Next header: UDP (17)\n        Reserved "
                    "octet: 0x00\n        0000 0000 0100 0... = Offset: 8 (64 bytes)\n") == 1);
  CHECK(occurrences(out, "        .... .... .... ...1 = More Fragments: Yes\n") == 3);
  CHECK(occurrences(out, "        Identification: 0x80000002\n") == 4);
  CHECK(occurrences(out, "\nData (32 bytes)\n") == 3);
}

TEST_CASE("an ICMP echo's items and the request its reply answers are tshark's, in one pass as tshark's") {
  TempDir dir("icmp-echo");
  // Frame 1's data starts with a timeval (little-endian, as Linux ping
  // writes it) half a second before the frame; frame 2 answers it 15 ms
  // later, frame 5 again (an identical reply: no request of its own); frame
  // 3 carries 3 bytes, frame 4 none, frame 6 answers nothing.
  const int64_t start = 1'750'000'000'000'000;  // microseconds, as PcapBuilder counts
  Bytes stamped;
  for (uint32_t v : {uint32_t(start / 1'000'000), 0u})
    for (int i = 0; i < 4; ++i) stamped.push_back(uint8_t(v >> (8 * i)));
  for (uint8_t b = 8; b < 56; ++b) stamped.push_back(b);
  const Bytes request = icmp4Echo(8, 0x1234, 1, stamped), reply = icmp4Echo(0, 0x1234, 1, stamped);
  PcapBuilder pcap(1);
  pcap.packet(start + 500'000, inEthernet(ipv4(kClient, kServer, 1, request)))
      .packet(start + 515'000, inEthernet(ipv4(kServer, kClient, 1, reply)))
      .packet(start + 1'000'000, inEthernet(ipv4(kClient, kServer, 1, icmp4Echo(8, 0x1234, 2, {1, 2, 3}))))
      .packet(start + 2'000'000, inEthernet(ipv4(kClient, kServer, 1, icmp4Echo(8, 0x1234, 3, {}))))
      .packet(start + 2'100'000, inEthernet(ipv4(kServer, kClient, 1, reply)))
      .packet(start + 2'200'000, inEthernet(ipv4(kServer, kClient, 1, icmp4Echo(0, 0x1234, 9, {}))));
  const std::string capture = dir / "echo.pcap";
  writeFile(capture, pcap.bytes());
  const std::string out = verboseAsTshark(capture);
  CHECK(occurrences(out, "\n    Type: 8 (Echo (ping) request)\n") == 3);
  CHECK(occurrences(out, "\n    Type: 0 (Echo (ping) reply)\n") == 3);
  CHECK(occurrences(out, "\n    Identifier (BE): 4660 (0x1234)\n    Identifier (LE): 13330 (0x3412)\n") == 6);
  CHECK(occurrences(out, "\n    [Request frame: 1]\n    [Response time: 15.000 ms]\n") == 1);
  CHECK(occurrences(out, "[Request frame:") == 1);
  // The data's timestamp is the second the capture starts in: 0.5 s before frame 1, 0.515 s before frame 2.
  CHECK(occurrences(out, "\n    [Timestamp from icmp data (relative): 0.500000000 seconds]\n") == 1);
  CHECK(occurrences(out, "\n    [Timestamp from icmp data (relative): 0.515000000 seconds]\n") == 1);
  CHECK(occurrences(out, "\n    Data (48 bytes)\n") == 3);
  CHECK(occurrences(out, "\n    Data (3 bytes)\n\n0000  01 02 03") == 1);
  CHECK(occurrences(out, "[Checksum Status: Good]") == 6);
}
