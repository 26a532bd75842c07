// File > Export Specified Packets: chosen frames of an analysed capture
// copied into a new pcapng file, bytes, lengths and times exactly as captured.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace rudp {

struct ExportResult {
  uint64_t frames = 0;
  bool cancelled = false;  // nothing is left at the target then
};

// Copies frames `frames` (ascending frame numbers) of the capture analysed
// into `db` to `target`. An empty list copies every frame. Throws Error with
// one line (unreadable capture, a frame not where the database says, a write
// error); the target is written whole or not at all.
ExportResult exportFrames(const std::string& db, const std::string& capture,
                          const std::vector<uint64_t>& frames, const std::string& target,
                          const std::atomic<bool>* cancel = nullptr);

}  // namespace rudp
