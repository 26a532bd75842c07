// Where the network layer starts in a frame of the link types whose headers
// tshark names (Ethernet with its 802.1Q/802.1ad tags, Null/Loopback, raw IP,
// Linux cooked v1/v2); nullopt for others or a frame too short.
#pragma once
#include <cstdint>
#include <optional>

#include "core/packet.h"

namespace rudp {

inline std::optional<uint32_t> networkLayerOffset(const RawPacket& raw, int linkType) {
  switch (linkType) {
    case 1: {
      if (raw.caplen < 14) return std::nullopt;
      uint32_t at = 12;
      while (at + 6 <= raw.caplen) {
        const unsigned type = unsigned(raw.data[at]) << 8 | raw.data[at + 1];
        if (type != 0x8100 && type != 0x88a8) break;
        at += 4;
      }
      return at + 2;
    }
    case 0:
    case 108: return 4;
    case 12:
    case 14:
    case 101: return 0;
    case 113: return 16;
    case 276: return 20;
    default: return std::nullopt;
  }
}

}  // namespace rudp
