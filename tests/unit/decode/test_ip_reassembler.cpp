// IPv4 and IPv6 reassembly: order, overlaps, duplicates, timeouts, memory bounds.
#include <catch2/catch.hpp>

#include "capture_test_util.h"
#include "decode/ip_reassembler.h"
#include "link_scenario.h"

using namespace rudp;
using namespace rudp::test;
using namespace rudp::testgen;

namespace {

using R = IpReassembler::Result;

IpAddress v4(uint8_t last) {
  IpAddress a;
  a.family = 4;
  a.bytes = {10, 0, 0, last};
  return a;
}

IpReassembler::Key key(uint16_t id, uint8_t src = 1) { return {v4(src), v4(2), id, 17}; }

R add(IpReassembler& r, const IpReassembler::Key& k, int64_t ts, uint32_t off, bool more, const Bytes& data,
      Bytes* whole = nullptr) {
  wire::Span s;
  const R res = r.add(k, ts, off, more, data.data(), uint32_t(data.size()), s);
  if (res == R::Complete && whole) *whole = Bytes(s.data, s.data + s.len);
  return res;
}

Bytes slice(const Bytes& b, size_t off, size_t len) {
  return Bytes(b.begin() + std::ptrdiff_t(off), b.begin() + std::ptrdiff_t(off + len));
}

// Fragments of a UDP datagram as IPv4 packets (offsets in bytes).
Bytes fragment(const Bytes& seg, uint16_t id, size_t off, size_t len, bool more, uint8_t proto = 17) {
  return ipv4(kClient4, kServer4, proto, slice(seg, off, len), id, uint16_t((more ? 0x2000 : 0) | off / 8));
}

// `d` completed a datagram of UDP carrying `payload`.
void checkReassembledUdp(const Decoded& d, const Bytes& payload) {
  CHECK(d.pkt.ip_reassembled);
  CHECK_FALSE(d.pkt.ip_fragment);
  CHECK(d.pkt.l4 == L4::UDP);
  CHECK(d.pkt.payload_len == payload.size());
  CHECK(d.pkt.payload_reported_len == payload.size());
  CHECK(d.payload == payload);
}

}  // namespace

TEST_CASE("reassembly: every delivery order completes once", "[decode]") {
  const Bytes data = pattern(40, 1);
  const std::vector<std::vector<int>> orders = {{0, 1, 2}, {2, 1, 0}, {1, 2, 0}, {2, 0, 1}};
  for (const auto& order : orders) {
    IpReassembler r;
    Bytes whole;
    int completed = 0;
    for (size_t i = 0; i < order.size(); ++i) {
      const int f = order[i];
      const R res =
          add(r, key(1), 0, uint32_t(f * 16), f != 2, slice(data, size_t(f) * 16, f == 2 ? 8 : 16), &whole);
      if (res == R::Complete) ++completed;
      CHECK(res == (i + 1 == order.size() ? R::Complete : R::Pending));
    }
    CHECK(completed == 1);
    CHECK(whole == data);
    CHECK(r.pendingDatagrams() == 0);
    CHECK(r.pendingBytes() == 0);
  }
}

TEST_CASE("reassembly: duplicates and overlaps keep the first copy", "[decode]") {
  IpReassembler r;
  Bytes whole;
  CHECK(add(r, key(2), 0, 0, true, Bytes(16, 0xaa)) == R::Pending);
  CHECK(add(r, key(2), 0, 0, true, Bytes(16, 0xaa)) == R::Pending);  // duplicate
  CHECK(add(r, key(2), 0, 8, true, Bytes(16, 0xbb)) == R::Pending);  // overlaps [8,16)
  CHECK(add(r, key(2), 0, 16, false, Bytes(8, 0xcc), &whole) == R::Complete);
  Bytes expected(16, 0xaa);
  append(expected, Bytes(8, 0xbb));
  CHECK(whole == expected);  // [16,24) came first from the overlapping fragment
}

TEST_CASE("reassembly: contradicting and out-of-range fragments are rejected", "[decode]") {
  IpReassembler r;
  CHECK(add(r, key(3), 0, 16, false, Bytes(8, 1)) == R::Pending);     // total 24
  CHECK(add(r, key(3), 0, 24, true, Bytes(8, 1)) == R::Invalid);      // past the end
  CHECK(add(r, key(3), 0, 32, false, Bytes(8, 1)) == R::Invalid);     // second, different end
  CHECK(add(r, key(3), 0, 0, true, Bytes(10, 1)) == R::Invalid);      // not a multiple of 8
  CHECK(add(r, key(3), 0, 65528, false, Bytes(8, 1)) == R::Invalid);  // beyond 65535
  Bytes whole;
  CHECK(add(r, key(3), 0, 0, true, Bytes(16, 2), &whole) == R::Complete);
  CHECK(whole.size() == 24);
}

