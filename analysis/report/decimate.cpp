#include "report/decimate.h"

#include <algorithm>
#include <cmath>

namespace rudp::report {

namespace {

// Appends the kept points of one column [begin, end), in their order.
void keepColumn(const std::vector<Point>& pts, size_t begin, size_t end, bool endpoints,
                std::vector<Point>& out) {
  size_t lo = begin, hi = begin;
  for (size_t i = begin; i < end; ++i) {
    if (pts[i].y < pts[lo].y) lo = i;
    if (pts[i].y > pts[hi].y) hi = i;
  }
  std::vector<size_t> keep{lo, hi};
  if (endpoints) keep.insert(keep.end(), {begin, end - 1});
  std::sort(keep.begin(), keep.end());
  keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
  for (size_t i : keep) out.push_back(pts[i]);
}

}  // namespace

std::vector<Point> minMaxPerColumn(const std::vector<Point>& points, bool endpoints) {
  std::vector<Point> out;
  size_t begin = 0;
  while (begin < points.size()) {
    const double column = std::floor(points[begin].x);
    size_t end = begin + 1;
    while (end < points.size() && std::floor(points[end].x) == column) ++end;
    keepColumn(points, begin, end, endpoints, out);
    begin = end;
  }
  return out;
}

}  // namespace rudp::report
