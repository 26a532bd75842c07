#include "store/frame_index.h"

#include <utility>

namespace rudp::store {

namespace {
void appendVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}
uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
}  // namespace

void FrameIndexEncoder::add(uint64_t frame, int64_t tsNs, uint32_t wireLength, uint32_t capturedLength) {
  if (count_ == 0) {
    first_frame_ = frame;
    previous_frame_ = 0;
    previous_ts_ = 0;
  }
  appendVarint(bytes_, frame - previous_frame_);
  // Wrapping subtraction: the zigzag of the true difference for any two times.
  appendVarint(bytes_, zigzag(static_cast<int64_t>(static_cast<uint64_t>(tsNs) -
                                                   static_cast<uint64_t>(previous_ts_))));
  appendVarint(bytes_, wireLength);
  appendVarint(bytes_, zigzag(int64_t{capturedLength} - int64_t{wireLength}));
  previous_frame_ = frame;
  previous_ts_ = tsNs;
  ++count_;
}

std::string FrameIndexEncoder::take() {
  count_ = 0;
  return std::exchange(bytes_, {});
}

}  // namespace rudp::store
