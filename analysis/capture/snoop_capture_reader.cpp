// RFC 1761: a 16-byte file header ("snoop\0\0\0", version 2, datalink), then
// records of original length, included length, record length (the padded
// size of the whole record), cumulative drops, seconds and microseconds,
// all big-endian, followed by the included bytes and padding.
#include "capture/snoop_capture_reader.h"

#include <pcap/pcap.h>

#include <algorithm>
#include <cstring>

#include "capture/link_type.h"
#include "core/bytes.h"
#include "core/error.h"

namespace rudp {

namespace {

constexpr size_t kFileHeader = 16, kRecordHeader = 24;
constexpr uint32_t kVersion = 2;
constexpr uint32_t kDatalink8023 = 0, kDatalinkEthernet = 4;
// Larger than any frame a snoop file holds; beyond it a length is damage.
constexpr uint32_t kMaxRecord = 256 * 1024;

std::string quoted(const std::string& path) { return "'" + path + "'"; }

}  // namespace

SnoopCaptureReader::SnoopCaptureReader(const std::string& path, std::FILE* file, uint64_t fileSize,
                                       std::unique_ptr<DecompressState> decompress)
    : path_(path), file_(file), decompress_(std::move(decompress)), file_size_(fileSize) {
  if (decompress_) format_ += std::string(", ") + compressionName(decompress_->compression);
  unsigned char header[kFileHeader];
  if (std::fread(header, 1, kFileHeader, file_) != kFileHeader) {
    std::fclose(file_);
    throw CaptureError(quoted(path) + " is cut off inside its file header");
  }
  const uint32_t version = be32(header + 8), datalink = be32(header + 12);
  std::string problem;
  if (version != kVersion)
    problem = "snoop version " + std::to_string(version) + " is not supported (only version 2 is)";
  else if (datalink != kDatalinkEthernet && datalink != kDatalink8023)
    problem = "snoop datalink type " + std::to_string(datalink) + " is not supported (only Ethernet is)";
  if (!problem.empty()) {
    std::fclose(file_);
    throw CaptureError("cannot read " + quoted(path) + ": " + problem);
  }
  pos_ = kFileHeader;
}

SnoopCaptureReader::~SnoopCaptureReader() { std::fclose(file_); }

int SnoopCaptureReader::linkType() const { return DLT_EN10MB; }
std::string SnoopCaptureReader::linkTypeName() const { return dltName(DLT_EN10MB); }

uint64_t SnoopCaptureReader::bytesRead() const {
  if (done_) return file_size_;
  return decompress_ ? decompress_->compressed_read : pos_;
}

bool SnoopCaptureReader::readExactly(void* to, size_t n) { return std::fread(to, 1, n, file_) == n; }

// A short read is a cut-off file unless the stream failed: then the
// decompressor knows why (damaged data), or the disk does.
void SnoopCaptureReader::stop(bool cutOff, const std::string& why) {
  done_ = true;
  const bool streamFailed = std::ferror(file_) != 0;
  if (streamFailed && decompress_ && !decompress_->problem.empty() && !decompress_->cut_off) {
    damaged_ = true;
    warning_ = damagedWarning(path_, frame_, decompress_->problem);
  } else if (cutOff && !streamFailed) {
    truncated_ = true;
    warning_ = cutOffWarning(path_, frame_);
  } else {
    damaged_ = true;
    warning_ = damagedWarning(path_, frame_, streamFailed ? "read error" : why);
  }
}

bool SnoopCaptureReader::next(RawPacket& out) {
  if (done_) return false;
  unsigned char h[kRecordHeader];
  const size_t got = std::fread(h, 1, kRecordHeader, file_);
  if (got == 0 && std::feof(file_)) {
    done_ = true;
    return false;
  }
  if (got != kRecordHeader) {
    stop(true, "");
    return false;
  }
  const uint32_t origlen = be32(h), included = be32(h + 4), recordLen = be32(h + 8);
  if (recordLen > kMaxRecord || included > recordLen - std::min<uint32_t>(recordLen, kRecordHeader) ||
      recordLen < kRecordHeader) {
    stop(false, "record length " + std::to_string(recordLen) + " with " + std::to_string(included) +
                    " bytes included");
    return false;
  }
  data_.resize(recordLen - kRecordHeader);
  if (!readExactly(data_.data(), data_.size())) {
    stop(true, "");
    return false;
  }
  ++frame_;
  out.frame = frame_;
  out.ts_ns = int64_t(be32(h + 16)) * 1'000'000'000 + int64_t(be32(h + 20)) * 1000;
  out.caplen = included;
  out.origlen = origlen;
  out.data = data_.data();
  out.file_offset = pos_;
  pos_ += recordLen;
  return true;
}

}  // namespace rudp
