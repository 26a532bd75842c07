// QUIC's layers in the details tree, as tshark -V prints them (packet-quic.c):
// a "QUIC IETF" layer per packet of the datagram (and one for padding after
// the last), its header with the bits header protection hid, and each frame
// of a packet the key log opened. A frame's bytes are in the decrypted
// payload, not in the frame as captured (Wireshark's "Decrypted QUIC" tab):
// its items cover no bytes of the frame.
//
// Not yet as tshark: the TLS handshake a CRYPTO frame carries (tshark
// reassembles the CRYPTO stream and prints the TLS tree under it); a packet
// that did not open says why in tshark's words only where the case is
// tshark's (no key log: "Secrets are not available"); Retry and Version
// Negotiation packets show their header only up to the connection ids.
#pragma once
#include <cstdint>

#include "decode/quic_session.h"
#include "packets/layer_tree.h"

namespace rudp {

// The datagram's QUIC layers; `payloadAt`: where the UDP payload starts in the frame.
void addQuicLayers(LayerTree& tree, const quic::Datagram& d, uint32_t payloadAt);

}  // namespace rudp
