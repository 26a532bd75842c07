#include "store/db_path.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <functional>

#include "core/error.h"

namespace fs = std::filesystem;

namespace rudp {

namespace {
// /usr belongs to the package manager (FHS: read-only, shareable), even when
// root may write there: the installed sample's database goes to the cache.
bool packageOwned(const fs::path& dir) {
  const std::string d = dir.lexically_normal().string();
  return d == "/usr" || d.rfind("/usr/", 0) == 0;
}
}  // namespace

std::string defaultDatabasePath(const std::string& capturePath) {
  fs::path dir = fs::absolute(capturePath).parent_path();
  return defaultDatabasePath(capturePath, ::access(dir.c_str(), W_OK) == 0 && !packageOwned(dir));
}

std::string defaultDatabasePath(const std::string& capturePath, bool folderWritable) {
  fs::path capture = fs::absolute(capturePath);
  fs::path dir = capture.parent_path();
  std::string name = capture.filename().string() + ".rudpscope.sqlite";
  if (folderWritable) return (dir / name).string();

  fs::path cache;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    cache = x;
  else if (const char* h = std::getenv("HOME"); h && *h)
    cache = fs::path(h) / ".cache";
  else
    throw StoreError("'" + dir.string() + "' is read-only and there is no cache folder: use --db");
  cache /= "rudpscope";
  std::error_code ec;
  fs::create_directories(cache, ec);
  if (ec) throw StoreError("cannot create cache folder '" + cache.string() + "': " + ec.message());
  char tag[17];
  std::snprintf(tag, sizeof tag, "%016zx", std::hash<std::string>{}(capture.string()));
  return (cache / (std::string(tag) + "-" + name)).string();
}

}  // namespace rudp
