// The built-in layers of a frame's details tree, as tshark -V prints them:
// Frame, the link layers, the tunnels' layers, IP, UDP and TCP,
// then the Data layer of a payload no Lua protocol takes. The Lua protocols'
// items go between the two (FrameDissector adds them).
#pragma once
#include <array>
#include <optional>
#include <string_view>
#include <vector>

#include "core/packet.h"
#include "flow/icmp_echoes.h"
#include "flow/udp_streams.h"
#include "packets/frame_dissector.h"
#include "packets/frame_time.h"
#include "packets/ip_layers.h"
#include "packets/tcp_layer.h"

namespace rudp::quic {
struct Datagram;
}

namespace rudp {

// The built-in layers whose items the tree has, by tshark's names (what
// `decode -V -O` can expand).
inline constexpr std::array<std::string_view, 22> kBuiltinLayers = {
    "frame", "eth",    "vlan", "ieee8021ad", "sll",  "null",       "raw", "pppoes",
    "chdlc", "ip",     "ipv6", "udp",        "tcp",  "gre",        "ppp", "erspan",
    "vxlan", "geneve", "gtp",  "mpls",       "data", "pkt_comment"};

struct LayerInputs {
  const RawPacket* raw = nullptr;
  int dlt = 1;
  const DecodedPacket* pkt = nullptr;
  std::optional<uint32_t> payload;  // where the transport payload starts in the frame
  FrameTimes times;
  std::optional<StreamPosition> stream;         // known when the frames before were read
  std::optional<StreamPosition> quoted_stream;  // an ICMP error's quoted datagram's, likewise
  std::vector<StreamPosition> tunnel_streams;   // its tunnels' UDP headers', outermost first, likewise
  std::optional<EchoRequest> echo_request;      // an ICMP echo reply's request, likewise
  IpLayerFacts ip;                              // reassembly
  TcpLayerFacts tcp;
  std::vector<std::string> lua_layers;   // as frame.protocols names them
  bool data = false;                     // the payload goes to Wireshark's data dissector
  const quic::Datagram* quic = nullptr;  // the UDP payload read as QUIC
};

// The UDP or TCP header's length (0 without one).
inline uint32_t transportHeaderLength(const DecodedPacket& pkt) {
  return pkt.l4 == L4::UDP ? 8 : pkt.l4 == L4::TCP ? pkt.tcp.header_len : 0;
}

// The layers up to the transport's, in the items' order.
void addLayerItems(const LayerInputs& in, std::vector<FrameItem>& items);
// The Data layer: "Data (N bytes)", its bytes and length (`offset`: where
// they are in the frame, if they are).
void addDataLayer(const uint8_t* data, uint32_t n, std::optional<uint32_t> offset,
                  std::vector<FrameItem>& items);

}  // namespace rudp
