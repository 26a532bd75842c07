// The Frame layer of the details tree as tshark -V prints it: interface,
// encapsulation, arrival time, time deltas, number, lengths and the
// protocols in the frame.
#pragma once
#include <string>

#include "core/packet.h"
#include "packets/frame_time.h"
#include "packets/layer_tree.h"

namespace rudp {

struct FrameFacts {
  const RawPacket* raw = nullptr;
  int link_type = 1;  // the frame's DLT
  FrameTimes times;
  std::string protocols;  // "eth:ethertype:ip:udp:grudp"
};

void addFrameLayer(LayerTree& tree, const FrameFacts& facts);

// "Nov 14, 2023 22:13:20.123456000 UTC": local time, as tshark's
// ABSOLUTE_TIME_LOCAL with the zone's name.
std::string arrivalTime(int64_t ts_ns);

// "Ethernet (1)": Wireshark's name and number of the encapsulation a DLT reads as.
std::string encapsulationText(int dlt);

}  // namespace rudp
