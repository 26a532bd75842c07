#include "packets/icmp_echo_layer.h"

#include <cstdio>
#include <cstdlib>

#include "core/label_text.h"
#include "packets/frame_layer.h"
#include "packets/frame_time.h"
#include "packets/icmp_names.h"

namespace rudp {

namespace {

constexpr int64_t kNsPerSecond = 1'000'000'000, kSecondsPerDay = 86400;

// "4660 (0x1234)": BASE_DEC_HEX.
std::string decHex(unsigned v) { return std::to_string(v) + " (" + hexNumber(v, 4) + ")"; }

// "15.000 ms".
std::string milliseconds(int64_t ns) {
  char ms[48];
  std::snprintf(ms, sizeof ms, "%.3f ms", double(ns) / 1e6);
  return ms;
}

// The data after the header: Wireshark's Data protocol, under ICMP's layer.
void dataLayer(LayerTree& tree, uint32_t at, uint32_t n) {
  if (n == 0) return;
  tree.nest(1);
  tree.layer("Data (" + std::to_string(n) + (n == 1 ? " byte)" : " bytes)"), "data", at, n);
  tree.item(1, "Data: " + hexBytes(tree.at(at), n), at, n, "data.data", hexBytes(tree.at(at), n, false));
  tree.generated(1, "Length: " + std::to_string(n), "data.len", std::to_string(n));
  tree.nest(0);
}

// packet-icmp.c's guess: the data's first 8 bytes as a timeval (seconds,
// microseconds), big-endian, else little-endian, when within a day of the
// frame's time; its time, or nullopt.
std::optional<int64_t> dataTimestamp(const LayerTree& tree, uint32_t at, int64_t frameNs) {
  const int64_t frameSeconds = frameNs / kNsPerSecond;
  const auto plausible = [&](uint32_t s, uint32_t us) {
    return std::llabs(int64_t(int32_t(s - uint32_t(frameSeconds)))) < kSecondsPerDay && us < 1000000;
  };
  uint32_t s = uint32_t(tree.number(at, 4)), us = uint32_t(tree.number(at + 4, 4));
  if (!plausible(s, us)) {
    s = __builtin_bswap32(s);
    us = __builtin_bswap32(us);
  }
  if (!plausible(s, us)) return std::nullopt;
  return int64_t(s) * kNsPerSecond + int64_t(us) * 1000;
}

// packet-icmpv6.c's echo items after the checksum.
void echo6Items(LayerTree& tree, const DecodedPacket& pkt, uint32_t at,
                const std::optional<EchoRequest>& request, uint32_t dataBytes) {
  const IcmpHead& h = pkt.icmp_heads[0];
  tree.item(1, "Identifier: " + hexNumber(h.id, 4), at + 4, 2, "icmpv6.echo.identifier", hexNumber(h.id, 4));
  tree.item(1, "Sequence: " + std::to_string(h.seq), at + 6, 2, "icmpv6.echo.sequence_number",
            std::to_string(h.seq));
  if (request) {
    tree.generated(1, "Response To: " + std::to_string(request->frame));
    tree.generated(1, "Response Time: " + milliseconds(pkt.ts_ns - request->ts_ns));
  }
  dataLayer(tree, at + 8, dataBytes);
}

}  // namespace

void addIcmpEchoLayer(LayerTree& tree, const DecodedPacket& pkt, uint32_t at, uint32_t reported,
                      const std::optional<EchoRequest>& request) {
  const IcmpHead& h = pkt.icmp_heads[0];
  const uint32_t captured = tree.captured(at, reported) ? reported : h.bytes;
  const std::string prefix = h.v6 ? "icmpv6" : "icmp", type = std::to_string(h.type);
  tree.layer(h.v6 ? "Internet Control Message Protocol v6" : "Internet Control Message Protocol", prefix, at,
             captured);
  tree.item(1,
            h.v6 ? "Type: " + icmp6TypeName(h.type) + " (" + type + ")"
                 : "Type: " + type + " (" + icmpTypeName(h.type, h.code) + ")",
            at, 1, prefix + ".type", type);
  tree.item(1, "Code: " + std::to_string(h.code), at + 1, 1, prefix + ".code", std::to_string(h.code));
  if (captured == reported && !pkt.ip_fragment) {
    const uint64_t pseudoHeader = h.v6 ? icmpv6PseudoHeaderSum(pkt.src, pkt.dst, reported) : 0;
    tree.checksum(1, at + 2, h.checksum, inCksum(tree, at, at + reported, pseudoHeader), prefix + ".checksum",
                  {"Checksum", "Bad checksum"});
  } else {
    tree.item(1, "Checksum: " + hexNumber(h.checksum, 4) + " [unverified] [fragmented datagram]", at + 2, 2,
              prefix + ".checksum", hexNumber(h.checksum, 4));
    tree.generated(1, "Checksum Status: Unverified");
  }
  const uint32_t data = at + 8, dataBytes = captured > 8 ? captured - 8 : 0;
  if (h.v6) return echo6Items(tree, pkt, at, request, dataBytes);
  tree.item(1, "Identifier (BE): " + decHex(h.id), at + 4, 2);
  tree.item(1, "Identifier (LE): " + decHex(__builtin_bswap16(h.id)), at + 4, 2);
  tree.item(1, "Sequence Number (BE): " + decHex(h.seq), at + 6, 2);
  tree.item(1, "Sequence Number (LE): " + decHex(__builtin_bswap16(h.seq)), at + 6, 2);
  if (request) {
    tree.generated(1, "Request frame: " + std::to_string(request->frame));
    tree.generated(1, "Response time: " + milliseconds(pkt.ts_ns - request->ts_ns));
  }
  const std::optional<int64_t> stamp = dataBytes >= 8 ? dataTimestamp(tree, data, pkt.ts_ns) : std::nullopt;
  if (!stamp) return dataLayer(tree, data, dataBytes);
  tree.item(1, "Timestamp from icmp data: " + arrivalTime(*stamp), data, 8);
  tree.generated(1, "Timestamp from icmp data (relative): " + secondsText(pkt.ts_ns - *stamp));
  dataLayer(tree, data + 8, dataBytes - 8);
}

}  // namespace rudp
