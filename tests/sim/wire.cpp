#include "wire.hpp"

#include <cstring>

namespace grudp_sim {

namespace {

void put16(uint8_t* p, uint16_t v) {
  p[0] = uint8_t(v >> 8);
  p[1] = uint8_t(v);
}
void put32(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v >> 24);
  p[1] = uint8_t(v >> 16);
  p[2] = uint8_t(v >> 8);
  p[3] = uint8_t(v);
}
uint16_t get16(const uint8_t* p) { return uint16_t((p[0] << 8) | p[1]); }
uint32_t get32(const uint8_t* p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
}

uint32_t sum16(const uint8_t* p, size_t n, uint32_t acc) {
  for (size_t i = 0; i + 1 < n; i += 2) acc += get16(p + i);
  if (n & 1) acc += uint32_t(p[n - 1]) << 8;
  return acc;
}
uint16_t fold(uint32_t acc) {
  while (acc >> 16) acc = (acc & 0xFFFF) + (acc >> 16);
  return uint16_t(~acc);
}

// Locally administered MACs derived from the IP, so frames are stable.
void put_mac(uint8_t* p, uint32_t ip) {
  p[0] = 0x02;
  p[1] = 0x00;
  put32(p + 2, ip);
}

}  // namespace

const char* type_name(uint8_t type) {
  static const char* names[] = {"DATA", "ACK", "CONNECT", "ACCEPT", "DISCONNECT", "PING", "PONG"};
  return type < 7 ? names[type] : "RESERVED";
}

const char* to_string(Vantage v) {
  switch (v) {
    case Vantage::Client: return "client";
    case Vantage::Server: return "server";
    case Vantage::Middle: return "middle";
  }
  return "?";
}
const char* to_string(LinkType l) { return l == LinkType::Ethernet ? "ethernet" : "raw"; }
const char* to_string(JitterDist j) { return j == JitterDist::Uniform ? "uniform" : "normal"; }

void encode_header(const Header& h, uint8_t* out) {
  out[0] = 0x52;
  out[1] = 0x55;
  out[2] = uint8_t(0x10 | (h.type & 0x0F));
  out[3] = h.flags;
  put32(out + 4, h.conn_id);
  put32(out + 8, h.seq);
  put32(out + 12, h.ack);
  put32(out + 16, h.ack_bits);
  put32(out + 20, h.ts);
  put32(out + 24, h.ts_echo);
  put16(out + 28, h.length);
  out[30] = h.channel;
  out[31] = h.window;
}

bool parse_datagram(const uint8_t* d, size_t size, Header& h) {
  if (size < kHeaderSize || d[0] != 0x52 || d[1] != 0x55) return false;
  if ((d[2] >> 4) != 1 || (d[2] & 0x0F) > 6 || (d[3] & 0xE0) != 0) return false;
  h.type = d[2] & 0x0F;
  h.flags = d[3];
  h.conn_id = get32(d + 4);
  h.seq = get32(d + 8);
  h.ack = get32(d + 12);
  h.ack_bits = get32(d + 16);
  h.ts = get32(d + 20);
  h.ts_echo = get32(d + 24);
  h.length = get16(d + 28);
  h.channel = d[30];
  h.window = d[31];
  return kHeaderSize + h.length == size;
}

size_t build_frame(LinkType link, Addr src, Addr dst, uint16_t ip_id, const uint8_t* udp_payload, size_t len,
                   uint8_t* out) {
  uint8_t* p = out;
  if (link == LinkType::Ethernet) {
    put_mac(p, dst.ip);
    put_mac(p + 6, src.ip);
    put16(p + 12, 0x0800);
    p += 14;
  }
  const size_t udp_len = 8 + len;
  uint8_t* ip = p;
  ip[0] = 0x45;
  ip[1] = 0;
  put16(ip + 2, uint16_t(20 + udp_len));
  put16(ip + 4, ip_id);
  put16(ip + 6, 0x4000);  // DF
  ip[8] = 64;
  ip[9] = 17;
  put16(ip + 10, 0);
  put32(ip + 12, src.ip);
  put32(ip + 16, dst.ip);
  put16(ip + 10, fold(sum16(ip, 20, 0)));

  uint8_t* udp = ip + 20;
  put16(udp, src.port);
  put16(udp + 2, dst.port);
  put16(udp + 4, uint16_t(udp_len));
  put16(udp + 6, 0);
  std::memcpy(udp + 8, udp_payload, len);
  // Real UDP checksum over the pseudo-header, so tools that validate agree.
  uint32_t acc = sum16(ip + 12, 8, 0) + 17 + uint32_t(udp_len);
  uint16_t ck = fold(sum16(udp, udp_len, acc));
  put16(udp + 6, ck == 0 ? 0xFFFF : ck);
  return size_t(udp + udp_len - out);
}

bool find_udp_payload(LinkType link, const uint8_t* f, size_t caplen, Addr& src, Addr& dst,
                      const uint8_t*& payload, size_t& len) {
  size_t off = 0;
  if (link == LinkType::Ethernet) {
    if (caplen < 14 || get16(f + 12) != 0x0800) return false;
    off = 14;
  }
  if (caplen < off + 28 || (f[off] >> 4) != 4 || f[off + 9] != 17) return false;
  const size_t ihl = size_t(f[off] & 0x0F) * 4;
  const uint8_t* udp = f + off + ihl;
  if (caplen < off + ihl + 8) return false;
  src = {get32(f + off + 12), get16(udp)};
  dst = {get32(f + off + 16), get16(udp + 2)};
  const size_t udp_len = get16(udp + 4);
  if (udp_len < 8 || off + ihl + udp_len > caplen) return false;
  payload = udp + 8;
  len = udp_len - 8;
  return true;
}

}  // namespace grudp_sim
