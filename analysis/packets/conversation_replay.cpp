#include "packets/conversation_replay.h"

#include <algorithm>
#include <utility>

#include "capture/capture_reader.h"
#include "core/error.h"
#include "decode/decoder.h"

namespace rudp {

ConversationReplay::ConversationReplay(std::string capture) : capture_(std::move(capture)) {}

ConversationReplay::~ConversationReplay() = default;

void ConversationReplay::restart() {
  reader_ = CaptureReader::open(capture_);
  decoder_ = std::make_unique<Decoder>(reader_->linkType());
  tcp_ = std::make_unique<TcpNotesByPair>(true);
  udp_ = UdpStreams();
  read_ = 0;
  last_ = {};
}

std::optional<ConversationFacts> ConversationReplay::factsOf(uint64_t frame,
                                                             const std::function<bool(double)>& keepGoing) {
  if (frame == 0) throw CaptureError("no frame 0: frames count from 1");
  if (!reader_ || frame < read_ || (frame == read_ && last_.frame != frame)) restart();
  if (frame == read_) return last_;
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
    decoder_->decode(raw, pkt);
    tcp_->packet(pkt);
    last_.frame = read_;
    last_.tcp = tcp_->lastDetails().known ? std::optional(tcp_->lastDetails()) : std::nullopt;
    last_.udp = udp_.next(pkt);
  }
  return last_;
}

}  // namespace rudp
