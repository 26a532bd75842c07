#include "cli/lab_enet_resends.h"

#include <sstream>

#include "capture/capture_reader.h"
#include "decode/decoder.h"
#include "session/field_printer.h"

namespace rudp::cli {
namespace {

// "a,b,c" -> numbers (the field printer joins a frame's occurrences with ',').
std::vector<uint64_t> numbers(const std::string& joined) {
  std::vector<uint64_t> out;
  std::stringstream in(joined);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(std::stoull(item, nullptr, 0));
  return out;
}

}  // namespace

uint64_t enetDisconnectResends(const std::string& capture, const std::string& src,
                               const DissectorOptions& dissectors) {
  auto reader = CaptureReader::open(capture);
  LuaHost host;
  loadDissectors(host, dissectors);
  const FieldPrinter printer(host, {"ip.src", "enet.command"});
  Decoder decoder(reader->linkType());
  RawPacket raw;
  DecodedPacket pkt;
  DissectResult res;
  std::string line;
  uint64_t copies = 0;
  bool first = true;
  while (reader->next(raw)) {
    decoder.decode(raw, pkt);
    if (first) host.setFirstTimestamp(raw.ts_ns);
    first = false;
    res.clear();
    if (pkt.l4 == L4::UDP) host.dissectUdp(pkt, false, res);
    line.clear();
    printer.line(pkt, res, raw.ts_ns, line);
    const auto tab = line.find('\t');
    if (tab == std::string::npos || line.compare(0, tab, src) != 0) continue;
    for (uint64_t command : numbers(line.substr(tab + 1, line.find('\n') - tab - 1)))
      copies += (command & 0x80) && (command & 0x0F) == 4;
  }
  return copies > 0 ? copies - 1 : 0;
}

}  // namespace rudp::cli
