// libpcap-backed CaptureReader for pcap (micro/nano, either byte order) and
// pcapng files.
#pragma once
#include <cstdio>
#include <string>

#include "capture/capture_reader.h"

struct pcap;

namespace rudp {

class PcapCaptureReader final : public CaptureReader {
 public:
  // Takes ownership of `file` (already opened by CaptureReader::open).
  // Throws CaptureError when libpcap does not accept the file.
  PcapCaptureReader(const std::string& path, std::FILE* file, uint64_t fileSize);
  ~PcapCaptureReader() override;

  // file_offset of each packet is where its record starts in the file: the
  // 16-byte record header for pcap, the packet block (EPB/SPB/PB) for pcapng.
  bool next(RawPacket& out) override;

  int linkType() const override { return link_type_; }
  std::string linkTypeName() const override { return link_type_name_; }
  std::string format() const override { return format_; }
  uint64_t fileSize() const override { return file_size_; }
  uint64_t bytesRead() const override { return bytes_read_; }
  bool truncated() const override { return truncated_; }
  std::string warning() const override { return warning_; }

 private:
  uint64_t pcapngBlockStart(uint64_t before, uint64_t after, uint32_t caplen) const;
  void stopWithError(const char* libpcapMessage);

  std::string path_;
  pcap* p_ = nullptr;
  int fd_ = -1;
  int link_type_ = 0;
  std::string link_type_name_;
  std::string format_;
  bool pcapng_ = false;
  bool swapped_ = false;
  uint64_t file_size_ = 0;
  uint64_t bytes_read_ = 0;
  uint64_t pos_ = 0;  // file offset of the next record / block
  bool pos_known_ = false;
  uint64_t frame_ = 0;
  bool done_ = false;
  bool truncated_ = false;
  std::string warning_;
};

}  // namespace rudp
