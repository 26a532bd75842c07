#include "packets/frame_reader.h"

#include "core/error.h"

namespace rudp {

FrameReader::FrameReader(const std::string& capture)
    : path_(capture), reader_(CaptureReader::open(capture)) {}

FrameReader::~FrameReader() = default;

void FrameReader::reopen() {
  reader_ = CaptureReader::open(path_);
  have_ = false;
}

void FrameReader::notThere(uint64_t frame, uint64_t file_offset) const {
  throw CaptureError("'" + path_ + "' has no frame " + std::to_string(frame) + " at offset " +
                     std::to_string(file_offset) +
                     " any more: the file changed since it was analysed (analyse it again)");
}

const RawPacket& FrameReader::read(uint64_t frame, uint64_t file_offset) {
  if (have_ && current_.frame == frame && current_.file_offset == file_offset) return current_;
  if (seeks_ && reader_->seekTo(file_offset, frame)) {
    have_ = reader_->next(current_);
    if (have_ && current_.file_offset == file_offset) return current_;
    // Not there: a pcapng block of an interface described later in the
    // file, or a changed file. Reading forward tells which.
    have_ = false;
  } else {
    seeks_ = false;
  }
  if (!have_ || current_.frame >= frame) reopen();
  while (!have_ || current_.frame < frame) {
    have_ = reader_->next(current_);
    if (!have_) notThere(frame, file_offset);
  }
  if (current_.frame != frame || current_.file_offset != file_offset) notThere(frame, file_offset);
  return current_;
}

}  // namespace rudp
