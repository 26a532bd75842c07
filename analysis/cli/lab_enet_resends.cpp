#include "cli/lab_enet_resends.h"

#include <sstream>

#include "packets/field_printer.h"

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
  uint64_t copies = 0;
  forEachFieldLine(capture, dissectors, {"ip.src", "enet.command"}, [&](const std::string& line) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos || line.compare(0, tab, src) != 0) return;
    for (uint64_t command : numbers(line.substr(tab + 1, line.find('\n') - tab - 1)))
      copies += (command & 0x80) && (command & 0x0F) == 4;
  });
  return copies > 0 ? copies - 1 : 0;
}

}  // namespace rudp::cli
