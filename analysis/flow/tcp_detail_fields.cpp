#include "flow/tcp_detail_fields.h"

#include <algorithm>
#include <array>

namespace rudp {

namespace {

enum Field : uint8_t {
  Stream,
  Completeness,
  NextSeq,
  Analysis,
  AcksFrame,
  AckRtt,
  InitialRtt,
  BytesInFlight,
  PushBytesSent,
  Rto,
  RtoFrame,
  TimeRelative,
  TimeDelta,
};

struct DetailField {
  std::string_view name;
  TcpDetailType type;
};
constexpr std::array<DetailField, 13> kFields{{
    {"tcp.stream", TcpDetailType::Unsigned},
    {"tcp.completeness", TcpDetailType::Unsigned},
    {"tcp.nxtseq", TcpDetailType::Unsigned},
    {"tcp.analysis", TcpDetailType::None},
    {"tcp.analysis.acks_frame", TcpDetailType::Unsigned},
    {"tcp.analysis.ack_rtt", TcpDetailType::Seconds},
    {"tcp.analysis.initial_rtt", TcpDetailType::Seconds},
    {"tcp.analysis.bytes_in_flight", TcpDetailType::Unsigned},
    {"tcp.analysis.push_bytes_sent", TcpDetailType::Unsigned},
    {"tcp.analysis.rto", TcpDetailType::Seconds},
    {"tcp.analysis.rto_frame", TcpDetailType::Unsigned},
    {"tcp.time_relative", TcpDetailType::Seconds},
    {"tcp.time_delta", TcpDetailType::Seconds},
}};

std::optional<int64_t> when(bool present, int64_t value) {
  return present ? std::optional(value) : std::nullopt;
}

}  // namespace

const std::vector<std::string_view>& tcpDetailFieldNames() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> out;
    out.reserve(kFields.size());
    for (const DetailField& f : kFields) out.push_back(f.name);
    return out;
  }();
  return names;
}

TcpDetailType tcpDetailFieldType(size_t i) { return kFields.at(i).type; }

std::optional<int64_t> tcpDetailFieldValue(size_t i, const TcpFrameDetails& d, const TcpNotes& notes,
                                           const DecodedPacket& pkt, bool relative) {
  if (!d.known) return std::nullopt;
  const bool analysed = d.analysis;
  switch (Field(i)) {
    case Stream: return int64_t(d.stream);
    case Completeness: return d.completeness;
    case NextSeq: {
      const uint32_t end =
          pkt.payload_reported_len +
          ((pkt.tcp.flags & (tcpflag::kSyn | tcpflag::kFin)) ? 1 : 0);  // a SYN or FIN counts one
      return when(tcpSegmentAnalysed(pkt), uint32_t(tcpShownSeq(pkt.tcp, notes.bases, relative) + end));
    }
    case Analysis: return when(analysed, 1);
    case AcksFrame: return when(analysed && d.acks_frame, int64_t(d.acks_frame));
    case AckRtt: return when(analysed && d.acks_frame && d.ack_rtt_ns, d.ack_rtt_ns);
    case InitialRtt: return when(analysed && d.initial_rtt_ns, d.initial_rtt_ns);
    case BytesInFlight: return when(analysed && d.bytes_in_flight, d.bytes_in_flight);
    case PushBytesSent: return when(analysed && d.bytes_in_flight, d.push_bytes_sent);
    case Rto: return when(analysed && d.rto_ns, d.rto_ns);
    case RtoFrame: return when(analysed && d.rto_ns, int64_t(d.rto_frame));
    case TimeRelative: return pkt.ts_ns - d.stream_first_ns;
    case TimeDelta: return pkt.ts_ns - d.stream_previous_ns;
  }
  return std::nullopt;
}

}  // namespace rudp
