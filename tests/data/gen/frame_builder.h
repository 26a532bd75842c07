// Builds GRUDP / UDP / TCP / IPv4 / IPv6 packets and link-layer frames
// byte by byte, with real checksums. Shared by make_link_captures (which
// writes the committed test captures) and the unit tests (which build
// frames in memory and compute expected values).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace rudp::testgen {

using Bytes = std::vector<uint8_t>;
using Ip4 = std::array<uint8_t, 4>;
using Ip6 = std::array<uint8_t, 16>;

inline void put8(Bytes& b, uint8_t v) { b.push_back(v); }
inline void put16(Bytes& b, uint16_t v) {
  b.push_back(uint8_t(v >> 8));
  b.push_back(uint8_t(v));
}
inline void put32(Bytes& b, uint32_t v) {
  put16(b, uint16_t(v >> 16));
  put16(b, uint16_t(v));
}
inline void append(Bytes& b, const Bytes& more) { b.insert(b.end(), more.begin(), more.end()); }
inline Bytes text(const std::string& s) { return Bytes(s.begin(), s.end()); }
inline Bytes pattern(size_t n, uint8_t seed) {
  Bytes b(n);
  for (size_t i = 0; i < n; ++i) b[i] = uint8_t(seed + i * 7);
  return b;
}

// ---- GRUDP v1 (shared/protocol/grudp-v1.md) -------------------------------
struct Grudp {
  uint8_t type = 0, flags = 0;
  uint32_t conn_id = 0, seq = 0, ack = 0, ack_bits = 0, ts = 0, ts_echo = 0;
  uint8_t channel = 0, window = 64;
  Bytes payload;
};
enum GrudpType : uint8_t { kData, kAck, kConnect, kAccept, kDisconnect, kPing, kPong };
enum GrudpFlag : uint8_t { kReliable = 1, kUnsequenced = 2, kFragment = 4, kAckFlag = 8, kEcho = 16 };

inline Bytes grudp(const Grudp& g) {
  Bytes b{'R', 'U', uint8_t(0x10 | (g.type & 0x0f)), g.flags};
  put32(b, g.conn_id);
  put32(b, g.seq);
  put32(b, g.ack);
  put32(b, g.ack_bits);
  put32(b, g.ts);
  put32(b, g.ts_echo);
  put16(b, uint16_t(g.payload.size()));
  put8(b, g.channel);
  put8(b, g.window);
  append(b, g.payload);
  return b;
}

// ---- checksums ------------------------------------------------------------
inline uint32_t sum16(const uint8_t* p, size_t n, uint32_t acc = 0) {
  for (size_t i = 0; i + 1 < n; i += 2) acc += uint32_t(p[i]) << 8 | p[i + 1];
  if (n % 2) acc += uint32_t(p[n - 1]) << 8;
  return acc;
}
inline uint16_t fold(uint32_t acc) {
  while (acc >> 16) acc = (acc & 0xffff) + (acc >> 16);
  return uint16_t(~acc);
}
template <size_t N>
uint16_t l4Checksum(const std::array<uint8_t, N>& src, const std::array<uint8_t, N>& dst, uint8_t proto,
                    const Bytes& seg) {
  uint32_t acc = sum16(src.data(), N) + sum16(dst.data(), N);
  acc += proto + uint32_t(seg.size() & 0xffff) + uint32_t(seg.size() >> 16);
  return fold(sum16(seg.data(), seg.size(), acc));
}

// ---- transport ------------------------------------------------------------
template <size_t N>
Bytes udp(const std::array<uint8_t, N>& src, const std::array<uint8_t, N>& dst, uint16_t sport,
          uint16_t dport, const Bytes& payload) {
  Bytes b;
  // Room first: growing from empty inside these inlined pushes trips GCC 12's
  // -Wstringop-overflow (a false positive that comes and goes with inlining,
  // here with the length of the source directory's path).
  b.reserve(8 + payload.size());
  put16(b, sport);
  put16(b, dport);
  put16(b, uint16_t(8 + payload.size()));
  put16(b, 0);
  append(b, payload);
  uint16_t c = l4Checksum(src, dst, 17, b);
  if (c == 0) c = 0xffff;
  b[6] = uint8_t(c >> 8);
  b[7] = uint8_t(c);
  return b;
}

// A UDP segment as sent without a checksum (0, "none computed").
inline Bytes withoutChecksum(Bytes udpSegment) {
  udpSegment[6] = udpSegment[7] = 0;
  return udpSegment;
}

