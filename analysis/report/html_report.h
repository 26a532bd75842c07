// The HTML report of a database: one self-contained page (inline CSS and
// SVG, no scripts, no external resources; prints well) to attach to a bug
// ticket: capture facts, the problems worst first, a connections table and
// timelines of the worst connections. `rudpscope-cli report` and the GUI's
// File > Export report both write it with these functions.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "report/problems.h"

namespace rudp::report {

struct HtmlReportOptions {
  size_t top_connections = 3;           // timelines for the worst N connections
  size_t max_problems = 200;            // listed in full; the rest are counted
  std::string generator = "rudpscope";  // named in the footer, e.g. "rudpscope-cli 0.1.0"
  double timeline_width = 960;
};

// The connections to draw: those with the worst problems first (by their
// worst problem's severity, then the sum of their severities), then the rest
// by packet count, at most `n`.
std::vector<int64_t> worstConnections(StoreReader& reader, const std::vector<Problem>& problems, size_t n);

// `problems` as findProblems(reader) returned them (the GUI has them already).
void writeHtmlReport(StoreReader& reader, const std::vector<Problem>& problems, std::ostream& out,
                     const HtmlReportOptions& options = {});
void writeHtmlReport(StoreReader& reader, std::ostream& out, const HtmlReportOptions& options = {});

// Writes the page to `path` through a temporary file beside it, so a failed
// run leaves no half page; throws rudp::Error with a one-line reason.
void writeHtmlReportFile(StoreReader& reader, const std::vector<Problem>& problems, const std::string& path,
                         const HtmlReportOptions& options = {});
void writeHtmlReportFile(StoreReader& reader, const std::string& path, const HtmlReportOptions& options = {});

}  // namespace rudp::report
