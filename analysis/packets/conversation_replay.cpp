#include "packets/conversation_replay.h"

#include <algorithm>
#include <utility>

#include "capture/capture_reader.h"
#include "core/error.h"
#include "decode/decoder.h"

namespace rudp {

struct ConversationReplay::Checkpoint {
  uint64_t frame, file_offset;
  std::unique_ptr<Decoder> decoder;
  ConversationTracker tracker;  // its last() is the frame's
};

ConversationReplay::ConversationReplay(std::string capture, uint64_t checkpointEvery)
    : capture_(std::move(capture)), checkpoint_every_(std::max<uint64_t>(checkpointEvery, 1)) {}

ConversationReplay::~ConversationReplay() = default;

void ConversationReplay::restart() {
  reader_ = CaptureReader::open(capture_);
  decoder_ = std::make_unique<Decoder>(reader_->linkType());
  tracker_ = ConversationTracker();
  read_ = 0;
}

bool ConversationReplay::resume(uint64_t frame) {
  auto it = std::upper_bound(checkpoints_.begin(), checkpoints_.end(), frame,
                             [](uint64_t f, const Checkpoint& c) { return f < c.frame; });
  if (it == checkpoints_.begin()) return false;
  const Checkpoint& c = *--it;
  if (!reader_) reader_ = CaptureReader::open(capture_);
  RawPacket raw;
  // The reader stands before the checkpoint's frame, already counted.
  try {
    if (!reader_->seekTo(c.file_offset, c.frame)) {
      seekable_ = false;  // a compressed file: no checkpoint will ever serve
      checkpoints_.clear();
      return false;
    }
    if (!reader_->next(raw) || raw.file_offset != c.file_offset) {
      reader_.reset();  // somewhere else now: start again
      return false;
    }
  } catch (...) {
    reader_.reset();
    throw;
  }
  decoder_ = c.decoder->clone();
  tracker_ = c.tracker;
  read_ = c.frame;
  return true;
}

void ConversationReplay::keepCheckpoint(uint64_t fileOffset) {
  if (!seekable_ || read_ % checkpoint_every_ != 0 ||
      (!checkpoints_.empty() && checkpoints_.back().frame >= read_))
    return;
  if (checkpoints_.size() == kMaxCheckpoints) {
    checkpoint_every_ *= 2;
    std::erase_if(checkpoints_, [&](const Checkpoint& c) { return c.frame % checkpoint_every_ != 0; });
    if (read_ % checkpoint_every_ != 0) return;
  }
  checkpoints_.push_back({read_, fileOffset, decoder_->clone(), tracker_});
}

std::optional<ConversationFacts> ConversationReplay::factsOf(uint64_t frame,
                                                             const std::function<bool(double)>& keepGoing) {
  if (frame == 0) throw CaptureError("no frame 0: frames count from 1");
  if ((!reader_ || frame < read_) && !resume(frame)) restart();
  RawPacket raw;
  DecodedPacket pkt;
  while (read_ < frame) {
    if (read_ % 4096 == 0 && !keepGoing(double(read_) / double(frame))) return std::nullopt;
    bool more = false;
    try {
      more = reader_->next(raw);
    } catch (...) {
      reader_.reset();  // the next call starts again
      throw;
    }
    if (!more) {
      reader_.reset();
      throw CaptureError("the capture ends at frame " + std::to_string(read_) + ", before frame " +
                         std::to_string(frame) + ": it changed since it was analysed");
    }
    ++read_;
    ++frames_read_;
    decoder_->decode(raw, pkt);
    tracker_.next(pkt);
    keepCheckpoint(raw.file_offset);
  }
  const ConversationFrame& c = tracker_.last();  // frame `read_`'s
  return ConversationFacts{read_, c.tcp, c.udp, c.echo_request};
}

}  // namespace rudp
