#include "report/page_file.h"

#include <cerrno>
#include <filesystem>
#include <fstream>

#include "core/error.h"

namespace rudp::report {

void writePageFile(const std::string& path, const std::function<void(std::ostream&)>& write) {
  const std::string partial = path + ".partial";
  auto removePartial = [&] {
    std::error_code ignored;
    std::filesystem::remove(partial, ignored);
  };
  auto fail = [&](const std::string& why) {
    removePartial();
    throw Error("cannot write '" + path + "': " + why);
  };
  std::ofstream f(partial, std::ios::binary | std::ios::trunc);
  if (!f) fail(errnoMessage(errno));
  try {
    write(f);
  } catch (...) {
    f.close();
    removePartial();
    throw;
  }
  f.close();
  if (!f) fail(errnoMessage(errno));
  std::error_code ec;
  std::filesystem::rename(partial, path, ec);
  if (ec) fail(ec.message());
}

}  // namespace rudp::report
