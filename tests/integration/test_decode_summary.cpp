// rudpscope-cli decode without -e or -V prints a line per frame as tshark
// does (No. Time Source Destination Protocol Length Info): the packet
// list's columns, in capture order. Checked line for line against tshark
// 4.0 on the bundled sample and on a capture built here of ICMP and ICMPv6
// messages of most kinds (pings of both families paired with their
// replies, Neighbor Discovery with its link-layer addresses, errors,
// unknown types) and IPv4/IPv6 fragments no datagram completes; and the
// packet list's rows of that capture, each dissected alone from its
// database row, against tshark's Protocol and Info columns.
#include <catch2/catch.hpp>

#include <algorithm>

#include "capture_checks.h"
#include "grudp_flow.h"
#include "packets/frame_dissector.h"
#include "store/store_reader.h"

using namespace rudp;
using namespace rudp::test;
using namespace rudp::testgen;
using namespace rudp::testgen::flow;

namespace {

const Ip6 kLinkLocal{0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
const Ip6 kUnspecified{};
const Ip6 kSolicitedNode{0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0, 0, 2};
const Ip6 kAllRouters{0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
const Ip6 kAllNodes{0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
const Ip4 kBroadcast{255, 255, 255, 255};

// An ICMP message: type, code, checksum, then `body` (from the second word on).
Bytes icmp4(uint8_t type, uint8_t code, const Bytes& body) {
  Bytes b{type, code, 0, 0};
  append(b, body);
  const uint16_t c = fold(sum16(b.data(), b.size()));
  b[2] = uint8_t(c >> 8);
  b[3] = uint8_t(c);
  return b;
}

Bytes icmp6(const Ip6& src, const Ip6& dst, uint8_t type, uint8_t code, const Bytes& body) {
  Bytes b{type, code, 0, 0};
  append(b, body);
  const uint16_t c = l4Checksum(src, dst, 58, b);
  b[2] = uint8_t(c >> 8);
  b[3] = uint8_t(c);
  return b;
}

Bytes concat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) append(out, p);
  return out;
}

Bytes ip6Bytes(const Ip6& a) { return Bytes(a.begin(), a.end()); }

// Neighbor Discovery's link-layer address options (RFC 4861 4.6.1), and an
// EUI-64 one (RFC 4944: 8 bytes, 6 of padding).
Bytes sourceLinkAddress() { return {1, 1, 2, 0, 0, 0, 0, 1}; }
Bytes targetLinkAddress() { return {2, 1, 2, 0, 0, 0, 0, 2}; }
Bytes eui64Address() { return {1, 2, 0, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0, 0, 0, 0, 0, 0}; }
Bytes prefixInformation() {
  Bytes b{3, 4, 64, 0xc0, 0, 0, 0x0e, 0x10, 0, 0, 0x07, 0x08, 0, 0, 0, 0};
  append(b, ip6Bytes(kServer6));
  return b;
}

Bytes v4(const Ip4& src, const Ip4& dst, const Bytes& icmp, uint8_t ttl = 64) {
  return inEthernet(ipv4(src, dst, 1, icmp, 0x4d2, 0x4000, {}, ttl));
}
Bytes v6(const Ip6& src, const Ip6& dst, const Bytes& icmp, uint8_t hopLimit = 255) {
  return inEthernet(ipv6(src, dst, 58, {}, icmp, hopLimit));
}

std::string icmpCapture(const TempDir& dir) {
  const Bytes ping = pattern(32, 7);
  const Bytes idSeq{0x12, 0x34, 0, 1};
  const Bytes quotedUdp = ipv4(kClient, kServer, 17, udp(kClient, kServer, 40000, 9000, pattern(12, 1)));
  const Bytes datagram = udp(kClient, kServer, 40000, 9000, pattern(40, 3));
  std::vector<Bytes> frames = {
      v4(kClient, kServer, icmp4(8, 0, concat({idSeq, ping}))),
      v4(kServer, kClient, icmp4(0, 0, concat({idSeq, ping})), 57),
      v4(kClient, kServer, icmp4(13, 0, concat({{0, 7, 0, 2}, Bytes(12, 0)}))),
      v4(kServer, kClient, icmp4(14, 0, concat({{0, 7, 0, 2}, Bytes(12, 0)}))),
      v4(kClient, kServer, icmp4(17, 0, {0, 1, 0, 1, 0, 0, 0, 0})),
      v4(kServer, kBroadcast, icmp4(9, 0, {1, 2, 0, 30, 10, 0, 0, 2, 0, 0, 0, 0})),
      v4(kServer, kBroadcast, icmp4(9, 16, {1, 2, 0, 30, 10, 0, 0, 2, 0, 0, 0, 0})),
      v4(kServer, kBroadcast, icmp4(9, 5, {1, 2, 0, 30, 10, 0, 0, 2, 0, 0, 0, 0})),
      v4(kClient, kBroadcast, icmp4(10, 0, {0, 0, 0, 0})),
      v4(kServer, kClient, icmp4(5, 1, concat({{10, 0, 0, 9}, quotedUdp}))),
      v4(kServer, kClient, icmp4(4, 0, concat({{0, 0, 0, 0}, quotedUdp}))),
      v4(kServer, kClient, icmp4(3, 10, concat({{0, 0, 0, 0}, quotedUdp}))),
      v4(kServer, kClient, icmp4(40, 3, {0, 0, 0, 0})),
      v4(kServer, kClient, icmp4(44, 0, {0, 0, 0, 0})),
      // A datagram's first fragment, whose second never comes, and a later fragment alone.
      inEthernet(ipv4(kClient, kServer, 17, Bytes(datagram.begin(), datagram.begin() + 24), 0x0abc, 0x2000)),
      inEthernet(ipv4(kClient, kServer, 17, pattern(16, 5), 0x0abd, 185)),
      v6(kClient6, kServer6, icmp6(kClient6, kServer6, 128, 0, concat({idSeq, ping})), 64),
      v6(kServer6, kClient6, icmp6(kServer6, kClient6, 129, 0, concat({idSeq, ping})), 61),
      v6(kLinkLocal, kSolicitedNode,
         icmp6(kLinkLocal, kSolicitedNode, 135, 0,
               concat({Bytes(4, 0), ip6Bytes(kServer6), sourceLinkAddress()}))),
      v6(kUnspecified, kSolicitedNode,
         icmp6(kUnspecified, kSolicitedNode, 135, 0, concat({Bytes(4, 0), ip6Bytes(kServer6)}))),
      v6(kLinkLocal, kSolicitedNode,
         icmp6(kLinkLocal, kSolicitedNode, 135, 0,
               concat({Bytes(4, 0), ip6Bytes(kServer6), eui64Address()}))),
      v6(kServer6, kLinkLocal,
         icmp6(kServer6, kLinkLocal, 136, 0,
               concat({{0x60, 0, 0, 0}, ip6Bytes(kServer6), targetLinkAddress()}))),
      v6(kServer6, kAllNodes, icmp6(kServer6, kAllNodes, 136, 0, concat({Bytes(4, 0), ip6Bytes(kServer6)}))),
      v6(kServer6, kAllNodes,
         icmp6(kServer6, kAllNodes, 136, 0, concat({{0x80, 0, 0, 0}, ip6Bytes(kServer6)}))),
      v6(kLinkLocal, kAllRouters,
         icmp6(kLinkLocal, kAllRouters, 133, 0, concat({Bytes(4, 0), sourceLinkAddress()}))),
      v6(kRouter6, kAllNodes,
         icmp6(kRouter6, kAllNodes, 134, 0,
               concat(
                   {{64, 0, 0x07, 0x08, 0, 0, 0, 0, 0, 0, 0, 0}, sourceLinkAddress(), prefixInformation()}))),
      v6(kRouter6, kClient6,
         icmp6(kRouter6, kClient6, 137, 0,
               concat({Bytes(4, 0), ip6Bytes(kLinkLocal), ip6Bytes(kServer6), targetLinkAddress()}))),
      v6(kLinkLocal, kAllRouters, icmp6(kLinkLocal, kAllRouters, 143, 0, {0, 0, 0, 0}), 1),
      v6(kClient6, kServer6, icmp6(kClient6, kServer6, 139, 1, concat({{0, 2, 0, 0}, Bytes(8, 9)}))),
      v6(kClient6, kServer6, icmp6(kClient6, kServer6, 99, 0, {0, 0, 0, 0})),
      inEthernet(ipv6(kClient6, kServer6, 44, fragmentHeader(17, 1232, true, 0x80000007u), pattern(16, 6))),
  };
  PcapBuilder pcap(1);
  int64_t us = 1'750'000'000'000'000;
  for (const Bytes& f : frames) pcap.packet(us += 1500, f);
  const std::string capture = dir / "icmp-kinds.pcap";
  writeFile(capture, pcap.bytes());
  return capture;
}

// tshark's summary lines and decode's, both run on `capture`.
std::pair<std::vector<std::string>, std::vector<std::string>> summaries(const std::string& capture) {
  std::vector<std::string> ts = {TSHARK_EXECUTABLE, "-n", "-r", capture};
  for (const auto& a : tsharkDissectorArgs()) ts.push_back(a);
  const ProcessResult t = run(ts), o = run({RUDPSCOPE_CLI, "decode", capture});
  INFO(t.err << o.err);
  REQUIRE(t.status == 0);
  REQUIRE(o.status == 0);
  return {splitLines(t.out), splitLines(o.out)};
}

void checkSameLines(const std::vector<std::string>& want, const std::vector<std::string>& got) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("line " << i + 1);
    CHECK(got[i] == want[i]);
  }
}

}  // namespace

