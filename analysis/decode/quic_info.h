// QUIC's Protocol and Info columns as Wireshark's packet-quic.c (4.0) sets
// them for a datagram: each packet of a coalesced datagram sets the Info
// column anew, so the last one is what shows:
//   "Initial, DCID=…, SCID=…, PKN: 0, CRYPTO, PADDING"
//   "Protected Payload (KP1), DCID=…, PKN: 104, ACK_ECN, STREAM(0)"
// The packet number only where the header protection came off, the frames
// only where the payload opened.
#pragma once
#include <string>

#include "decode/quic_session.h"

namespace rudp::quic {

inline constexpr const char* kProtocolColumn = "QUIC";

std::string infoColumn(const Datagram& d);

}  // namespace rudp::quic
