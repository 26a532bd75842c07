// Reads records through libpcap at nanosecond precision, so ts_ns is exact
// whatever resolution the file stores (libpcap scales micro- to nanoseconds).
#include "capture/pcap_capture_reader.h"

#include <pcap/pcap.h>

#include <stdio_ext.h>
#include <cstdint>
#include <cstring>

#include "capture/link_type.h"
#include "core/error.h"

namespace rudp {

namespace {

std::string quoted(const std::string& path) { return "'" + path + "'"; }

bool isNanosecondPcap(const unsigned char m[4]) {
  const bool nsecBe = m[0] == 0xa1 && m[1] == 0xb2 && m[2] == 0x3c && m[3] == 0x4d;
  const bool nsecLe = m[0] == 0x4d && m[1] == 0x3c && m[2] == 0xb2 && m[3] == 0xa1;
  return nsecBe || nsecLe;
}

// tv_usec holds nanoseconds at PCAP_TSTAMP_PRECISION_NANO. Damaged pcapng
// files can carry absurd times; saturate instead of overflowing.
int64_t toNanoseconds(int64_t sec, int64_t nsec) {
  int64_t ns;
  if (__builtin_mul_overflow(sec, int64_t(1000000000), &ns) || __builtin_add_overflow(ns, nsec, &ns))
    return sec < 0 ? INT64_MIN : INT64_MAX;
  return ns;
}

}  // namespace

PcapCaptureReader::PcapCaptureReader(const std::string& path, std::FILE* file, uint64_t fileSize,
                                     std::unique_ptr<DecompressState> decompress,
                                     const unsigned char magic[4])
    : path_(path), decompress_(std::move(decompress)), file_size_(fileSize) {
  format_ = isNanosecondPcap(magic) ? "pcap-nsec" : "pcap";
  if (decompress_) format_ += std::string(", ") + compressionName(decompress_->compression);

  char errbuf[PCAP_ERRBUF_SIZE] = {0};
  p_ = pcap_fopen_offline_with_tstamp_precision(file, PCAP_TSTAMP_PRECISION_NANO, errbuf);
  if (!p_) {
    std::fclose(file);  // libpcap leaves the FILE to us when it fails
    const std::string why = errbuf;
    if (why.find("truncated") != std::string::npos)
      throw CaptureError(quoted(path) + " is cut off inside its file header");
    if (why.find("unknown file format") != std::string::npos) {
      throw CaptureError(quoted(path) + " is not a pcap or pcapng capture");
    }
    throw CaptureError("cannot read " + quoted(path) + ": " + why);
  }
  // Only this reader touches the stream: skip stdio's lock on every fread
  // libpcap makes (two per packet).
  __fsetlocking(pcap_file(p_), FSETLOCKING_BYCALLER);
  link_type_ = pcap_datalink(p_);
  link_type_name_ = dltName(link_type_);
}

uint64_t PcapCaptureReader::bytesRead() const {
  if (done_) return file_size_;
  return decompress_ ? decompress_->compressed_read : pos_;
}

PcapCaptureReader::~PcapCaptureReader() {
  if (p_) pcap_close(p_);  // also closes the FILE
}

bool PcapCaptureReader::next(RawPacket& out) {
  if (done_) return false;
  // libpcap reads the file sequentially with stdio, so the stream position
  // before the first read is where the first record starts. A record is a
  // 16-byte header plus caplen bytes, so later offsets are counted, not
  // asked for: ftell costs a lock and an lseek per call.
  if (!pos_known_) {
    const long at = std::ftell(pcap_file(p_));
    pos_ = at >= 0 ? uint64_t(at) : 0;
    pos_known_ = true;
  }
  pcap_pkthdr* hdr = nullptr;
  const u_char* data = nullptr;
  const int rc = pcap_next_ex(p_, &hdr, &data);
  if (rc == 1) {
    ++frame_;
    out.frame = frame_;
    out.ts_ns = toNanoseconds(hdr->ts.tv_sec, hdr->ts.tv_usec);
    out.caplen = hdr->caplen;
    out.origlen = hdr->len;
    out.data = data;
    out.file_offset = pos_;
    pos_ += 16 + hdr->caplen;
    return true;
  }
  done_ = true;
  if (rc == PCAP_ERROR_BREAK) return false;  // plain end of file
  stopWithError(pcap_geterr(p_));
  return false;
}

bool PcapCaptureReader::seekTo(uint64_t file_offset, uint64_t frame) {
  // libpcap reads records with plain freads from the stream, so it goes on
  // from wherever the stream stands.
  if (decompress_ || frame == 0 || std::fseek(pcap_file(p_), long(file_offset), SEEK_SET) != 0) return false;
  pos_ = file_offset;
  pos_known_ = true;
  frame_ = frame - 1;
  done_ = truncated_ = damaged_ = false;
  warning_.clear();
  return true;
}

// libpcap words every short read as "truncated dump file"; anything else is
// a damaged record. Damaged compressed data reaches libpcap as a read error:
// the decompressor knows what it was.
void PcapCaptureReader::stopWithError(const char* libpcapMessage) {
  const std::string why = libpcapMessage ? libpcapMessage : "";
  if (decompress_ && !decompress_->problem.empty() && !decompress_->cut_off) {
    damaged_ = true;
    warning_ = damagedWarning(path_, frame_, decompress_->problem);
  } else if (why.find("truncated") != std::string::npos) {
    truncated_ = true;
    warning_ = cutOffWarning(path_, frame_);
  } else {
    damaged_ = true;
    warning_ = damagedWarning(path_, frame_, why);
  }
}

}  // namespace rudp
