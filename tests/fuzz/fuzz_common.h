// Helpers shared by the fuzz targets.
#pragma once
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace rudp::fuzz {

// The input as a file the path-based APIs (libpcap, file hash) can open.
// A memfd: no disk I/O per input, and nothing left behind when a run dies.
class MemFile {
 public:
  MemFile() {
    fd_ = ::memfd_create("rudpscope-fuzz", 0);
    if (fd_ < 0) {
      std::perror("memfd_create");
      std::abort();
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  ~MemFile() { ::close(fd_); }
  const std::string& write(const uint8_t* data, size_t size) {
    if (::ftruncate(fd_, 0) != 0) std::abort();
    size_t done = 0;
    while (done < size) {
      ssize_t n = ::pwrite(fd_, data + done, size - done, static_cast<off_t>(done));
      if (n <= 0) std::abort();
      done += static_cast<size_t>(n);
    }
    return path_;
  }
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

// Reads the input front to back; past the end every read yields zeros, so a
// target never needs to check sizes while carving up its input.
class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
  size_t left() const { return static_cast<size_t>(end_ - p_); }
  bool empty() const { return p_ == end_; }
  uint8_t u8() { return p_ < end_ ? *p_++ : 0; }
  uint16_t u16() { return static_cast<uint16_t>(u8() | (u8() << 8)); }
  uint32_t u32() { return u16() | (static_cast<uint32_t>(u16()) << 16); }
  uint64_t u64() { return u32() | (static_cast<uint64_t>(u32()) << 32); }
  // Up to `n` bytes, copied into their own heap block so that ASan flags any
  // read past them (a slice of the fuzzer's buffer would not be bounded).
  std::vector<uint8_t> bytes(size_t n) {
    n = std::min(n, left());
    std::vector<uint8_t> v(p_, p_ + n);
    p_ += n;
    return v;
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

// Touches every byte of [p, p + n): ASan reports a pointer/length the code
// under test got wrong. The result goes to a volatile sink so it stays.
inline volatile uint8_t g_touch_sink;
inline void touch(const uint8_t* p, size_t n) {
  uint8_t acc = 0;
  for (size_t i = 0; i < n; ++i) acc ^= p[i];
  g_touch_sink = acc;
}

// A broken invariant: print it and abort, so libFuzzer saves the input.
[[noreturn]] inline void fail(const char* what) {
  std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
  std::abort();
}

inline std::string sourceDir() { return RUDPSCOPE_SOURCE_DIR; }

}  // namespace rudp::fuzz
