// Checking a BPF capture filter without capturing (no permission needed), so
// a bad filter is reported before a capture starts and as the user types.
#pragma once
#include <string>

namespace rudp {

// Empty when `filter` compiles for the link type `dlt` (DLT_EN10MB when not
// given); otherwise one line naming the filter and libpcap's reason.
std::string captureFilterError(const std::string& filter, int dlt = 1);

}  // namespace rudp
