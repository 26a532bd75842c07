#include "widgets/histogram_chart.h"

#include <QMenu>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "widgets/chart_frame.h"

namespace rudp::gui {

namespace {
constexpr double kLogFloor = 0.7;  // a log axis starts just under 1 so a count of 1 shows
}

struct HistogramChart::Geometry {
  ChartFrame frame;
  HorizontalAxis x;
  ValueAxis y;
  std::vector<QRectF> bars;
};

HistogramChart::HistogramChart(QWidget* parent) : ChartWidget(parent) {}

void HistogramChart::setAxisLabels(const QString& x, const QString& y) {
  m_xLabel = x;
  m_yLabel = y;
  update();
}

void HistogramChart::setBins(std::vector<HistogramBin> bins) {
  m_bins = std::move(bins);
  update();
}

void HistogramChart::setLogY(bool on) {
  m_logY = on;
  update();
}

bool HistogramChart::categorical() const {
  return !m_bins.empty() &&
         std::all_of(m_bins.begin(), m_bins.end(), [](const HistogramBin& b) { return !b.label.isEmpty(); });
}

HistogramChart::Geometry HistogramChart::geometryFor(QSize size) const {
  Geometry g{frameFor(size), {}, {}, {}};
  const QRect& plot = g.frame.plot();
  double top = 0;
  for (const HistogramBin& b : m_bins) top = std::max(top, b.count);
  if (m_logY)
    g.y = {kLogFloor, std::pow(10.0, std::ceil(std::log10(std::max(top, 1.0)) + 1e-9)), double(plot.top()),
           double(plot.height()), true};
  else
    g.y = {0, niceCeil(std::max(top, 1.0) * 1.05), double(plot.top()), double(plot.height())};
  if (categorical())
    g.x = {0, static_cast<double>(m_bins.size()), double(plot.left()), double(plot.width())};
  else if (!m_bins.empty())
    g.x = {m_bins.front().from, m_bins.back().to, double(plot.left()), double(plot.width())};
  const bool byCategory = categorical();
  for (size_t i = 0; i < m_bins.size(); ++i) {
    const HistogramBin& b = m_bins[i];
    double l = byCategory ? g.x.x(i + 0.12) : g.x.x(b.from), r = byCategory ? g.x.x(i + 0.88) : g.x.x(b.to);
    if (!byCategory && r - l > 4) r -= 1;  // a hairline between wide bars
    const bool visible = m_logY ? b.count >= 1 : b.count > 0;
    const double base = g.y.y(g.y.v0), topY = visible ? g.y.y(b.count) : base;
    g.bars.emplace_back(QPointF(l, topY), QPointF(std::max(r, l + 1), base));
  }
  return g;
}

QRectF HistogramChart::barRect(int bin) const {
  const Geometry g = geometryFor(size());
  return bin >= 0 && static_cast<size_t>(bin) < g.bars.size() ? g.bars[bin] : QRectF();
}

std::optional<int> HistogramChart::binAt(QPoint p) const {
  const Geometry g = geometryFor(size());
  for (size_t i = 0; i < g.bars.size(); ++i)
    if (p.x() >= g.bars[i].left() && p.x() < g.bars[i].right() && g.frame.plot().contains(p))
      return static_cast<int>(i);
  return std::nullopt;
}

void HistogramChart::paintContents(QPainter& p, const ChartColours& c, QSize size) const {
  const Geometry g = geometryFor(size);
  const QRect& plot = g.frame.plot();
  const QFontMetrics fm(font());
  g.frame.paintYAxis(p, c, g.y,
                     m_logY ? logTicks(1, g.y.v1)
                            : niceTicks(g.y.v0, g.y.v1, std::max(2, plot.height() / (2 * fm.height()))),
                     m_yLabel + (m_logY ? QStringLiteral(" (log)") : QString()));
  std::vector<Tick> xTicks;
  if (categorical()) {
    const int every =
        std::max(1, static_cast<int>(std::ceil(m_bins.size() * fm.horizontalAdvance(QStringLiteral("0000")) /
                                               double(plot.width()))));
    for (size_t i = 0; i < m_bins.size(); i += every) xTicks.push_back({i + 0.5, m_bins[i].label});
  } else if (!m_bins.empty()) {
    xTicks = niceTicks(g.x.v0, g.x.v1, std::max(2, plot.width() / 70));
  }
  g.frame.paintXAxis(p, c, g.x, xTicks, m_xLabel);
  QColor fill = c.cycle.front();
  p.setPen(Qt::NoPen);
  p.setBrush(fill);
  for (const QRectF& bar : g.bars)
    if (bar.height() > 0) p.drawRect(bar);
  if (m_bins.empty()) paintNoData(p, c, plot);
}

QString HistogramChart::binText(const HistogramBin& b) const {
  const QString what = b.label.isEmpty() ? QStringLiteral("[%1, %2)").arg(b.from).arg(b.to) : b.label;
  return QStringLiteral("%1 %2: %3").arg(m_xLabel, what).arg(b.count);
}

QString HistogramChart::toolTipAt(QPoint at) const {
  const auto bin = binAt(at);
  return bin ? binText(m_bins[*bin]) : QString();
}

void HistogramChart::addMenuActions(QMenu& menu) {
  QAction* log = menu.addAction(QStringLiteral("Logarithmic Y Axis"), this, [this](bool on) { setLogY(on); });
  log->setCheckable(true);
  log->setChecked(m_logY);
}

}  // namespace rudp::gui
