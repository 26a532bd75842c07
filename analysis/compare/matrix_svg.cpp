#include "compare/matrix_svg.h"

#include <algorithm>
#include <cmath>

#include "compare/metric_list.h"
#include "report/plot_scale.h"
#include "report/svg_writer.h"

namespace rudp::cmp {
namespace {

using report::PlotScale;
using report::SvgWriter;

constexpr double kLeft = 56, kRight = 16, kTop = 28, kBottom = 44, kGap = 24, kLegend = 24;
constexpr int kTicks = 6;

struct Range {
  double lo = 0, hi = 0;
  bool any = false;
  void add(double v) {
    if (std::isnan(v)) return;
    lo = any ? std::min(lo, v) : v;
    hi = any ? std::max(hi, v) : v;
    any = true;
  }
};

// Shared axes, so panels compare at a glance; y starts at 0 for counts and shares.
std::pair<Range, Range> ranges(const Matrix& m) {
  Range x, y;
  y.add(0);
  for (const auto& p : m.panels)
    for (const auto& l : p.lines)
      for (const auto& pt : l.points) x.add(pt.x), y.add(pt.y);
  if (y.hi == 0) y.hi = 1;
  return {x, y};
}

std::vector<std::string> groups(const Matrix& m) {
  std::vector<std::string> out;
  for (const auto& p : m.panels)
    for (const auto& l : p.lines)
      if (std::find(out.begin(), out.end(), l.group) == out.end()) out.push_back(l.group);
  return out;
}

void drawAxes(SvgWriter& svg, const PlotScale& x, const PlotScale& y, double left, double width, double top,
              double height, const std::string& xName) {
  svg.rect(left, top, width, height, {"#ffffff", "#bbbbbb", 1});
  for (double v : y.ticks(kTicks)) {
    svg.line(left, y.px(v), left + width, y.px(v), {"none", "#eeeeee", 1});
    svg.text(left - 4, y.px(v) + 3, y.tickLabel(v, kTicks), {10, "#444", "end", "ytick"});
  }
  for (double v : x.ticks(kTicks)) {
    svg.line(x.px(v), top + height, x.px(v), top + height + 4, {"none", "#444", 1});
    svg.text(x.px(v), top + height + 15, x.tickLabel(v, kTicks), {10, "#444", "middle", "xtick"});
  }
  svg.text(left + width / 2, top + height + 32, xName, {10, "#444", "middle", "axis-label"});
}

void drawLine(SvgWriter& svg, const MatrixLine& line, const PlotScale& x, const PlotScale& y,
              const char* colour) {
  std::vector<report::Point> points;
  for (const auto& pt : line.points)
    if (!std::isnan(pt.y)) points.push_back({x.px(pt.x), y.px(pt.y)});
  svg.polyline(points, {"none", colour, 2});
  for (const auto& pt : line.points) {
    if (std::isnan(pt.y)) continue;
    svg.circle(x.px(pt.x), y.px(pt.y), 4, {colour, "#ffffff", 1}, "point", pt.capture);
  }
}

}  // namespace

const char* groupColour(size_t i) {
  // Okabe and Ito's palette: told apart with the common colour-vision deficiencies.
  static constexpr const char* kColours[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                             "#e69f00", "#56b4e9", "#000000", "#f0e442"};
  return kColours[i % (sizeof kColours / sizeof kColours[0])];
}

std::string matrixSvg(const Matrix& m, double width, double panelHeight) {
  const MetricInfo info = metric(m.request.metric);
  const size_t panels = std::max<size_t>(m.panels.size(), 1);
  const double height = kTop + panelHeight + kBottom + kLegend;
  SvgWriter svg(width, height, info.title + " against " + m.request.x);
  svg.setRootAttributes("class=\"matrix\"");
  svg.rect(0, 0, width, height, {"#ffffff"});
  const auto [xr, yr] = ranges(m);
  const double panelWidth = (width - kLeft - kRight - kGap * double(panels - 1)) / double(panels);
  const std::vector<std::string> names = groups(m);
  const std::string yName = info.title + (info.unit.empty() ? "" : " (" + info.unit + ")");
  svg.text(4, 14, yName, {11, "#222", "start", "metric", true});
  for (size_t i = 0; i < m.panels.size(); ++i) {
    const MatrixPanel& p = m.panels[i];
    const double left = kLeft + double(i) * (panelWidth + kGap);
    const PlotScale x(xr.lo, xr.hi, left + 12, left + panelWidth - 12);
    const PlotScale y(yr.lo, yr.hi * 1.05, kTop + panelHeight, kTop);
    svg.beginGroup("panel");
    if (!m.request.panel.empty())
      svg.text(left + panelWidth / 2, kTop - 6, m.request.panel + " = " + p.panel,
               {11, "#222", "middle", "panel"});
    drawAxes(svg, x, y, left, panelWidth, kTop, panelHeight, m.request.x);
    for (const auto& line : p.lines) {
      const size_t g = size_t(std::find(names.begin(), names.end(), line.group) - names.begin());
      drawLine(svg, line, x, y, groupColour(g));
    }
    svg.endGroup();
  }
  double lx = kLeft;
  for (size_t g = 0; g < names.size(); ++g) {
    const double ly = height - 10;
    svg.rect(lx, ly - 8, 14, 4, {groupColour(g)});
    const std::string text = m.request.group.empty() ? "all" : m.request.group + " = " + names[g];
    svg.text(lx + 18, ly - 3, text, {10, "#222", "start", "legend"});
    lx += 30 + 6.5 * double(text.size());
  }
  return svg.finish();
}

}  // namespace rudp::cmp
