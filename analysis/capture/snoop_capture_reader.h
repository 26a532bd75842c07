// CaptureReader for Solaris snoop files (RFC 1761; `snoop -o`, and what some
// appliances still write), plain or read through a decompressing stream.
// Ethernet snoop files only: the others carry links players' machines do not.
#pragma once
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "capture/capture_reader.h"
#include "capture/compressed_stream.h"

namespace rudp {

class SnoopCaptureReader final : public CaptureReader {
 public:
  // Takes ownership of `file`, positioned at the start of the (decompressed)
  // file; `decompress` as for PcapCaptureReader. Throws CaptureError when the
  // file header is cut off or names a link other than Ethernet.
  SnoopCaptureReader(const std::string& path, std::FILE* file, uint64_t fileSize,
                     std::unique_ptr<DecompressState> decompress);
  ~SnoopCaptureReader() override;

  // file_offset of each packet is where its 24-byte record header starts.
  bool next(RawPacket& out) override;

  int linkType() const override;
  std::string linkTypeName() const override;
  std::string format() const override { return format_; }
  uint64_t fileSize() const override { return file_size_; }
  uint64_t bytesRead() const override;
  bool truncated() const override { return truncated_; }
  bool damaged() const override { return damaged_; }
  std::string warning() const override { return warning_; }

 private:
  bool readExactly(void* to, size_t n);
  void stop(bool cutOff, const std::string& why);

  std::string path_;
  std::FILE* file_ = nullptr;
  std::unique_ptr<DecompressState> decompress_;
  std::string format_ = "snoop";
  uint64_t file_size_ = 0;
  uint64_t pos_ = 0;  // file offset of the next record
  uint64_t frame_ = 0;
  std::vector<uint8_t> data_;
  bool done_ = false, truncated_ = false, damaged_ = false;
  std::string warning_;
};

}  // namespace rudp
