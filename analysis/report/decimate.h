// Decimation for plots: cost follows pixels, not points. Of the points that
// fall in one pixel column only the first, the lowest, the highest and the
// last are kept, which draws the same picture as all of them.
#pragma once
#include <vector>

#include "report/svg_writer.h"

namespace rudp::report {

// `points` in pixels, sorted by x. Returns the kept points in their order.
// With `endpoints` false only the lowest and highest of a column are kept
// (scatter plots); with true also its first and last (lines).
std::vector<Point> minMaxPerColumn(const std::vector<Point>& points, bool endpoints);

}  // namespace rudp::report