// An ICMP error (destination unreachable 3, time exceeded 11, ...) quoting
// the start of `quoted`, an IP packet (RFC 792: its header and 8 bytes at
// least; Linux quotes as much as fits).
inline Bytes icmp4Error(uint8_t type, uint8_t code, const Bytes& quoted) {
  Bytes b{type, code, 0, 0, 0, 0, 0, 0};
  append(b, quoted);
  const uint16_t c = fold(sum16(b.data(), b.size()));
  b[2] = uint8_t(c >> 8);
  b[3] = uint8_t(c);
  return b;
}

// An ICMP echo request (8) or reply (0) with its identifier, sequence number and data.
inline Bytes icmp4Echo(uint8_t type, uint16_t id, uint16_t seq, const Bytes& data) {
  Bytes b{type, 0, 0, 0, uint8_t(id >> 8), uint8_t(id), uint8_t(seq >> 8), uint8_t(seq)};
  append(b, data);
  const uint16_t c = fold(sum16(b.data(), b.size()));
  b[2] = uint8_t(c >> 8);
  b[3] = uint8_t(c);
  return b;
}

// An ICMPv6 error (destination unreachable 1, packet too big 2, time
// exceeded 3) from `src` to `dst` quoting the start of `quoted`.
inline Bytes icmp6Error(const Ip6& src, const Ip6& dst, uint8_t type, uint8_t code, const Bytes& quoted) {
  Bytes b{
      type, code, 0, 0, 0, 0, type == 2 ? uint8_t(0x05) : uint8_t(0), type == 2 ? uint8_t(0x00) : uint8_t(0)};
  append(b, quoted);
  const uint16_t c = l4Checksum(src, dst, 58, b);
  b[2] = uint8_t(c >> 8);
  b[3] = uint8_t(c);
  return b;
}

enum TcpFlag : uint8_t { kFin = 1, kSyn = 2, kRst = 4, kPsh = 8, kAckBit = 16 };

template <size_t N>
Bytes tcp(const std::array<uint8_t, N>& src, const std::array<uint8_t, N>& dst, uint16_t sport,
          uint16_t dport, uint32_t seq, uint32_t ack, uint8_t flags, uint16_t window, const Bytes& options,
          const Bytes& payload) {
  Bytes b;
  put16(b, sport);
  put16(b, dport);
  put32(b, seq);
  put32(b, ack);
  put8(b, uint8_t(((20 + options.size()) / 4) << 4));
  put8(b, flags);
  put16(b, window);
  put16(b, 0);
  put16(b, 0);
  append(b, options);
  append(b, payload);
  const uint16_t c = l4Checksum(src, dst, 6, b);
  b[16] = uint8_t(c >> 8);
  b[17] = uint8_t(c);
  return b;
}

// TCP option helpers, laid out the way Linux sends them.
inline Bytes optMss(uint16_t v) { return {2, 4, uint8_t(v >> 8), uint8_t(v)}; }
inline Bytes optSackPermitted() { return {4, 2}; }
inline Bytes optNop() { return {1}; }
inline Bytes optWscale(uint8_t s) { return {3, 3, s}; }
inline Bytes optTimestamps(uint32_t val, uint32_t ecr) {
  Bytes b{8, 10};
  put32(b, val);
  put32(b, ecr);
  return b;
}
inline Bytes optSack(const std::vector<std::pair<uint32_t, uint32_t>>& blocks) {
  Bytes b{5, uint8_t(2 + 8 * blocks.size())};
  for (auto [l, r] : blocks) {
    put32(b, l);
    put32(b, r);
  }
  return b;
}

// ---- network --------------------------------------------------------------
// `fragField`: flags (DF 0x4000, MF 0x2000) | offset in 8-byte units.
inline Bytes ipv4(const Ip4& src, const Ip4& dst, uint8_t proto, const Bytes& payload, uint16_t id = 0x4d2,
                  uint16_t fragField = 0x4000, const Bytes& options = {}, uint8_t ttl = 64) {
  const size_t hl = 20 + options.size();  // options padded by the caller
  Bytes b;
  put8(b, uint8_t(0x40 | (hl / 4)));
  put8(b, 0);
  put16(b, uint16_t(hl + payload.size()));
  put16(b, id);
  put16(b, fragField);
  put8(b, ttl);
  put8(b, proto);
  put16(b, 0);
  b.insert(b.end(), src.begin(), src.end());
  b.insert(b.end(), dst.begin(), dst.end());
  append(b, options);
  const uint16_t c = fold(sum16(b.data(), hl));
  b[10] = uint8_t(c >> 8);
  b[11] = uint8_t(c);
  append(b, payload);
  return b;
}

