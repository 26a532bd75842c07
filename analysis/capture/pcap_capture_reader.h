// libpcap-backed CaptureReader for pcap files (micro/nano, either byte order),
// plain or read through a decompressing stream.
#pragma once
#include <cstdio>
#include <string>

#include "capture/capture_reader.h"
#include "capture/compressed_stream.h"

struct pcap;

namespace rudp {

class PcapCaptureReader final : public CaptureReader {
 public:
  // Takes ownership of `file` (already opened by CaptureReader::open);
  // `decompress` is the state of a decompressing `file`, or nullptr;
  // `magic` its first four (decompressed) bytes.
  // Throws CaptureError when libpcap does not accept the file.
  PcapCaptureReader(const std::string& path, std::FILE* file, uint64_t fileSize,
                    std::unique_ptr<DecompressState> decompress, const unsigned char magic[4]);
  ~PcapCaptureReader() override;

  // file_offset of each packet is where its 16-byte record header starts in
  // the (decompressed) file.
  bool next(RawPacket& out) override;

  int linkType() const override { return link_type_; }
  std::string linkTypeName() const override { return link_type_name_; }
  std::string format() const override { return format_; }
  uint64_t fileSize() const override { return file_size_; }
  uint64_t bytesRead() const override;
  bool truncated() const override { return truncated_; }
  bool damaged() const override { return damaged_; }
  std::string warning() const override { return warning_; }
  bool seekTo(uint64_t file_offset, uint64_t frame) override;
  int timestampDigits() const override { return format_.starts_with("pcap-nsec") ? 9 : 6; }

 private:
  void stopWithError(const char* libpcapMessage);

  std::string path_;
  pcap* p_ = nullptr;
  std::unique_ptr<DecompressState> decompress_;
  int link_type_ = 0;
  std::string link_type_name_;
  std::string format_;
  uint64_t file_size_ = 0;
  uint64_t pos_ = 0;  // file offset of the next record
  bool pos_known_ = false;
  uint64_t frame_ = 0;
  bool done_ = false;
  bool truncated_ = false, damaged_ = false;
  std::string warning_;
};

}  // namespace rudp
