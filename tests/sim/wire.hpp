// GRUDP v1 header encoding and the Ethernet/IPv4/UDP framing around it
// (see /work/shared/protocol/grudp-v1.md).
#pragma once

#include <cstddef>
#include <cstdint>

#include "config.hpp"

namespace grudp_sim {

enum PacketType : uint8_t {
  kData = 0,
  kAck = 1,
  kConnect = 2,
  kAccept = 3,
  kDisconnect = 4,
  kPing = 5,
  kPong = 6
};

enum Flags : uint8_t {
  kReliable = 0x01,
  kUnsequenced = 0x02,
  kFragment = 0x04,
  kAckFlag = 0x08,
  kEcho = 0x10
};

constexpr size_t kHeaderSize = 32;
constexpr size_t kMaxFrame = 14 + 20 + 8 + kHeaderSize + 1024;

const char* type_name(uint8_t type);

struct Header {
  uint8_t type = kData;
  uint8_t flags = 0;
  uint32_t conn_id = 0;
  uint32_t seq = 0;
  uint32_t ack = 0;
  uint32_t ack_bits = 0;
  uint32_t ts = 0;
  uint32_t ts_echo = 0;
  uint16_t length = 0;
  uint8_t channel = 0;
  uint8_t window = 0;
};

void encode_header(const Header& h, uint8_t* out);

// Parses and validates a datagram the way the dissector's heuristic does
// (magic, version 1, type <= 6, reserved flags zero, 32 + length == size).
bool parse_datagram(const uint8_t* data, size_t size, Header& h);

struct Addr {
  uint32_t ip = 0;  // host order
  uint16_t port = 0;
};

// Writes link header + IPv4 + UDP + `udp_payload` into `out` (>= kMaxFrame
// bytes) and returns the frame length.
size_t build_frame(LinkType link, Addr src, Addr dst, uint16_t ip_id, const uint8_t* udp_payload, size_t len,
                   uint8_t* out);

// Locates the UDP payload in a frame built by build_frame (tests use it on
// frames read back from the pcap). Returns false if it is not IPv4/UDP.
bool find_udp_payload(LinkType link, const uint8_t* frame, size_t caplen, Addr& src, Addr& dst,
                      const uint8_t*& payload, size_t& len);

}  // namespace grudp_sim
