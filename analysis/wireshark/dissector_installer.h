// Copies our dissectors (the *.lua of lua/dissector_files.h's
// defaultDissectorDir()) into a Wireshark personal Lua plugin folder, tells
// what state each copy is in, and removes only what we installed. Built-in
// dissectors one of ours replaces (disabled_protocols.h) are turned off in
// the personal configuration's `disabled_protos`. What we wrote or added is
// recorded in the plugin folder's InstallManifest.
#pragma once
#include <string>
#include <vector>

namespace rudp::wireshark {

class InstallManifest;

enum class FileState {
  Installed,  // the folder's copy is identical to ours
  Outdated,   // we installed it, and ours has changed since
  Missing,    // no file of that name
  Foreign,    // a file of that name we did not install
  Modified,   // we installed it, and it was edited there since
};
// "installed", "outdated", "missing", "foreign", "modified".
const char* stateName(FileState state);
// One line for a person, e.g. "a file rudpscope did not install; left alone".
const char* stateMeaning(FileState state);

struct DissectorFile {
  std::string name;  // e.g. "grudp.lua"
  FileState state = FileState::Missing;
};

// What install or uninstall did to one file: "written", "up to date",
// "removed", "kept: ...".
struct FileChange {
  std::string name;
  std::string what;
};

class DissectorInstaller {
 public:
  DissectorInstaller(std::string sourceFolder, std::string pluginFolder, std::string configFolder);

  const std::string& sourceFolder() const { return source_; }
  const std::string& pluginFolder() const { return plugins_; }
  const std::string& configFolder() const { return config_; }

  // The built-in protocols our dissectors replace, sorted, without repeats.
  // Throws Error when a source file cannot be read.
  std::vector<std::string> replacedProtocols() const;

  // One entry per *.lua of the source folder, sorted by name. Throws Error
  // when the source folder cannot be listed or a file cannot be read.
  std::vector<DissectorFile> status() const;
  // Every file installed and current.
  static bool allInstalled(const std::vector<DissectorFile>& files);

  // Writes every missing or outdated file (each atomically) and records it,
  // then adds each replaced protocol missing from `disabled_protos` (and
  // records that it did).
  // A foreign or modified file is overwritten only with `overwriteOthers`;
  // without it nothing at all is written and Error names the file. Throws
  // Error when the folder cannot be created or written.
  std::vector<FileChange> install(bool overwriteOthers) const;
  // Removes the files we installed that are unchanged since (or identical to
  // ours); keeps the others, and every file we did not install. Takes out of
  // `disabled_protos` only the names install added. Throws Error when a file
  // cannot be removed.
  std::vector<FileChange> uninstall() const;

 private:
  std::vector<std::string> sourceNames() const;
  std::string sourcePath(const std::string& name) const;
  std::string pluginPath(const std::string& name) const;

  std::vector<FileChange> disableReplaced(InstallManifest& manifest) const;

  std::string source_, plugins_, config_;
};

}  // namespace rudp::wireshark
