// Decoder network layer: IPv4 options, padding, snapped frames, broken
// headers; IPv6 extension headers and fragments; UDP length handling.
#include <catch2/catch.hpp>

#include "capture_test_util.h"
#include "link_scenario.h"

using namespace rudp;
using namespace rudp::test;
using namespace rudp::testgen;

namespace {

Bytes udp4(const Bytes& payload, const Bytes& options = {}) {
  return ipv4(kClient4, kServer4, 17, udp(kClient4, kServer4, 5000, 7777, payload), 1, 0x4000, options);
}

void setBe16(Bytes& b, size_t o, uint16_t v) {
  b[o] = uint8_t(v >> 8);
  b[o + 1] = uint8_t(v);
}

}  // namespace

TEST_CASE("ipv4: options of every size are skipped", "[decode]") {
  Decoder dec(228);
  for (size_t words = 0; words <= 10; ++words) {
    INFO("option words " << words);
    Bytes opts(words * 4, 1);  // NOPs
    auto d = decodeFrame(dec, udp4(text("abc"), opts));
    CHECK(d.pkt.error == "");
    CHECK(d.pkt.l4 == L4::UDP);
    CHECK(d.payload == text("abc"));
  }
}

TEST_CASE("ipv4: Ethernet padding is trimmed by the total length", "[decode]") {
  Decoder dec(1);
  const Bytes frame = ethernet(kServerMac, kClientMac, udp4(text("x")));
  REQUIRE(frame.size() == 60);
  auto d = decodeFrame(dec, frame);
  CHECK(d.pkt.payload_len == 1);
  CHECK(d.pkt.payload_reported_len == 1);
  CHECK(d.payload == text("x"));
}

TEST_CASE("ipv4: a snapped frame keeps the reported length", "[decode]") {
  Decoder dec(228);
  auto d = decodeSnapped(dec, udp4(pattern(1000, 3)), 20 + 8 + 100);
  CHECK(d.pkt.error == "");
  CHECK(d.pkt.payload_len == 100);
  CHECK(d.pkt.payload_reported_len == 1000);
  const Bytes all = pattern(1000, 3);
  CHECK(d.payload == Bytes(all.begin(), all.begin() + 100));
}

TEST_CASE("ipv4: broken headers set a short error and keep what decoded", "[decode]") {
  Decoder dec(228);
  const Bytes good = udp4(text("hi"));
  CHECK(decodeFrame(dec, Bytes(good.begin(), good.begin() + 19)).pkt.error == "IPv4 header truncated");
  CHECK(decodeFrame(dec, Bytes(good.begin(), good.begin() + 19)).pkt.l3 == L3::None);

  Bytes longHeader = good;
  longHeader[0] = 0x4f;  // IHL 15 = 60 bytes, more than captured
  setBe16(longHeader, 2, 80);
  longHeader.resize(40);
  auto d = decodeFrame(dec, longHeader);
  CHECK(d.pkt.error == "IPv4 header truncated");
  CHECK(d.pkt.l3 == L3::IPv4);
  CHECK(d.pkt.src.toString() == "10.0.0.1");
  CHECK(d.pkt.l4 == L4::None);

  Bytes shortIhl = good;
  shortIhl[0] = 0x44;
  CHECK(decodeFrame(dec, shortIhl).pkt.error == "IPv4 header length invalid");
  // Lengths that contradict each other: no field is read (tshark shows no ip.src).
  CHECK(decodeFrame(dec, shortIhl).pkt.l3 == L3::None);

  Bytes smallTotal = good;
  setBe16(smallTotal, 2, 12);
  CHECK(decodeFrame(dec, smallTotal).pkt.error == "IPv4 total length invalid");
  CHECK(decodeFrame(dec, smallTotal).pkt.l3 == L3::None);

  Bytes tso = good;  // total length 0: segmentation offload, trust the capture
  setBe16(tso, 2, 0);
  auto t = decodeFrame(dec, tso);
  CHECK(t.pkt.error == "");
  CHECK(t.payload == text("hi"));
}

TEST_CASE("ipv4: non-UDP/TCP protocols stop at L3", "[decode]") {
  Decoder dec(228);
  auto d = decodeFrame(dec, ipv4(kClient4, kServer4, 1, Bytes{8, 0, 0, 0, 0, 0, 0, 0}));
  CHECK(d.pkt.error == "");
  CHECK(d.pkt.ip_proto == 1);
  CHECK(d.pkt.l4 == L4::None);
}

TEST_CASE("udp: truncated header and bad length fields", "[decode]") {
  Decoder dec(228);
  const Bytes good = udp4(text("hello"));
  auto cut = decodeFrame(dec, Bytes(good.begin(), good.begin() + 27));
  CHECK(cut.pkt.error == "UDP header truncated");
  CHECK(cut.pkt.l3 == L3::IPv4);
  CHECK(cut.pkt.l4 == L4::None);

  Bytes tiny = good;
  setBe16(tiny, 24, 7);
  auto t = decodeFrame(dec, tiny);
  CHECK(t.pkt.error == "UDP length invalid");
  CHECK(t.pkt.l4 == L4::UDP);
  CHECK(t.pkt.dport == 7777);
  CHECK(t.pkt.payload_len == 0);

  Bytes shorter = good;  // UDP says 3 payload bytes, IP carries 5: trailer ignored
  setBe16(shorter, 24, 11);
  auto s = decodeFrame(dec, shorter);
  CHECK(s.pkt.error == "");
  CHECK(s.payload == text("hel"));

  Bytes longer = good;  // UDP claims more than the IP datagram holds
  setBe16(longer, 24, 100);
  auto l = decodeFrame(dec, longer);
  CHECK(l.pkt.error == "UDP length exceeds IP payload");
  CHECK(l.pkt.payload_len == 5);
  CHECK(l.pkt.payload_reported_len == 92);
}

