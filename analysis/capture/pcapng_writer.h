// Writes a pcapng file: one Section Header Block, an Interface Description
// Block per link type (nanosecond timestamps: if_tsresol 9; the first for the
// `dlt` given, more as packets of other link types come) and an Enhanced
// Packet Block per packet, little-endian. Timestamps, captured and original
// lengths are kept exactly. Used by "Open in Wireshark" and for exporting a
// selection of packets.
//
// Mode::Complete writes PATH.part and renames it to PATH in finish(), so PATH
// never holds half a capture; a writer destroyed before finish() removes the
// partial file. Mode::Live (a live capture) writes PATH itself, so that what
// flush() wrote stays readable even if the process is killed.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/packet.h"

namespace rudp {

class PcapngWriter {
 public:
  // `dlt` is the DLT_* value CaptureReader::linkType() reports; a packet
  // whose RawPacket::link_type is -1 has it. Throws
  // CaptureError when the file cannot be created.
  enum class Mode { Complete, Live };
  PcapngWriter(const std::string& path, int dlt, Mode mode = Mode::Complete);
  ~PcapngWriter();
  PcapngWriter(const PcapngWriter&) = delete;
  PcapngWriter& operator=(const PcapngWriter&) = delete;

  // Returns the file offset of the packet's block (what CaptureReader reports
  // as file_offset). Throws CaptureError on a write error (e.g. a full disk).
  uint64_t write(const RawPacket& packet);
  // Hands what was written to the kernel. Throws CaptureError.
  void flush();
  // Flushes, closes and (Mode::Complete) renames the file into place.
  // Throws CaptureError.
  void finish();
  uint64_t packetCount() const { return packets_; }
  uint64_t bytesWritten() const { return offset_; }
  const std::string& path() const { return path_; }

 private:
  void writeSectionHeader();
  void writeInterface(int dlt);
  uint32_t interfaceOf(int dlt);
  void put(const std::vector<uint8_t>& bytes);
  const std::string& target() const { return mode_ == Mode::Live ? path_ : partial_; }

  std::string path_, partial_;
  Mode mode_;
  std::FILE* file_ = nullptr;
  uint64_t packets_ = 0;
  uint64_t offset_ = 0;
  std::vector<uint8_t> block_;  // reused: no allocation per packet
  std::vector<int> dlts_;       // of the interfaces written, by interface id
};

}  // namespace rudp
