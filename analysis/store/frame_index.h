// Every frame's number, lengths and time, packed kFramesPerIndexRow frames to
// a row of frame_index: a display filter over those columns reads this
// narrow copy (about 7 bytes a frame) instead of scanning the packets table
// (about 77 bytes a frame), which on 10 million frames is the difference
// between well under a second and several.
//
// Each frame is four varints: its number and time as differences from the
// previous frame's (the time zigzagged, as captures may go back in time;
// the first frame's differences are from 0), its wire length, and its
// captured length zigzagged as a difference from the wire length.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "store/frame_condition.h"

namespace rudp::store {

inline constexpr size_t kFramesPerIndexRow = 4096;

class FrameIndexEncoder {
 public:
  void add(uint64_t frame, int64_t tsNs, uint32_t wireLength, uint32_t capturedLength);
  size_t count() const { return count_; }
  uint64_t firstFrame() const { return first_frame_; }
  // The packed frames so far; the encoder starts a new row.
  std::string take();

 private:
  std::string bytes_;
  size_t count_ = 0;
  uint64_t first_frame_ = 0, previous_frame_ = 0;
  int64_t previous_ts_ = 0;
};

namespace detail {
// Reads one varint at `p`; false when the bytes end inside it.
inline bool readVarint(const unsigned char*& p, const unsigned char* end, uint64_t& out) {
  out = 0;
  for (int shift = 0; p < end && shift < 64; shift += 7) {
    const unsigned char byte = *p++;
    out |= uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return true;
  }
  return false;
}
inline int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }
}  // namespace detail

// Unpacks one row of `count` frames, calling f(const FrameColumns&) for each;
// false when the bytes end early or run on (a damaged row).
template <class F>
bool forEachIndexedFrame(std::string_view bytes, size_t count, F&& f) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const unsigned char* end = p + bytes.size();
  FrameColumns columns{0, 0, 0, 0};
  constexpr auto kFrame = size_t(FrameCondition::Column::Frame);
  constexpr auto kWire = size_t(FrameCondition::Column::WireLength);
  constexpr auto kCaptured = size_t(FrameCondition::Column::CapturedLength);
  constexpr auto kTime = size_t(FrameCondition::Column::TimeNs);
  for (size_t i = 0; i < count; ++i) {
    uint64_t frameStep, timeStep, wire, capturedDiff;
    if (!detail::readVarint(p, end, frameStep) || !detail::readVarint(p, end, timeStep) ||
        !detail::readVarint(p, end, wire) || !detail::readVarint(p, end, capturedDiff))
      return false;
    columns[kFrame] += static_cast<int64_t>(frameStep);
    columns[kTime] = static_cast<int64_t>(static_cast<uint64_t>(columns[kTime]) +
                                          static_cast<uint64_t>(detail::unzigzag(timeStep)));
    columns[kWire] = static_cast<int64_t>(wire);
    columns[kCaptured] = columns[kWire] + detail::unzigzag(capturedDiff);
    f(static_cast<const FrameColumns&>(columns));
  }
  return p == end;
}

}  // namespace rudp::store
