// The conversation items of one frame of a capture, which Wireshark works
// out from every frame before it in its one pass: TCP's stream, times and
// SEQ/ACK analysis (TcpFrameDetails) and the streams of its UDP headers
// (FrameUdpStreams). The Packets page reads its rows alone, so these come
// from here: the capture read and decoded from its start up to the frame,
// or on from the frame asked for last when this one comes later (stepping
// down the list costs a frame or two). Not thread-safe: one caller at a time.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "flow/tcp_notes.h"
#include "flow/udp_streams.h"

namespace rudp {

class CaptureReader;
class Decoder;

struct ConversationFacts {
  uint64_t frame = 0;
  std::optional<TcpFrameDetails> tcp;  // a TCP frame's
  FrameUdpStreams udp;
};

class ConversationReplay {
 public:
  explicit ConversationReplay(std::string capture);
  ~ConversationReplay();
  ConversationReplay(const ConversationReplay&) = delete;
  ConversationReplay& operator=(const ConversationReplay&) = delete;

  // Frame `frame`'s items (frames count from 1). `keepGoing(fraction)`, the
  // share of the frames up to it read, is asked every few thousand frames; false stops: then nullopt, and the
  // next call goes on from where this one stopped. Throws CaptureError
  // when the capture cannot be read or ends before the frame.
  std::optional<ConversationFacts> factsOf(uint64_t frame, const std::function<bool(double)>& keepGoing);

 private:
  void restart();
  std::string capture_;
  std::unique_ptr<CaptureReader> reader_;
  std::unique_ptr<Decoder> decoder_;
  std::unique_ptr<TcpNotesByPair> tcp_;
  UdpStreams udp_;
  uint64_t read_ = 0;  // frames read so far
  ConversationFacts last_;
};

}  // namespace rudp
