// What reading a capture leaves to say, one line each, the same for every
// command and the window: the reader's warning (cut off, damaged) and the
// frames of link types the decoder does not read.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "capture/capture_reader.h"
#include "core/error.h"
#include "core/text_lines.h"
#include "decode/decoder.h"

namespace rudp {

// A capture with a damaged record: the frames before it were read, the rest
// is lost. An error, as in tshark, unless the caller asked to keep the frames
// before the damage (IngestOptions::keep_damaged).
class DamagedCaptureError : public CaptureError {
 public:
  DamagedCaptureError(const std::string& warning, uint64_t framesBefore)
      : CaptureError(warning), frames_before(framesBefore) {}
  uint64_t frames_before;
};

// `frames` is how many frames were read in all.
std::vector<std::string> captureWarnings(const std::string& path, const CaptureReader& reader,
                                         const Decoder& decoder, uint64_t frames);

// Throws DamagedCaptureError for a damaged capture unless `keepDamaged`.
void checkDamage(const CaptureReader& reader, uint64_t frames, bool keepDamaged);

}  // namespace rudp
