// The fields a display filter can name: the built-in frame, link, IP, UDP
// and TCP fields rudpscope decodes itself, and every field and protocol a
// loaded Lua dissector registers; and their values in one frame.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/packet.h"
#include "decode/quic_session.h"
#include "flow/conversation_tracker.h"
#include "flow/stream_fields.h"
#include "flow/tcp_notes.h"

namespace rudp {

class LuaHost;
struct DissectResult;

// How a field's values compare (Wireshark's FT_ types, grouped).
enum class FilterType {
  None,
  Bool,
  Unsigned,
  Signed,
  Double,
  RelTime,
  AbsTime,
  IPv4,
  IPv6,
  Ether,
  Bytes,
  String,
  Protocol
};

struct FilterFieldDef {
  std::string name;  // "udp.srcport", "grudp"
  FilterType type = FilterType::None;
  int width = 0;          // Unsigned/Signed: bytes, for range checks (0: 8)
  int builtin = -1;       // a built-in field, or
  int lua = -1;           // a LuaHost field id, or
  int tcp_note = -1;      // an index into tcpNoteFieldNames(), or
  int stream_field = -1;  // into streamFieldNames(), or
  int quic_field = -1;    // into quic::fieldNames()
  // Protocol: whether its bytes are known, for contains/matches/==.
  bool has_bytes = false;
};

// How an arithmetic operand or result is held, as Wireshark 4.0's fvalue
// types: 32-bit integers for fields up to 4 bytes, 64-bit ones for wider
// fields, nanoseconds for times. Field: a value outside arithmetic.
enum class FilterRep : uint8_t { Field, U32, S32, U64, S64, Time, Double };

// One occurrence of a field in a frame. Views point into the frame, the
// dissection result or the filter; valid while those are.
struct FilterValue {
  uint64_t u = 0;                    // Unsigned, Bool; Signed, RelTime, AbsTime (ns) as two's complement
  double d = 0;                      // Double
  IpAddress ip;                      // IPv4, IPv6
  int prefix = -1;                   // a literal's subnet bits; -1 the whole address
  std::string_view bytes;            // Ether, Bytes, String, Protocol
  FilterRep rep = FilterRep::Field;  // S32/S64/Time: `u` holds the value sign-extended
};

// What one frame offers a filter.
struct FilterFrame {
  const RawPacket* raw = nullptr;
  int link_type = 1;  // the frame's DLT
  const DecodedPacket* pkt = nullptr;
  const DissectResult* res = nullptr;  // Lua fields; may be empty
  int64_t first_ts_ns = 0, prev_ts_ns = 0;
  int64_t shown_ts_ns = 0;  // the last frame shown's time; this frame's when none was
  // Wireshark's TCP analysis notes (tcp.analysis.*); null when not worked out.
  const TcpNotes* tcp_notes = nullptr;
  // With them, the stream and SEQ/ACK analysis items (tcp.stream, tcp.analysis.ack_rtt, ...).
  const TcpFrameDetails* tcp_details = nullptr;
  const FrameUdpStreams* udp_streams = nullptr;  // its UDP headers' (udp.stream, udp.time_*)
  const quic::Datagram* quic = nullptr;          // its QUIC packets, when read in order
};

inline StreamFacts streamFactsOf(const FilterFrame& f, bool relativeTcpSeqs) {
  return {f.pkt, f.tcp_notes, f.tcp_details, f.udp_streams, relativeTcpSeqs};
}

// The FilterFrames of a capture's frames read in order: keeps the first
// frame's time (frame.time_relative), the previous one's (frame.time_delta)
// and the last shown one's (frame.time_delta_displayed: tshark counts from
// the last frame that passed the display filter, and gives 0 until one has).
// With `conversations`, it works out from the frames before each frame its
// TCP analysis notes and its TCP or UDP stream too (what tcp.analysis.*,
// tcp.stream and udp.stream need).
class FilterFrameSequence {
 public:
  // `keys`: the TLS key log QUIC's packets open with (null: none); it must
  // outlive the sequence.
  explicit FilterFrameSequence(int captureLinkType, bool conversations = false,
                               const quic::KeyLog* keys = nullptr)
      : link_type_(captureLinkType), quic_(std::make_unique<quic::QuicSession>(keys)) {
    if (conversations) conversations_.emplace();
  }
  FilterFrame next(const RawPacket& raw, const DecodedPacket& pkt, const DissectResult* res) {
    if (!started_) first_ = prev_ = raw.ts_ns;
    started_ = true;
    const ConversationFrame* c = conversations_ ? &conversations_->next(pkt) : nullptr;
    const FilterFrame f{&raw,
                        raw.link_type >= 0 ? raw.link_type : link_type_,
                        &pkt,
                        res,
                        first_,
                        prev_,
                        any_shown_ ? shown_ : raw.ts_ns,
                        c ? &c->notes : nullptr,
                        c && c->tcp ? &*c->tcp : nullptr,
                        c ? &c->udp : nullptr,
                        readQuic(pkt, res)};
    prev_ = raw.ts_ns;
    return f;
  }
  // `frame` (the last next() gave) passed the display filter.
  void shown(const FilterFrame& frame) {
    shown_ = frame.raw->ts_ns;
    any_shown_ = true;
  }

 private:
  int link_type_;
  bool started_ = false, any_shown_ = false;
  int64_t first_ = 0, prev_ = 0, shown_ = 0;
  std::optional<ConversationTracker> conversations_;
  std::unique_ptr<quic::QuicSession> quic_;
  quic::Datagram datagram_;

  // The frame's QUIC packets: a UDP payload no Lua dissector took, read
  // as QUIC when it is (Wireshark's quic heuristic runs after the port table).
  const quic::Datagram* readQuic(const DecodedPacket& pkt, const DissectResult* res);
};

class FilterFields {
 public:
  explicit FilterFields(const LuaHost& host);
  // Null when `name` is neither built in nor registered by a dissector.
  const FilterFieldDef* find(std::string_view name) const;
  const LuaHost& host() const { return host_; }
  // Appends the field's values in `frame`, in the order tshark adds them.
  void collect(const FilterFieldDef& field, const FilterFrame& frame, std::vector<FilterValue>& out) const;
  // The built-in fields, for completion lists.
  static std::vector<std::string> builtinNames();

 private:
  const LuaHost& host_;
  std::vector<FilterFieldDef> lua_;
};

}  // namespace rudp
