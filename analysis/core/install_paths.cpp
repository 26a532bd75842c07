#include "core/install_paths.h"

#include <filesystem>

namespace fs = std::filesystem;

namespace rudp {

std::string installedOr(const std::string& name, const std::string& fallback) {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return fallback;
  const fs::path installed = exe.parent_path().parent_path() / "share" / "rudpscope" / name;
  return fs::exists(installed, ec) ? installed.string() : fallback;
}

}  // namespace rudp
