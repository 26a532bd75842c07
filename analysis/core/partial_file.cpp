#include "core/partial_file.h"

#include <cerrno>

#include "core/error.h"

namespace rudp {

std::string commitPartialFile(std::FILE* file, const std::string& partial, const std::string& path) {
  const bool flushed = std::fflush(file) == 0;
  const int flushErr = errno;
  const bool closed = std::fclose(file) == 0;
  const int closeErr = errno;
  if (!flushed || !closed) {
    std::remove(partial.c_str());
    return "cannot write '" + partial + "': " + errnoMessage(flushed ? closeErr : flushErr);
  }
  if (std::rename(partial.c_str(), path.c_str()) != 0) {
    const int renameErr = errno;
    std::remove(partial.c_str());
    return "cannot write '" + path + "': " + errnoMessage(renameErr);
  }
  return {};
}

}  // namespace rudp
