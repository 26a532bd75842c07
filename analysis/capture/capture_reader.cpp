// CaptureReader::open: checks the file before handing it to libpcap so the
// user gets one clear line for the common mistakes (missing file, a
// directory, an empty file, something that is not a capture at all).
#include "capture/capture_reader.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "capture/pcap_capture_reader.h"
#include "core/error.h"

namespace rudp {

namespace {

std::string quoted(const std::string& path) { return "'" + path + "'"; }

[[noreturn]] void fail(const std::string& message) { throw CaptureError(message); }

// Magic numbers libpcap reads, in either byte order.
bool isCaptureMagic(const unsigned char m[4]) {
  static const uint32_t kMagics[] = {
      0xa1b2c3d4,  // pcap, microseconds
      0xa1b23c4d,  // pcap, nanoseconds
      0xa1b2cd34,  // Kuznetzov's modified pcap
      0x0a0d0d0a,  // pcapng section header block (palindromic)
  };
  const uint32_t be = uint32_t(m[0]) << 24 | uint32_t(m[1]) << 16 | uint32_t(m[2]) << 8 | m[3];
  const uint32_t le = uint32_t(m[3]) << 24 | uint32_t(m[2]) << 16 | uint32_t(m[1]) << 8 | m[0];
  for (uint32_t magic : kMagics)
    if (be == magic || le == magic) return true;
  return false;
}

}  // namespace

std::unique_ptr<CaptureReader> CaptureReader::open(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) fail("cannot open " + quoted(path) + ": " + errnoMessage(errno));
  if (S_ISDIR(st.st_mode)) fail("cannot open " + quoted(path) + ": " + errnoMessage(EISDIR));

  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) fail("cannot open " + quoted(path) + ": " + errnoMessage(errno));

  unsigned char magic[4] = {0, 0, 0, 0};
  const ssize_t got = ::pread(fileno(file), magic, sizeof magic, 0);
  if (got < 0) {
    const int err = errno;
    std::fclose(file);
    fail("cannot read " + quoted(path) + ": " + errnoMessage(err));
  }
  if (got == 0) {
    std::fclose(file);
    fail(quoted(path) + " is empty, not a pcap or pcapng capture");
  }
  if (got < 4 || !isCaptureMagic(magic)) {
    std::fclose(file);
    fail(quoted(path) + " is not a pcap or pcapng capture");
  }
  // The reader owns `file` from here on, also when its constructor throws.
  const uint64_t size = S_ISREG(st.st_mode) ? uint64_t(st.st_size) : 0;
  return std::make_unique<PcapCaptureReader>(path, file, size);
}

}  // namespace rudp
