#include "decode/quic_info.h"

namespace rudp::quic {
namespace {

// The frame's name in the Info column (packet-quic.c's col_append_fstr per
// frame type); "" for a type it does not name.
std::string frameColumnName(const Frame& f) {
  using namespace frame;
  const auto withId = [&](const char* name) {
    return std::string(name) + "(" + std::to_string(f.stream_id) + ")";
  };
  if (f.isStream()) return withId("STREAM");
  switch (f.type) {
    case kPadding: return "PADDING";
    case kPing: return "PING";
    case kAck: return "ACK";
    case kAckEcn: return "ACK_ECN";
    case kResetStream: return withId("RS");
    case kStopSending: return withId("SS");
    case kCrypto: return "CRYPTO";
    case kNewToken: return "NT";
    case kMaxData: return "MD";
    case kMaxStreamData: return withId("MSD");
    case kMaxStreamsBidi:
    case kMaxStreamsUni: return "MS";
    case kDataBlocked: return "DB";
    case kStreamDataBlocked: return withId("SDB");
    case kStreamsBlockedBidi:
    case kStreamsBlockedUni: return "SB";
    case kNewConnectionId: return "NCI";
    case kRetireConnectionId: return "RC";
    case kPathChallenge: return "PC";
    case kPathResponse: return "PR";
    case kConnectionClose:
    case kApplicationClose: return "CC";
    case kHandshakeDone: return "DONE";
    case kDatagram:
    case kDatagramLen: return "DG";
    default: return "";
  }
}

std::string connIds(const Packet& p) {
  std::string out;
  if (p.header.dcid.len > 0) out += ", DCID=" + p.header.dcid.hex();
  if (p.header.long_header && p.header.scid.len > 0) out += ", SCID=" + p.header.scid.hex();
  return out;
}

std::string packetInfo(const Packet& p) {
  const Header& h = p.header;
  std::string out = h.long_header
                        ? packetTypeName(h.type)
                        : "Protected Payload (KP" + std::to_string(p.unprotected && p.key_phase) + ")";
  out += connIds(p);
  if (h.type == PacketType::Retry || h.type == PacketType::VersionNegotiation) return out;
  if (p.unprotected) out += ", PKN: " + std::to_string(p.packet_number);
  for (const Frame& f : p.frames)
    if (const std::string name = frameColumnName(f); !name.empty()) out += ", " + name;
  return out;
}

}  // namespace

std::string infoColumn(const Datagram& d) { return d.packets.empty() ? "" : packetInfo(d.packets.back()); }

}  // namespace rudp::quic
