#include "packets/frame_tree_printer.h"

#include <algorithm>

#include "capture/capture_reader.h"
#include "core/error.h"
#include "decode/decoder.h"
#include "lua/host.h"
#include "packets/frame_dissector.h"
#include "session/capture_warnings.h"

namespace rudp {

namespace {

// The Lua protocols to expand; all of them when none are named. Checks the
// display filter too, so a bad one fails before any frame.
std::vector<std::string> expandedProtocols(const DissectorOptions& dissectors,
                                           const std::vector<std::string>& named, const std::string& filter) {
  LuaHost host;
  loadDissectors(host, dissectors);
  (void)DisplayFilter(filter, host);
  std::vector<std::string> known;
  for (const ProtoInfo& p : host.protocols()) known.push_back(p.name);
  if (named.empty()) return known;
  for (const std::string& n : named)
    if (std::find(known.begin(), known.end(), n) == known.end())
      throw Error("-O " + n + ": no loaded dissector registers a protocol '" + n + "' (loaded: " + [&] {
        std::string list;
        for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
        return list;
      }() + ")");
  return named;
}

}  // namespace

std::vector<std::string> printFrameTrees(const std::string& capture, const DissectorOptions& dissectors,
                                         const std::vector<std::string>& expand,
                                         const std::function<void(const std::string&)>& print,
                                         bool keepDamaged, const std::string& displayFilter) {
  const std::vector<std::string> expanded = expandedProtocols(dissectors, expand, displayFilter);
  auto reader = CaptureReader::open(capture);
  RawPacket raw;
  uint64_t frames = 0;
  std::unique_ptr<FrameDissector> dissector;
  DisplayFilter filter;
  std::string text;
  while (reader->next(raw)) {
    ++frames;
    if (!dissector) {
      dissector = std::make_unique<FrameDissector>(capture, dissectors, raw.ts_ns);
      filter = dissector->compileFilter(displayFilter);
    }
    const DissectedFrame f = dissector->dissect(raw, true);
    if (!dissector->lastPasses(filter)) continue;
    text.clear();
    bool open = false;  // inside a layer that is expanded
    for (const FrameItem& item : f.items) {
      if (item.depth == 0)
        open =
            !item.field.empty() && std::find(expanded.begin(), expanded.end(), item.field) != expanded.end();
      else if (!open)
        continue;
      text.append(size_t(item.depth) * 4, ' ');
      text += item.label;
      text += '\n';
    }
    text += '\n';
    print(text);
  }
  checkDamage(*reader, frames, keepDamaged);
  const Decoder none(reader->linkType());  // a capture without frames decoded none
  return captureWarnings(capture, *reader, dissector ? dissector->decoder() : none, frames);
}

}  // namespace rudp
