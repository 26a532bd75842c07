#include "packets/quic_layer.h"

#include <cstdio>
#include <iterator>
#include <tuple>

#include "core/label_text.h"

namespace rudp {
namespace {

using quic::Frame;
using quic::Packet;
namespace ft = quic::frame;

std::string num(uint64_t v) { return std::to_string(v); }

// RFC 9000 20.1's codes as quic_transport_error_code_vals names them.
std::string transportError(uint64_t code) {
  static const char* const kNames[] = {"NO_ERROR",
                                       "INTERNAL_ERROR",
                                       "CONNECTION_REFUSED",
                                       "FLOW_CONTROL_ERROR",
                                       "STREAM_LIMIT_ERROR",
                                       "STREAM_STATE_ERROR",
                                       "FINAL_SIZE_ERROR",
                                       "FRAME_ENCODING_ERROR",
                                       "TRANSPORT_PARAMETER_ERROR",
                                       "CONNECTION_ID_LIMIT_ERROR",
                                       "PROTOCOL_VIOLATION",
                                       "INVALID_TOKEN",
                                       "APPLICATION_ERROR",
                                       "CRYPTO_BUFFER_EXCEEDED",
                                       "KEY_UPDATE_ERROR",
                                       "AEAD_LIMIT_REACHED",
                                       "NO_VIABLE_PATH"};
  if (code < std::size(kNames)) return kNames[code];
  if (code >= 0x100 && code <= 0x1ff) return "CRYPTO_ERROR";
  return "Unknown (" + num(code) + ")";
}

// C's "%#" PRIx64: "0", "0x1a".
std::string altHex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%#llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string trueFalse(bool v) { return v ? "True" : "False"; }

// One packet's items: the frame bytes it covers start at `at`.
class PacketItems {
 public:
  PacketItems(LayerTree& tree, const Packet& p, uint32_t at) : t_(tree), p_(p), h_(p.header), at_(at) {}

  void header();
  void frames();

 private:
  void shortHeader();
  void longHeader();
  void connIdItems(uint16_t depth, uint32_t from);
  void packetNumberAndPayload(uint16_t depth, const char* payloadName);
  std::string noKeysReason() const;
  void firstByteBits(uint16_t depth, uint8_t mask, const std::string& label, std::string_view field = {}) {
    t_.item(depth, bitPattern(p_.first, mask, 8) + label, at_, 1, field);
  }
  void frame(const Frame& f);
  void frameFields(const Frame& f);
  void ack(const Frame& f);
  void stream(const Frame& f);
  void connectionClose(const Frame& f);
  const uint8_t* plain(uint32_t at) const { return p_.plaintext.data() + at; }
  std::string data(const Frame& f) const { return hexBytes(plain(f.data_at), uint32_t(f.length)); }
  void value(const char* label, uint64_t v, std::string_view field = {}) {
    t_.item(2, std::string(label) + ": " + num(v), FrameItem::kNoBytes, 0, field, num(v));
  }