TEST_CASE("ipv6: extension headers are skipped", "[decode]") {
  Decoder dec(229);
  const Bytes seg = udp(kClient6, kServer6, 1, 7777, text("ext"));
  struct Case {
    const char* what;
    uint8_t first;
    Bytes ext;
  };
  Bytes atomic{17, 0, 0, 0, 0, 0, 0, 7};  // fragment header, offset 0, M = 0
  Bytes bigDest{43, 2, 1, 20};
  bigDest.resize(24, 0);                                                       // (2+1)*8 bytes with a PadN
  Bytes ahFixed{17, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0xaa, 0xbb, 0xcc, 0xdd};  // (2+2)*4 = 16
  const std::vector<Case> cases = {
      {"hop-by-hop", 0, ext8(17)},
      {"destination options", 60, ext8(17)},
      {"hop-by-hop, destination", 0,
       [] {
         Bytes b = ext8(60);
         append(b, ext8(17));
         return b;
       }()},
      {"routing", 43, Bytes{17, 0, 0, 0, 0, 0, 0, 0}},
      {"dest 24 bytes, routing", 60,
       [&] {
         Bytes b = bigDest;
         append(b, Bytes{17, 0, 0, 0, 0, 0, 0, 0});
         return b;
       }()},
      {"AH", 51, ahFixed},
      {"atomic fragment", 44, atomic},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    auto d = decodeFrame(dec, ipv6(kClient6, kServer6, c.first, c.ext, seg));
    CHECK(d.pkt.error == "");
    CHECK(d.pkt.ip_proto == 17);
    CHECK_FALSE(d.pkt.ip_fragment);
    CHECK(d.pkt.l4 == L4::UDP);
    CHECK(d.payload == text("ext"));
  }
}

TEST_CASE("ipv6: fragments, ESP, no-next-header and broken headers", "[decode]") {
  Decoder dec(229);
  const Bytes seg = udp(kClient6, kServer6, 1, 7777, pattern(64, 1));
  auto first = decodeFrame(dec, ipv6(kClient6, kServer6, 44, Bytes{17, 0, 0x00, 0x01, 0, 0, 0, 9}, seg));
  CHECK(first.pkt.ip_fragment);
  CHECK(first.pkt.ip_proto == 17);
  CHECK(first.pkt.l4 == L4::None);
  CHECK(first.pkt.error == "");
  auto later = decodeFrame(dec, ipv6(kClient6, kServer6, 44, Bytes{17, 0, 0x00, 0x40, 0, 0, 0, 10}, seg));
  CHECK(later.pkt.ip_fragment);
  CHECK(later.pkt.l4 == L4::None);

  auto esp = decodeFrame(dec, ipv6(kClient6, kServer6, 50, {}, pattern(40, 0)));
  CHECK(esp.pkt.ip_proto == 50);
  CHECK(esp.pkt.l4 == L4::None);
  CHECK(esp.pkt.error == "");
  CHECK(decodeFrame(dec, ipv6(kClient6, kServer6, 59, {}, {})).pkt.ip_proto == 59);

  Bytes cutExt = ipv6(kClient6, kServer6, 0, Bytes{17, 1, 1, 4, 0, 0, 0, 0}, {});
  auto c = decodeFrame(dec, cutExt);  // says 16 bytes, only 8 there
  CHECK(c.pkt.error == "IPv6 extension header truncated");
  CHECK(c.pkt.l3 == L3::IPv6);
  CHECK(c.pkt.src.toString() == "fd00::1");

  Bytes bad = ipv6(kClient6, kServer6, 17, {}, seg);
  bad[0] = 0x40;
  CHECK(decodeFrame(dec, bad).pkt.error == "IPv6 header has bad version");
}

TEST_CASE("ipv6: trailing bytes beyond the payload length are ignored", "[decode]") {
  Decoder dec(229);
  Bytes pkt = ipv6(kClient6, kServer6, 17, {}, udp(kClient6, kServer6, 1, 7777, text("abc")));
  append(pkt, Bytes(10, 0xee));
  auto d = decodeFrame(dec, pkt);
  CHECK(d.pkt.error == "");
  CHECK(d.payload == text("abc"));
  // Snapped IPv6: reported length from the UDP header.
  const Bytes big = ipv6(kClient6, kServer6, 17, {}, udp(kClient6, kServer6, 1, 7777, pattern(500, 2)));
  auto s = decodeSnapped(dec, big, 40 + 8 + 20);
  CHECK(s.pkt.payload_len == 20);
  CHECK(s.pkt.payload_reported_len == 500);
  CHECK(s.pkt.error == "");
}
