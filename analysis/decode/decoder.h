// Decodes link, network and transport layers of a captured frame.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "core/packet.h"
#include "decode/ip_reassembler.h"

namespace rudp {

class Decoder {
 public:
  // `linkType` (DLT_*) applies to frames whose RawPacket::link_type is -1.
  explicit Decoder(int linkType);
  ~Decoder();
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;
  // A decoder in this one's state (fragments held, link types met): goes on
  // as this one would. Named, not a copy constructor: it copies every held
  // fragment.
  std::unique_ptr<Decoder> clone() const;

  // Fills `out` (reset first). Never throws on bad bytes: sets out.error and
  // keeps whatever decoded before the fault. IPv4 and IPv6 fragments are
  // held until the datagram is complete; the completing frame carries the
  // transport layer with out.ip_reassembled set. Lengths count the bytes the
  // frame held on the wire (RawPacket::origlen), as tshark does.
  void decode(const RawPacket& in, DecodedPacket& out);

  // The link types met that the decoder does not read, in the order met,
  // with how many frames had each (their out.error says so too).
  struct Unsupported {
    int dlt = 0;
    uint64_t frames = 0;
  };
  const std::vector<Unsupported>& unsupported() const;

  // The fragments of the datagram the last frame decoded completed (when
  // out.ip_reassembled), in arrival order.
  const std::vector<IpFragmentPiece>& reassembledPieces() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> d;
};

}  // namespace rudp
