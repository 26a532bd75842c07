#include "wireshark/disabled_protocols.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "core/error.h"
#include "wireshark/file_io.h"

namespace fs = std::filesystem;

namespace rudp::wireshark {

namespace {

constexpr std::string_view kReplaces = "-- rudpscope.replaces:";

std::string trimmed(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  const auto last = s.find_last_not_of(" \t\r");
  return first == std::string_view::npos ? std::string() : std::string(s.substr(first, last - first + 1));
}

}  // namespace

std::vector<std::string> replacedProtocols(const std::string& luaSource) {
  std::vector<std::string> names;
  std::istringstream lines(luaSource);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(kReplaces, 0) != 0) continue;
    std::istringstream list(line.substr(kReplaces.size()));
    for (std::string name; std::getline(list, name, ',');)
      if (auto n = trimmed(name); !n.empty()) names.push_back(n);
  }
  return names;
}

DisabledProtocols::DisabledProtocols(std::string configFolder) : folder_(std::move(configFolder)) {}

std::string DisabledProtocols::path() const { return (fs::path(folder_) / "disabled_protos").string(); }

std::vector<std::string> DisabledProtocols::lines() const {
  std::error_code ec;
  if (!fs::exists(path(), ec)) return {};
  std::vector<std::string> out;
  std::istringstream text(readWholeFile(path()));
  for (std::string line; std::getline(text, line);) out.push_back(line);
  return out;
}

bool DisabledProtocols::contains(const std::string& name) const {
  const auto all = lines();
  return std::any_of(all.begin(), all.end(), [&](const std::string& l) { return trimmed(l) == name; });
}

void DisabledProtocols::add(const std::string& name) const {
  std::error_code ec;
  fs::create_directories(folder_, ec);
  if (ec) throw Error("cannot create Wireshark's configuration folder '" + folder_ + "': " + ec.message());
  std::string text;
  for (const auto& l : lines()) text += l + "\n";
  writeFileAtomically(path(), text + name + "\n");
}

void DisabledProtocols::remove(const std::string& name) const {
  std::string text;
  for (const auto& l : lines())
    if (trimmed(l) != name) text += l + "\n";
  if (!text.empty()) {
    writeFileAtomically(path(), text);
    return;
  }
  std::error_code ec;
  fs::remove(path(), ec);
  if (ec) throw Error("cannot remove '" + path() + "': " + ec.message());
}

}  // namespace rudp::wireshark