// `ext`: extension headers already chained (their next-header bytes set);
// `firstNext`: the header after the fixed header.
inline Bytes ipv6(const Ip6& src, const Ip6& dst, uint8_t firstNext, const Bytes& ext, const Bytes& payload,
                  uint8_t hopLimit = 64) {
  Bytes b;
  put32(b, 0x60000000);
  put16(b, uint16_t(ext.size() + payload.size()));
  put8(b, firstNext);
  put8(b, hopLimit);
  b.insert(b.end(), src.begin(), src.end());
  b.insert(b.end(), dst.begin(), dst.end());
  append(b, ext);
  append(b, payload);
  return b;
}

// An 8-byte options header (hop-by-hop or destination options) holding one PadN.
inline Bytes ext8(uint8_t next) { return {next, 0, 1, 4, 0, 0, 0, 0}; }

// An IPv6 fragment header; `offset` in bytes, a multiple of 8.
inline Bytes fragmentHeader(uint8_t next, uint32_t offset, bool more, uint32_t id) {
  Bytes b{next, 0};
  put16(b, uint16_t(offset | (more ? 1 : 0)));
  put32(b, id);
  return b;
}

// An authentication header (RFC 4302, after IPv4 or IPv6) with a 12-byte ICV.
inline Bytes authHeader(uint8_t next, uint32_t spi = 0x1000, uint32_t seq = 1) {
  Bytes b{next, 4, 0, 0};  // length: 6 4-byte words minus 2
  put32(b, spi);
  put32(b, seq);
  append(b, Bytes(12, 0x11));
  return b;
}

// ---- link layer -----------------------------------------------------------
inline bool isIpv6(const Bytes& ip) { return !ip.empty() && (ip[0] >> 4) == 6; }
using Mac = std::array<uint8_t, 6>;

// `tags`: TPIDs outermost first (0x88a8, 0x8100, 0x9100), VLAN ids 10, 20, ...
inline Bytes ethernet(const Mac& dst, const Mac& src, const Bytes& ip,
                      const std::vector<uint16_t>& tags = {}) {
  Bytes b(dst.begin(), dst.end());
  b.insert(b.end(), src.begin(), src.end());
  uint16_t vid = 10;
  for (uint16_t tpid : tags) {
    put16(b, tpid);
    put16(b, vid);
    vid = uint16_t(vid + 10);
  }
  put16(b, isIpv6(ip) ? 0x86dd : 0x0800);
  append(b, ip);
  if (b.size() < 60) b.resize(60, 0);  // minimum frame, as a NIC pads it
  return b;
}

// Linux cooked v1: packet type (0 to us, 4 outgoing), ARPHRD_ETHER, address.
inline Bytes sll(uint16_t pktType, const Mac& src, const Bytes& ip) {
  Bytes b;
  put16(b, pktType);
  put16(b, 1);
  put16(b, 6);
  b.insert(b.end(), src.begin(), src.end());
  put16(b, 0);
  put16(b, isIpv6(ip) ? 0x86dd : 0x0800);
  append(b, ip);
  return b;
}

inline Bytes sll2(uint8_t pktType, const Mac& src, const Bytes& ip) {
  Bytes b;
  put16(b, isIpv6(ip) ? 0x86dd : 0x0800);
  put16(b, 0);
  put32(b, 2);  // interface index
  put16(b, 1);
  put8(b, pktType);
  put8(b, 6);
  b.insert(b.end(), src.begin(), src.end());
  put16(b, 0);
  append(b, ip);
  return b;
}

// DLT_NULL as a little-endian writer stores it (macOS: AF_INET6 = 30).
inline Bytes nullLe(const Bytes& ip) {
  const uint8_t family = isIpv6(ip) ? 30 : 2;
  Bytes b{family, 0, 0, 0};
  append(b, ip);
  return b;
}

// DLT_LOOP: big-endian family (OpenBSD: AF_INET6 = 24).
inline Bytes loopBe(const Bytes& ip) {
  Bytes b;
  put32(b, isIpv6(ip) ? 24 : 2);
  append(b, ip);
  return b;
}

}  // namespace rudp::testgen
