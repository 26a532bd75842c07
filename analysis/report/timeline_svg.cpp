#include "report/timeline_svg.h"

#include <algorithm>

#include "report/markup.h"
#include "report/timeline_panel.h"
#include "report/wording.h"

namespace rudp::report {

namespace {

constexpr double kLeft = 56, kRight = 14;
constexpr double kLegendHeight = 26;
constexpr double kHeaderHeight = 16, kStripHeight = 28, kPlotHeight = 150, kPanelGap = 10;
constexpr double kAxisHeight = 38;
constexpr int kXTicks = 12;

double panelHeight() { return kHeaderHeight + kStripHeight + kPlotHeight + kPanelGap; }

PanelGeometry panelAt(double top, double width) {
  PanelGeometry g;
  g.left = kLeft;
  g.width = width - kLeft - kRight;
  g.top = top;
  g.strip_top = top + kHeaderHeight;
  g.plot_top = g.strip_top + kStripHeight;
  g.plot_height = kPlotHeight;
  return g;
}

// One legend entry: its mark, then its words; returns the next entry's x.
template <class DrawMark>
double legendEntry(SvgWriter& svg, double x, double y, const char* words, DrawMark drawMark) {
  drawMark(x + 6, y);
  svg.text(x + 15, y + 4, words, {10, "#333", "start", "legend-label"});
  return x + 22 + 5.6 * static_cast<double>(std::string_view(words).size());
}

void drawLegend(SvgWriter& svg, const std::vector<double>& limits) {
  using S = TimelineStyle;
  const double y = 13;
  double x = kLeft;
  svg.beginGroup("legend");
  x = legendEntry(svg, x, y, "RTT sample",
                  [&](double cx, double cy) { svg.circle(cx, cy, 2.2, {S::kSample}); });
  x = legendEntry(svg, x, y, "SRTT", [&](double cx, double cy) {
    svg.line(cx - 6, cy, cx + 6, cy, {"none", S::kSrtt, 1.5});
  });
  x = legendEntry(svg, x, y, "RTO", [&](double cx, double cy) {
    svg.line(cx - 6, cy, cx + 6, cy, {"none", S::kRto, 1, "4 3"});
  });
  if (!limits.empty())
    x = legendEntry(svg, x, y, "limit", [&](double cx, double cy) {
      svg.line(cx - 6, cy, cx + 6, cy, {"none", S::limitColour(limits.size() - 1, limits.size()), 1, "6 3"});
    });
  auto mark = [&](MarkShape shape, const char* colour) {
    return [&svg, shape, colour](double cx, double cy) { svg.mark(shape, cx, cy, 7, {colour}); };
  };
  x = legendEntry(svg, x, y, "timeout retransmission", mark(S::kTimeoutShape, S::kTimeout));
  x = legendEntry(svg, x, y, "fast retransmission", mark(S::kFastShape, S::kFast));
  x = legendEntry(svg, x, y, "spurious retransmission", mark(S::kSpuriousShape, S::kSpurious));
  x = legendEntry(svg, x, y, "loss", [&](double cx, double cy) {
    svg.mark(S::kLossShape, cx, cy, 7, {"none", S::kLoss, 1.5});
  });
  legendEntry(svg, x, y, "stall", [&](double cx, double cy) {
    svg.rect(cx - 6, cy - 6, 12, 12, {S::kStall, "none", 1, {}, 0.5});
  });
  svg.endGroup();
}

// A panel's white ground and the time grid, behind everything it shows.
void drawPanelGround(SvgWriter& svg, const PlotScale& x, const PanelGeometry& g) {
  svg.rect(g.left, g.strip_top, g.width, g.bottom() - g.strip_top, {"#ffffff"});
  for (double t : x.ticks(kXTicks))
    svg.line(x.px(t), g.strip_top, x.px(t), g.bottom(), {"none", "#e8e8e8", 1}, "xgrid");
}

void drawTimeAxis(SvgWriter& svg, const PlotScale& x, double bottom) {
  svg.beginGroup("time-axis");
  for (double t : x.ticks(kXTicks)) {
    svg.line(x.px(t), bottom, x.px(t), bottom + 4, {"none", "#444", 1});
    svg.text(x.px(t), bottom + 15, x.tickLabel(t, kXTicks), {10, "#444", "middle", "xtick"});
  }
  svg.text((x.px(x.lo()) + x.px(x.hi())) / 2, bottom + 32, "seconds since capture start",
           {10, "#444", "middle", "axis-label"});
  svg.endGroup();
}

}  // namespace

std::string connectionTimelineSvg(StoreReader& reader, const ConnectionRecord& conn, int64_t captureStartNs,
                                  const std::vector<double>& rttLimitsMs, const TimelineOptions& options) {
  const double width = options.width;
  const double height = kLegendHeight + 2 * panelHeight() + kAxisHeight;
  SvgWriter svg(width, height, "Timeline of " + connectionLabel(conn.summary));
  svg.setRootAttributes("class=\"timeline\" data-conn=\"" + std::to_string(conn.summary.id) + "\"");
  const PlotScale x(secondsSince(conn.summary.first_ts_ns, captureStartNs),
                    secondsSince(conn.summary.last_ts_ns, captureStartNs), kLeft, width - kRight);
  drawLegend(svg, rttLimitsMs);
  const Direction dirs[] = {Direction::ClientToServer, Direction::ServerToClient};
  const PanelGeometry panels[] = {panelAt(kLegendHeight, width),
                                  panelAt(kLegendHeight + panelHeight(), width)};
  for (const PanelGeometry& g : panels) drawPanelGround(svg, x, g);
  for (int i = 0; i < 2; ++i) {
    const std::string clipId = options.id_prefix + (i == 0 ? "-c2s" : "-s2c");
    const PanelGeometry& g = panels[i];
    svg.clipRect(clipId, g.left, g.plot_top, g.width, g.plot_height);
    TimelinePanel(reader, conn, dirs[i], captureStartNs, rttLimitsMs).draw(svg, x, g, clipId);
  }
  drawTimeAxis(svg, x, panels[1].bottom());
  return svg.finish();
}

}  // namespace rudp::report
