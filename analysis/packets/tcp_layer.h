// The TCP layer of the details tree as tshark -V prints it: header fields,
// flags, window, options, the stream's times and Wireshark's SEQ/ACK
// analysis (the ack's RTT, bytes in flight, the analysis flags and experts).
#pragma once
#include "core/packet.h"
#include "flow/tcp_notes.h"
#include "packets/layer_tree.h"

namespace rudp {

struct TcpLayerFacts {
  TcpNotes notes;                            // the analysis flags and dup ack, and the relative bases
  const TcpFrameDetails* details = nullptr;  // null: the frames before were not read (a row read alone)
  bool relative = true;                      // tcp.relative_sequence_numbers
  std::string summary;                       // "Seq: 1, Ack: 1, Len: 0"
  uint32_t ack_raw = 0;                      // the header's ack (D-SACK blocks lie at or below it)
};

// The header at `at` in the frame (`header` its bytes, the whole header captured).
void addTcpLayer(LayerTree& tree, uint32_t at, const uint8_t* header, const DecodedPacket& pkt,
                 const TcpLayerFacts& facts);

// "PSH, ACK": the set flags of a 12-bit flags field, as Wireshark names them.
std::string tcpFlagNames(unsigned flags);

}  // namespace rudp
