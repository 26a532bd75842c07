// Reads records through libpcap at nanosecond precision, so ts_ns is exact
// whatever resolution the file stores (libpcap scales micro- to nanoseconds
// and honours pcapng's if_tsresol).
#include "capture/pcap_capture_reader.h"

#include <pcap/pcap.h>
#include <unistd.h>

#include <stdio_ext.h>
#include <cstdint>
#include <cstring>

#include "core/error.h"

namespace rudp {

namespace {

std::string quoted(const std::string& path) { return "'" + path + "'"; }

uint32_t pad4(uint32_t n) { return (n + 3u) & ~3u; }

std::string formatOf(const unsigned char m[4]) {
  if (m[0] == 0x0a && m[1] == 0x0d && m[2] == 0x0d && m[3] == 0x0a) return "pcapng";
  const bool nsecBe = m[0] == 0xa1 && m[1] == 0xb2 && m[2] == 0x3c && m[3] == 0x4d;
  const bool nsecLe = m[0] == 0x4d && m[1] == 0x3c && m[2] == 0xb2 && m[3] == 0xa1;
  return nsecBe || nsecLe ? "pcap-nsec" : "pcap";
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

PcapCaptureReader::PcapCaptureReader(const std::string& path, std::FILE* file, uint64_t fileSize)
    : path_(path), file_size_(fileSize) {
  unsigned char magic[4] = {0, 0, 0, 0};
  if (::pread(fileno(file), magic, sizeof magic, 0) != 4) {
    std::fclose(file);
    throw CaptureError(quoted(path) + " is not a pcap or pcapng capture");
  }
  format_ = formatOf(magic);
  pcapng_ = format_ == "pcapng";

  char errbuf[PCAP_ERRBUF_SIZE] = {0};
  p_ = pcap_fopen_offline_with_tstamp_precision(file, PCAP_TSTAMP_PRECISION_NANO, errbuf);
  if (!p_) {
    std::fclose(file);  // libpcap leaves the FILE to us when it fails
    const std::string why = errbuf;
    if (why.find("truncated") != std::string::npos)
      throw CaptureError(quoted(path) + " is cut off inside its file header");
    if (why.find("unknown file format") != std::string::npos) {
      // libpcap also says this for a pcapng file too short for its section
      // header (28 bytes); the magic already matched, so the file was cut.
      if (fileSize < 28) throw CaptureError(quoted(path) + " is cut off inside its file header");
      throw CaptureError(quoted(path) + " is not a pcap or pcapng capture");
    }
    throw CaptureError("cannot read " + quoted(path) + ": " + why);
  }
  fd_ = fileno(pcap_file(p_));
  // Only this reader touches the stream: skip stdio's lock on every fread
  // libpcap makes (two per packet).
  __fsetlocking(pcap_file(p_), FSETLOCKING_BYCALLER);
  swapped_ = pcap_is_swapped(p_) == 1;
  link_type_ = pcap_datalink(p_);
  const char* name = pcap_datalink_val_to_name(link_type_);
  link_type_name_ = name ? name : "DLT " + std::to_string(link_type_);
}

PcapCaptureReader::~PcapCaptureReader() {
  if (p_) pcap_close(p_);  // also closes the FILE
}

bool PcapCaptureReader::next(RawPacket& out) {
  if (done_) return false;
  std::FILE* f = pcap_file(p_);
  // libpcap reads the file sequentially with stdio, so the stream position
  // before a read is where the next unread record (pcap) or block (pcapng)
  // starts. A pcap record is a 16-byte header plus caplen bytes, so its
  // offsets are counted, not asked for: ftell costs a lock and an lseek per
  // call. pcapng asks once per packet (the previous `after` is `before`).
  if (!pos_known_) {
    const long at = std::ftell(f);
    pos_ = at >= 0 ? uint64_t(at) : 0;
    pos_known_ = true;
  }
  const uint64_t before = pos_;
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
    if (pcapng_) {
      const long after = std::ftell(f);
      pos_ = after >= 0 ? uint64_t(after) : before;
      out.file_offset = pos_ >= before ? pcapngBlockStart(before, pos_, hdr->caplen) : before;
    } else {
      out.file_offset = before;
      pos_ = before + 16 + hdr->caplen;
    }
    bytes_read_ = pos_;
    return true;
  }
  done_ = true;
  bytes_read_ = file_size_;
  if (rc == PCAP_ERROR_BREAK) return false;  // plain end of file
  stopWithError(pcap_geterr(p_));
  return false;
}

// In pcapng, non-packet blocks (interface descriptions, statistics, name
// resolution) may sit between two packets, so `before` is not always where
// the packet's block starts. Every block ends with a copy of its length,
// which gives the start exactly. The common case (an EPB without options
// right at `before`) is recognised by size and needs no extra read.
uint64_t PcapCaptureReader::pcapngBlockStart(uint64_t before, uint64_t after, uint32_t caplen) const {
  const uint64_t span = after - before;
  if (span == 32 + uint64_t(pad4(caplen))) return before;
  if (span < 12) return before;
  unsigned char tail[4];
  if (::pread(fd_, tail, 4, off_t(after - 4)) != 4) return before;
  uint32_t len;
  std::memcpy(&len, tail, 4);
  if (swapped_) len = __builtin_bswap32(len);
  if (len < 12 || len > span || len % 4 != 0) return before;
  return after - len;
}

void PcapCaptureReader::stopWithError(const char* libpcapMessage) {
  const std::string why = libpcapMessage ? libpcapMessage : "";
  const std::string n = std::to_string(frame_);
  // libpcap words every short read as "truncated dump file" (pcap) or
  // "truncated pcapng dump file"; anything else is a damaged record.
  if (why.find("truncated") != std::string::npos) {
    truncated_ = true;
    if (frame_ == 0)
      warning_ = quoted(path_) + " is cut off in the middle of its first packet; 0 frames read";
    else
      warning_ = quoted(path_) + " is cut off in the middle of a packet after frame " + n + "; " + n +
                 " frames read";
  } else {
    warning_ =
        quoted(path_) + " has a damaged record after frame " + n + " (" + why + "); " + n + " frames read";
  }
}

}  // namespace rudp
