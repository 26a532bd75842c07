// `analyze`'s human-readable summary: one line per connection, one per
// direction, printed from the typed store records.
#pragma once
#include <string>
#include <vector>

#include "store/records.h"

namespace rudp::cli {

void printTableHeader(const CaptureInfo& c, const std::string& dbPath);
// The live capture's line under the header: interface, filter and drops.
void printLiveCapture(const LiveCaptureRecord& x);
// `limits`: AnalysisSettings::rtt_limits_ms (the ">300ms" column needs 300).
void printTableRows(const ConnectionRecord& r, const std::vector<double>& limits);
void printTableFooter();

}  // namespace rudp::cli
