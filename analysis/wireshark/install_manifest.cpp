#include "wireshark/install_manifest.h"

#include <filesystem>
#include <sstream>

#include "core/error.h"
#include "wireshark/file_io.h"

namespace fs = std::filesystem;

namespace rudp::wireshark {

InstallManifest InstallManifest::load(const std::string& folder) {
  InstallManifest manifest;
  const fs::path path = fs::path(folder) / kFileName;
  std::error_code ec;
  if (!fs::exists(path, ec)) return manifest;
  std::istringstream lines(readWholeFile(path.string()));
  for (std::string line; std::getline(lines, line);) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos || tab == 0) continue;  // not ours to judge: skipped, rewritten on save
    manifest.entries_[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return manifest;
}

void InstallManifest::save(const std::string& folder) const {
  const fs::path path = fs::path(folder) / kFileName;
  if (entries_.empty()) {
    std::error_code ec;
    fs::remove(path, ec);
    if (ec) throw Error("cannot remove '" + path.string() + "': " + ec.message());
    return;
  }
  std::string text;
  for (const auto& [name, hash] : entries_) text += name + "\t" + hash + "\n";
  writeFileAtomically(path.string(), text);
}

std::optional<std::string> InstallManifest::hashOf(const std::string& name) const {
  const auto it = entries_.find(name);
  if (it == entries_.end()) return std::nullopt;
  return it->second;
}

}  // namespace rudp::wireshark
