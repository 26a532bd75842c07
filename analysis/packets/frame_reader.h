// Reads any one frame of a capture by its stored file offset, for the packet
// list and the details of a frame. Plain pcap and pcapng files seek straight
// to it; compressed and snoop files cannot, so they are read forward from the
// start (or from the frame last read, when it lies before).
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "capture/capture_reader.h"

namespace rudp {

class FrameReader {
 public:
  // Throws CaptureError as CaptureReader::open does.
  explicit FrameReader(const std::string& capture);
  ~FrameReader();

  // Frame `frame`, whose record starts at `file_offset`. Its data is valid
  // until the next read. Throws CaptureError when the file has no such frame
  // there (it changed since it was analysed, or it is cut short).
  const RawPacket& read(uint64_t frame, uint64_t file_offset);

  int linkType() const { return reader_->linkType(); }
  int timestampDigits() const { return reader_->timestampDigits(); }
  // Whether frames are reached directly (else by reading forward).
  bool seeks() const { return seeks_; }

 private:
  void reopen();
  [[noreturn]] void notThere(uint64_t frame, uint64_t file_offset) const;

  std::string path_;
  std::unique_ptr<CaptureReader> reader_;
  RawPacket current_;
  bool have_ = false;
  bool seeks_ = true;
};

}  // namespace rudp
