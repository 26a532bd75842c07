#include "wireshark/file_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/partial_file.h"

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
  if (!written) {
    const int writeErr = errno;
    std::fclose(f);
    std::remove(partial.c_str());
    throw Error("cannot write '" + partial + "': " + errnoMessage(writeErr));
  }
  const std::string failure = commitPartialFile(f, partial, path);
  if (!failure.empty()) throw Error(failure);
}

}  // namespace rudp::wireshark
