// The analysis pipeline: read -> decode -> dissect -> flows -> store.
#pragma once
#include <string>

#include "analyzers/events.h"
#include "capture/live_capture.h"
#include "core/progress.h"
#include "lua/dissector_files.h"
#include "store/store_writer.h"

namespace rudp {

class LiveView;

struct IngestOptions {
  // Lua states dissecting in parallel (flows partitioned between them);
  // 0 = one per core. 1 = everything on the calling thread.
  unsigned dissector_lanes = 0;
  // Write SQLite from a second thread, overlapping with dissection.
  bool threaded_store = true;
  // Connections and their analysis on a thread of their own, overlapping
  // with dissection (never for a live capture).
  bool threaded_flows = true;
  ana::AnalyzerConfig analysis;  // stall threshold, RTT limits
  // Off: connections and the packet index only (benchmarks measure what the
  // analyzers add to ingest this way).
  bool analyze_connections = true;
  // Memory bounds (see analysis/README.md, "Resource limits"): a connection
  // silent this long in capture time is closed (later packets on its key
  // start a new connection) ...
  int64_t idle_close_ns = 120'000'000'000;
  // ... and past this many open connections the longest-silent quarter is
  // closed early.
  size_t max_open_connections = 20000;
  // A capture with a damaged record is an error (DamagedCaptureError, nothing
  // stored) unless this is set: then the frames before the damage are
  // analysed and CaptureInfo::warning says what was lost.
  bool keep_damaged = false;
  // A display filter (tshark's -Y): only the frames it passes are analysed
  // and stored; the others are counted in IngestResult::filtered_out. A bad
  // one throws FilterError before any frame.
  std::string display_filter;
};

struct IngestResult {
  std::string db_path;
  CaptureInfo capture;
  size_t connections = 0;     // every connection the capture held
  size_t closed_early = 0;    // closed by the open-connection cap, not by silence
  uint64_t filtered_out = 0;  // frames the display filter left out
};

// Analyses `capturePath` into the database at `dbPath`, replacing an earlier
// result only when this one is complete. Synchronous: returns when done;
// helper threads it uses internally are joined before it returns, and
// `progress` is called on the calling thread. Throws CaptureError
// (DamagedCaptureError, see keep_damaged), DissectorError, StoreError or
// Cancelled; a capture cut off mid-packet is not an error (capture.truncated),
// and capture.warning has a line for that and for each link type not decoded.
IngestResult ingestCapture(const std::string& capturePath, const std::string& dbPath,
                           const DissectorOptions& dissectors, const IngestOptions& options = {},
                           const ProgressSink& progress = {});

// Analyses a live capture as packets arrive, until it stops (LiveOptions::stop,
// its duration, or the interface going away). Then it completes the capture's
// file and the database: the same rows ingestCapture of that file writes,
// plus the capture's settings and drop counters (StoreReader::liveCapture).
// With a ring buffer (LiveOptions::ring_files) each file gets its own
// database, beside it (`dbPath` must be empty), and the result is the last
// file's; the ring's dropped files lose their database too.
// `progress` is called at least every 100 ms while packets flow, with
// Progress::total 0; so is `view`'s publish(), and its finish() once the
// database is complete.
IngestResult ingestLive(LiveCapture& capture, const std::string& dbPath, const DissectorOptions& dissectors,
                        const IngestOptions& options = {}, const ProgressSink& progress = {},
                        LiveView* view = nullptr);

}  // namespace rudp
