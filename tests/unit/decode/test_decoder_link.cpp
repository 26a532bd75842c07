// Decoder link layers on frames built in memory: every supported DLT, VLAN
// tag stacks, loopback family values in both byte orders, broken headers.
#include <catch2/catch.hpp>

#include "capture_test_util.h"
#include "link_scenario.h"

using namespace rudp;
using namespace rudp::test;
using namespace rudp::testgen;

namespace {

// A small UDP/IPv4 and UDP/IPv6 datagram to wrap.
Bytes udp4Packet() {
  return ipv4(kClient4, kServer4, 17, udp(kClient4, kServer4, 1234, 7777, text("payload!")));
}
Bytes udp6Packet() {
  return ipv6(kClient6, kServer6, 17, {}, udp(kClient6, kServer6, 1234, 7777, text("six")));
}

Bytes withHeader(Bytes header, const Bytes& ip) {
  append(header, ip);
  return header;
}

void checkUdp4(const Decoded& d) {
  CHECK(d.pkt.error == "");
  CHECK(d.pkt.l3 == L3::IPv4);
  CHECK(d.pkt.src.toString() == "10.0.0.1");
  CHECK(d.pkt.dst.toString() == "10.0.0.2");
  CHECK(d.pkt.l4 == L4::UDP);
  CHECK(d.pkt.sport == 1234);
  CHECK(d.pkt.dport == 7777);
  CHECK(d.payload == text("payload!"));
}

void checkUdp6(const Decoded& d) {
  CHECK(d.pkt.error == "");
  CHECK(d.pkt.l3 == L3::IPv6);
  CHECK(d.pkt.src.toString() == "fd00::1");
  CHECK(d.pkt.l4 == L4::UDP);
  CHECK(d.payload == text("six"));
}

}  // namespace

TEST_CASE("link: Ethernet with 0, 1, 2 and 3 VLAN tags of every TPID", "[decode]") {
  Decoder dec(1);
  const std::vector<std::vector<uint16_t>> stacks = {
      {}, {0x8100}, {0x88a8}, {0x9100}, {0x88a8, 0x8100}, {0x9100, 0x8100}, {0x88a8, 0x8100, 0x8100}};
  for (const auto& tags : stacks) {
    INFO("tags " << tags.size());
    checkUdp4(decodeFrame(dec, ethernet(kServerMac, kClientMac, udp4Packet(), tags)));
    checkUdp6(decodeFrame(dec, ethernet(kServerMac, kClientMac, udp6Packet(), tags)));
  }
}

TEST_CASE("link: Ethernet non-IP and broken headers", "[decode]") {
  Decoder dec(1);
  Bytes arp = ethernet(kServerMac, kClientMac, Bytes(28, 0));
  arp[12] = 0x08;
  arp[13] = 0x06;
  auto d = decodeFrame(dec, arp);
  CHECK(d.pkt.l3 == L3::None);
  CHECK(d.pkt.error == "");

  CHECK(decodeFrame(dec, Bytes(13, 0)).pkt.error == "Ethernet header truncated");
  Bytes vlanCut{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x81, 0x00, 0x00};
  CHECK(decodeFrame(dec, vlanCut).pkt.error == "VLAN tag truncated");
  Bytes manyTags(14, 0);
  manyTags[12] = 0x81;
  for (int i = 0; i < 10; ++i) append(manyTags, {0x00, 0x01, 0x81, 0x00});
  append(manyTags, Bytes(40, 0));
  CHECK(decodeFrame(dec, manyTags).pkt.error == "too many VLAN tags");
}

TEST_CASE("link: Linux cooked v1 and v2", "[decode]") {
  Decoder v1(113), v2(276);
  checkUdp4(decodeFrame(v1, sll(0, kClientMac, udp4Packet())));
  checkUdp6(decodeFrame(v1, sll(4, kClientMac, udp6Packet())));
  checkUdp4(decodeFrame(v2, sll2(0, kClientMac, udp4Packet())));
  checkUdp6(decodeFrame(v2, sll2(4, kClientMac, udp6Packet())));
  CHECK(decodeFrame(v1, Bytes(15, 0)).pkt.error == "Linux cooked header truncated");
  CHECK(decodeFrame(v2, Bytes(19, 0)).pkt.error == "Linux cooked v2 header truncated");
  // A VLAN-tagged frame seen by a cooked capture.
  Bytes tagged = sll(0, kClientMac, Bytes{});
  tagged[14] = 0x81;
  tagged[15] = 0x00;
  append(tagged, {0x00, 0x64, 0x08, 0x00});
  append(tagged, udp4Packet());
  checkUdp4(decodeFrame(v1, tagged));
}

