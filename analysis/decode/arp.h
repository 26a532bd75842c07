// ARP and RARP (RFC 826, RFC 903) in an Ethernet frame, read as
// packet-arp.c reads them: what the packet list, the details tree and the
// display filters share. rudpscope analyses no ARP; it only shows it.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>

#include "core/packet.h"
#include "decode/bytes.h"
#include "decode/link_offset.h"

namespace rudp {

constexpr unsigned kEtherTypeArp = 0x0806, kEtherTypeRarp = 0x8035;
constexpr unsigned kArpRequest = 1, kArpReply = 2;
constexpr unsigned kDrarpError = 7;  // its target protocol address holds an error status

// A message whose 8-byte fixed header is captured (its addresses may not be:
// see length()).
struct ArpMessage {
  const uint8_t* p;  // its first byte
  unsigned hrd, pro, hln, pln, op;

  // Where its addresses lie, from its first byte.
  uint32_t sha() const { return 8; }
  uint32_t spa() const { return sha() + hln; }
  uint32_t tha() const { return spa() + pln; }
  uint32_t tpa() const { return tha() + hln; }
  uint32_t length() const { return tpa() + pln; }

  // ARP_HW_IS_ETHER (Ethernet or IEEE 802, 6 bytes) and ARP_PRO_IS_IPv4 (IP
  // or AX.25's IP, 4 bytes).
  bool ether() const { return (hrd == 1 || hrd == 6) && hln == 6; }
  bool ipv4() const { return (pro == 0x0800 || pro == 0xcc) && pln == 4; }

  // A request or reply naming the same protocol address as sender and target.
  bool gratuitous() const {
    return (op == kArpRequest || op == kArpReply) && std::equal(p + spa(), p + spa() + pln, p + tpa());
  }
  // A gratuitous request with no target hardware address. (packet-arp.c reads
  // 6 and 4 bytes for these two whatever the sizes: here only Ethernet/IPv4
  // messages have them.)
  bool announcement() const { return gratuitous() && op == kArpRequest && etherIpv4() && zero(tha(), 6); }
  // A request from 0.0.0.0 with no target hardware address (RFC 5227).
  bool probe() const {
    return !gratuitous() && op == kArpRequest && etherIpv4() && zero(tha(), 6) && zero(spa(), 4);
  }

 private:
  bool etherIpv4() const { return ether() && ipv4(); }
  bool zero(uint32_t at, uint32_t n) const {
    return std::all_of(p + at, p + at + n, [](uint8_t b) { return b == 0; });
  }
};

inline ArpMessage readArp(const uint8_t* p) {
  return {p, wire::be16(p), wire::be16(p + 2), p[4], p[5], wire::be16(p + 6)};
}

// Where an Ethernet frame's ARP or RARP message starts, after the frame's
// 802.1Q/802.1ad tags; nullopt for any other frame.
inline std::optional<uint32_t> ethernetArpOffset(const RawPacket& raw, int dlt) {
  if (dlt != link::kEthernet || raw.caplen < eth::kHeaderLen) return std::nullopt;
  const uint32_t at = *networkLayerOffset(raw, dlt);
  const unsigned type = wire::be16(raw.data + at - 2);
  if (type != kEtherTypeArp && type != kEtherTypeRarp) return std::nullopt;
  return at;
}

// The frame's whole ARP message (every address captured), or nullopt.
inline std::optional<ArpMessage> wholeArpMessage(const RawPacket& raw, int dlt) {
  const std::optional<uint32_t> at = ethernetArpOffset(raw, dlt);
  if (!at || raw.caplen - *at < 8) return std::nullopt;
  const ArpMessage m = readArp(raw.data + *at);
  if (m.length() > raw.caplen - *at) return std::nullopt;
  return m;
}

}  // namespace rudp
