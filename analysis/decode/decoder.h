// Decodes link, network and transport layers of a captured frame.
#pragma once
#include <memory>

#include "core/packet.h"

namespace rudp {

class Decoder {
 public:
  explicit Decoder(int linkType);
  ~Decoder();
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;

  // Fills `out` (reset first). Never throws on bad bytes: sets out.error and
  // keeps whatever decoded before the fault. IPv4 fragments are held until
  // the datagram is complete; the completing frame carries the transport
  // layer with out.ip_reassembled set.
  void decode(const RawPacket& in, DecodedPacket& out);

 private:
  struct Impl;
  std::unique_ptr<Impl> d;
};

}  // namespace rudp
