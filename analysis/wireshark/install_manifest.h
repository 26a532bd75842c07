// The list of files rudpscope wrote into a plugin folder, kept there as
// `.rudpscope-installed`: one "NAME<TAB>HASH" line per file, HASH the content
// hash (core/file_hash.h) of what was written. It lets uninstall remove only
// our files and install tell our old copies from files someone else put there.
#pragma once
#include <map>
#include <optional>
#include <string>

namespace rudp::wireshark {

class InstallManifest {
 public:
  static constexpr const char* kFileName = ".rudpscope-installed";

  // An absent manifest is empty. Throws Error when it cannot be read.
  static InstallManifest load(const std::string& folder);
  // Writes it atomically; removes the file when nothing is recorded.
  void save(const std::string& folder) const;

  std::optional<std::string> hashOf(const std::string& name) const;
  void record(const std::string& name, const std::string& hash) { entries_[name] = hash; }
  void forget(const std::string& name) { entries_.erase(name); }
  const std::map<std::string, std::string>& entries() const { return entries_; }

 private:
  std::map<std::string, std::string> entries_;
};

}  // namespace rudp::wireshark
