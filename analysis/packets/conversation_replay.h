// The conversation items of one frame of a capture, which Wireshark works
// out from every frame before it in its one pass: TCP's stream, times and
// SEQ/ACK analysis (TcpFrameDetails) and the streams of its UDP headers
// (FrameUdpStreams). The Packets page reads its rows alone, so these come
// from here: the capture read and decoded up to the frame, on from the frame
// asked for last when this one comes later (stepping down the list costs a
// frame or two), else from the nearest checkpoint before it: the decoder's
// and the trackers' state, kept every `checkpointEvery` frames on the way
// (at most kMaxCheckpoints; when full, every other one goes and the spacing
// doubles), so stepping up the list does not read from the first frame
// again. A file the reader cannot seek in (gzip, zstd) keeps none and reads
// from its start. Each checkpoint copies the trackers, whose conversations
// are never forgotten: memory grows with the capture's conversations.
// Not thread-safe: one caller at a time.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "flow/conversation_tracker.h"

namespace rudp {

class CaptureReader;
class Decoder;

struct ConversationFacts {
  uint64_t frame = 0;
  std::optional<TcpFrameDetails> tcp;  // a TCP frame's
  FrameUdpStreams udp;
  std::optional<EchoRequest> echo_request;  // an ICMP echo reply's
};

class ConversationReplay {
 public:
  static constexpr uint64_t kCheckpointEvery = 65536;
  static constexpr size_t kMaxCheckpoints = 16;
  explicit ConversationReplay(std::string capture, uint64_t checkpointEvery = kCheckpointEvery);
  ~ConversationReplay();
  ConversationReplay(const ConversationReplay&) = delete;
  ConversationReplay& operator=(const ConversationReplay&) = delete;

  // Frame `frame`'s items (frames count from 1). `keepGoing(fraction)`, the
  // share of the frames up to it read, is asked every few thousand frames; false stops: then nullopt, and the
  // next call goes on from where this one stopped. Throws CaptureError
  // when the capture cannot be read or ends before the frame.
  std::optional<ConversationFacts> factsOf(uint64_t frame, const std::function<bool(double)>& keepGoing);

  // Frames read since construction (what the checkpoints save).
  uint64_t framesRead() const { return frames_read_; }

 private:
  struct Checkpoint;
  void restart();
  // Back to the last checkpoint at or before `frame`; false: none usable.
  bool resume(uint64_t frame);
  void keepCheckpoint(uint64_t fileOffset);
  std::string capture_;
  uint64_t checkpoint_every_;
  bool seekable_ = true;  // false once the reader could not seek (gzip, zstd): no checkpoints kept
  std::vector<Checkpoint> checkpoints_;  // by frame
  uint64_t frames_read_ = 0;
  std::unique_ptr<CaptureReader> reader_;
  std::unique_ptr<Decoder> decoder_;
  ConversationTracker tracker_;
  uint64_t read_ = 0;  // frames read so far
};

}  // namespace rudp