  LayerTree& t_;
  const Packet& p_;
  const quic::Header& h_;
  uint32_t at_;
};

void PacketItems::header() {
  if (h_.long_header)
    longHeader();
  else
    shortHeader();
}

void PacketItems::shortHeader() {
  const uint32_t dcidAt = at_ + 1, pnAt = dcidAt + h_.dcid.len;
  std::string label = "QUIC Short Header DCID=" + h_.dcid.hex();
  if (p_.unprotected) label += " PKN=" + num(p_.packet_number);
  t_.item(1, label, at_, pnAt + p_.pn_len - at_);
  t_.item(2, bitPattern(h_.first, 0x80, 8) + "Header Form: Short Header (0)", at_, 1, "quic.header_form",
          "0");
  t_.item(2, bitPattern(h_.first, 0x40, 8) + "Fixed Bit: " + trueFalse(h_.first & 0x40), at_, 1,
          "quic.fixed_bit");
  t_.item(2, bitPattern(h_.first, 0x20, 8) + "Spin Bit: " + trueFalse(h_.spin), at_, 1, "quic.spin_bit");
  if (p_.unprotected) {
    firstByteBits(2, 0x18, "Reserved: " + num((p_.first >> 3) & 3));
    firstByteBits(2, 0x04, "Key Phase Bit: " + trueFalse(p_.key_phase), "quic.key_phase");
    firstByteBits(2, 0x03, "Packet Number Length: " + num(p_.pn_len) + " bytes (" + num(p_.pn_len - 1) + ")",
                  "quic.packet_number_length");
  }
  t_.item(2, "Destination Connection ID: " + h_.dcid.hex(), dcidAt, h_.dcid.len, "quic.dcid", h_.dcid.hex());
  packetNumberAndPayload(2, "Protected Payload");
}

void PacketItems::longHeader() {
  const uint8_t first = p_.unprotected ? p_.first : h_.first;
  const uint64_t typeBits = (h_.first >> 4) & 3;  // v2 numbers the types otherwise: named by the type read
  t_.item(1, bitPattern(first, 0x80, 8) + "Header Form: Long Header (1)", at_, 1, "quic.header_form", "1");
  t_.item(1, bitPattern(first, 0x40, 8) + "Fixed Bit: " + trueFalse(first & 0x40), at_, 1, "quic.fixed_bit");
  t_.item(1,
          bitPattern(first, 0x30, 8) + "Packet Type: " + quic::packetTypeName(h_.type) + " (" +
              num(typeBits) + ")",
          at_, 1, "quic.long.packet_type", num(typeBits));
  if (p_.unprotected) {
    firstByteBits(1, 0x0c, "Reserved: " + num((p_.first >> 2) & 3));
    firstByteBits(1, 0x03, "Packet Number Length: " + num(p_.pn_len) + " bytes (" + num(p_.pn_len - 1) + ")",
                  "quic.packet_number_length");
  }
  char version[48];
  const char* name = h_.version == quic::kVersion1 ? "1" : h_.version == quic::kVersion2 ? "2" : "Unknown";
  std::snprintf(version, sizeof version, "Version: %s (0x%08x)", name, h_.version);
  t_.item(1, version, at_ + 1, 4, "quic.version");
  connIdItems(1, at_ + 5);
}

// The long header from the DCID length on.
void PacketItems::connIdItems(uint16_t depth, uint32_t from) {
  uint32_t at = from;
  for (const auto& [id, what, field] :
       {std::tuple{&h_.dcid, "Destination", "quic.dcid"}, std::tuple{&h_.scid, "Source", "quic.scid"}}) {
    t_.item(depth, std::string(what) + " Connection ID Length: " + num(id->len), at, 1);
    if (id->len > 0)
      t_.item(depth, std::string(what) + " Connection ID: " + id->hex(), at + 1, id->len, field, id->hex());
    at += 1 + id->len;
  }
  // Retry and Version Negotiation packets have no length or packet number:
  // their header shows up to here.
  if (h_.type == quic::PacketType::Retry || h_.type == quic::PacketType::VersionNegotiation) return;
  if (h_.type == quic::PacketType::Initial) {
    t_.item(depth, "Token Length: " + num(h_.token_len), at, at_ + h_.token_at - at, "quic.token_length");
    if (h_.token_len > 0)
      t_.item(depth, "Token: " + hexBytes(t_.at(at_ + h_.token_at), h_.token_len), at_ + h_.token_at,
              h_.token_len);
    at = at_ + h_.token_at + h_.token_len;
  }
  t_.item(depth, "Length: " + num(h_.length), at, at_ + h_.pn_at - at, "quic.length");
  packetNumberAndPayload(depth, "Payload");
}

void PacketItems::packetNumberAndPayload(uint16_t depth, const char* payloadName) {
  const uint32_t pnAt = at_ + h_.pn_at, end = at_ + h_.size;
  if (!p_.unprotected) {  // the rest as tshark gives it: one run of bytes, after why
    const uint32_t from = h_.long_header ? pnAt : at_ + 1 + h_.dcid.len;
    t_.expert(1, "Warning", "Decryption", "Failed to create decryption context: " + noKeysReason());
    t_.item(1, "Remaining Payload: " + hexBytes(t_.at(from), end - from), from, end - from);
    return;
  }
  t_.item(depth, "Packet Number: " + num(p_.packet_number), pnAt, p_.pn_len, "quic.packet_number");
  const uint32_t payloadAt = pnAt + p_.pn_len;
  t_.item(depth, std::string(payloadName) + ": " + hexBytes(t_.at(payloadAt), end - payloadAt), payloadAt,
          end - payloadAt);
  if (!p_.decrypted) t_.expert(depth, "Warning", "Decryption", "Decryption failed: " + p_.error);
}

// tshark's words where the case is the same (no key log: "Secrets are not
// available"), else the decryptor's own.
std::string PacketItems::noKeysReason() const {
  if (p_.keys_pending) return "Unable to retrieve cipher information";
  if (p_.error.find("give the key log") != std::string::npos ||
      p_.error.find("no secrets for this connection") != std::string::npos)
    return "Secrets are not available";
  return p_.error;
}

void PacketItems::frames() {
  for (const Frame& f : p_.frames) frame(f);
}

void PacketItems::frame(const Frame& f) {
  std::string label = quic::frameTypeName(f.type);
  if (f.is(ft::kPadding)) label += " Length: " + num(f.padding);
  if (f.isStream())
    label += " id=" + num(f.stream_id) + " fin=" + num(f.fin) + " off=" + num(f.offset) +
             " len=" + num(f.length) + " dir=" + ((f.stream_id & 2) ? "Unidirectional" : "Bidirectional") +
             " origin=" + ((f.stream_id & 1) ? "Server-initiated" : "Client-initiated");
  if (f.is(ft::kResetStream) || f.is(ft::kStopSending))
    label += " id=" + num(f.stream_id) + " Error code: " + altHex(f.value);
  if (f.is(ft::kMaxStreamData) || f.is(ft::kStreamDataBlocked)) label += " id=" + num(f.stream_id);
  if (f.is(ft::kConnectionClose))  // codes over 0x3fff are for private use
    label += " Error code: " + (f.value <= 0x3fff ? transportError(f.value) : altHex(f.value));
  if (f.is(ft::kApplicationClose)) label += " Error code: " + altHex(f.value);
  t_.item(1, label, FrameItem::kNoBytes, 0, "quic.frame");
  char type[64];
  std::snprintf(type, sizeof type, "Frame Type: %s (0x%016llx)", quic::frameTypeName(f.type),
                static_cast<unsigned long long>(f.type));
  t_.item(2, type, FrameItem::kNoBytes, 0, "quic.frame_type", num(f.type));
  frameFields(f);
}

void PacketItems::frameFields(const Frame& f) {
  if (f.isAck()) return ack(f);
  if (f.isStream()) return stream(f);
  switch (f.type) {
    case ft::kPadding:
      return t_.item(2, "[Padding Length: " + num(f.padding) + "]", FrameItem::kNoBytes, 0,
                     "quic.padding_length", num(f.padding));
    case ft::kResetStream:
      value("Stream ID", f.stream_id, "quic.rsts.stream_id");
      value("Application Error code", f.value, "quic.rsts.application_error_code");
      return value("Final Size", f.offset, "quic.rsts.final_size");
    case ft::kStopSending:
      value("Stream ID", f.stream_id, "quic.ss.stream_id");
      return value("Application Error code", f.value);
    case ft::kCrypto:
      value("Offset", f.offset, "quic.crypto.offset");
      value("Length", f.length, "quic.crypto.length");
      return t_.item(2, "Crypto Data");
    case ft::kNewToken:
      value("(Token) Length", f.length, "quic.nt.length");
      return t_.item(2, "Token: " + data(f));
    case ft::kMaxData: return value("Maximum Data", f.value, "quic.md.maximum_data");
    case ft::kMaxStreamData:
      value("Stream ID", f.stream_id, "quic.msd.stream_id");
      return value("Maximum Stream Data", f.value, "quic.msd.maximum_stream_data");
    case ft::kMaxStreamsBidi:
    case ft::kMaxStreamsUni: return value("Max Streams", f.value, "quic.ms.max_streams");
    case ft::kDataBlocked: return value("Stream Data Limit", f.value);
    case ft::kStreamDataBlocked: value("Stream ID", f.stream_id); return value("Stream Data Limit", f.value);
    case ft::kStreamsBlockedBidi:
    case ft::kStreamsBlockedUni: return value("Stream Limit", f.value);
    case ft::kNewConnectionId:
      value("Sequence", f.value, "quic.nci.sequence");
      value("Retire Prior To", f.retire_prior_to, "quic.nci.retire_prior_to");
      value("Connection ID Length", f.conn_id.len, "quic.nci.connection_id.length");
      t_.item(2, "Connection ID: " + f.conn_id.hex(), FrameItem::kNoBytes, 0, "quic.nci.connection_id",
              f.conn_id.hex());
      return t_.item(2, "Stateless Reset Token: " + hexBytes(plain(f.at + f.size - 16), 16));
    case ft::kRetireConnectionId: return value("Sequence", f.value, "quic.rci.sequence");
    case ft::kPathChallenge:
    case ft::kPathResponse: return t_.item(2, "Data: " + data(f));
    case ft::kConnectionClose:
    case ft::kApplicationClose: return connectionClose(f);
    case ft::kDatagramLen: value("Datagram Length", f.length, "quic.dg.length"); [[fallthrough]];
    case ft::kDatagram: return t_.item(2, "Datagram: " + data(f));
    default: return;
  }
}

void PacketItems::ack(const Frame& f) {
  value("Largest Acknowledged", f.largest, "quic.ack.largest_acknowledged");
  value("ACK Delay", f.ack_delay, "quic.ack.ack_delay");
  value("ACK Range Count", f.gaps.size(), "quic.ack.ack_range_count");
  value("First ACK Range", f.first_range, "quic.ack.first_ack_range");
  for (const auto& [gap, range] : f.gaps) {
    value("Gap", gap, "quic.ack.gap");
    value("ACK Range", range, "quic.ack.ack_range");
  }
  if (!f.is(ft::kAckEcn)) return;
  value("ECT(0) Count", f.ecn[0], "quic.ack.ect0_count");
  value("ECT(1) Count", f.ecn[1], "quic.ack.ect1_count");
  value("ECN-CE Count", f.ecn[2], "quic.ack.ecn_ce_count");
}

void PacketItems::stream(const Frame& f) {
  const auto flag = [&](uint8_t mask, const char* name, std::string_view field) {
    t_.item(3, bitPattern(f.type, mask, 8) + name + ": " + trueFalse(f.type & mask), FrameItem::kNoBytes, 0,
            field, num((f.type & mask) != 0));
  };
  flag(ft::kStreamFin, "Fin", "quic.stream.fin");
  flag(ft::kStreamLen, "Len(gth)", "quic.stream.len");
  flag(ft::kStreamOff, "Off(set)", "quic.stream.off");
  value("Stream ID", f.stream_id, "quic.stream.stream_id");
  const bool server = f.stream_id & 1, uni = f.stream_id & 2;
  t_.item(3, bitPattern(f.stream_id, 1, 64) +
                 "Stream initiator: " + (server ? "Server-initiated (1)" : "Client-initiated (0)"));
  t_.item(3, bitPattern(f.stream_id, 2, 64) +
                 "Stream direction: " + (uni ? "Unidirectional (1)" : "Bidirectional (0)"));
  if (f.type & ft::kStreamOff) value("Offset", f.offset, "quic.stream.offset");
  if (f.type & ft::kStreamLen) value("Length", f.length, "quic.stream.length");
  t_.item(2, "Stream Data: " + data(f));
}

void PacketItems::connectionClose(const Frame& f) {
  if (f.is(ft::kConnectionClose)) {
    t_.item(2, "Error code: " + transportError(f.value) + " (" + num(f.value) + ")", FrameItem::kNoBytes, 0,
            "quic.cc.error_code", num(f.value));
    value("Frame Type", f.closing_frame_type);
  } else {
    value("Application Error code", f.value);
  }
  value("Reason phrase Length", f.length);
  t_.item(2, "Reason phrase: " + asciiText(plain(f.data_at), uint32_t(f.length)));
}

}  // namespace

void addQuicLayers(LayerTree& tree, const quic::Datagram& d, uint32_t payloadAt) {
  tree.protocol("quic");  // once, however many packets (frame.protocols)
  for (size_t i = 0; i < d.packets.size(); ++i) {
    const Packet& p = d.packets[i];
    const uint32_t at = payloadAt + p.at;
    tree.moreOfLayer("QUIC IETF", "quic", at, p.header.size);
    if (i == 0) {  // packet-quic.c names the connection once per datagram
      tree.item(1, "QUIC Connection information");
      tree.generated(2, "Connection Number: " + num(d.connection - 1), "quic.connection.number",
                     num(d.connection - 1));
    }
    tree.generated(1, "Packet Length: " + num(p.header.size), "quic.packet_length", num(p.header.size));
    if (p.header_cut) {
      tree.item(1, "[Malformed: " + p.error + "]");
      continue;
    }
    PacketItems items(tree, p, at);
    items.header();
    if (p.decrypted) items.frames();
  }
  if (d.padding == 0) return;
  const uint32_t at =
      payloadAt + (d.packets.empty() ? 0 : d.packets.back().at + d.packets.back().header.size);
  tree.moreOfLayer("QUIC IETF", "quic", at, d.padding);
  tree.expert(1, "Note", "Protocol", "(Random) padding data appended to the datagram");
}

}  // namespace rudp
