// Whether a capture's existing database can stand for analysing it now, so
// the GUI and `rudpscope-cli report` open it at once instead of re-analysing.
#pragma once
#include <string>

#include "lua/dissector_files.h"
#include "session/ingest.h"

namespace rudp {

// Empty when `dbPath` is a complete database of this capture's content (same
// size and content hash) made with the same analysis settings (stall
// threshold, RTT limits, analysis on) and the same dissectors (file names,
// contents and preferences); otherwise why not, in a few words.
std::string whyNotReusable(const std::string& capturePath, const std::string& dbPath,
                           const DissectorOptions& dissectors, const IngestOptions& options);

}  // namespace rudp
