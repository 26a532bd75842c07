// How `rudpscope-cli compare` and `lab` print a comparison: the side-by-side
// table (one column per compared connection direction, one row per metric),
// the matrix, and both as CSV and JSON.
#pragma once
#include <iosfwd>
#include <vector>

#include <nlohmann/json.hpp>

#include "compare/matrix.h"
#include "session/capture_set.h"

namespace rudp::cli {

// The busiest connection of every capture in `dir` (matrix order of captures).
std::vector<const cmp::DirectionComparison*> comparedColumns(
    const std::vector<cmp::DirectionComparison>& rows, Direction dir);

void printComparisonTable(std::ostream& out, const std::vector<const cmp::DirectionComparison*>& columns);
void printMatrix(std::ostream& out, const cmp::Matrix& matrix);

// One line per connection direction: capture, labels (one column per key), identity, every metric.
void writeComparisonCsv(std::ostream& out, const std::vector<cmp::DirectionComparison>& rows);

nlohmann::json comparisonJson(const std::vector<cmp::DirectionComparison>& rows);
nlohmann::json matrixJson(const cmp::Matrix& matrix);
nlohmann::json analysedJson(const std::vector<cmp::AnalysedCapture>& analysed);

}  // namespace rudp::cli