TEST_CASE("decode prints tshark's summary line of every frame of the sample") {
  const auto [want, got] = summaries(RUDPSCOPE_SOURCE_DIR "/resources/sample.pcap");
  checkSameLines(want, got);
  CHECK(got.size() == 5311);
  CHECK(got[0] == "    1   0.000000     10.0.1.1 \u2192 10.0.0.1     GRUDP 82 CONNECT seq=430716165 [R]");
}

TEST_CASE("decode's summary lines name ICMP and ICMPv6 messages and IP fragments as tshark does") {
  TempDir dir("decode-summary");
  const auto [want, got] = summaries(icmpCapture(dir));
  checkSameLines(want, got);
  REQUIRE(got.size() == 31);
  auto infoOf = [&](size_t frame) { return got[frame - 1].substr(got[frame - 1].find(" ICMP")); };
  CHECK(infoOf(2) == " ICMP 74 Echo (ping) reply    id=0x1234, seq=1/256, ttl=57 (request in 1)");
  CHECK(infoOf(18) == " ICMPv6 94 Echo (ping) reply id=0x1234, seq=1, hop limit=61 (request in 17)");
  CHECK(infoOf(19) == " ICMPv6 86 Neighbor Solicitation for 2001:db8::2 from 02:00:00:00:00:01");
  CHECK(infoOf(22) == " ICMPv6 86 Neighbor Advertisement 2001:db8::2 (sol, ovr) is at 02:00:00:00:00:02");
  CHECK(got[14].find(" IPv4 60 Fragmented IP protocol (proto=UDP 17, off=0, ID=0abc)") != std::string::npos);
  CHECK(got[30].find(" IPv6 78 IPv6 fragment (off=1232 more=y ident=0x80000007 nxt=17)") !=
        std::string::npos);
}

