// TCP header and option decoding, including malformed option lengths.
#include <catch2/catch.hpp>

#include "capture_test_util.h"
#include "decode/transport.h"
#include "link_scenario.h"

using namespace rudp;
using namespace rudp::test;
using namespace rudp::testgen;

namespace {

Bytes tcpPacket(const Bytes& options, const Bytes& payload, uint8_t flags = kAckBit) {
  return ipv4(
      kClient4, kServer4, 6,
      testgen::tcp(kClient4, kServer4, 50010, 443, 0xfffffff0, 0x01020304, flags, 1234, options, payload));
}

Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes b;
  for (const Bytes& p : parts) append(b, p);
  return b;
}

// parseTcpOptions on an exactly sized heap copy (ASan catches over-reads).
bool parse(const Bytes& opts, TcpOptions& o) {
  std::unique_ptr<uint8_t[]> buf(new uint8_t[opts.size() + 1]);
  std::copy(opts.begin(), opts.end(), buf.get());
  return transport::parseTcpOptions(buf.get(), uint32_t(opts.size()), o);
}

}  // namespace

TEST_CASE("tcp: fixed header fields", "[decode]") {
  Decoder dec(228);
  auto d = decodeFrame(dec, tcpPacket({}, text("GET /"), kPsh | kAckBit | 0x80));
  CHECK(d.pkt.error == "");
  CHECK(d.pkt.l4 == L4::TCP);
  CHECK(d.pkt.sport == 50010);
  CHECK(d.pkt.dport == 443);
  CHECK(d.pkt.tcp.seq == 0xfffffff0);
  CHECK(d.pkt.tcp.ack == 0x01020304);
  CHECK(d.pkt.tcp.flags == 0x98);
  CHECK(d.pkt.tcp.window == 1234);
  CHECK(d.pkt.tcp.header_len == 20);
  CHECK(d.pkt.payload_reported_len == 5);
  CHECK(d.payload == text("GET /"));
}

TEST_CASE("tcp: all option kinds", "[decode]") {
  Decoder dec(228);
  auto d = decodeFrame(dec, tcpPacket(cat({optMss(536), optNop(), optWscale(14), optSackPermitted(),
                                           optTimestamps(0xdeadbeef, 0x01020304), Bytes{30, 4, 1, 2},
                                           optNop(), optNop(), optNop(), optNop()}),
                                      {}, kSyn));
  const TcpOptions& o = d.pkt.tcp.options;
  CHECK(d.pkt.error == "");
  CHECK(d.pkt.tcp.header_len == 48);
  CHECK(o.mss == 536);
  CHECK(o.window_scale == 14);
  CHECK(o.sack_permitted);
  CHECK(o.has_timestamps);
  CHECK(o.tsval == 0xdeadbeef);
  CHECK(o.tsecr == 0x01020304);
}

TEST_CASE("tcp: SACK with up to four blocks", "[decode]") {
  Decoder dec(228);
  auto four = decodeFrame(
      dec,
      tcpPacket(cat({optNop(), optNop(), optSack({{1, 2}, {3, 4}, {5, 6}, {0xfffffff0, 0x10}})}), text("d")));
  const TcpOptions& o = four.pkt.tcp.options;
  CHECK(four.pkt.error == "");
  REQUIRE(o.sack_block_count == 4);
  CHECK(o.sack_blocks[0] == std::make_pair(1u, 2u));
  CHECK(o.sack_blocks[2] == std::make_pair(5u, 6u));
  CHECK(o.sack_blocks[3] == std::make_pair(0xfffffff0u, 0x10u));
  CHECK(four.payload == text("d"));

  auto three = decodeFrame(dec, tcpPacket(cat({optNop(), optNop(), optTimestamps(7, 8), optNop(), optNop(),
                                               optSack({{10, 20}, {30, 40}, {50, 60}})}),
                                          {}));
  CHECK(three.pkt.tcp.options.sack_block_count == 3);
  CHECK(three.pkt.tcp.options.tsval == 7);
  CHECK(three.pkt.tcp.options.sack_blocks[1] == std::make_pair(30u, 40u));
}

TEST_CASE("tcp: end-of-list stops parsing; window scale capped at 14", "[decode]") {
  TcpOptions o;
  CHECK(parse(Bytes{0, 2, 4, 5, 0xb4}, o));
  CHECK(o.mss == 0);
  TcpOptions w;
  CHECK(parse(optWscale(15), w));
  CHECK(w.window_scale == 14);
}

