#include "packets/field_printer.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "capture/capture_reader.h"
#include "core/error.h"
#include "core/label_text.h"
#include "decode/capture_warnings.h"
#include "decode/decoder.h"
#include "decode/header_walk.h"
#include "decode/quic_fields.h"
#include "filter/display_filter.h"

namespace rudp {

namespace {
// tcp.seq and tcp.ack are relative, as tshark's, unless -o
// tcp.relative_sequence_numbers:FALSE; tcp.seq_raw and tcp.ack_raw never.
const std::vector<std::string> kBuiltins = {
    "frame.number",
    "frame.time_epoch",
    "frame.time_relative",
    "frame.time_delta",
    "frame.time_delta_displayed",
    "frame.len",
    "frame.cap_len",
    "ip.src",
    "ip.dst",
    "ip.proto",
    "ip.id",
    "ip.ttl",
    "ipv6.src",
    "ipv6.dst",
    "udp.srcport",
    "udp.dstport",
    "udp.length",
    "tcp.srcport",
    "tcp.dstport",
    "tcp.seq",
    "tcp.seq_raw",
    "tcp.ack",
    "tcp.ack_raw",
    "tcp.len",
    "tcp.window_size_value",
    "tcp.options.mss_val",
    "tcp.options.wscale.shift",
    "tcp.options.timestamp.tsval",
    "tcp.options.timestamp.tsecr",
    "icmp.type",
    "icmp.code",
    "icmpv6.type",
    "icmpv6.code",
};
enum B {
  FrameNumber,
  TimeEpoch,
  TimeRelative,
  TimeDelta,
  TimeDeltaDisplayed,
  FrameLen,
  CapLen,
  IpSrc,
  IpDst,
  IpProto,
  IpId,
  IpTtl,
  Ip6Src,
  Ip6Dst,
  UdpSrc,
  UdpDst,
  UdpLen,
  TcpSrc,
  TcpDst,
  TcpSeq,
  TcpSeqRaw,
  TcpAck,
  TcpAckRaw,
  TcpLen,
  TcpWin,
  TcpMss,
  TcpWscale,
  TcpTsval,
  TcpTsecr,
  IcmpType,
  IcmpCode,
  Icmp6Type,
  Icmp6Code,
};

// Appends field `which` of one IP/UDP header; false when the header has none.
bool headerField(int which, const OuterHeader& h, std::string& out) {
  const bool v4 = h.l3 == L3::IPv4, v6 = h.l3 == L3::IPv6;
  auto num = [&](bool present, uint64_t v) {
    if (present) out += std::to_string(v);
    return present;
  };
  auto address = [&](bool present, const IpAddress& a) {
    if (present) out += a.toString();
    return present;
  };
  switch (which) {
    case IpSrc: return address(v4, h.src);
    case IpDst: return address(v4, h.dst);
    case IpProto: return num(v4, h.ip_proto);
    case IpId: {
      char b[8];
      std::snprintf(b, sizeof b, "0x%04x", h.ip_id);
      if (v4) out += b;
      return v4;
    }
    case IpTtl: return num(v4, h.ip_ttl);
    case Ip6Src: return address(v6, h.src);
    case Ip6Dst: return address(v6, h.dst);
    case UdpSrc: return num(h.udp, h.sport);
    case UdpDst: return num(h.udp, h.dport);
    case UdpLen: return num(h.udp, h.udp_length);
    default: return false;
  }
}

bool isHeaderField(int which) { return which >= IpSrc && which <= UdpLen; }

// tshark prints a field once per header that has it, separated by commas.
void appendEveryHeader(int which, const DecodedPacket& p, std::string& out) {
  bool any = false;
  forEachIpHeader(p, [&](const OuterHeader& h) {
    const size_t mark = out.size();
    if (any) out += ',';
    if (headerField(which, h, out))
      any = true;
    else
      out.resize(mark);
  });
}

void appendTime(std::string& out, int64_t ns) {
  char buf[40];
  const char* sign = ns < 0 ? "-" : "";
  uint64_t a = ns < 0 ? static_cast<uint64_t>(-ns) : static_cast<uint64_t>(ns);
  std::snprintf(buf, sizeof buf, "%s%" PRIu64 ".%09" PRIu64, sign, a / 1000000000u, a % 1000000000u);
  out += buf;
}

void appendIcmpValues(int which, const DecodedPacket& p, std::string& out) {
  const bool v6 = which == Icmp6Type || which == Icmp6Code, code = which == IcmpCode || which == Icmp6Code;
  bool first = true;
  forEachIcmpValue(p, v6, code, [&](uint8_t value) {
    if (!first) out += ',';
    first = false;
    out += std::to_string(value);
  });
}

}  // namespace

const std::vector<std::string>& FieldPrinter::builtinFields() { return kBuiltins; }

FieldPrinter::FieldPrinter(const LuaHost& host, const std::vector<std::string>& fields, bool inCaptureOrder)
    : host_(host) {
  for (const auto& f : fields) {
    Column c;
    auto it = std::find(kBuiltins.begin(), kBuiltins.end(), f);
    const auto& notes = tcpNoteFieldNames();
    const auto note = std::find(notes.begin(), notes.end(), f);
    const auto& streams = streamFieldNames();
    const auto stream = std::find(streams.begin(), streams.end(), f);
    const auto& quics = quic::fieldNames();
    const auto quic = std::find(quics.begin(), quics.end(), f);
    if (it != kBuiltins.end())
      c.builtin = static_cast<int>(it - kBuiltins.begin());
    else if (note != notes.end())
      c.tcp_note = static_cast<int>(note - notes.begin());
    else if (stream != streams.end())
      c.stream_field = static_cast<int>(stream - streams.begin());
    else if (quic != quics.end())
      c.quic_field = static_cast<int>(quic - quics.begin());
    else
      c.lua_field = host.fieldByAbbrev(f);
    if ((c.builtin == TimeDelta || c.builtin == TimeDeltaDisplayed) && !inCaptureOrder)
      throw Error(
          "'" + f + "' depends on the frames before it, which a column of single rows does not see: " +
          "View > Time Display Format shows the time since the previous captured or displayed packet");
    if ((c.stream_field >= 0 || c.quic_field >= 0) && !inCaptureOrder)
      throw Error("'" + f + "' depends on the frames before it, which a column of single rows does not see");
    if (c.builtin < 0 && c.tcp_note < 0 && c.stream_field < 0 && c.quic_field < 0 && c.lua_field < 0)
      throw Error("unknown field '" + f + "' (neither built in nor registered by a loaded dissector)");
    columns_.push_back(c);
  }
}

void FieldPrinter::builtin(int which, const FilterFrame& frame, std::string& out) const {
  const DecodedPacket& p = *frame.pkt;
  const bool relative = host_.tcpRelativeSequenceNumbers();
  if (isHeaderField(which)) {
    appendEveryHeader(which, p, out);
    return;
  }
  if (which >= IcmpType) {
    appendIcmpValues(which, p, out);
    return;
  }
  const TcpFields t = tcpFieldsOf(p);
  const bool tcp = t.header != nullptr, whole = tcp && t.whole;
  static const TcpHeader kNone;
  const TcpHeader& h = tcp ? *t.header : kNone;
  const TcpOptions& o = h.options;
  auto num = [&](bool present, uint64_t v) {
    if (present) out += std::to_string(v);
  };
  switch (which) {
    case FrameNumber: num(true, p.frame); break;
    case TimeEpoch: appendTime(out, p.ts_ns); break;
    case TimeRelative: appendTime(out, p.ts_ns - frame.first_ts_ns); break;
    case TimeDelta: appendTime(out, p.ts_ns - frame.prev_ts_ns); break;
    case TimeDeltaDisplayed: appendTime(out, p.ts_ns - frame.shown_ts_ns); break;
    case FrameLen: num(true, p.origlen); break;
    case CapLen: num(true, p.caplen); break;
    case TcpSrc: num(tcp, t.sport); break;
    case TcpDst: num(tcp, t.dport); break;
    case TcpSeq: num(tcp, frame.tcp_notes ? tcpShownSeq(h, frame.tcp_notes->bases, relative) : h.seq); break;
    case TcpSeqRaw: num(tcp, h.seq); break;
    case TcpAck:  // tshark shows it without the ACK flag too
      num(whole, frame.tcp_notes ? tcpShownAck(h, frame.tcp_notes->bases, relative) : h.ack);
      break;
    case TcpAckRaw: num(whole, h.ack); break;
    case TcpLen:
      num(t.has_len && !p.ip_fragment, p.payload_reported_len);
      break;  // not of a lone first fragment
    case TcpWin: num(whole, h.window); break;
    case TcpMss: num(whole && o.mss, o.mss); break;
    case TcpWscale: num(whole && o.window_scale >= 0, static_cast<uint64_t>(o.window_scale)); break;
    case TcpTsval: num(whole && o.has_timestamps, o.tsval); break;
    case TcpTsecr: num(whole && o.has_timestamps, o.tsecr); break;
    default: break;
  }
}

bool FieldPrinter::needsConversations() const {
  return std::any_of(columns_.begin(), columns_.end(), [](const Column& c) {
    return c.tcp_note >= 0 || c.stream_field >= 0 || c.builtin == TcpSeq || c.builtin == TcpAck;
  });
}

void FieldPrinter::tcpNote(int which, const FilterFrame& frame, std::string& out) {
  if (!frame.tcp_notes) return;
  uint64_t values[3];
  const int n = tcpNoteFieldValues(static_cast<size_t>(which), *frame.tcp_notes, values);
  for (int i = 0; i < n; ++i) out += (i ? "," : "") + std::to_string(values[i]);
}

void FieldPrinter::streamField(int which, const FilterFrame& frame, std::string& out) const {
  int64_t values[kMaxStreamFieldValues];
  const int n =
      streamFieldValues(size_t(which), streamFactsOf(frame, host_.tcpRelativeSequenceNumbers()), values);
  for (int i = 0; i < n; ++i) {
    if (i) out += ',';
    switch (streamFieldType(size_t(which))) {
      case StreamFieldType::Unsigned: out += std::to_string(values[i]); break;
      case StreamFieldType::Seconds: appendTime(out, values[i]); break;
      case StreamFieldType::None: out += '1'; break;
    }
  }
}

void FieldPrinter::quicField(int which, const FilterFrame& frame, std::string& out) {
  if (!frame.quic) return;
  std::vector<quic::FieldValue> values;
  quic::fieldValues(size_t(which), *frame.quic, values);
  char hex[16];
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    switch (quic::fieldType(size_t(which))) {
      case quic::FieldType::Protocol: out += "quic"; break;  // a protocol's filter name, as tshark prints it
      case quic::FieldType::Hex32:
        std::snprintf(hex, sizeof hex, "0x%08x", unsigned(values[i].u));
        out += hex;
        break;
      case quic::FieldType::Bytes:
        out += hexBytes(reinterpret_cast<const uint8_t*>(values[i].bytes.data()),
                        uint32_t(values[i].bytes.size()), false);
        break;
      default: out += std::to_string(values[i].u); break;
    }
  }
}