TEST_CASE("decode without -e or -V says what is wrong with a bad filter in one line and prints no frame") {
  const std::string sample = RUDPSCOPE_SOURCE_DIR "/resources/sample.pcap";
  const ProcessResult r = run({RUDPSCOPE_CLI, "decode", sample, "-Y", "grudp.seq >"});
  CHECK(r.status != 0);
  CHECK(r.out.empty());
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK_THAT(r.err, Catch::Contains("-Y"));
}

TEST_CASE("the packet list's rows of ICMP and ICMPv6 messages, each read alone, show tshark's columns") {
  TempDir dir("icmp-rows");
  const std::string capture = icmpCapture(dir), db = dir / "icmp.sqlite";
  const ProcessResult analysed = run({RUDPSCOPE_CLI, "analyze", capture, "--db", db});
  INFO(analysed.err);
  REQUIRE(analysed.status == 0);
  std::vector<std::string> ts = {TSHARK_EXECUTABLE,  "-n", "-r",          capture, "-T", "fields", "-e",
                                 "_ws.col.Protocol", "-e", "_ws.col.Info"};
  const ProcessResult t = run(ts);
  REQUIRE(t.status == 0);
  const std::vector<std::string> want = splitLines(t.out);
  StoreReader reader(db);
  const std::vector<PacketRecord> rows = reader.packets({});
  REQUIRE(rows.size() == want.size());
  DissectorOptions none;
  none.load_defaults = false;
  FrameDissector dissector(capture, none, reader.capture().first_ts_ns);
  size_t answered = 0;
  // Backwards: no row is read after the frames before it, as the list may open anywhere.
  for (size_t i = rows.size(); i-- > 0;) {
    const DissectedFrame f = dissector.dissect(rows[i], false);
    INFO("frame " << rows[i].frame);
    CHECK(f.protocol + "\t" + f.info == want[i]);
    answered += rows[i].echo_request.has_value();
  }
  CHECK(answered == 2);
  REQUIRE(rows[1].echo_request);
  CHECK(rows[1].echo_request->frame == 1);
  CHECK(rows[1].echo_request->ts_ns == rows[0].ts_ns);
  REQUIRE(rows[17].echo_request);
  CHECK(rows[17].echo_request->frame == 17);
}

