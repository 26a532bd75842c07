#include "packets/transport_layers.h"

#include "core/bytes.h"
#include "decode/udp.h"
#include "packets/frame_time.h"

namespace rudp {

namespace {

// A field's bytes in the frame, when the header is in it.
uint32_t within(uint32_t at, uint32_t offset) { return at == FrameItem::kNoBytes ? at : at + offset; }

// packet-udp.c's note on a port LBL traceroute probes: from 33435 (32768 +
// 666 + 1) on, three probes per hop, for 10 hops.
void tracerouteNote(LayerTree& tree, uint16_t port) {
  constexpr unsigned kBase = 32768 + 666;
  if (port <= kBase || port > kBase + 30) return;
  const unsigned probe = port - kBase - 1;
  tree.expert(2, "Chat", "Sequence",
              "Possible traceroute: hop #" + std::to_string(probe / 3 + 1) + ", attempt #" +
                  std::to_string(probe % 3 + 1));
}

}  // namespace

void addUdpLayer(LayerTree& tree, uint32_t at, const uint8_t* header, const DecodedPacket& pkt,
                 const std::optional<StreamPosition>& stream) {
  const std::string sport = std::to_string(pkt.sport), dport = std::to_string(pkt.dport);
  tree.layer("User Datagram Protocol, Src Port: " + sport + ", Dst Port: " + dport, "udp", at,
             at == FrameItem::kNoBytes ? 0 : udp::kHeaderLen);
  const bool inFrame = at != FrameItem::kNoBytes;
  tree.item(1, "Source Port: " + sport, within(at, udp::kSrcPortAt), inFrame ? 2 : 0, "udp.srcport", sport);
  tracerouteNote(tree, pkt.sport);
  tree.item(1, "Destination Port: " + dport, within(at, udp::kDstPortAt), inFrame ? 2 : 0, "udp.dstport",
            dport);
  tracerouteNote(tree, pkt.dport);
  const std::string length = std::to_string(udp::length(header));
  tree.item(1, "Length: " + length, within(at, udp::kLengthAt), inFrame ? 2 : 0, "udp.length", length);
  const uint32_t checksum = udp::checksum(header);
  if (checksum == 0) {
    const bool illegal = udpChecksumIllegal(pkt);
    tree.item(1, illegal ? "Checksum: 0x0000 [zero-value illegal]" : "Checksum: 0x0000 [zero-value ignored]",
              within(at, udp::kChecksumAt), inFrame ? 2 : 0);
    if (illegal) tree.expert(2, "Error", "Checksum", "Illegal checksum value (0)");
    tree.generated(2, illegal ? "Checksum Status: Illegal" : "Checksum Status: Not present");
  } else {
    tree.item(1, "Checksum: " + hexNumber(checksum, 4) + " [unverified]", within(at, udp::kChecksumAt),
              inFrame ? 2 : 0);
    tree.generated(1, "Checksum Status: Unverified");
  }
  if (stream)
    tree.generated(1, "Stream index: " + std::to_string(stream->index), "udp.stream",
                   std::to_string(stream->index));
  if (udp::length(header) == udp::kHeaderLen) return;  // an empty datagram: tshark's UDP layer ends here
  if (stream && stream->timed) {
    tree.generated(1, "Timestamps");
    tree.generated(2, "Time since first frame: " + secondsText(pkt.ts_ns - stream->first_ns));
    tree.generated(2, "Time since previous frame: " + secondsText(pkt.ts_ns - stream->previous_ns));
  }
  // packet-udp.c calls no dissector on an error's quote without payload bytes.
  if (pkt.in_error_pkt && pkt.payload_len == 0) return;
  const uint32_t payload = pkt.in_error_pkt ? pkt.payload_len : pkt.payload_reported_len;
  tree.item(1, "UDP payload (" + std::to_string(payload) + (payload == 1 ? " byte)" : " bytes)"),
            within(at, 8), inFrame ? std::min(payload, pkt.payload_len) : 0);
}

}  // namespace rudp
