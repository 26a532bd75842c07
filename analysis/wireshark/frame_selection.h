// Which frames of a capture to hand to Wireshark: frame numbers given as
// text ("1-10,15"), or the frames of a connection from the capture's
// database.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "store/records.h"

namespace rudp {
class StoreReader;
}

namespace rudp::wireshark {

// Sorted, without duplicates. Throws Error on text that is not a list of
// frame numbers and ranges ("A-B", A <= B, numbers from 1).
std::vector<uint64_t> parseFrameList(const std::string& text);

// The frames of `conn` (both directions) within `range`, in frame order.
std::vector<uint64_t> connectionFrames(StoreReader& reader, int64_t conn, TimeRange range = {});

// Position (1-based) of `frame` among `frames` as written out: the number
// Wireshark gives it in the new file; 0 when it is not among them.
uint64_t renumbered(const std::vector<uint64_t>& frames, uint64_t frame);

}  // namespace rudp::wireshark