TEST_CASE("link: BSD loopback families in both byte orders", "[decode]") {
  Decoder null(0), loop(108);
  for (uint8_t fam : {24, 28, 30}) {
    INFO("AF_INET6 = " << int(fam));
    checkUdp6(decodeFrame(null, withHeader({fam, 0, 0, 0}, udp6Packet())));  // little-endian writer
    checkUdp6(decodeFrame(null, withHeader({0, 0, 0, fam}, udp6Packet())));  // big-endian writer
    checkUdp6(decodeFrame(loop, withHeader({0, 0, 0, fam}, udp6Packet())));
  }
  checkUdp4(decodeFrame(null, withHeader({2, 0, 0, 0}, udp4Packet())));
  checkUdp4(decodeFrame(null, withHeader({0, 0, 0, 2}, udp4Packet())));
  checkUdp4(decodeFrame(loop, withHeader({0, 0, 0, 2}, udp4Packet())));
  // Unknown family: not IP, not an error.
  auto d = decodeFrame(null, withHeader({7, 0, 0, 0}, udp4Packet()));
  CHECK(d.pkt.l3 == L3::None);
  CHECK(d.pkt.error == "");
  CHECK(decodeFrame(loop, Bytes{0, 0, 0}).pkt.error == "loopback header truncated");
  // An EtherType where the family belongs (PcapPlusPlus' NullLoopback.pcap):
  // Wireshark reads any value above 1500 as one.
  checkUdp4(decodeFrame(null, withHeader({0, 8, 0, 0}, udp4Packet())));
  checkUdp4(decodeFrame(null, withHeader({0, 0, 8, 0}, udp4Packet())));
  checkUdp6(decodeFrame(null, withHeader({0xdd, 0x86, 0, 0}, udp6Packet())));
}

TEST_CASE("link: raw IP in all its numberings", "[decode]") {
  for (int dlt : {12, 14, 101}) {
    INFO("dlt " << dlt);
    Decoder dec(dlt);
    checkUdp4(decodeFrame(dec, udp4Packet()));
    checkUdp6(decodeFrame(dec, udp6Packet()));
    CHECK(decodeFrame(dec, Bytes{0x50, 0, 0}).pkt.error == "raw IP frame with bad version");
    CHECK(decodeFrame(dec, Bytes{}).pkt.error == "IP header truncated");
  }
  Decoder v4(228), v6(229);
  checkUdp4(decodeFrame(v4, udp4Packet()));
  checkUdp6(decodeFrame(v6, udp6Packet()));
  CHECK(decodeFrame(v4, udp6Packet()).pkt.error == "IPv4 header has bad version");
  CHECK(decodeFrame(v6, udp4Packet()).pkt.error == "IPv6 header truncated");
}

TEST_CASE("link: unsupported link type", "[decode]") {
  Decoder dec(147);
  auto d = decodeFrame(dec, udp4Packet());
  CHECK(d.pkt.error == "link type 147 not supported");
  CHECK(d.pkt.l3 == L3::None);
}

TEST_CASE("link: frame metadata is copied and fields reset per packet", "[decode]") {
  Decoder dec(1);
  const Bytes tcpFrame =
      ethernet(kServerMac, kClientMac,
               ipv4(kClient4, kServer4, 6, tcp(kClient4, kServer4, 1, 2, 3, 4, kSyn, 5, optMss(1000), {})));
  std::unique_ptr<uint8_t[]> buf(new uint8_t[tcpFrame.size()]);
  std::copy(tcpFrame.begin(), tcpFrame.end(), buf.get());
  RawPacket raw;
  raw.frame = 42;
  raw.ts_ns = -5;
  raw.caplen = uint32_t(tcpFrame.size());
  raw.origlen = 9000;
  raw.file_offset = 123456789012ull;
  raw.data = buf.get();
  DecodedPacket out;
  out.error = "stale";
  dec.decode(raw, out);
  CHECK(out.frame == 42);
  CHECK(out.ts_ns == -5);
  CHECK(out.caplen == tcpFrame.size());
  CHECK(out.origlen == 9000);
  CHECK(out.file_offset == 123456789012ull);
  CHECK(out.error == "");
  CHECK(out.tcp.options.mss == 1000);

  Bytes arp(60, 0);
  arp[12] = 0x08;
  arp[13] = 0x06;
  raw.data = arp.data();
  raw.caplen = 60;
  dec.decode(raw, out);
  CHECK(out.l3 == L3::None);
  CHECK(out.l4 == L4::None);
  CHECK(out.tcp.options.mss == 0);
  CHECK(out.src.family == 0);
  CHECK(out.payload == nullptr);
}

TEST_CASE("link: a PPI header carries a frame of its inner link type", "[decode]") {
  Decoder ppi(192);
  // Version 0, flags 0, length 12 (8 + a 4-byte field), inner link type, the field.
  auto header = [](uint8_t innerDlt) { return Bytes{0, 0, 12, 0, innerDlt, 0, 0, 0, 2, 0, 0, 0}; };
  checkUdp4(decodeFrame(ppi, withHeader(header(1), ethernet(kServerMac, kClientMac, udp4Packet()))));
  checkUdp6(decodeFrame(ppi, withHeader(header(1), ethernet(kServerMac, kClientMac, udp6Packet()))));
  CHECK(decodeFrame(ppi, Bytes{0, 0, 12, 0, 1, 0}).pkt.error == "PPI header truncated");
  CHECK(decodeFrame(ppi, withHeader({0, 0, 200, 0, 1, 0, 0, 0}, udp4Packet())).pkt.error ==
        "PPI header length is bad");
  // A PPI header inside a PPI header is not followed.
  const Decoded nested = decodeFrame(ppi, withHeader(header(192), udp4Packet()));
  CHECK(nested.pkt.l3 == L3::None);
  CHECK(nested.pkt.error == "");
}
