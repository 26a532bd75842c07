#include "wireshark/dissector_installer.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "core/error.h"
#include "core/file_hash.h"
#include "wireshark/disabled_protocols.h"
#include "wireshark/file_io.h"
#include "wireshark/install_manifest.h"

namespace fs = std::filesystem;

namespace rudp::wireshark {

namespace {

std::optional<std::string> hashIfPresent(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::nullopt;
  return hashFile(path);
}

FileState stateOf(const std::optional<std::string>& present, const std::string& ours,
                  const std::optional<std::string>& recorded) {
  if (!present) return FileState::Missing;
  if (*present == ours) return FileState::Installed;
  if (!recorded) return FileState::Foreign;
  return *present == *recorded ? FileState::Outdated : FileState::Modified;
}

void ensureFolder(const std::string& folder) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) throw Error("cannot create the plugin folder '" + folder + "': " + ec.message());
}

}  // namespace

const char* stateName(FileState state) {
  switch (state) {
    case FileState::Installed: return "installed";
    case FileState::Outdated: return "outdated";
    case FileState::Missing: return "missing";
    case FileState::Foreign: return "foreign";
    case FileState::Modified: return "modified";
  }
  return "?";
}

const char* stateMeaning(FileState state) {
  switch (state) {
    case FileState::Installed: return "identical to rudpscope's";
    case FileState::Outdated: return "installed by rudpscope; rudpscope's copy has changed since";
    case FileState::Missing: return "not in the plugin folder";
    case FileState::Foreign: return "a different file of that name that rudpscope did not install";
    case FileState::Modified: return "installed by rudpscope and edited there since";
  }
  return "?";
}

DissectorInstaller::DissectorInstaller(std::string sourceFolder, std::string pluginFolder,
                                       std::string configFolder)
    : source_(std::move(sourceFolder)), plugins_(std::move(pluginFolder)), config_(std::move(configFolder)) {}

namespace {
// Manifest entries for names install added to disabled_protos: a '/' never
// names a file of the plugin folder.
const std::string kDisabledPrefix = "disabled_protos/";
}  // namespace

std::vector<std::string> DissectorInstaller::replacedProtocols() const {
  std::vector<std::string> names;
  for (const auto& file : sourceNames())
    for (auto& n : wireshark::replacedProtocols(readWholeFile(sourcePath(file))))
      names.push_back(std::move(n));
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::vector<FileChange> DissectorInstaller::disableReplaced(InstallManifest& manifest) const {
  const DisabledProtocols disabled(config_);
  std::vector<FileChange> changes;
  for (const auto& name : replacedProtocols()) {
    const std::string what = "Wireshark's built-in " + name;
    if (disabled.contains(name)) {
      changes.push_back({"disabled_protos", what + ": already off"});
      continue;
    }
    disabled.add(name);
    manifest.record(kDisabledPrefix + name, "added");
    changes.push_back({"disabled_protos", what + ": turned off (" + disabled.path() + "), ours decodes it"});
  }
  return changes;
}

std::string DissectorInstaller::sourcePath(const std::string& name) const {
  return (fs::path(source_) / name).string();
}
std::string DissectorInstaller::pluginPath(const std::string& name) const {
  return (fs::path(plugins_) / name).string();
}

std::vector<std::string> DissectorInstaller::sourceNames() const {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(source_, ec))
    if (e.is_regular_file() && e.path().extension() == ".lua") names.push_back(e.path().filename().string());
  if (ec) throw Error("cannot list the dissector folder '" + source_ + "': " + ec.message());
  if (names.empty()) throw Error("the dissector folder '" + source_ + "' holds no *.lua file");
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<DissectorFile> DissectorInstaller::status() const {
  const InstallManifest manifest = InstallManifest::load(plugins_);
  std::vector<DissectorFile> files;
  for (const auto& name : sourceNames())
    files.push_back(
        {name, stateOf(hashIfPresent(pluginPath(name)), hashFile(sourcePath(name)), manifest.hashOf(name))});
  return files;
}

bool DissectorInstaller::allInstalled(const std::vector<DissectorFile>& files) {
  return std::all_of(files.begin(), files.end(),
                     [](const DissectorFile& f) { return f.state == FileState::Installed; });
}

std::vector<FileChange> DissectorInstaller::install(bool overwriteOthers) const {
  const std::vector<DissectorFile> files = status();
  if (!overwriteOthers)
    for (const auto& f : files)
      if (f.state == FileState::Foreign || f.state == FileState::Modified)
        throw Error("'" + pluginPath(f.name) + "' is " + stateMeaning(f.state) +
                    "; not overwritten (--force overwrites it)");
  ensureFolder(plugins_);
  InstallManifest manifest = InstallManifest::load(plugins_);
  std::vector<FileChange> changes;
  for (const auto& f : files) {
    const std::string contents = readWholeFile(sourcePath(f.name));
    if (f.state != FileState::Installed) writeFileAtomically(pluginPath(f.name), contents);
    // An identical copy someone made by hand becomes ours too: it is.
    manifest.record(f.name, hashFile(pluginPath(f.name)));
    changes.push_back({f.name, f.state == FileState::Installed
                                   ? "up to date"
                                   : std::string("written (was ") + stateName(f.state) + ")"});
  }
  for (auto& c : disableReplaced(manifest)) changes.push_back(std::move(c));
  manifest.save(plugins_);
  return changes;
}

std::vector<FileChange> DissectorInstaller::uninstall() const {
  InstallManifest manifest = InstallManifest::load(plugins_);
  std::vector<FileChange> changes;
  const auto recordedFiles = manifest.entries();  // a copy: forget() edits the manifest
  for (const auto& [name, recorded] : recordedFiles) {
    if (name.rfind(kDisabledPrefix, 0) == 0) {
      const std::string proto = name.substr(kDisabledPrefix.size());
      DisabledProtocols(config_).remove(proto);
      manifest.forget(name);
      changes.push_back({"disabled_protos", "Wireshark's built-in " + proto + ": back on"});
      continue;
    }
    const std::string path = pluginPath(name);
    const auto present = hashIfPresent(path);
    const auto ours = hashIfPresent(sourcePath(name));
    if (present && *present != recorded && *present != ours) {
      changes.push_back({name, "kept: edited since rudpscope installed it"});
      continue;
    }
    std::error_code ec;
    if (present && !fs::remove(path, ec))
      throw Error("cannot remove '" + path + "': " + (ec ? ec.message() : "not removed"));
    manifest.forget(name);
    changes.push_back({name, present ? "removed" : "already gone"});
  }
  manifest.save(plugins_);
  return changes;
}

}  // namespace rudp::wireshark
