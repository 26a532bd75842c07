// The comparison as one self-contained HTML page (inline CSS and SVG, no
// scripts), the same style as `rudpscope-cli report`: the captures and their
// labels, the side-by-side table, loss-burst distributions and the matrix.
// `rudpscope-cli compare --html` and the GUI's Compare page write it.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "compare/matrix.h"

namespace rudp::cmp {

struct ComparisonReport {
  std::vector<const DirectionComparison*> columns;  // the side-by-side table's columns
  const Matrix* matrix = nullptr;                   // none: no matrix section
  std::string generator = "rudpscope";
};

void writeComparisonReport(const ComparisonReport& report, std::ostream& out);
// Through a temporary file (report/page_file.h); throws rudp::Error.
void writeComparisonReportFile(const ComparisonReport& report, const std::string& path);

}  // namespace rudp::cmp
