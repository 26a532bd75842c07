// One GRUDP flow (packets both ways: data from the client, acks from the
// server) for the tests that wrap the game's traffic in tunnels, link
// encapsulations and IP edge cases, and the pcap written around it.
#pragma once
#include <algorithm>
#include <functional>
#include <string>
#include <utility>

#include "capture_files.h"

namespace rudp::testgen::flow {

inline constexpr int kPackets = 6;  // even: client to server, odd: server to client
inline const Ip4 kClient{10, 0, 0, 1}, kServer{10, 0, 0, 2};
inline const Ip6 kClient6{0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
inline const Ip6 kServer6{0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
// A router between them, the sender of ICMP errors.
inline const Ip4 kRouter{192, 0, 2, 254};
inline const Ip6 kRouter6{0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xfe};

inline bool fromClient(int i) { return i % 2 == 0; }

// Source and destination of packet `i`.
template <size_t N>
std::pair<std::array<uint8_t, N>, std::array<uint8_t, N>> ends(int i, const std::array<uint8_t, N>& client,
                                                               const std::array<uint8_t, N>& server) {
  return fromClient(i) ? std::pair{client, server} : std::pair{server, client};
}
inline std::pair<Ip4, Ip4> ends4(int i) { return ends(i, kClient, kServer); }
inline std::pair<Ip6, Ip6> ends6(int i) { return ends(i, kClient6, kServer6); }

// GRUDP packet `i` in its UDP header; packets from `i` = kPackets on
// continue the flow.
inline Bytes grudpSegment(int i, bool v6) {
  Grudp g;
  g.type = fromClient(i) ? kData : kAck;
  g.flags = fromClient(i) ? kReliable : kAckFlag;
  g.conn_id = 0x77;
  g.seq = uint32_t(i / 2 + 1);
  g.ack = fromClient(i) ? 0 : g.seq;
  g.ts = uint32_t(i * 20);
  if (fromClient(i)) g.payload = pattern(30 + size_t(i), uint8_t(i));
  const uint16_t sport = fromClient(i) ? 50000 : 7777, dport = fromClient(i) ? 7777 : 50000;
  if (v6) return udp(ends6(i).first, ends6(i).second, sport, dport, grudp(g));
  return udp(ends4(i).first, ends4(i).second, sport, dport, grudp(g));
}

// An IP packet in an Ethernet frame from 02:00:00:00:00:01 to ...:02.
inline Bytes inEthernet(const Bytes& ip) { return ethernet({2, 0, 0, 0, 0, 2}, {2, 0, 0, 0, 0, 1}, ip); }

// Packet `i` as an IP packet (IPv4: id 0x200 + i, DF, TTL 63).
inline Bytes grudpPacket(int i, bool v6) {
  if (v6) return ipv6(ends6(i).first, ends6(i).second, 17, {}, grudpSegment(i, true));
  return ipv4(ends4(i).first, ends4(i).second, 17, grudpSegment(i, false), uint16_t(0x200 + i), 0x4000, {},
              63);
}

// The first `n` bytes of `b` (all of it when shorter): what an ICMP error quotes.
inline Bytes head(const Bytes& b, size_t n) {
  return Bytes(b.begin(), b.begin() + std::ptrdiff_t(std::min(n, b.size())));
}

struct Frame {
  Bytes bytes;
  uint32_t origlen = 0;  // length on the wire; 0: as captured
};

// A pcap of `frames`, 20 ms apart; returns `path`.
inline std::string writePcap(const std::string& path, uint32_t linkType, const std::vector<Frame>& frames) {
  PcapBuilder pcap(linkType);
  int64_t t = 1'750'000'000'000'000;
  for (const Frame& f : frames) pcap.packet(t += 20'000, f.bytes, f.origlen);
  writeFile(path, pcap.bytes());
  return path;
}

// Each IP packet of the flow in a frame of `linkType`.
using Wrap = std::function<Bytes(int i, const Bytes& ip)>;

// The flow's frames, then `extraFrames`.
inline std::string writeCapture(const std::string& path, uint32_t linkType, bool v6, const Wrap& wrap,
                                const std::vector<Bytes>& extraFrames = {}) {
  std::vector<Frame> frames;
  for (int i = 0; i < kPackets; ++i) frames.push_back({wrap(i, grudpPacket(i, v6))});
  for (const Bytes& f : extraFrames) frames.push_back({f});
  return writePcap(path, linkType, frames);
}

}  // namespace rudp::testgen::flow
