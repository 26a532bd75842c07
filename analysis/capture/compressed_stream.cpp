#include "capture/compressed_stream.h"

#include <zlib.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace rudp {

namespace {

constexpr size_t kInputChunk = 256 * 1024;

// A compressed file read in chunks; the decoders below turn it into bytes.
class Decompressor {
 public:
  Decompressor(std::FILE* raw, DecompressState& state) : raw_(raw), state_(state), in_(kInputChunk) {}
  virtual ~Decompressor() { std::fclose(raw_); }
  Decompressor(const Decompressor&) = delete;
  Decompressor& operator=(const Decompressor&) = delete;

  // Fills up to n bytes; 0 at the end, -1 (errno EIO) when the data is damaged.
  virtual ssize_t read(char* out, size_t n) = 0;
  uint64_t produced = 0;

 protected:
  // Refills the input when it is used up; false at the end of the file.
  bool refill() {
    if (in_pos_ < in_len_) return true;
    in_len_ = std::fread(in_.data(), 1, in_.size(), raw_);
    in_pos_ = 0;
    state_.compressed_read += in_len_;
    return in_len_ > 0;
  }
  ssize_t damaged(const std::string& why) {
    state_.problem = why;
    errno = EIO;
    return -1;
  }
  ssize_t cutOff(const char* format) {
    state_.cut_off = true;
    state_.problem = std::string(format) + " data ends in the middle of a compressed block";
    return 0;
  }

  std::FILE* raw_;
  DecompressState& state_;
  std::vector<unsigned char> in_;
  size_t in_len_ = 0, in_pos_ = 0;
};

// gzip, including files made of several gzip members (`cat a.gz b.gz`).
class GzipDecompressor final : public Decompressor {
 public:
  GzipDecompressor(std::FILE* raw, DecompressState& state) : Decompressor(raw, state) {
    ok = inflateInit2(&z_, 15 + 16) == Z_OK;  // 15: largest window; +16: gzip wrapper only
  }
  ~GzipDecompressor() override { inflateEnd(&z_); }
  bool ok = false;

  ssize_t read(char* out, size_t n) override {
    z_.next_out = reinterpret_cast<Bytef*>(out);
    z_.avail_out = uInt(n);
    while (z_.avail_out == n) {
      if (!refill()) return member_open_ ? cutOff("gzip") : 0;
      z_.next_in = in_.data() + in_pos_;
      z_.avail_in = uInt(in_len_ - in_pos_);
      member_open_ = true;
      const int rc = inflate(&z_, Z_NO_FLUSH);
      in_pos_ = in_len_ - z_.avail_in;
      if (rc == Z_STREAM_END) {
        member_open_ = false;
        inflateReset(&z_);
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        return damaged(std::string("gzip data is damaged: ") + (z_.msg ? z_.msg : zError(rc)));
      }
    }
    return ssize_t(n - z_.avail_out);
  }

 private:
  z_stream z_{};
  bool member_open_ = false;
};

class ZstdDecompressor final : public Decompressor {
 public:
  ZstdDecompressor(std::FILE* raw, DecompressState& state)
      : Decompressor(raw, state), z_(ZSTD_createDCtx()) {}
  ~ZstdDecompressor() override { ZSTD_freeDCtx(z_); }
  bool ok() const { return z_ != nullptr; }

  ssize_t read(char* out, size_t n) override {
    ZSTD_outBuffer o{out, n, 0};
    while (o.pos == 0) {
      if (!refill()) return frame_open_ ? cutOff("zstd") : 0;
      ZSTD_inBuffer i{in_.data(), in_len_, in_pos_};
      const size_t rc = ZSTD_decompressStream(z_, &o, &i);
      in_pos_ = i.pos;
      if (ZSTD_isError(rc)) return damaged(std::string("zstd data is damaged: ") + ZSTD_getErrorName(rc));
      frame_open_ = rc != 0;  // 0: a frame ended exactly here
    }
    return ssize_t(o.pos);
  }

 private:
  ZSTD_DCtx* z_;
  bool frame_open_ = false;
};

ssize_t cookieRead(void* cookie, char* buf, size_t n) {
  auto* d = static_cast<Decompressor*>(cookie);
  const ssize_t got = d->read(buf, n);
  if (got > 0) d->produced += uint64_t(got);
  return got;
}

// Only ftell's question (where am I?) has an answer.
int cookieSeek(void* cookie, off64_t* offset, int whence) {
  auto* d = static_cast<Decompressor*>(cookie);
  if (whence == SEEK_CUR && *offset == 0) {
    *offset = off64_t(d->produced);
    return 0;
  }
  errno = ESPIPE;
  return -1;
}

int cookieClose(void* cookie) {
  delete static_cast<Decompressor*>(cookie);
  return 0;
}

}  // namespace

Compression compressionOf(const unsigned char m[4]) {
  if (m[0] == 0x1f && m[1] == 0x8b) return Compression::Gzip;
  if (m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f && m[3] == 0xfd) return Compression::Zstd;
  return Compression::None;
}

const char* compressionName(Compression c) {
  switch (c) {
    case Compression::Gzip: return "gzip";
    case Compression::Zstd: return "zstd";
    case Compression::None: break;
  }
  return "";
}

std::FILE* openDecompressed(std::FILE* raw, Compression c, DecompressState& state) {
  Decompressor* d = nullptr;
  state.compression = c;
  if (c == Compression::Gzip) {
    auto* g = new GzipDecompressor(raw, state);
    if (!g->ok) {
      delete g;
      return nullptr;
    }
    d = g;
  } else {
    auto* z = new ZstdDecompressor(raw, state);
    if (!z->ok()) {
      delete z;
      return nullptr;
    }
    d = z;
  }
  std::FILE* f = fopencookie(d, "rb", cookie_io_functions_t{cookieRead, nullptr, cookieSeek, cookieClose});
  if (!f) {
    delete d;
    return nullptr;
  }
  std::setvbuf(f, nullptr, _IOFBF, 256 * 1024);
  return f;
}

}  // namespace rudp
