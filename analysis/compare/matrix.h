// The matrix of a capture set: one metric against one numeric label, one
// line per group, one panel per value of a third label, one point per
// capture (its busiest connection in the chosen direction).
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "compare/comparison.h"

namespace rudp::cmp {

struct MatrixRequest {
  std::string metric = "share_over_300";
  std::string x = "loss";       // numeric label on the x axis
  std::string group = "stack";  // one line per value ("" = one line)
  std::string panel = "delay";  // one panel per value ("" = one panel)
  Direction dir = Direction::ClientToServer;
};

struct MatrixPoint {
  double x = 0, y = 0;  // y is kNone when the capture cannot tell
  std::string capture;
  int64_t conn = 0;
};

struct MatrixLine {
  std::string group;
  std::vector<MatrixPoint> points;  // by x
};

struct MatrixPanel {
  std::string panel;
  std::vector<MatrixLine> lines;  // by group
};

struct Matrix {
  MatrixRequest request;
  std::vector<MatrixPanel> panels;  // by panel value (numeric order when numeric)
  // Captures left out, with why ("game.pcap: no label 'loss'").
  std::vector<std::string> skipped;
};

// The busiest connection of a capture: most data packets in `dir`, then most packets.
const DirectionComparison* busiest(const std::vector<DirectionComparison>& rows, const std::string& capture,
                                   Direction dir);

// Throws CompareError for an unknown metric.
Matrix buildMatrix(const std::vector<DirectionComparison>& rows, const MatrixRequest& request);

// One line per point: panel, group, x, y, capture, conn (a header first).
void writeMatrixCsv(std::ostream& out, const Matrix& matrix);

}  // namespace rudp::cmp
