#include "packets/frame_tree_printer.h"

#include <algorithm>
#include <cstdio>

#include "capture/capture_reader.h"
#include "core/error.h"
#include "decode/capture_warnings.h"
#include "decode/decoder.h"
#include "lua/host.h"
#include "packets/frame_dissector.h"
#include "packets/frame_layers.h"
#include "packets/frame_time.h"

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

// The frame being shown and what a printer needs besides its dissection.
struct ShownFrame {
  const RawPacket& raw;
  const DissectedFrame& dissected;
  int64_t first_ts_ns;  // the capture's first frame's
  int timestamp_digits;
};

// Each frame `displayFilter` passes, dissected in capture order (with the
// details tree when `withItems`), handed to `each`. Returns what reading
// left to say, after the damage check.
std::vector<std::string> forEachShownFrame(const std::string& capture, const DissectorOptions& dissectors,
                                           bool withItems, bool keepDamaged, const std::string& displayFilter,
                                           const std::function<void(const ShownFrame&)>& each) {
  auto reader = CaptureReader::open(capture);
  RawPacket raw;
  uint64_t frames = 0;
  std::unique_ptr<FrameDissector> dissector;
  DisplayFilter filter;
  int64_t first = 0;
  while (reader->next(raw)) {
    ++frames;
    if (!dissector) {
      first = raw.ts_ns;
      dissector = std::make_unique<FrameDissector>(capture, dissectors, first);
      filter = dissector->compileFilter(displayFilter);
    }
    const DissectedFrame f = dissector->dissect(raw, withItems);
    if (dissector->lastPasses(filter)) each({raw, f, first, dissector->timestampDigits()});
  }
  checkDamage(*reader, frames, keepDamaged);
  const Decoder none(reader->linkType());  // a capture without frames decoded none
  return captureWarnings(capture, *reader, dissector ? dissector->decoder() : none, frames);
}

// `text` padded to at least `width` bytes, on the left when `right`, as
// tshark's print_columns pads (counting UTF-8 in bytes too).
void appendPadded(std::string& line, const std::string& text, size_t width, bool right) {
  const size_t pad = text.size() < width ? width - text.size() : 0;
  if (right) line.append(pad, ' ');
  line += text;
  if (!right) line.append(pad, ' ');
}

}  // namespace

std::vector<std::string> printFrameTrees(const std::string& capture, const DissectorOptions& dissectors,
                                         const std::vector<std::string>& expand,
                                         const std::function<void(const std::string&)>& print,
                                         bool keepDamaged, const std::string& displayFilter) {
  const std::vector<std::string> expanded = checkedProtocols(dissectors, expand, displayFilter);
  const bool expandAll = expanded.empty();  // tshark -V without -O
  std::string text;
  return forEachShownFrame(
      capture, dissectors, true, keepDamaged, displayFilter, [&](const ShownFrame& shown) {
        const DissectedFrame& f = shown.dissected;
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
      });
}

std::vector<std::string> printFrameSummaries(const std::string& capture, const DissectorOptions& dissectors,
                                             const std::function<void(const std::string&)>& print,
                                             bool keepDamaged, const std::string& displayFilter) {
  checkedProtocols(dissectors, {}, displayFilter);
  std::string line;
  return forEachShownFrame(
      capture, dissectors, false, keepDamaged, displayFilter, [&](const ShownFrame& shown) {
        const DissectedFrame& f = shown.dissected;
        const FrameTimes times{shown.raw.ts_ns, shown.first_ts_ns, 0, 0};
        line.clear();
        appendPadded(line, std::to_string(f.frame), 5, true);
        line += ' ';
        appendPadded(line, formatFrameTime(TimeFormat::Relative, times, shown.timestamp_digits), 10, true);
        line += ' ';
        appendPadded(line, f.source, 12, true);
        line += " \u2192 ";
        appendPadded(line, f.destination, 12, false);
        line += ' ' + f.protocol + ' ' + std::to_string(shown.raw.origlen) + ' ' + f.info + '\n';
        print(line);
      });
}

}  // namespace rudp
