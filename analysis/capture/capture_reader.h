// Reads pcap files through libpcap, pcapng files block by block and snoop
// files record by record, either plain or compressed with gzip or zstd.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "core/packet.h"

namespace rudp {

class CaptureReader {
 public:
  // Throws CaptureError with a one-line message ("cannot open X: ...",
  // "X is not a pcap or pcapng capture", ...).
  static std::unique_ptr<CaptureReader> open(const std::string& path);
  virtual ~CaptureReader() = default;

  // Next record. Returns false at end of file or when the file is cut off
  // mid-record; in the latter case truncated() is true and warning() says so.
  // Records before the cut are all delivered. out.file_offset is where the
  // record starts: its 16-byte record header in pcap, its packet block
  // (EPB/SPB) in pcapng. out.ts_ns is exact for micro- and nanosecond files.
  virtual bool next(RawPacket& out) = 0;

  virtual int linkType() const = 0;              // DLT_* of the (first) interface
  virtual std::string linkTypeName() const = 0;  // e.g. "EN10MB"
  virtual std::string format() const = 0;        // "pcap", "pcap-nsec", "pcapng"
  virtual uint64_t fileSize() const = 0;
  virtual uint64_t bytesRead() const = 0;  // for progress
  virtual bool truncated() const = 0;
  // A damaged record (e.g. an absurd length, damaged compressed data) ended
  // reading early: the frames before it were delivered, the rest is lost.
  // tshark calls such a file damaged and exits 2; so does the analysis,
  // unless asked to keep what came before.
  virtual bool damaged() const { return false; }
  // Empty when none. Set when truncated() or damaged(): one line saying what
  // happened and how many frames were read.
  virtual std::string warning() const = 0;

  // Moves to the record at `file_offset` (a RawPacket::file_offset this file
  // gave), which the next next() reads as frame `frame`. False when the file
  // cannot move there (compressed, snoop): read it from the start instead.
  virtual bool seekTo(uint64_t /*file_offset*/, uint64_t /*frame*/) { return false; }
  // Digits after the second that the file's timestamps carry (6 for
  // microseconds, 9 for nanoseconds): what Wireshark's automatic time
  // precision shows.
  virtual int timestampDigits() const { return 6; }
  // The TLS key logs of the pcapng decryption secrets blocks read so far
  // (editcap --inject-secrets tls,FILE), joined; and how many of those
  // blocks came after a packet (leadingTlsSecrets() does not read them).
  virtual const std::string& tlsSecrets() const {
    static const std::string none;
    return none;
  }
  virtual int lateSecretsBlocks() const { return 0; }

  // A live source: next() returned false because nothing more has arrived for
  // now (at least every 100 ms while packets flow, so the pipeline publishes
  // what it has); next() may be called again. Files never pause.
  virtual bool paused() const { return false; }
  // Called once after the last packet: a live source completes its file, so
  // fileSize() and the file on disk are final.
  virtual void finish() {}
};

// The TLS secrets a capture carries before its first packet, where
// editcap and Wireshark put them; "" for a file without any. Throws what
// open() throws.
std::string leadingTlsSecrets(const std::string& path);

// The readers' warnings, worded once.
std::string cutOffWarning(const std::string& path, uint64_t framesRead);
std::string damagedWarning(const std::string& path, uint64_t framesRead, const std::string& why);

}  // namespace rudp
