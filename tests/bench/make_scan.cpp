// Writes a port-scan-shaped capture: many tiny connections, for the memory
// bound on open connections (tests/bench/bench_connections.sh and the
// "cli: a million-connection shape ..." test).
//
//   make-scan OUT.pcap CONNECTIONS [PER_SECOND=20000]
//
// Connection i is two packets, 1 ms apart, between client 10.x.y.z and the
// server 10.0.0.1: a GRUDP CONNECT to port 7777 and its ACCEPT (so each gets
// a contract analyzer with its seq windows), or for every fourth connection a
// TCP SYN to port 80 and its RST. Connections start 1/PER_SECOND s apart
// (1M at 20000/s span 50 s, inside the 2-minute idle limit, so only the
// open-connection cap bounds memory). Deterministic.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "pcap_writer.hpp"
#include "wire.hpp"

using namespace grudp_sim;

namespace {
uint16_t ipSum(const uint8_t* h, size_t n) {
  uint32_t s = 0;
  for (size_t i = 0; i + 1 < n; i += 2) s += uint32_t(h[i] << 8 | h[i + 1]);
  while (s >> 16) s = (s & 0xFFFF) + (s >> 16);
  return uint16_t(~s);
}
void put16(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v >> 8);
  p[1] = uint8_t(v);
}
void put32(uint8_t* p, uint32_t v) {
  put16(p, v >> 16);
  put16(p + 2, v);
}

// Ethernet + IPv4 + a 20-byte TCP header with `flags`.
size_t tcpFrame(Addr src, Addr dst, uint32_t seq, uint32_t ack, uint8_t flags, uint8_t* out) {
  static const uint8_t eth[14] = {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00};
  std::memcpy(out, eth, 14);
  uint8_t* ip = out + 14;
  std::memset(ip, 0, 40);
  ip[0] = 0x45;
  put16(ip + 2, 40);
  ip[8] = 64;
  ip[9] = 6;
  put32(ip + 12, src.ip);
  put32(ip + 16, dst.ip);
  put16(ip + 10, ipSum(ip, 20));
  uint8_t* tcp = ip + 20;
  put16(tcp, src.port);
  put16(tcp + 2, dst.port);
  put32(tcp + 4, seq);
  put32(tcp + 8, ack);
  tcp[12] = 5 << 4;
  tcp[13] = flags;
  put16(tcp + 14, 65535);
  return 54;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: make-scan OUT.pcap CONNECTIONS [PER_SECOND=20000]\n");
    return 2;
  }
  const uint64_t n = std::strtoull(argv[2], nullptr, 10);
  const uint64_t per_s = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 20000;
  if (n == 0 || per_s == 0) {
    std::fprintf(stderr, "make-scan: CONNECTIONS and PER_SECOND must be positive\n");
    return 2;
  }
  PcapWriter out(argv[1], LinkType::Ethernet, true, 1'700'000'000);
  const Addr server{0x0A000001, 7777}, web{0x0A000001, 80};
  uint8_t frame[kMaxFrame], dgram[kHeaderSize];
  for (uint64_t i = 0; i < n; ++i) {
    const int64_t t = int64_t(i * 1'000'000'000ull / per_s);
    const Addr client{0x0A000000u | uint32_t((1 + (i >> 16) % 250) << 16) | uint32_t(i & 0xFFFF),
                      uint16_t(1024 + (i * 7919) % 60000)};
    if (i % 4 == 3) {
      out.write(t, frame, tcpFrame(client, web, uint32_t(i * 13), 0, 0x02, frame));
      out.write(t + 1'000'000, frame, tcpFrame(web, client, 0, uint32_t(i * 13 + 1), 0x14, frame));
      continue;
    }
    Header h;
    h.type = kConnect;
    h.flags = kReliable;
    h.conn_id = uint32_t(i * 2654435761u);
    h.seq = uint32_t(i);
    h.window = 64;
    encode_header(h, dgram);
    out.write(t, frame, build_frame(LinkType::Ethernet, client, server, 1, dgram, kHeaderSize, frame));
    h.type = kAccept;
    h.flags = kReliable | kAckFlag | kEcho;
    h.seq = uint32_t(5 * i);
    h.ack = uint32_t(i);
    h.ts = 1;
    encode_header(h, dgram);
    out.write(t + 1'000'000, frame,
              build_frame(LinkType::Ethernet, server, client, 1, dgram, kHeaderSize, frame));
  }
  out.close();
  return 0;
}
