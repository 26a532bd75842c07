// Helpers for the Lua host tests: GRUDP datagrams and DecodedPackets.
#pragma once
#include <string>
#include <vector>

#include "lua/host.h"

namespace rudp::test {

inline std::string dataPath(const std::string& name) {
  return std::string(RUDPSCOPE_SOURCE_DIR) + "/tests/unit/lua/data/" + name;
}
inline std::string grudpPath() { return std::string(RUDPSCOPE_SOURCE_DIR) + "/dissectors/grudp.lua"; }

struct GrudpHeader {
  uint16_t magic = 0x5255;
  uint8_t version = 1, type = 0, flags = 0;
  uint32_t conn_id = 0xdeadbeef, seq = 1, ack = 0, ack_bits = 0, ts = 0, ts_echo = 0;
  int length = -1;  // -1: the payload's size
  uint8_t channel = 0, window = 32;
};

inline void put(std::vector<uint8_t>& v, uint64_t x, int n) {
  for (int i = n - 1; i >= 0; --i) v.push_back(static_cast<uint8_t>(x >> (8 * i)));
}

inline std::vector<uint8_t> grudp(const GrudpHeader& h, const std::vector<uint8_t>& payload = {}) {
  std::vector<uint8_t> v;
  put(v, h.magic, 2);
  put(v, static_cast<uint8_t>(h.version << 4 | h.type), 1);
  put(v, h.flags, 1);
  put(v, h.conn_id, 4);
  put(v, h.seq, 4);
  put(v, h.ack, 4);
  put(v, h.ack_bits, 4);
  put(v, h.ts, 4);
  put(v, h.ts_echo, 4);
  put(v, h.length < 0 ? payload.size() : static_cast<size_t>(h.length), 2);
  put(v, h.channel, 1);
  put(v, h.window, 1);
  v.insert(v.end(), payload.begin(), payload.end());
  return v;
}

inline DecodedPacket udpPacket(const std::vector<uint8_t>& payload, uint16_t sport = 40000,
                               uint16_t dport = 7777, uint64_t frame = 1) {
  DecodedPacket p;
  p.frame = frame;
  p.ts_ns = 1700000000'000000000 + static_cast<int64_t>(frame) * 1000000;
  p.caplen = p.origlen = static_cast<uint32_t>(payload.size() + 42);
  p.l3 = L3::IPv4;
  p.src.family = p.dst.family = 4;
  p.src.bytes[0] = 10;
  p.src.bytes[3] = 1;
  p.dst.bytes[0] = 10;
  p.dst.bytes[3] = 2;
  p.ip_proto = 17;
  p.l4 = L4::UDP;
  p.sport = sport;
  p.dport = dport;
  p.payload = payload.data();
  p.payload_len = p.payload_reported_len = static_cast<uint32_t>(payload.size());
  return p;
}

// Values of one field, formatted as tshark prints them, joined by ','.
inline std::string fieldText(const LuaHost& h, const DissectResult& r, const std::string& abbrev) {
  const int id = h.fieldByAbbrev(abbrev);
  std::string out;
  bool first = true;
  for (const auto& v : r.values) {
    if (v.field != id) continue;
    if (!first) out += ',';
    out += h.formatValue(v, r);
    first = false;
  }
  return out;
}

}  // namespace rudp::test
