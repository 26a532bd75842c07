#include "wireshark/frame_selection.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <sstream>

#include "core/error.h"
#include "store/store_reader.h"

namespace rudp::wireshark {

namespace {

uint64_t frameNumber(const std::string& text, const std::string& whole) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long n =
      text.empty() || text[0] == '-' || text[0] == '+' ? 0 : std::strtoull(text.c_str(), &end, 10);
  if (n == 0 || errno != 0 || !end || *end != '\0')
    throw Error("not a list of frame numbers and ranges (e.g. 1-10,15): '" + whole + "'");
  return n;
}

}  // namespace

std::vector<uint64_t> parseFrameList(const std::string& text) {
  std::vector<uint64_t> frames;
  std::istringstream items(text);
  for (std::string item; std::getline(items, item, ',');) {
    const auto dash = item.find('-', 1);
    const uint64_t first = frameNumber(item.substr(0, dash), text);
    const uint64_t last = dash == std::string::npos ? first : frameNumber(item.substr(dash + 1), text);
    if (last < first) throw Error("frame range '" + item + "' ends before it starts");
    if (last - first > 100'000'000) throw Error("frame range '" + item + "' is too long");
    for (uint64_t f = first; f <= last; ++f) frames.push_back(f);
  }
  if (frames.empty()) throw Error("no frame numbers given");
  std::sort(frames.begin(), frames.end());
  frames.erase(std::unique(frames.begin(), frames.end()), frames.end());
  return frames;
}

std::vector<uint64_t> connectionFrames(StoreReader& reader, int64_t conn, TimeRange range) {
  PacketQuery query;
  query.conn = conn;
  query.time = range;
  std::vector<uint64_t> frames;
  reader.forEachPacket(query, [&frames](const PacketRecord& p) { frames.push_back(p.frame); });
  return frames;
}

uint64_t renumbered(const std::vector<uint64_t>& frames, uint64_t frame) {
  const auto it = std::lower_bound(frames.begin(), frames.end(), frame);
  return it != frames.end() && *it == frame ? uint64_t(it - frames.begin()) + 1 : 0;
}

}  // namespace rudp::wireshark
