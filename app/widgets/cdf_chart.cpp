#include "widgets/cdf_chart.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

#include "widgets/chart_colours.h"
#include "widgets/chart_frame.h"
#include "widgets/legend_painter.h"

namespace rudp::gui {

struct CdfChart::Geometry {
  ChartFrame frame;
  HorizontalAxis x;
  ValueAxis y;
};

CdfChart::CdfChart(QWidget* parent) : ChartWidget(parent) {}

void CdfChart::setAxisLabel(const QString& x) {
  m_xLabel = x;
  update();
}

void CdfChart::clear() {
  m_series.clear();
  update();
}

void CdfChart::addSeries(const QString& name, std::vector<double> values) {
  std::sort(values.begin(), values.end());
  m_series.push_back({name, std::move(values)});
  update();
}

double CdfChart::fractionAt(int series, double v) const {
  const auto& s = m_series.at(series).sorted;
  if (s.empty()) return 0;
  return static_cast<double>(std::upper_bound(s.begin(), s.end(), v) - s.begin()) /
         static_cast<double>(s.size());
}

double CdfChart::quantile(int series, double q) const {
  const auto& s = m_series.at(series).sorted;
  if (s.empty()) return 0;
  const auto rank = static_cast<size_t>(std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(s.size())));
  return s[std::clamp<size_t>(rank, 1, s.size()) - 1];
}

CdfChart::Geometry CdfChart::geometryFor(QSize size) const {
  Geometry g{frameFor(size), {}, {}};
  const QRect& plot = g.frame.plot();
  double lo = 0, hi = 1;
  bool any = false;
  for (const Series& s : m_series) {
    if (s.sorted.empty()) continue;
    lo = any ? std::min(lo, s.sorted.front()) : s.sorted.front();
    hi = any ? std::max(hi, s.sorted.back()) : s.sorted.back();
    any = true;
  }
  lo = std::min(lo, 0.0);
  g.x = {lo, niceCeil(std::max(hi, lo + 1e-9) * 1.02), double(plot.left()), double(plot.width())};
  g.y = {0, 1, double(plot.top()), double(plot.height())};
  return g;
}

double CdfChart::xForValue(double v) const { return geometryFor(size()).x.x(v); }
double CdfChart::yForFraction(double f) const { return geometryFor(size()).y.y(f); }

// A step per pixel column: the share of values up to that column's value.
void CdfChart::paintSeries(QPainter& p, const Geometry& g, const Series& s, const QColor& colour) const {
  if (s.sorted.empty()) return;
  const QRect& plot = g.frame.plot();
  const double n = static_cast<double>(s.sorted.size());
  QPolygonF line;
  line.reserve(2 * plot.width() + 2);
  line.append(QPointF(plot.left(), g.y.y(0)));
  for (int x = plot.left(); x <= plot.right() + 1; ++x) {
    const double upTo = g.x.value(x + 1.0);
    const double f =
        static_cast<double>(std::upper_bound(s.sorted.begin(), s.sorted.end(), upTo) - s.sorted.begin()) / n;
    const double y = g.y.y(f);
    if (line.back().y() != y) line.append(QPointF(x + 0.5, line.back().y()));
    line.append(QPointF(x + 0.5, y));
  }
  p.save();
  p.setClipRect(plot);
  QPen pen(colour, 2);
  pen.setCosmetic(true);
  p.setPen(pen);
  p.setRenderHint(QPainter::Antialiasing, true);
  p.drawPolyline(line);
  p.restore();
}

QString CdfChart::legendText(const Series& s) const {
  if (s.sorted.empty()) return s.name + QStringLiteral(" (no samples)");
  const double median = s.sorted[(s.sorted.size() - 1) / 2];
  return QStringLiteral("%1 (n=%2, median %3)").arg(s.name).arg(s.sorted.size()).arg(median, 0, 'g', 4);
}

std::vector<std::vector<LegendEntry>> CdfChart::legendLines(const ChartColours& c, QSize size) const {
  std::vector<LegendEntry> entries;
  for (size_t i = 0; i < m_series.size(); ++i)
    entries.push_back({MarkShape::Line, c.cycle[i % c.cycle.size()], legendText(m_series[i])});
  // The legend starts where the plot does (the frame without a legend tells where).
  const int left = ChartFrame(size, font(), false, 0).plot().left();
  return LegendPainter::wrap(entries, font(), size.width() - left - 8);
}

int CdfChart::legendRows(QSize size) const {
  return static_cast<int>(legendLines(ChartColours::fromPalette(palette()), size).size());
}

void CdfChart::paintContents(QPainter& p, const ChartColours& c, QSize size) const {
  const Geometry g = geometryFor(size);
  const QRect& plot = g.frame.plot();
  g.frame.paintYAxis(p, c, g.y, niceTicks(0, 1, 5), QStringLiteral("share of samples"));
  g.frame.paintXAxis(p, c, g.x, niceTicks(g.x.v0, g.x.v1, std::max(2, plot.width() / 70)), m_xLabel);
  for (size_t i = 0; i < m_series.size(); ++i) paintSeries(p, g, m_series[i], c.cycle[i % c.cycle.size()]);
  const std::vector<std::vector<LegendEntry>> legend = legendLines(c, size);
  const int rowHeight = legend.empty() ? 0 : g.frame.legend().height() / static_cast<int>(legend.size());
  for (size_t row = 0; row < legend.size(); ++row)
    LegendPainter(p, c).paintAt(legend[row],
                                QPoint(plot.left(), g.frame.legend().top() + int(row) * rowHeight), false);
  if (m_series.empty()) paintNoData(p, c, plot);
}

QString CdfChart::toolTipAt(QPoint at) const {
  const Geometry g = geometryFor(size());
  if (!g.frame.plot().contains(at) || m_series.empty()) return {};
  const double v = g.x.value(at.x() + 0.5);
  QStringList lines{QStringLiteral("%1 %2").arg(m_xLabel).arg(v, 0, 'g', 4)};
  for (int i = 0; i < seriesCount(); ++i)
    lines << QStringLiteral("%1: %2 %").arg(m_series[i].name).arg(100 * fractionAt(i, v), 0, 'f', 1);
  return lines.join(QLatin1Char('\n'));
}

}  // namespace rudp::gui
