// A connection's timeline as one self-contained SVG (no Qt): per direction
// the RTT samples with SRTT, RTO and limit lines, retransmission marks by
// kind, loss marks and shaded stalls, on a time axis in seconds since the
// capture start, with a legend. Its size is bounded: RTT points are
// decimated to the pixel columns; stalls and retransmissions are all drawn.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "store/records.h"

namespace rudp {
class StoreReader;
}

namespace rudp::report {

struct TimelineOptions {
  double width = 960;            // user units (pixels at 100 %)
  std::string id_prefix = "tl";  // makes clip ids unique when several SVGs share a page
};

std::string connectionTimelineSvg(StoreReader& reader, const ConnectionRecord& conn, int64_t captureStartNs,
                                  const std::vector<double>& rttLimitsMs,
                                  const TimelineOptions& options = {});

}  // namespace rudp::report
