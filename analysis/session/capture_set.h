// Analysing the captures of a comparison: each capture's database is reused
// when it is a complete analysis with the same settings (session/reuse.h),
// otherwise the capture is analysed as `analyze` does, into its default
// database path.
#pragma once
#include <string>
#include <vector>

#include "compare/comparison.h"
#include "core/progress.h"
#include "lua/dissector_files.h"
#include "session/ingest.h"

namespace rudp::cmp {

struct AnalysedCapture {
  std::string capture, db;
  bool reused = false;
  std::vector<std::string> warnings;  // one line each (cut-off capture, ...)
};

// Throws what ingestCapture throws (CaptureError, Cancelled, ...).
AnalysedCapture ensureAnalysed(const std::string& capture, const DissectorOptions& dissectors,
                               const IngestOptions& options, const ProgressSink& progress = {});

// Every capture of the set, analysed or reused, with its labels
// (captureLabels(capture, overrides)).
std::vector<DirectionComparison> compareCaptures(const std::vector<std::string>& captures,
                                                 const Labels& overrides, const DissectorOptions& dissectors,
                                                 const IngestOptions& options,
                                                 std::vector<AnalysedCapture>* analysed = nullptr,
                                                 const ProgressSink& progress = {});

}  // namespace rudp::cmp
