#include "report/capture_problems.h"

#include "core/text_lines.h"

#include "report/severity.h"
#include "report/wording.h"
#include "store/schema.h"
#include "store/store_reader.h"

namespace rudp::report {

namespace {

Problem captureWarning(double severity, int64_t ts_ns, uint64_t frame, std::string text) {
  Problem p;
  p.kind = ProblemKind::CaptureWarning;
  p.severity = severity;
  p.start_ns = p.end_ns = ts_ns;
  p.frame = frame;
  p.text = "capture: " + std::move(text);
  return p;
}

// Frames with one of `statusBits`: "N <what> (first: frame F at T: why)".
void addBadFrames(StoreReader& reader, const CaptureInfo& c, uint64_t count, int statusBits, const char* what,
                  double severity, std::vector<Problem>& out) {
  if (count == 0) return;
  PacketQuery q;
  q.status_any = statusBits;
  q.limit = 1;
  const std::vector<PacketRecord> first = reader.packets(q);
  std::string text = std::to_string(count) + " " + what;
  if (first.empty()) {
    out.push_back(captureWarning(severity, c.first_ts_ns, 0, text));
    return;
  }
  const PacketRecord& f = first.front();
  text += " (first: frame " + std::to_string(f.frame) + " at " + secondsAt(f.ts_ns, c.first_ts_ns);
  const auto why = reader.packetErrors(f.frame, 1);
  if (!why.empty() && why.front().first == f.frame) text += ": " + why.front().second;
  text += ")";
  out.push_back(captureWarning(severity, f.ts_ns, f.frame, text));
}

}  // namespace

std::vector<Problem> captureProblems(StoreReader& reader, const CaptureInfo& c) {
  std::vector<Problem> out;
  std::vector<std::string> lines = splitLines(c.warning);
  if (c.truncated) {  // the reader's line comes first
    std::string text = "the file is cut off after frame " + std::to_string(c.packet_count);
    if (!lines.empty()) text += " (" + lines.front() + ")";
    text += "; what came after is missing";
    out.push_back(captureWarning(kWrongFiguresSeverity, c.last_ts_ns, c.packet_count, text));
    if (!lines.empty()) lines.erase(lines.begin());
  }
  for (const std::string& line : lines)  // a damaged record kept, link types not decoded
    out.push_back(captureWarning(kWrongFiguresSeverity, c.last_ts_ns, c.packet_count, line));
  addBadFrames(reader, c, c.lua_errors, store::kLuaError,
               c.lua_errors == 1 ? "frame raised a dissector error" : "frames raised dissector errors",
               kWrongFiguresSeverity, out);
  addBadFrames(reader, c, c.decode_errors, store::kDecodeError,
               c.decode_errors == 1 ? "frame could not be decoded" : "frames could not be decoded",
               kBadFramesSeverity, out);
  addBadFrames(reader, c, c.malformed, store::kMalformed,
               c.malformed == 1 ? "datagram was malformed" : "datagrams were malformed", kBadFramesSeverity,
               out);
  return out;
}

}  // namespace rudp::report
