// The IP layers of the details tree as tshark -V prints them.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/packet.h"
#include "decode/ip_reassembler.h"
#include "packets/layer_tree.h"

namespace rudp {

struct IpLayerFacts {
  bool reassembled = false;  // this frame completed a datagram
  std::vector<IpFragmentPiece> pieces;
  const uint8_t* datagram = nullptr;  // its payload, `datagram_length` bytes
  uint32_t datagram_length = 0;
  std::string src, dst;  // the addresses as Wireshark writes them
};

// The IPv4 header at `at` (its bytes captured).
void addIpv4Layer(LayerTree& tree, uint32_t at, const IpLayerFacts& facts);

// The IPv6 header at `at` and its extension headers, `length` bytes in all.
void addIpv6Layer(LayerTree& tree, uint32_t at, const IpLayerFacts& facts, uint32_t length);

// Whether an IPv4 header (`l3`) at `ipStart` can be read from the frame: all of it captured.
bool ipv4HeaderInFrame(const LayerTree& tree, L3 l3, std::optional<uint32_t> ipStart);

// Where the IPv6 header at `at` and its extension headers end.
uint32_t ipv6HeadersEnd(const LayerTree& tree, uint32_t at);

// Where an IP packet (`l3`) ends by its header (IPv4's total length, IPv6's
// payload length), when its header at `ipStart` is read from the frame.
std::optional<uint32_t> ipPacketEnd(const LayerTree& tree, L3 l3, std::optional<uint32_t> ipStart);

// "UDP (17)": an IP protocol number as Wireshark names it.
std::string ipProtocolText(unsigned proto);

}  // namespace rudp
