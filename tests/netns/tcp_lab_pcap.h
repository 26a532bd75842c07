// The TCP lab's capture reader: the TCP segments of a classic pcap, read
// independently of rudpscope's own reader (it is the lab's ground truth).
// Part of tcp_lab_checks.h.
#pragma once
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace tcplab {

struct Seg {
  uint32_t frame = 0;  // 1-based, as tshark numbers frames
  int64_t ns = 0;      // capture time, ns since the epoch
  uint32_t sip = 0, dip = 0;
  uint16_t sport = 0, dport = 0, ipid = 0;
  uint32_t seq = 0, ack = 0, len = 0, tsval = 0;
  uint8_t flags = 0;
  bool syn() const { return flags & 0x02; }
  bool fin() const { return flags & 0x01; }
  bool rst() const { return flags & 0x04; }
  uint32_t seqSpace() const { return len + (syn() ? 1 : 0) + (fin() ? 1 : 0); }
  auto key() const { return std::make_tuple(sip, sport, dip, dport, ipid, seq, ack, flags, len, tsval); }
};

inline uint32_t be32(const uint8_t* p) { return uint32_t(p[0]) << 24 | p[1] << 16 | p[2] << 8 | p[3]; }
inline uint16_t be16(const uint8_t* p) { return uint16_t(p[0] << 8 | p[1]); }

inline uint32_t ipv4(const std::string& s) {
  unsigned a, b, c, d;
  if (std::sscanf(s.c_str(), "%u.%u.%u.%u", &a, &b, &c, &d) != 4) return 0;
  return a << 24 | b << 16 | c << 8 | d;
}

// Classic pcap (what tcpdump -w writes), Ethernet or Linux cooked link type.
inline std::vector<Seg> readPcap(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  REQUIRE(f.good());
  std::vector<uint8_t> d((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  REQUIRE(d.size() >= 24);
  uint32_t magic;
  std::memcpy(&magic, d.data(), 4);
  bool swap = magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1;
  const bool nanoseconds = magic == 0xa1b23c4d || magic == 0x4d3cb2a1;
  REQUIRE((swap || magic == 0xa1b2c3d4 || magic == 0xa1b23c4d));
  auto u32 = [&](size_t o) {
    uint32_t v;
    std::memcpy(&v, d.data() + o, 4);
    return swap ? __builtin_bswap32(v) : v;
  };
  uint32_t linktype = u32(20);
  REQUIRE((linktype == 1 || linktype == 113));
  std::vector<Seg> out;
  size_t o = 24;
  uint32_t frame = 0;
  while (o + 16 <= d.size()) {
    uint32_t caplen = u32(o + 8);
    const int64_t ns = int64_t(u32(o)) * 1000000000 + int64_t(u32(o + 4)) * (nanoseconds ? 1 : 1000);
    const uint8_t* p = d.data() + o + 16;
    REQUIRE(o + 16 + caplen <= d.size());
    o += 16 + caplen;
    ++frame;
    size_t l2 = linktype == 1 ? 14 : 16;
    if (caplen < l2 + 20) continue;
    uint16_t etype = be16(p + l2 - 2);
    if (etype != 0x0800) continue;
    const uint8_t* ip = p + l2;
    size_t ihl = (ip[0] & 0x0f) * 4;
    if ((ip[0] >> 4) != 4 || ip[9] != 6 || caplen < l2 + ihl + 20) continue;
    const uint8_t* tcp = ip + ihl;
    size_t thl = (tcp[12] >> 4) * 4;
    Seg s;
    s.frame = frame;
    s.ns = ns;
    s.sip = be32(ip + 12);
    s.dip = be32(ip + 16);
    s.ipid = be16(ip + 4);
    s.sport = be16(tcp);
    s.dport = be16(tcp + 2);
    s.seq = be32(tcp + 4);
    s.ack = be32(tcp + 8);
    s.flags = tcp[13];
    s.len = be16(ip + 2) - uint32_t(ihl) - uint32_t(thl);  // from the header: snaplen cuts payload
    // TCP timestamp option (kind 8) when captured.
    size_t optEnd = std::min(thl, caplen - l2 - ihl);
    for (size_t i = 20; i < optEnd;) {
      uint8_t kind = tcp[i];
      if (kind == 0) break;
      if (kind == 1) {
        ++i;
        continue;
      }
      if (i + 1 >= optEnd || tcp[i + 1] < 2) break;
      if (kind == 8 && tcp[i + 1] == 10 && i + 10 <= optEnd) s.tsval = be32(tcp + i + 2);
      i += tcp[i + 1];
    }
    out.push_back(s);
  }
  return out;
}

// A union of sequence ranges (relative to a direction's first number).
struct SeqUnion {
  std::map<int64_t, int64_t> iv;  // start -> end, disjoint, non-adjacent
  bool covers(int64_t a, int64_t b) const {
    auto it = iv.upper_bound(a);
    if (it == iv.begin()) return false;
    --it;
    return it->first <= a && it->second >= b;
  }
  void add(int64_t a, int64_t b) {
    auto it = iv.upper_bound(a);
    if (it != iv.begin() && std::prev(it)->second >= a) --it;
    while (it != iv.end() && it->first <= b) {
      a = std::min(a, it->first);
      b = std::max(b, it->second);
      it = iv.erase(it);
    }
    iv[a] = b;
  }
};

}  // namespace tcplab
