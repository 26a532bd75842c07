// The 20 IP packets every tests/data/link capture carries, with what a
// decoder must report for each. make_link_captures wraps them in each link
// type; the unit tests compare decoded frames against the same table.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "frame_builder.h"

namespace rudp::testgen {

struct ScenarioFrame {
  Bytes ip;               // the IP datagram (or fragment)
  bool to_server = true;  // direction, for MAC addresses and SLL packet types
  // Expectations.
  std::string src, dst;  // text form
  uint8_t proto = 0;     // IP protocol (6, 17) of the transport layer
  bool has_l4 = false;   // transport decoded at this frame
  uint16_t sport = 0, dport = 0;
  Bytes payload;             // transport payload at this frame
  bool fragment = false;     // IPv4 fragment, datagram not complete yet
  bool reassembled = false;  // completes the fragmented datagram
};

inline const Ip4 kClient4{10, 0, 0, 1}, kServer4{10, 0, 0, 2};
inline const Ip6 kClient6{0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
inline const Ip6 kServer6{0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
inline const Mac kClientMac{2, 0, 0, 0, 0, 1}, kServerMac{2, 0, 0, 0, 0, 2};

// Capture times: microsecond files step 250.007 ms from 1700000000.123456 s;
// the nanosecond file uses 1700000000.123456789 s and steps of 250007003 ns.
inline int64_t usecTsNs(size_t index) { return 1'700'000'000'123'456'000 + int64_t(index) * 250'007'000; }
inline int64_t nsecTsNs(size_t index) { return 1'700'000'000'123'456'789 + int64_t(index) * 250'007'003; }

namespace detail {

inline ScenarioFrame udp4Frame(bool toServer, uint16_t cport, uint16_t sport, const Bytes& pl,
                               const Bytes& ipOptions = {}) {
  const Ip4& s = toServer ? kClient4 : kServer4;
  const Ip4& d = toServer ? kServer4 : kClient4;
  ScenarioFrame f;
  f.to_server = toServer;
  f.sport = toServer ? cport : sport;
  f.dport = toServer ? sport : cport;
  f.ip = ipv4(s, d, 17, udp(s, d, f.sport, f.dport, pl), 0x4d2, 0x4000, ipOptions);
  f.src = toServer ? "10.0.0.1" : "10.0.0.2";
  f.dst = toServer ? "10.0.0.2" : "10.0.0.1";
  f.proto = 17;
  f.has_l4 = true;
  f.payload = pl;
  return f;
}

inline ScenarioFrame tcp4Frame(bool toServer, uint32_t seq, uint32_t ack, uint8_t flags, uint16_t window,
                               const Bytes& options, const Bytes& pl) {
  const Ip4& s = toServer ? kClient4 : kServer4;
  const Ip4& d = toServer ? kServer4 : kClient4;
  ScenarioFrame f;
  f.to_server = toServer;
  f.sport = toServer ? 50010 : 40005;
  f.dport = toServer ? 40005 : 50010;
  f.ip = ipv4(s, d, 6, tcp(s, d, f.sport, f.dport, seq, ack, flags, window, options, pl));
  f.src = toServer ? "10.0.0.1" : "10.0.0.2";
  f.dst = toServer ? "10.0.0.2" : "10.0.0.1";
  f.proto = 6;
  f.has_l4 = true;
  f.payload = pl;
  return f;
}

inline Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes b;
  for (const Bytes& p : parts) append(b, p);
  return b;
}

}  // namespace detail

// The GRUDP datagram carried by the fragmented frames 8-10 (3000 bytes).
inline Bytes fragmentedGrudp() {
  return grudp({kData, kReliable | kAckFlag, 0x11223344, 1003, 9001, 0, 5100, 0, 2, 60, pattern(2968, 0x30)});
}

inline std::vector<ScenarioFrame> linkScenario() {
  using namespace detail;
  std::vector<ScenarioFrame> v;
  const uint32_t conn = 0x11223344;
  // 1-4: a GRUDP connection on the default port 7777.
  v.push_back(udp4Frame(true, 50000, 7777,
                        grudp({kConnect, kReliable, conn, 1000, 0, 0, 5000, 0, 0, 64, text("hello")})));
  v.push_back(
      udp4Frame(false, 50000, 7777,
                grudp({kAccept, kReliable | kAckFlag | kEcho, conn, 9000, 1000, 0, 7000, 5000, 0, 64, {}})));
  v.push_back(
      udp4Frame(true, 50000, 7777,
                grudp({kData, kReliable | kAckFlag, conn, 1001, 9000, 0, 5020, 0, 1, 64, pattern(24, 1)})));
  v.push_back(udp4Frame(false, 50000, 7777,
                        grudp({kAck, kAckFlag | kEcho, conn, 9001, 1001, 1, 7020, 5020, 0, 63, {}})));
  // 5-6: GRUDP on ports with no default, for heuristic detection.
  v.push_back(udp4Frame(true, 40000, 40001,
                        grudp({kData, kUnsequenced, 0x55667788, 1, 0, 0, 100, 0, 3, 32, pattern(16, 9)})));
  v.push_back(
      udp4Frame(false, 40000, 40001, grudp({kAck, kAckFlag, 0x55667788, 1, 1, 0, 110, 0, 0, 32, {}})));
  // 7: IPv4 with a Router Alert option (IHL 6).
  v.push_back(udp4Frame(true, 50000, 7777,
                        grudp({kPing, kReliable | kAckFlag, conn, 1002, 9000, 0, 5040, 0, 0, 64, {}}),
                        Bytes{0x94, 0x04, 0x00, 0x00}));
  // 8-10: one UDP datagram in three fragments, sent middle, last, first.
  {
    const Bytes seg = udp(kClient4, kServer4, 50000, 7777, fragmentedGrudp());  // 3008 bytes
    const uint16_t id = 0x1234;
    auto frag = [&](uint32_t off, uint32_t len, bool more) {
      ScenarioFrame f;
      f.ip = ipv4(kClient4, kServer4, 17, Bytes(seg.begin() + off, seg.begin() + off + len), id,
                  uint16_t((more ? 0x2000 : 0) | off / 8));
      f.src = "10.0.0.1";
      f.dst = "10.0.0.2";
      f.proto = 17;
      f.fragment = true;
      return f;
    };
    v.push_back(frag(1480, 1480, true));
    v.push_back(frag(2960, 48, false));
    ScenarioFrame first = frag(0, 1480, true);
    first.fragment = false;
    first.reassembled = true;
    first.has_l4 = true;
    first.sport = 50000;
    first.dport = 7777;
    first.payload = fragmentedGrudp();
    v.push_back(first);
  }
  // 11-12: IPv6; the first carries hop-by-hop and destination options.
  {
    const Bytes pl = grudp({kConnect, kReliable, 0x0a0b0c0d, 500, 0, 0, 1, 0, 0, 64, text("v6")});
    ScenarioFrame f;
    f.ip = ipv6(kClient6, kServer6, 0, cat({ext8(60), ext8(17)}), udp(kClient6, kServer6, 50002, 7777, pl));
    f.src = "fd00::1";
    f.dst = "fd00::2";
    f.proto = 17;
    f.has_l4 = true;
    f.sport = 50002;
    f.dport = 7777;
    f.payload = pl;
    v.push_back(f);
    const Bytes pl2 =
        grudp({kAccept, kReliable | kAckFlag | kEcho, 0x0a0b0c0d, 800, 500, 0, 2, 1, 0, 64, {}});
    ScenarioFrame g;
    g.to_server = false;
    g.ip = ipv6(kServer6, kClient6, 17, {}, udp(kServer6, kClient6, 7777, 50002, pl2));
    g.src = "fd00::2";
    g.dst = "fd00::1";
    g.proto = 17;
    g.has_l4 = true;
    g.sport = 7777;
    g.dport = 50002;
    g.payload = pl2;
    v.push_back(g);
  }
  // 13-18: TCP handshake, data both ways, and an ACK carrying a SACK block.
  v.push_back(
      tcp4Frame(true, 0x10000000, 0, kSyn, 64240,
                cat({optMss(1460), optSackPermitted(), optTimestamps(100, 0), optNop(), optWscale(7)}), {}));
  v.push_back(tcp4Frame(
      false, 0x20000000, 0x10000001, kSyn | kAckBit, 65160,
      cat({optMss(1400), optSackPermitted(), optTimestamps(200, 100), optNop(), optWscale(8)}), {}));
  v.push_back(tcp4Frame(true, 0x10000001, 0x20000001, kAckBit, 502,
                        cat({optNop(), optNop(), optTimestamps(101, 200)}), {}));
  v.push_back(tcp4Frame(true, 0x10000001, 0x20000001, kPsh | kAckBit, 502,
                        cat({optNop(), optNop(), optTimestamps(102, 200)}), pattern(100, 0x41)));
  v.push_back(tcp4Frame(false, 0x20000001, 0x10000065, kPsh | kAckBit, 509,
                        cat({optNop(), optNop(), optTimestamps(201, 102)}), pattern(50, 0x61)));
  v.push_back(tcp4Frame(true, 0x10000065, 0x20000033, kAckBit, 502,
                        cat({optNop(), optNop(), optTimestamps(103, 201), optNop(), optNop(),
                             optSack({{0x20000100, 0x20000200}})}),
                        {}));
  // 19: malformed GRUDP: 12 bytes with a bad magic (short and wrong).
  v.push_back(udp4Frame(true, 50000, 7777, Bytes{'X', 'U', 0x10, 0x01, 0, 0, 0, 0, 0, 0, 0, 0}));
  // 20: the client disconnects.
  v.push_back(udp4Frame(true, 50000, 7777,
                        grudp({kDisconnect, kReliable | kAckFlag, conn, 1004, 9001, 0, 5200, 0, 0, 64, {}})));
  return v;
}

// Link encapsulations the captures use.
enum class Link { Ethernet, Vlan, QinQ, Sll, Sll2, Null, Loop, Raw };

// The scenario frame `f` as the given link type carries it.
inline Bytes wrap(Link link, const ScenarioFrame& f) {
  const Mac& src = f.to_server ? kClientMac : kServerMac;
  const Mac& dst = f.to_server ? kServerMac : kClientMac;
  // Linux cooked packet types, seen from the client: 4 outgoing, 0 to us.
  const uint8_t pktType = f.to_server ? 4 : 0;
  switch (link) {
    case Link::Ethernet: return ethernet(dst, src, f.ip);
    case Link::Vlan: return ethernet(dst, src, f.ip, {0x8100});
    case Link::QinQ: return ethernet(dst, src, f.ip, {0x88a8, 0x8100});
    case Link::Sll: return sll(pktType, src, f.ip);
    case Link::Sll2: return sll2(pktType, src, f.ip);
    case Link::Null: return nullLe(f.ip);
    case Link::Loop: return loopBe(f.ip);
    case Link::Raw: return f.ip;
  }
  return {};
}

}  // namespace rudp::testgen
