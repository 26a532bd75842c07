// rudpscope-cli interfaces: what `capture -i` can capture on.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "capture/capture_interfaces.h"
#include "cli/commands.h"

namespace rudp::cli {

namespace {

std::string flagsText(const CaptureInterface& i) {
  std::string s = i.up ? "up" : "down";
  if (i.running) s += ", running";
  if (i.loopback) s += ", loopback";
  if (i.wireless) s += ", wireless";
  return s;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

}  // namespace

int runInterfaces(bool json) {
  const std::vector<CaptureInterface> list = captureInterfaces();
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& i : list)
      out.push_back({{"name", i.name},
                     {"description", i.description},
                     {"addresses", i.addresses},
                     {"up", i.up},
                     {"running", i.running},
                     {"loopback", i.loopback},
                     {"wireless", i.wireless}});
    std::printf("%s\n", out.dump(2).c_str());
    return 0;
  }
  for (size_t n = 0; n < list.size(); ++n) {
    const CaptureInterface& i = list[n];
    std::printf("%zu. %s (%s)%s%s\n", n + 1, i.name.c_str(), flagsText(i).c_str(),
                i.description.empty() ? "" : "  ", i.description.c_str());
    if (!i.addresses.empty()) std::printf("   %s\n", joined(i.addresses).c_str());
  }
  return 0;
}

}  // namespace rudp::cli
