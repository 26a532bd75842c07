// What `rudpscope-cli lab` writes and prints: each cell's result (a JSON
// file beside its capture and one line on stdout) and, at the end, the
// capture set's comparison and matrix with the compare command's writers.
#pragma once
#include <string>
#include <vector>

#include "cli/lab_cell.h"
#include "cli/lab_checks.h"
#include "compare/matrix.h"
#include "lua/dissector_files.h"

namespace rudp::cli {

struct LabCellOutcome {
  LabCell cell;
  LabCellFiles files;
  enum class State { Passed, Failed, Skipped } state = State::Failed;
  std::string why;  // a skip's or a failed run's reason
  LabCheckResult check;
  bool captured = false;  // the capture exists and was analysed: it joins the matrix
};

// Writes NAME.json (cell, labels, counters, checks, figures) and the sidecar.
void writeLabCellResult(const LabCellOutcome& outcome, const nlohmann::json& counters, double seconds);

// "tcp-cubic loss 5%  delay 50 ms  PASS  path rtt 100.06 ms (asked 2x50)  ..." and,
// for a failure, one indented line per failed check.
void printLabCellLine(const LabCellOutcome& outcome);

// matrix.csv / matrix.json (`request`), comparison.csv / comparison.json
// (every connection direction with every metric) in `outputDir`, the
// captures analysed (or their analyses reused) with `dissectors`.
// Returns the matrix written.
cmp::Matrix writeLabMatrix(const std::string& outputDir, const std::vector<std::string>& captures,
                           const cmp::MatrixRequest& request, const DissectorOptions& dissectors);

}  // namespace rudp::cli