TEST_CASE(
    "an ICMPv6 echo's details are tshark's: identifier, sequence, the request a reply answers, its data") {
  TempDir dir("icmp6-echo");
  const Bytes idSeq{0x5d, 0x8f, 0x01, 0x5a}, ping = pattern(56, 3);
  Bytes corrupted = icmp6(kServer6, kClient6, 129, 0, concat({{0x5d, 0x8f, 0x01, 0x5b}, ping}));
  corrupted[3] ^= 0x01;
  PcapBuilder pcap(1);
  const int64_t start = 1'750'000'000'000'000;
  pcap.packet(start, v6(kClient6, kServer6, icmp6(kClient6, kServer6, 128, 0, concat({idSeq, ping})), 64))
      .packet(start + 104'776,
              v6(kServer6, kClient6, icmp6(kServer6, kClient6, 129, 0, concat({idSeq, ping})), 55))
      .packet(start + 200'000, v6(kClient6, kServer6, icmp6(kClient6, kServer6, 128, 0, {0, 1, 0, 2}), 64))
      .packet(start + 300'000, v6(kServer6, kClient6, corrupted, 55));
  const std::string capture = dir / "echo6.pcap";
  writeFile(capture, pcap.bytes());
  const std::string out = verboseAsTshark(capture);
  CHECK(occurrences(out, "\n    Type: Echo (ping) request (128)\n") == 2);
  CHECK(occurrences(out, "\n    Identifier: 0x5d8f\n    Sequence: 346\n") == 2);
  CHECK(occurrences(out, "\n    [Response To: 1]\n    [Response Time: 104.776 ms]\n") == 1);
  CHECK(occurrences(out, "[Response To:") == 1);
  CHECK(occurrences(out, "\n    Data (56 bytes)\n") == 3);
  CHECK(occurrences(out, "[Checksum Status: Good]") == 3);
  CHECK(occurrences(out, "[Checksum Status: Bad]") == 1);
}
