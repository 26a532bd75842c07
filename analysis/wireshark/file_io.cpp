#include "wireshark/file_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/error.h"

namespace rudp::wireshark {

std::string readWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read '" + path + "': " + errnoMessage(errno));
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) throw Error("cannot read '" + path + "': read error");
  return s.str();
}

void writeFileAtomically(const std::string& path, const std::string& contents) {
  const std::string partial = path + ".rudpscope-tmp";
  std::FILE* f = std::fopen(partial.c_str(), "wb");
  if (!f) throw Error("cannot write '" + partial + "': " + errnoMessage(errno));
  const bool written = std::fwrite(contents.data(), 1, contents.size(), f) == contents.size();
  const int writeErr = errno;
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed) {
    std::remove(partial.c_str());
    throw Error("cannot write '" + partial + "': " + errnoMessage(written ? errno : writeErr));
  }
  if (std::rename(partial.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(partial.c_str());
    throw Error("cannot write '" + path + "': " + errnoMessage(err));
  }
}

}  // namespace rudp::wireshark
