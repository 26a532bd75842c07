// Copies chosen frames of a capture into a new pcapng file
// (capture/pcapng_writer.h), keeping their timestamps, lengths and the link
// type: what "Open in Wireshark" hands to Wireshark.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace rudp::wireshark {

struct ExportResult {
  uint64_t written = 0;
  std::vector<uint64_t> missing;  // asked for, but not in the capture
};

// `frames` sorted ascending (frame_selection.h gives them so). Reads the
// capture once, up to the last frame asked for. Throws CaptureError (cannot
// read or write) or Cancelled when `cancel` is set.
ExportResult exportFrames(const std::string& capture, const std::vector<uint64_t>& frames,
                          const std::string& output, const std::atomic<bool>* cancel = nullptr);

}  // namespace rudp::wireshark