TEST_CASE("tcp: malformed option lengths never read out of bounds", "[decode]") {
  const std::vector<Bytes> bad = {
      Bytes{2},                          // kind without length
      Bytes{2, 0},                       // length 0
      Bytes{2, 1},                       // length 1
      Bytes{2, 4, 5},                    // length past the end
      Bytes{2, 3, 5},                    // MSS with the wrong length
      Bytes{3, 2},                       // window scale too short
      Bytes{4, 3, 0},                    // SACK permitted too long
      Bytes{5, 7, 0, 0, 0, 0, 0},        // SACK not a multiple of 8
      Bytes{8, 9, 0, 0, 0, 0, 0, 0, 0},  // timestamps wrong length
      Bytes{30, 200, 0, 0},              // unknown kind, huge length
      Bytes{5, 255},                     // SACK claims 255 bytes
  };
  for (const Bytes& b : bad) {
    TcpOptions o;
    CHECK_FALSE(parse(b, o));
  }
  // An option before the bad one stays decoded.
  TcpOptions o;
  CHECK_FALSE(parse(Bytes{2, 4, 5, 0xb4, 8, 20}, o));
  CHECK(o.mss == 1460);

  // Through the decoder: the payload is still delivered, with an error.
  Decoder dec(228);
  auto d = decodeFrame(dec, tcpPacket(Bytes{2, 4, 1, 0, 8, 40, 0, 0}, text("data")));
  CHECK(d.pkt.error == "TCP options malformed");
  CHECK(d.pkt.tcp.options.mss == 256);
  CHECK(d.payload == text("data"));
}

TEST_CASE("tcp: broken headers", "[decode]") {
  Decoder dec(228);
  const Bytes good = tcpPacket(cat({optNop(), optNop(), optTimestamps(1, 2)}), text("abc"));
  auto cut = decodeFrame(dec, Bytes(good.begin(), good.begin() + 20 + 19));
  CHECK(cut.pkt.error == "TCP header truncated");
  CHECK(cut.pkt.l4 == L4::None);

  auto optsCut = decodeFrame(dec, Bytes(good.begin(), good.begin() + 20 + 24));
  CHECK(optsCut.pkt.error == "TCP header truncated");
  CHECK(optsCut.pkt.l4 == L4::TCP);
  CHECK(optsCut.pkt.tcp.header_len == 32);
  CHECK(optsCut.pkt.payload_len == 0);
  // Cut by the snap length: tcp.len is what the IP length gives, as in tshark.
  const Bytes snapped(good.begin(), good.begin() + 20 + 24);
  auto snap = decodeFrame(dec, snapped, 0, 1, uint32_t(good.size()));
  CHECK(snap.pkt.error == "TCP header truncated");
  CHECK(snap.pkt.payload_reported_len == 3);

  Bytes smallOffset = good;
  smallOffset[20 + 12] = 0x40;  // data offset 4 words
  CHECK(decodeFrame(dec, smallOffset).pkt.error == "TCP header length invalid");

  Bytes beyondIp = tcpPacket({}, {});  // header says 60 bytes, the datagram holds 20
  beyondIp[20 + 12] = 0xf0;
  append(beyondIp, Bytes(40, 1));  // captured, but past the IP total length
  CHECK(decodeFrame(dec, beyondIp).pkt.error == "TCP header truncated");
}

TEST_CASE("tcp: padding and snapping", "[decode]") {
  Decoder eth(1);
  const Bytes pureAck = ethernet(kServerMac, kClientMac, tcpPacket({}, {}));
  REQUIRE(pureAck.size() == 60);  // 54 bytes padded
  auto a = decodeFrame(eth, pureAck);
  CHECK(a.pkt.error == "");
  CHECK(a.pkt.payload_len == 0);
  CHECK(a.pkt.payload_reported_len == 0);

  Decoder dec(228);
  const Bytes full = tcpPacket({}, pattern(1400, 5));
  auto s = decodeSnapped(dec, full, 40 + 60);
  CHECK(s.pkt.error == "");
  CHECK(s.pkt.payload_len == 60);
  CHECK(s.pkt.payload_reported_len == 1400);

  // Shorter on the wire than the IP total length says: tcp.len counts what was there.
  auto shortFrame = decodeFrame(dec, Bytes(full.begin(), full.begin() + 40 + 60));
  CHECK(shortFrame.pkt.error == "IPv4 total length exceeds packet length");
  CHECK(shortFrame.pkt.l4 == L4::TCP);
  CHECK(shortFrame.pkt.payload_reported_len == 60);
}
