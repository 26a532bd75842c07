#include "packets/frame_tree_printer.h"

#include <algorithm>
#include <cstdio>

#include "capture/capture_reader.h"
#include "core/error.h"
#include "decode/decoder.h"
#include "lua/host.h"
#include "packets/frame_dissector.h"
#include "packets/frame_layers.h"
#include "session/capture_warnings.h"

namespace rudp {

namespace {

// The protocols -O names, each a built-in layer or a protocol a loaded
// dissector registers. Checks the display filter too, so a bad one fails
// before any frame.
std::vector<std::string> checkedProtocols(const DissectorOptions& dissectors,
                                          const std::vector<std::string>& named, const std::string& filter) {
  LuaHost host;
  loadDissectors(host, dissectors);
  (void)DisplayFilter(filter, host);
  std::vector<std::string> known;
  for (const ProtoInfo& p : host.protocols()) known.push_back(p.name);
  known.insert(known.end(), kBuiltinLayers.begin(), kBuiltinLayers.end());
  for (const std::string& n : named)
    if (std::find(known.begin(), known.end(), n) == known.end())
      throw Error("-O " + n +
                  ": neither a built-in layer nor a protocol a loaded dissector registers (known: " +
                  [&] {
                    std::string list;
                    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
                    return list;
                  }() +
                  ")");
  return named;
}

// tshark -V dumps the bytes of an expanded Data layer under its line: a
// blank line, then 16 bytes a line with their offset and their ASCII.
void appendHexDump(const uint8_t* p, uint32_t n, std::string& text) {
  char buf[16];
  text += '\n';
  for (uint32_t line = 0; line < n; line += 16) {
    std::snprintf(buf, sizeof buf, "%04x ", line);
    text += buf;
    std::string ascii;
    for (uint32_t i = line; i < line + 16; ++i) {
      if (i < n) {
        std::snprintf(buf, sizeof buf, " %02x", p[i]);
        text += buf;
        ascii += (p[i] >= 0x20 && p[i] < 0x7f) ? char(p[i]) : '.';
      } else {
        text += "   ";
      }
    }
    text += "   " + ascii + '\n';
  }
}

}  // namespace

std::vector<std::string> printFrameTrees(const std::string& capture, const DissectorOptions& dissectors,
                                         const std::vector<std::string>& expand,
                                         const std::function<void(const std::string&)>& print,
                                         bool keepDamaged, const std::string& displayFilter) {
  const std::vector<std::string> expanded = checkedProtocols(dissectors, expand, displayFilter);
  const bool expandAll = expanded.empty();  // tshark -V without -O
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
        open = expandAll || (!item.field.empty() &&
                             std::find(expanded.begin(), expanded.end(), item.field) != expanded.end());
      else if (!open)
        continue;
      text.append(size_t(item.depth) * 4, ' ');
      text += item.label;
      text += '\n';
      const bool bytesKnown =
          item.offset != FrameItem::kNoBytes && item.offset + uint64_t(item.length) <= f.bytes.size();
      // tshark's print.c dumps every Data protocol item's bytes, at any depth.
      if (open && item.field == "data" && bytesKnown)
        appendHexDump(f.bytes.data() + item.offset, item.length, text);
    }
    text += '\n';
    print(text);
  }
  checkDamage(*reader, frames, keepDamaged);
  const Decoder none(reader->linkType());  // a capture without frames decoded none
  return captureWarnings(capture, *reader, dissector ? dissector->decoder() : none, frames);
}

}  // namespace rudp
