// Chosen frames of a capture copied into a new pcapng file
// (capture/pcapng_writer.h), bytes, lengths, times and link type exactly as
// captured: File > Export Specified Packets and what "Open in Wireshark"
// hands to Wireshark.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace rudp {

struct ExportResult {
  uint64_t written = 0;
  std::vector<uint64_t> missing;  // asked for, but not in the capture
};

// `frames` sorted ascending; empty: every frame. Reads the capture once, up
// to the last frame asked for. The target is written whole or not at all:
// throws CaptureError (cannot read or write, one line) or Cancelled when
// `cancel` is set.
ExportResult exportFrames(const std::string& capture, const std::vector<uint64_t>& frames,
                          const std::string& target, const std::atomic<bool>* cancel = nullptr);

}  // namespace rudp
