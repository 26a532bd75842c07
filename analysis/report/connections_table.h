// The report's table of every connection: the connection's facts once, then
// one row per direction with its figures.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <set>
#include <vector>

#include "store/records.h"

namespace rudp {
class StoreReader;
}

namespace rudp::report {

// Streams the table connection by connection (memory independent of the
// count). Connections in `withTimeline` link to their timeline figure.
void writeConnectionsTable(StoreReader& reader, std::ostream& out, const std::vector<double>& rttLimitsMs,
                           const std::set<int64_t>& withTimeline);

}  // namespace rudp::report
