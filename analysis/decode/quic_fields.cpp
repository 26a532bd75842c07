#include "decode/quic_fields.h"

#include <functional>

namespace rudp::quic {

namespace {

using Out = std::vector<FieldValue>;
using Extract = std::function<void(const Datagram&, Out&)>;

struct Field {
  std::string_view name;
  FieldType type;
  Extract extract;
};

FieldValue num(uint64_t v) { return {v, {}}; }
FieldValue bytesOf(const ConnId& c) {
  return {0, std::string_view(reinterpret_cast<const char*>(c.id), c.len)};
}

// A value per packet that `when` accepts.
Extract perPacket(std::function<bool(const Packet&)> when, std::function<FieldValue(const Packet&)> value) {
  return [when, value](const Datagram& d, Out& out) {
    for (const Packet& p : d.packets)
      if (when(p)) out.push_back(value(p));
  };
}

// A value per frame of the decrypted packets that `when` accepts.
Extract perFrame(std::function<bool(const Frame&)> when, std::function<uint64_t(const Frame&)> value) {
  return [when, value](const Datagram& d, Out& out) {
    for (const Packet& p : d.packets)
      for (const Frame& f : p.frames)
        if (when(f)) out.push_back(num(value(f)));
  };
}

bool always(const Packet&) { return true; }
bool isLong(const Packet& p) { return p.header.long_header; }
bool isShort(const Packet& p) { return !p.header.long_header; }
bool hasLength(const Packet& p) {
  const PacketType t = p.header.type;
  return p.header.long_header && t != PacketType::Retry && t != PacketType::VersionNegotiation;
}
bool opened(const Packet& p) { return p.unprotected; }
bool openedShort(const Packet& p) { return p.unprotected && !p.header.long_header; }

bool isAck(const Frame& f) { return f.isAck(); }
bool isEcn(const Frame& f) { return f.is(frame::kAckEcn); }
bool isStream(const Frame& f) { return f.isStream(); }
bool isCrypto(const Frame& f) { return f.is(frame::kCrypto); }
auto typeIs(uint64_t t) {
  return [t](const Frame& f) { return f.type == t; };
}

// The long header's type bits as on the wire (v2's own numbering included).
uint64_t longTypeBits(const Packet& p) { return (p.header.first >> 4) & 3; }

const std::vector<Field>& fields() {
  static const std::vector<Field> kFields = {
      // tshark gives padding after the last packet a quic item of its own.
      {"quic", FieldType::Protocol,
       [](const Datagram& d, Out& out) { out.resize(out.size() + d.packets.size() + (d.padding ? 1 : 0)); }},
      {"quic.connection.number", FieldType::Unsigned,
       [](const Datagram& d, Out& out) { out.push_back(num(d.connection - 1)); }},
      {"quic.packet_length", FieldType::Unsigned, perPacket(always, [](const Packet& p) { return num(p.header.size); })},
      {"quic.header_form", FieldType::Unsigned,
       perPacket(always, [](const Packet& p) { return num(p.header.long_header ? 1 : 0); })},
      {"quic.fixed_bit", FieldType::Bool,
       perPacket(always, [](const Packet& p) { return num((p.header.first >> 6) & 1); })},
      {"quic.spin_bit", FieldType::Bool, perPacket(isShort, [](const Packet& p) { return num(p.header.spin); })},
      {"quic.long.packet_type", FieldType::Unsigned,
       perPacket(hasLength, [](const Packet& p) { return num(longTypeBits(p)); })},
      {"quic.version", FieldType::Hex32, perPacket(isLong, [](const Packet& p) { return num(p.header.version); })},
      {"quic.dcil", FieldType::Unsigned, perPacket(isLong, [](const Packet& p) { return num(p.header.dcid.len); })},
      {"quic.dcid", FieldType::Bytes, perPacket(always, [](const Packet& p) { return bytesOf(p.header.dcid); })},
      {"quic.scil", FieldType::Unsigned, perPacket(isLong, [](const Packet& p) { return num(p.header.scid.len); })},
      {"quic.scid", FieldType::Bytes, perPacket(isLong, [](const Packet& p) { return bytesOf(p.header.scid); })},
      {"quic.token_length", FieldType::Unsigned,
       perPacket([](const Packet& p) { return p.header.long_header && p.header.type == PacketType::Initial; },
                 [](const Packet& p) { return num(p.header.token_len); })},
      {"quic.length", FieldType::Unsigned, perPacket(hasLength, [](const Packet& p) { return num(p.header.length); })},
      {"quic.packet_number", FieldType::Unsigned,
       perPacket(opened, [](const Packet& p) { return num(p.packet_number); })},
      {"quic.packet_number_length", FieldType::Unsigned,
       perPacket(opened, [](const Packet& p) { return num(p.pn_len - 1); })},  // the header's two bits
      {"quic.key_phase", FieldType::Bool, perPacket(openedShort, [](const Packet& p) { return num(p.key_phase); })},
      {"quic.frame_type", FieldType::Unsigned, perFrame([](const Frame&) { return true; }, [](const Frame& f) { return f.type; })},
      {"quic.padding_length", FieldType::Unsigned,
       perFrame(typeIs(frame::kPadding), [](const Frame& f) { return f.padding; })},
      {"quic.ack.largest_acknowledged", FieldType::Unsigned, perFrame(isAck, [](const Frame& f) { return f.largest; })},
      {"quic.ack.ack_delay", FieldType::Unsigned, perFrame(isAck, [](const Frame& f) { return f.ack_delay; })},
      {"quic.ack.ack_range_count", FieldType::Unsigned,
       perFrame(isAck, [](const Frame& f) { return uint64_t(f.gaps.size()); })},
      {"quic.ack.first_ack_range", FieldType::Unsigned, perFrame(isAck, [](const Frame& f) { return f.first_range; })},
      {"quic.ack.gap", FieldType::Unsigned,
       [](const Datagram& d, Out& out) {
         for (const Packet& p : d.packets)
           for (const Frame& f : p.frames)
             for (const auto& [gap, range] : f.gaps) out.push_back(num(gap));
       }},
      {"quic.ack.ack_range", FieldType::Unsigned,
       [](const Datagram& d, Out& out) {
         for (const Packet& p : d.packets)
           for (const Frame& f : p.frames)
             for (const auto& [gap, range] : f.gaps) out.push_back(num(range));
       }},
      {"quic.ack.ect0_count", FieldType::Unsigned, perFrame(isEcn, [](const Frame& f) { return f.ecn[0]; })},
      {"quic.ack.ect1_count", FieldType::Unsigned, perFrame(isEcn, [](const Frame& f) { return f.ecn[1]; })},
      {"quic.ack.ecn_ce_count", FieldType::Unsigned, perFrame(isEcn, [](const Frame& f) { return f.ecn[2]; })},
      {"quic.rsts.stream_id", FieldType::Unsigned,
       perFrame(typeIs(frame::kResetStream), [](const Frame& f) { return f.stream_id; })},
      {"quic.rsts.application_error_code", FieldType::Unsigned,
       perFrame(typeIs(frame::kResetStream), [](const Frame& f) { return f.value; })},
      {"quic.rsts.final_size", FieldType::Unsigned,
       perFrame(typeIs(frame::kResetStream), [](const Frame& f) { return f.offset; })},
      {"quic.ss.stream_id", FieldType::Unsigned,
       perFrame(typeIs(frame::kStopSending), [](const Frame& f) { return f.stream_id; })},
      {"quic.crypto.offset", FieldType::Unsigned, perFrame(isCrypto, [](const Frame& f) { return f.offset; })},
      {"quic.crypto.length", FieldType::Unsigned, perFrame(isCrypto, [](const Frame& f) { return f.length; })},
      {"quic.nt.length", FieldType::Unsigned, perFrame(typeIs(frame::kNewToken), [](const Frame& f) { return f.length; })},
      {"quic.stream.fin", FieldType::Bool, perFrame(isStream, [](const Frame& f) { return uint64_t(f.fin); })},
      {"quic.stream.stream_id", FieldType::Unsigned, perFrame(isStream, [](const Frame& f) { return f.stream_id; })},
      {"quic.stream.offset", FieldType::Unsigned,
       perFrame([](const Frame& f) { return f.isStream() && (f.type & frame::kStreamOff); },
                [](const Frame& f) { return f.offset; })},
      {"quic.stream.length", FieldType::Unsigned,
       perFrame([](const Frame& f) { return f.isStream() && (f.type & frame::kStreamLen); },
                [](const Frame& f) { return f.length; })},
      {"quic.md.maximum_data", FieldType::Unsigned,
       perFrame(typeIs(frame::kMaxData), [](const Frame& f) { return f.value; })},
      {"quic.msd.stream_id", FieldType::Unsigned,
       perFrame(typeIs(frame::kMaxStreamData), [](const Frame& f) { return f.stream_id; })},
      {"quic.msd.maximum_stream_data", FieldType::Unsigned,
       perFrame(typeIs(frame::kMaxStreamData), [](const Frame& f) { return f.value; })},
      {"quic.ms.max_streams", FieldType::Unsigned,
       perFrame([](const Frame& f) { return f.is(frame::kMaxStreamsBidi) || f.is(frame::kMaxStreamsUni); },
                [](const Frame& f) { return f.value; })},
      {"quic.nci.retire_prior_to", FieldType::Unsigned,
       perFrame(typeIs(frame::kNewConnectionId), [](const Frame& f) { return f.retire_prior_to; })},
      {"quic.nci.sequence", FieldType::Unsigned,
       perFrame(typeIs(frame::kNewConnectionId), [](const Frame& f) { return f.value; })},
      {"quic.nci.connection_id.length", FieldType::Unsigned,
       perFrame(typeIs(frame::kNewConnectionId), [](const Frame& f) { return uint64_t(f.conn_id.len); })},
      {"quic.nci.connection_id", FieldType::Bytes,
       [](const Datagram& d, Out& out) {
         for (const Packet& p : d.packets)
           for (const Frame& f : p.frames)
             if (f.is(frame::kNewConnectionId)) out.push_back(bytesOf(f.conn_id));
       }},
      {"quic.rci.sequence", FieldType::Unsigned,
       perFrame(typeIs(frame::kRetireConnectionId), [](const Frame& f) { return f.value; })},
      {"quic.cc.error_code", FieldType::Unsigned,
       perFrame(typeIs(frame::kConnectionClose), [](const Frame& f) { return f.value; })},
      {"quic.dg.length", FieldType::Unsigned,
       perFrame(typeIs(frame::kDatagramLen), [](const Frame& f) { return f.length; })},
  };
  return kFields;
}

}  // namespace

const std::vector<std::string_view>& fieldNames() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> out;
    for (const Field& f : fields()) out.push_back(f.name);
    return out;
  }();
  return names;
}

FieldType fieldType(size_t i) { return fields()[i].type; }

void fieldValues(size_t i, const Datagram& d, std::vector<FieldValue>& out) { fields()[i].extract(d, out); }

}  // namespace rudp::quic
