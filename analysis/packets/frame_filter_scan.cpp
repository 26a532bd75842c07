#include "packets/frame_filter_scan.h"

#include <algorithm>

#include "capture/capture_reader.h"
#include "core/error.h"
#include "decode/decoder.h"
#include "filter/display_filter.h"
#include "lua/host.h"

namespace rudp {

DisplayFilterChecker::DisplayFilterChecker(const DissectorOptions& dissectors)
    : host_(std::make_unique<LuaHost>()) {
  loadDissectors(*host_, dissectors);
}

DisplayFilterChecker::~DisplayFilterChecker() = default;

std::optional<FilterError> DisplayFilterChecker::check(std::string_view text) const {
  try {
    (void)DisplayFilter(text, *host_);
    return std::nullopt;
  } catch (const FilterError& e) { return e; }
}

std::optional<FrameCondition> DisplayFilterChecker::storedCondition(std::string_view text,
                                                                    int64_t firstTsNs) const {
  return DisplayFilter(text, *host_).storedCondition(firstTsNs);
}

std::vector<std::string> DisplayFilterChecker::fieldNames() const {
  std::vector<std::string> names = FilterFields::builtinNames();
  for (const FieldInfo& f : host_->fields()) names.push_back(f.abbrev);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

void scanFramesPassing(const std::string& capture, const DissectorOptions& dissectors,
                       const std::string& filter, const std::function<void(FrameScanStep&&)>& step,
                       const ProgressSink& progress, uint64_t framesPerStep) {
  LuaHost host;
  loadDissectors(host, dissectors);
  const DisplayFilter compiled(filter, host);
  auto reader = CaptureReader::open(capture);
  Decoder decoder(reader->linkType());
  const auto keys = loadKeyLog(dissectors, capture);
  FilterFrameSequence sequence(reader->linkType(), compiled.needsConversations(), keys.get());
  const bool dissect = compiled.needsDissectors();
  RawPacket raw;
  DecodedPacket pkt;
  DissectResult res;
  FrameScanStep out;
  out.total_bytes = reader->fileSize();
  auto flush = [&] {
    out.bytes_read = reader->bytesRead();
    FrameScanStep next;
    next.frames_read = out.frames_read;
    next.total_bytes = out.total_bytes;
    step(std::move(out));
    out = std::move(next);
  };
  bool first = true;
  while (reader->next(raw)) {
    if (first) host.setFirstTimestamp(raw.ts_ns);
    first = false;
    decoder.decode(raw, pkt);
    if (dissect)
      host.dissect(pkt, false, res);
    else
      res.clear();
    if (compiled.matchesShown(sequence.next(raw, pkt, &res), sequence)) out.passed.push_back(raw.frame);
    if (++out.frames_read % framesPerStep != 0) continue;
    if (progress.cancelled()) throw Cancelled();
    flush();
  }
  reader->finish();
  flush();
}

}  // namespace rudp
