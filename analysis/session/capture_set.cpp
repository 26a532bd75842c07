#include "session/capture_set.h"

#include "core/text_lines.h"

#include "compare/labels.h"
#include "session/reuse.h"
#include "store/db_path.h"
#include "store/store_reader.h"

namespace rudp::cmp {

AnalysedCapture ensureAnalysed(const std::string& capture, const DissectorOptions& dissectors,
                               const IngestOptions& options, const ProgressSink& progress) {
  AnalysedCapture out;
  out.capture = capture;
  out.db = defaultDatabasePath(capture);
  if (whyNotReusable(capture, out.db, dissectors, options).empty()) {
    out.reused = true;
    return out;
  }
  const IngestResult r = ingestCapture(capture, out.db, dissectors, options, progress);
  out.db = r.db_path;
  for (const std::string& line : splitLines(r.capture.warning)) out.warnings.push_back(capture + ": " + line);
  if (r.closed_early)
    out.warnings.push_back(capture + ": " + std::to_string(r.closed_early) +
                           " connections closed early by the open-connection limit");
  return out;
}

std::vector<DirectionComparison> compareCaptures(const std::vector<std::string>& captures,
                                                 const Labels& overrides, const DissectorOptions& dissectors,
                                                 const IngestOptions& options,
                                                 std::vector<AnalysedCapture>* analysed,
                                                 const ProgressSink& progress) {
  std::vector<DirectionComparison> rows;
  for (const auto& capture : captures) {
    const Labels labels = captureLabels(capture, overrides);
    AnalysedCapture a = ensureAnalysed(capture, dissectors, options, progress);
    StoreReader db(a.db);
    auto more = compareConnections(db, capture, labels);
    rows.insert(rows.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    if (analysed) analysed->push_back(std::move(a));
  }
  return rows;
}

}  // namespace rudp::cmp