void FieldPrinter::line(const FilterFrame& frame, std::string& out) const {
  bool firstCol = true;
  for (const Column& c : columns_) {
    if (!firstCol) out += '\t';
    firstCol = false;
    if (c.builtin >= 0) {
      builtin(c.builtin, frame, out);
      continue;
    }
    if (c.tcp_note >= 0) {
      tcpNote(c.tcp_note, frame, out);
      continue;
    }
    if (c.stream_field >= 0) {
      streamField(c.stream_field, frame, out);
      continue;
    }
    if (c.quic_field >= 0) {
      quicField(c.quic_field, frame, out);
      continue;
    }
    bool firstVal = true;
    for (const FieldValue& v : frame.res->values) {
      if (v.field != c.lua_field) continue;
      if (!firstVal) out += ',';
      firstVal = false;
      out += host_.formatValue(v, *frame.res);
    }
  }
  out += '\n';
}

std::vector<std::string> forEachFieldLine(const std::string& capture, const DissectorOptions& dissectors,
                                          const std::vector<std::string>& fields,
                                          const std::function<void(const std::string&)>& line,
                                          bool keepDamaged, const std::string& displayFilter) {
  auto reader = CaptureReader::open(capture);
  LuaHost host;
  loadDissectors(host, dissectors);
  const FieldPrinter printer(host, fields);
  const DisplayFilter filter(displayFilter, host);
  const auto keys = loadKeyLog(dissectors, capture);
  FilterFrameSequence sequence(reader->linkType(),
                               filter.needsConversations() || printer.needsConversations(), keys.get());
  Decoder decoder(reader->linkType());
  RawPacket raw;
  DecodedPacket pkt;
  DissectResult res;
  std::string out;
  int64_t first = 0;
  bool any = false;
  uint64_t frames = 0;
  while (reader->next(raw)) {
    ++frames;
    decoder.decode(raw, pkt);
    if (!any) {
      first = raw.ts_ns;
      any = true;
      host.setFirstTimestamp(first);
    }
    host.dissect(pkt, false, res);
    const FilterFrame frame = sequence.next(raw, pkt, &res);
    if (!filter.matchesShown(frame, sequence)) continue;
    out.clear();
    printer.line(frame, out);
    line(out);
  }
  checkDamage(*reader, frames, keepDamaged);
  return captureWarnings(capture, *reader, decoder, frames);
}

}  // namespace rudp
