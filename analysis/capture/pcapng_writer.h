// Writes a pcapng file: one Section Header Block, one Interface Description
// Block (the link type, nanosecond timestamps: if_tsresol 9) and an Enhanced
// Packet Block per packet, little-endian. Timestamps, captured and original
// lengths are kept exactly. Used by "Open in Wireshark" and for exporting a
// selection of packets.
//
// The file is written as PATH.part and renamed to PATH by finish(), so PATH
// never holds half a capture; a writer destroyed before finish() removes the
// partial file.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/packet.h"

namespace rudp {

class PcapngWriter {
 public:
  // `dlt` is the DLT_* value CaptureReader::linkType() reports. Throws
  // CaptureError when the file cannot be created.
  PcapngWriter(const std::string& path, int dlt);
  ~PcapngWriter();
  PcapngWriter(const PcapngWriter&) = delete;
  PcapngWriter& operator=(const PcapngWriter&) = delete;

  // Throws CaptureError on a write error (e.g. a full disk).
  void write(const RawPacket& packet);
  // Flushes, closes and renames the file into place. Throws CaptureError.
  void finish();
  uint64_t packetCount() const { return packets_; }

 private:
  void writeSectionHeader();
  void writeInterface(int dlt);
  void put(const void* data, size_t size);

  std::string path_, partial_;
  std::FILE* file_ = nullptr;
  uint64_t packets_ = 0;
};

// The LINKTYPE_* value a pcapng IDB stores for a DLT_* value: the two differ
// for the few DLTs whose numbers vary between platforms (DLT_RAW is 12 on
// Linux, LINKTYPE_RAW 101).
uint16_t linkTypeOfDlt(int dlt);

}  // namespace rudp