TEST_CASE("reassembly: datagrams are kept apart by source, id and protocol", "[decode]") {
  IpReassembler r;
  Bytes w1, w2;
  CHECK(add(r, key(9, 1), 0, 0, true, Bytes(8, 1)) == R::Pending);
  CHECK(add(r, key(9, 3), 0, 0, true, Bytes(8, 3)) == R::Pending);
  auto other = key(9, 1);
  other.proto = 6;
  CHECK(add(r, other, 0, 8, false, Bytes(8, 6)) == R::Pending);
  auto v6 = key(9, 1);  // the same address bytes, of the other family
  v6.src.family = v6.dst.family = 6;
  v6.proto = 0;
  CHECK(add(r, v6, 0, 8, false, Bytes(8, 6)) == R::Pending);
  CHECK(r.pendingDatagrams() == 4);
  CHECK(add(r, key(9, 3), 0, 8, false, Bytes(4, 3), &w2) == R::Complete);
  CHECK(add(r, key(9, 1), 0, 8, false, Bytes(4, 1), &w1) == R::Complete);
  CHECK(w1 == Bytes{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
  CHECK(w2 == Bytes{3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3});
  CHECK(r.pendingDatagrams() == 2);
}

TEST_CASE("reassembly: pending datagrams time out by capture time", "[decode]") {
  IpReassembler r;
  const int64_t s = 1'000'000'000;
  CHECK(add(r, key(4), 100 * s, 0, true, Bytes(8, 1)) == R::Pending);
  CHECK(add(r, key(4), 130 * s, 8, true, Bytes(8, 1)) == R::Pending);        // exactly 30 s: kept
  CHECK(add(r, key(4), 130 * s + 1, 16, false, Bytes(8, 1)) == R::Pending);  // first part expired
  CHECK(r.droppedDatagrams() == 1);
  CHECK(r.pendingDatagrams() == 1);
}

TEST_CASE("reassembly: the number of pending datagrams is bounded", "[decode]") {
  IpReassembler::Limits lim;
  lim.max_datagrams = 4;
  IpReassembler r(lim);
  for (uint16_t id = 0; id < 6; ++id) CHECK(add(r, key(id), 0, 0, true, Bytes(8, 1)) == R::Pending);
  CHECK(r.pendingDatagrams() == 4);
  CHECK(r.droppedDatagrams() == 2);
  CHECK(add(r, key(0), 0, 8, false, Bytes(8, 1)) == R::Pending);  // oldest was evicted
  CHECK(add(r, key(5), 0, 8, false, Bytes(8, 1)) == R::Complete);
}

TEST_CASE("reassembly: buffered bytes are bounded", "[decode]") {
  IpReassembler::Limits lim;
  lim.max_bytes = 4000;
  IpReassembler r(lim);
  for (uint16_t id = 0; id < 100; ++id) {
    add(r, key(id), 0, 1480, true, Bytes(1480, 1));
    CHECK(r.pendingBytes() <= lim.max_bytes);
  }
  CHECK(r.pendingDatagrams() == 1);
  // A single datagram larger than the budget is refused, not kept.
  CHECK(add(r, key(500), 0, 8000, false, Bytes(8, 1)) == R::Invalid);
  CHECK(r.pendingBytes() <= lim.max_bytes);
}

TEST_CASE("reassembly: piece count per datagram is bounded", "[decode]") {
  IpReassembler r;
  // Every other 8-byte block: pieces never merge.
  int invalid = 0;
  for (uint32_t i = 0; i < 200; ++i)
    if (add(r, key(7), 0, i * 16, true, Bytes(8, 1)) == R::Invalid) ++invalid;
  CHECK(invalid > 0);
  CHECK(r.pendingBytes() < 200 * 16);
}

TEST_CASE("reassembly: through the decoder, UDP and TCP", "[decode]") {
  Decoder dec(228);
  const Bytes payload = pattern(3000, 9);
  const Bytes seg = udp(kClient4, kServer4, 40000, 40001, payload);
  auto f1 = decodeFrame(dec, fragment(seg, 77, 1480, 1480, true), 10);
  CHECK(f1.pkt.ip_fragment);
  CHECK_FALSE(f1.pkt.ip_reassembled);
  CHECK(f1.pkt.l3 == L3::IPv4);
  CHECK(f1.pkt.ip_proto == 17);
  CHECK(f1.pkt.l4 == L4::None);
  CHECK(f1.pkt.error == "");
  auto f2 = decodeFrame(dec, fragment(seg, 77, 0, 1480, true), 11);
  CHECK(f2.pkt.ip_fragment);
  auto f3 = decodeFrame(dec, fragment(seg, 77, 2960, 48, false), 12);
  checkReassembledUdp(f3, payload);
  CHECK(f3.pkt.sport == 40000);

  const Bytes tseg = tcp(kClient4, kServer4, 1, 2, 100, 200, kAckBit, 300,
                         Bytes{1, 1, 8, 10, 0, 0, 0, 5, 0, 0, 0, 6}, pattern(100, 1));
  CHECK(decodeFrame(dec, fragment(tseg, 78, 64, tseg.size() - 64, false, 6)).pkt.ip_fragment);
  auto t = decodeFrame(dec, fragment(tseg, 78, 0, 64, true, 6));
  CHECK(t.pkt.ip_reassembled);
  CHECK(t.pkt.l4 == L4::TCP);
  CHECK(t.pkt.tcp.options.tsval == 5);
  CHECK(t.payload == pattern(100, 1));
}

TEST_CASE("reassembly: a snapped fragment is flagged but not held", "[decode]") {
  Decoder dec(228);
  const Bytes seg = udp(kClient4, kServer4, 1, 2, pattern(2000, 1));
  // tshark reads the UDP header of a first fragment it cannot reassemble.
  auto d = decodeSnapped(dec, fragment(seg, 5, 0, 1480, true), 100);
  CHECK(d.pkt.ip_fragment);
  CHECK(d.pkt.l4 == L4::UDP);
  CHECK(d.pkt.payload_len == 100 - 28);
  CHECK(d.pkt.payload_reported_len == 2000);
  CHECK(d.pkt.error == "");
  auto last = decodeFrame(dec, fragment(seg, 5, 1480, seg.size() - 1480, false));
  CHECK(last.pkt.ip_fragment);  // the first part never arrived whole
  CHECK_FALSE(last.pkt.ip_reassembled);
}

// IPv6 fragments of a UDP datagram (offsets in bytes).
Bytes fragment6(const Bytes& seg, uint32_t id, size_t off, size_t len, bool more) {
  return ipv6(kClient6, kServer6, 44, fragmentHeader(17, uint32_t(off), more, id), slice(seg, off, len));
}

TEST_CASE("reassembly: IPv6 fragments through the decoder, in any order", "[decode]") {
  Decoder dec(229);
  const Bytes payload = pattern(200, 4);
  const Bytes seg = udp(kClient6, kServer6, 40000, 7777, payload);
  auto last = decodeFrame(dec, fragment6(seg, 0x12345678, 144, seg.size() - 144, false), 1);
  CHECK(last.pkt.ip_fragment);
  CHECK(last.pkt.l4 == L4::None);
  CHECK(last.pkt.ip_proto == 17);
  // Another datagram with the same 16 low bits of the id stays apart.
  CHECK(decodeFrame(dec, fragment6(seg, 0x5678, 0, 72, true), 2).pkt.ip_fragment);
  CHECK(decodeFrame(dec, fragment6(seg, 0x12345678, 0, 72, true), 3).pkt.ip_fragment);
  auto whole = decodeFrame(dec, fragment6(seg, 0x12345678, 72, 72, true), 4);
  checkReassembledUdp(whole, payload);
  CHECK(whole.pkt.dport == 7777);

  // A first fragment cut by the snap length is not decoded at all, as tshark 4.0 does.
  auto d = decodeSnapped(dec, fragment6(seg, 9, 0, 72, true), 60, 5);
  CHECK(d.pkt.ip_fragment);
  CHECK(d.pkt.l4 == L4::None);
}

TEST_CASE("reassembly: AH after IPv4 in the reassembled datagram is stepped over", "[decode]") {
  Decoder dec(228);
  const Bytes payload = pattern(60, 2);
  Bytes body = authHeader(17);
  append(body, udp(kClient4, kServer4, 40000, 7777, payload));
  CHECK(decodeFrame(dec, fragment(body, 3, 0, 48, true, 51)).pkt.ip_fragment);
  auto d = decodeFrame(dec, fragment(body, 3, 48, body.size() - 48, false, 51));
  CHECK(d.pkt.ip_reassembled);
  CHECK(d.pkt.ip_proto == 51);
  CHECK(d.pkt.l4 == L4::UDP);
  CHECK(d.payload == payload);
}
