#include "packets/frame_layer.h"

#include <cstdio>
#include <ctime>

#include "capture/link_type.h"
#include "decode/link_layer.h"

namespace rudp {

namespace {

constexpr int64_t kNsPerSecond = 1'000'000'000;

std::string bytesAndBits(uint32_t bytes) {
  return std::to_string(bytes) + " bytes (" + std::to_string(uint64_t(bytes) * 8) + " bits)";
}

}  // namespace

std::string arrivalTime(int64_t ts_ns) {
  static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  int64_t seconds = ts_ns / kNsPerSecond, ns = ts_ns % kNsPerSecond;
  if (ns < 0) {
    ns += kNsPerSecond;
    --seconds;
  }
  const time_t t = time_t(seconds);
  struct tm tm {};
  if (!localtime_r(&t, &tm)) return "Not representable";
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s %2d, %d %02d:%02d:%02d.%09d %s", kMonths[tm.tm_mon], tm.tm_mday,
                tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec, int(ns), tm.tm_zone ? tm.tm_zone : "");
  return buf;
}

std::string encapsulationText(int dlt) {
  switch (dlt) {
    case link::kNull: return "NULL/Loopback (15)";
    case link::kEthernet: return "Ethernet (1)";
    case link::kPpp:
    case link::kPppSerial: return "PPP (4)";
    case link::kRaw:
    case link::kRawBsd:
    case link::kLinktypeRaw: return "Raw IP (7)";
    case link::kPppEther: return "PPP-over-Ethernet session (139)";
    case link::kCiscoHdlc: return "Cisco HDLC (28)";
    case link::kIeee80211: return "IEEE 802.11 Wireless LAN (20)";
    case link::kLoop: return "OpenBSD loopback (174)";
    case link::kLinuxSll: return "Linux cooked-mode capture v1 (25)";
    case link::kPrism: return "IEEE 802.11 plus Prism II monitor mode radio header (21)";
    case link::kRadiotap: return "IEEE 802.11 plus radiotap radio header (23)";
    case link::kPpi: return "Per-Packet Information header (97)";
    case link::kIpv4: return "Raw IPv4 (129)";
    case link::kIpv6: return "Raw IPv6 (130)";
    case link::kNflog: return "NFLOG (141)";
    case link::kPktap: return "Apple PKTAP (171)";
    case link::kLinuxSll2: return "Linux cooked-mode capture v2 (210)";
    default: return dltName(dlt);
  }
}

void addFrameLayer(LayerTree& tree, const FrameFacts& facts) {
  const RawPacket& raw = *facts.raw;
  const FrameTimes& t = facts.times;
  std::string summary = "Frame " + std::to_string(raw.frame) + ": " + std::to_string(raw.origlen) +
                        " bytes on wire (" + std::to_string(uint64_t(raw.origlen) * 8) + " bits), " +
                        std::to_string(raw.caplen) + " bytes captured (" +
                        std::to_string(uint64_t(raw.caplen) * 8) + " bits)";
  const std::string interface = raw.interface_name ? raw.interface_name : "unknown";
  if (raw.interface_id >= 0)
    summary += " on interface " + interface + ", id " + std::to_string(raw.interface_id);
  tree.layer(std::move(summary), "frame", 0, raw.caplen);
  if (raw.interface_id >= 0) {
    tree.item(1, "Section number: 1");
    tree.item(1, "Interface id: " + std::to_string(raw.interface_id) + " (" + interface + ")",
              FrameItem::kNoBytes, 0, "frame.interface_id", std::to_string(raw.interface_id));
    tree.item(2, "Interface name: " + interface);
  }
  tree.item(1, "Encapsulation type: " + encapsulationText(facts.link_type));
  tree.item(1, "Arrival Time: " + arrivalTime(t.ts_ns));
  tree.generated(1, "Time shift for this packet: " + secondsText(0));
  tree.item(1, "Epoch Time: " + secondsText(t.ts_ns), FrameItem::kNoBytes, 0, "frame.time_epoch",
            formatSeconds(t.ts_ns, 9));
  tree.generated(1, "Time delta from previous captured frame: " + secondsText(t.ts_ns - t.previous_ns),
                 "frame.time_delta", formatSeconds(t.ts_ns - t.previous_ns, 9));
  tree.generated(1, "Time delta from previous displayed frame: " + secondsText(t.ts_ns - t.previous_shown_ns),
                 "frame.time_delta_displayed", formatSeconds(t.ts_ns - t.previous_shown_ns, 9));
  tree.generated(1, "Time since reference or first frame: " + secondsText(t.ts_ns - t.first_ns),
                 "frame.time_relative", formatSeconds(t.ts_ns - t.first_ns, 9));
  tree.item(1, "Frame Number: " + std::to_string(raw.frame), FrameItem::kNoBytes, 0, "frame.number",
            std::to_string(raw.frame));
  tree.item(1, "Frame Length: " + bytesAndBits(raw.origlen), FrameItem::kNoBytes, 0, "frame.len",
            std::to_string(raw.origlen));
  tree.item(1, "Capture Length: " + bytesAndBits(raw.caplen), FrameItem::kNoBytes, 0, "frame.cap_len",
            std::to_string(raw.caplen));
  tree.generated(1, "Frame is marked: False");
  tree.generated(1, "Frame is ignored: False");
  tree.generated(1, "Protocols in frame: " + facts.protocols, "frame.protocols", facts.protocols);
}

}  // namespace rudp
