#include "flow/stream_fields.h"

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
  UdpStream,
  UdpTimeRelative,
  UdpTimeDelta,
};

struct StreamField {
  std::string_view name;
  StreamFieldType type;
};
constexpr std::array<StreamField, 16> kFields{{
    {"tcp.stream", StreamFieldType::Unsigned},
    {"tcp.completeness", StreamFieldType::Unsigned},
    {"tcp.nxtseq", StreamFieldType::Unsigned},
    {"tcp.analysis", StreamFieldType::None},
    {"tcp.analysis.acks_frame", StreamFieldType::Unsigned},
    {"tcp.analysis.ack_rtt", StreamFieldType::Seconds},
    {"tcp.analysis.initial_rtt", StreamFieldType::Seconds},
    {"tcp.analysis.bytes_in_flight", StreamFieldType::Unsigned},
    {"tcp.analysis.push_bytes_sent", StreamFieldType::Unsigned},
    {"tcp.analysis.rto", StreamFieldType::Seconds},
    {"tcp.analysis.rto_frame", StreamFieldType::Unsigned},
    {"tcp.time_relative", StreamFieldType::Seconds},
    {"tcp.time_delta", StreamFieldType::Seconds},
    {"udp.stream", StreamFieldType::Unsigned},
    {"udp.time_relative", StreamFieldType::Seconds},
    {"udp.time_delta", StreamFieldType::Seconds},
}};

std::optional<int64_t> when(bool present, int64_t value) {
  return present ? std::optional(value) : std::nullopt;
}

// One value per UDP header; the times only where they are shown.
int udpValues(Field field, const StreamFacts& facts, int64_t (&out)[kMaxStreamFieldValues]) {
  if (!facts.udp) return 0;
  const int64_t ns = facts.pkt->ts_ns;
  int n = 0;
  for (int i = 0; i < facts.udp->count; ++i) {
    const StreamPosition& s = facts.udp->header[size_t(i)];
    if (field == UdpStream) out[n++] = int64_t(s.index);
    if (field == UdpTimeRelative && s.timed) out[n++] = ns - s.first_ns;
    if (field == UdpTimeDelta && s.timed) out[n++] = ns - s.previous_ns;
  }
  return n;
}

std::optional<int64_t> tcpValue(Field field, const StreamFacts& facts) {
  if (!facts.tcp || !facts.tcp_notes || !facts.tcp->known) return std::nullopt;
  const TcpFrameDetails& d = *facts.tcp;
  const DecodedPacket& pkt = *facts.pkt;
  const bool analysed = d.analysis;
  switch (field) {
    case Stream: return int64_t(d.stream);
    case Completeness: return d.completeness;
    case NextSeq: {
      const uint32_t end =
          pkt.payload_reported_len +
          ((pkt.tcp.flags & (tcpflag::kSyn | tcpflag::kFin)) ? 1 : 0);  // a SYN or FIN counts one
      return when(tcpSegmentAnalysed(pkt),
                  uint32_t(tcpShownSeq(pkt.tcp, facts.tcp_notes->bases, facts.relative) + end));
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
    default: break;
  }
  return std::nullopt;
}

}  // namespace

const std::vector<std::string_view>& streamFieldNames() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> out;
    out.reserve(kFields.size());
    for (const StreamField& f : kFields) out.push_back(f.name);
    return out;
  }();
  return names;
}

StreamFieldType streamFieldType(size_t i) { return kFields.at(i).type; }

int streamFieldValues(size_t i, const StreamFacts& facts, int64_t (&out)[kMaxStreamFieldValues]) {
  const Field field = Field(i);
  if (field >= UdpStream) return udpValues(field, facts, out);
  const std::optional<int64_t> v = tcpValue(field, facts);
  if (v) out[0] = *v;
  return v ? 1 : 0;
}

}  // namespace rudp
