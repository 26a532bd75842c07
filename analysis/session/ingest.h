// The analysis pipeline: read -> decode -> dissect -> flows -> store.
#pragma once
#include <string>

#include "core/progress.h"
#include "lua/host.h"
#include "store/store_writer.h"

namespace rudp {

struct IngestResult {
  std::string db_path;
  CaptureInfo capture;
  size_t connections = 0;
};

// Analyses `capturePath` into the database at `dbPath`, replacing an earlier
// result only when this one is complete. `host` must have finished loading.
// Throws CaptureError / StoreError / Cancelled; a capture cut off mid-packet
// is not an error (capture.truncated, capture.warning).
IngestResult ingestCapture(const std::string& capturePath, const std::string& dbPath,
                           LuaHost& host, const ProgressSink& progress = {});

}  // namespace rudp
