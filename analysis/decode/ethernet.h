// Ethernet II and its 802.1Q / 802.1ad tags, read as packet-eth.c and
// packet-vlan.c read them: the EtherTypes and the one tag walk that the
// decoder, the details tree and the display filters share.
#pragma once
#include <cstdint>

#include "decode/bytes.h"

namespace rudp::eth {

constexpr uint32_t kHeaderLen = 14;  // destination, source, EtherType
constexpr uint32_t kTypeAt = 12;
constexpr unsigned kIpv4 = 0x0800, kIpv6 = 0x86dd;
constexpr unsigned kVlan = 0x8100;     // 802.1Q
constexpr unsigned kQinQ = 0x88a8;     // 802.1ad service tag (Wireshark's ieee8021ad)
constexpr unsigned kQinQOld = 0x9100;  // pre-standard QinQ (Wireshark's vlan)
constexpr unsigned kMpls = 0x8847, kMplsMulticast = 0x8848;
constexpr unsigned kPppoeSession = 0x8864;
constexpr unsigned kTransparentBridging = 0x6558;
constexpr int kMaxTags = 8;  // bounds the walk on garbage

inline bool isVlanTag(unsigned type) { return type == kVlan || type == kQinQ || type == kQinQOld; }
// Wireshark shows 802.1ad tags as ieee8021ad, the others as vlan (vlan.id, vlan.priority).
inline bool isVlanProtocol(unsigned type) { return type == kVlan || type == kQinQOld; }

// Where the tags ended: the EtherType they carry and the offset after it.
struct TagsEnd {
  unsigned type = 0;
  uint32_t offset = 0;
  const char* error = nullptr;  // "VLAN tag truncated", "too many VLAN tags"
};

// Walks the tags that follow an EtherType `type` ending at `offset` in
// `len` captured bytes of `p`, calling onTag(tpid, tci_offset) for each
// (its 2-byte TCI is at tci_offset, the next EtherType after it).
template <class OnTag>
TagsEnd walkTags(unsigned type, const uint8_t* p, uint32_t len, uint32_t offset, OnTag&& onTag) {
  for (int tags = 0; isVlanTag(type); ++tags) {
    if (tags == kMaxTags) return {type, offset, "too many VLAN tags"};
    if (offset > len || len - offset < 4) return {type, offset, "VLAN tag truncated"};
    onTag(type, offset);
    type = wire::be16(p + offset + 2);
    offset += 4;
  }
  return {type, offset, nullptr};
}

inline TagsEnd walkTags(unsigned type, const uint8_t* p, uint32_t len, uint32_t offset) {
  return walkTags(type, p, len, offset, [](unsigned, uint32_t) {});
}

}  // namespace rudp::eth
