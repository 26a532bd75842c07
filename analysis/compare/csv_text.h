// How numbers and texts are written into CSV (RFC 4180): the one field
// writer of the CLI's and the GUI's exports (the GUI's tables too).
#pragma once
#include <string>

namespace rudp::cmp {

// Shortest text that reads back as the same double; empty for kNone.
std::string exactNumber(double v);
// `s` as one CSV field: quoted (quotes doubled) when it holds , " CR or LF.
std::string csvField(const std::string& s);

}  // namespace rudp::cmp
