// CaptureReader::open: checks the file before handing it to libpcap so the
// user gets one clear line for the common mistakes (missing file, a
// directory, an empty file, something that is not a capture at all).
#include "capture/capture_reader.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "capture/compressed_stream.h"
#include "capture/pcap_capture_reader.h"
#include "capture/pcapng_capture_reader.h"
#include "capture/snoop_capture_reader.h"
#include "core/bytes.h"
#include "core/error.h"

namespace rudp {

namespace {

std::string quoted(const std::string& path) { return "'" + path + "'"; }

[[noreturn]] void fail(const std::string& message) { throw CaptureError(message); }

bool isSnoopMagic(const unsigned char m[4]) { return std::memcmp(m, "snoo", 4) == 0; }

bool isPcapngMagic(const unsigned char m[4]) {
  return m[0] == 0x0a && m[1] == 0x0d && m[2] == 0x0d && m[3] == 0x0a;
}

// The first four decompressed bytes of a compressed capture, from a stream
// of its own (libpcap reads the magic itself, so the real stream starts at 0).
size_t decompressedMagic(const std::string& path, Compression c, unsigned char magic[4]) {
  std::FILE* raw = std::fopen(path.c_str(), "rb");
  if (!raw) fail("cannot open " + quoted(path) + ": " + errnoMessage(errno));
  DecompressState state;
  std::FILE* f = openDecompressed(raw, c, state);
  if (!f) fail("cannot read " + quoted(path) + ": out of memory");
  const size_t got = std::fread(magic, 1, 4, f);
  std::fclose(f);
  if (got == 0 && !state.problem.empty()) fail("cannot read " + quoted(path) + ": " + state.problem);
  return got;
}

// Magic numbers of the captures read (pcap by libpcap), in either byte
// order, and snoop's "snoo" (of "snoop\0\0\0").
bool isCaptureMagic(const unsigned char m[4]) {
  if (isSnoopMagic(m)) return true;
  static const uint32_t kMagics[] = {
      0xa1b2c3d4,  // pcap, microseconds
      0xa1b23c4d,  // pcap, nanoseconds
      0xa1b2cd34,  // Kuznetzov's modified pcap
      0x0a0d0d0a,  // pcapng section header block (palindromic)
  };
  const uint32_t be = be32(m), le = le32(m);
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
  const uint64_t size = S_ISREG(st.st_mode) ? uint64_t(st.st_size) : 0;
  const Compression compression = got == 4 ? compressionOf(magic) : Compression::None;
  std::unique_ptr<DecompressState> state;
  if (compression != Compression::None) {
    size_t inner = 0;
    try {
      inner = decompressedMagic(path, compression, magic);
    } catch (...) {
      std::fclose(file);
      throw;
    }
    if (inner < 4 || !isCaptureMagic(magic)) {
      std::fclose(file);
      fail(quoted(path) + " is " + compressionName(compression) +
           "-compressed, but not a pcap or pcapng capture");
    }
    state = std::make_unique<DecompressState>();
    file = openDecompressed(file, compression, *state);
    if (!file) fail("cannot read " + quoted(path) + ": out of memory");
  } else if (got < 4 || !isCaptureMagic(magic)) {
    std::fclose(file);
    fail(quoted(path) + " is not a pcap or pcapng capture");
  }
  // The reader owns `file` from here on, also when its constructor throws.
  if (isPcapngMagic(magic)) return std::make_unique<PcapngCaptureReader>(path, file, size, std::move(state));
  if (isSnoopMagic(magic)) return std::make_unique<SnoopCaptureReader>(path, file, size, std::move(state));
  return std::make_unique<PcapCaptureReader>(path, file, size, std::move(state), magic);
}

std::string leadingTlsSecrets(const std::string& path) {
  auto reader = CaptureReader::open(path);
  RawPacket first;
  reader->next(first);  // reads every block before the first packet
  return reader->tlsSecrets();
}

std::string cutOffWarning(const std::string& path, uint64_t framesRead) {
  const std::string n = std::to_string(framesRead);
  if (framesRead == 0) return quoted(path) + " is cut off in the middle of its first packet; 0 frames read";
  return quoted(path) + " is cut off in the middle of a packet after frame " + n + "; " + n + " frames read";
}

std::string damagedWarning(const std::string& path, uint64_t framesRead, const std::string& why) {
  const std::string n = std::to_string(framesRead);
  return quoted(path) + " has a damaged record after frame " + n + " (" + why + "); " + n + " frames read";
}

}  // namespace rudp
