// Where the network layer starts in a frame of the link types whose headers
// tshark names (Ethernet with its 802.1Q/802.1ad tags, Null/Loopback, raw IP,
// Linux cooked v1/v2); nullopt for others or a frame too short.
#pragma once
#include <cstdint>
#include <optional>

#include "core/packet.h"
#include "decode/ethernet.h"
#include "decode/link_layer.h"

namespace rudp {

inline std::optional<uint32_t> networkLayerOffset(const RawPacket& raw, int linkType) {
  switch (linkType) {
    case link::kEthernet: {
      if (raw.caplen < eth::kHeaderLen) return std::nullopt;
      // A truncated tag ends the walk where it starts, as the tree shows it.
      return eth::walkTags(wire::be16(raw.data + eth::kTypeAt), raw.data, raw.caplen, eth::kHeaderLen).offset;
    }
    case link::kNull:
    case link::kLoop: return 4;
    case link::kRaw:
    case link::kRawBsd:
    case link::kLinktypeRaw: return 0;
    case link::kLinuxSll: return 16;
    case link::kLinuxSll2: return 20;
    default: return std::nullopt;
  }
}

}  // namespace rudp
