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
  xLabel_ = x;
  yLabel_ = y;
  update();
}

void HistogramChart::setBins(std::vector<HistogramBin> bins) {
  bins_ = std::move(bins);
  update();
}

void HistogramChart::setLogY(bool on) {
  logY_ = on;
  update();
}

bool HistogramChart::categorical() const {
  return !bins_.empty() &&
         std::all_of(bins_.begin(), bins_.end(), [](const HistogramBin& b) { return !b.label.isEmpty(); });
}

HistogramChart::Geometry HistogramChart::geometryFor(QSize size) const {
  Geometry g{frameFor(size), {}, {}, {}};
  const QRect& plot = g.frame.plot();
  double top = 0;
  for (const HistogramBin& b : bins_) top = std::max(top, b.count);
  if (logY_)
    g.y = {kLogFloor, std::pow(10.0, std::ceil(std::log10(std::max(top, 1.0)) + 1e-9)), double(plot.top()),
           double(plot.height()), true};
  else
    g.y = {0, niceCeil(std::max(top, 1.0) * 1.05), double(plot.top()), double(plot.height())};
  if (categorical())
    g.x = {0, static_cast<double>(bins_.size()), double(plot.left()), double(plot.width())};
  else if (!bins_.empty())
    g.x = {bins_.front().from, bins_.back().to, double(plot.left()), double(plot.width())};
  const bool byCategory = categorical();
  for (size_t i = 0; i < bins_.size(); ++i) {
    const HistogramBin& b = bins_[i];
    double l = byCategory ? g.x.x(i + 0.12) : g.x.x(b.from), r = byCategory ? g.x.x(i + 0.88) : g.x.x(b.to);
    if (!byCategory && r - l > 4) r -= 1;  // a hairline between wide bars
    const bool visible = logY_ ? b.count >= 1 : b.count > 0;
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
  g.frame.paintYAxis(
      p, c, g.y,
      logY_ ? logTicks(1, g.y.v1) : niceTicks(g.y.v0, g.y.v1, std::max(2, plot.height() / (2 * fm.height()))),
      yLabel_ + (logY_ ? QStringLiteral(" (log)") : QString()));
  std::vector<Tick> xTicks;
  if (categorical()) {
    const int every =
        std::max(1, static_cast<int>(std::ceil(bins_.size() * fm.horizontalAdvance(QStringLiteral("0000")) /
                                               double(plot.width()))));
    for (size_t i = 0; i < bins_.size(); i += every) xTicks.push_back({i + 0.5, bins_[i].label});
  } else if (!bins_.empty()) {
    xTicks = niceTicks(g.x.v0, g.x.v1, std::max(2, plot.width() / 70));
  }
  g.frame.paintXAxis(p, c, g.x, xTicks, xLabel_);
  QColor fill = c.cycle.front();
  p.setPen(Qt::NoPen);
  p.setBrush(fill);
  for (const QRectF& bar : g.bars)
    if (bar.height() > 0) p.drawRect(bar);
  if (bins_.empty()) paintNoData(p, c, plot);
}

QString HistogramChart::binText(const HistogramBin& b) const {
  const QString what = b.label.isEmpty() ? QStringLiteral("[%1, %2)").arg(b.from).arg(b.to) : b.label;
  return QStringLiteral("%1 %2: %3").arg(xLabel_, what).arg(b.count);
}

QString HistogramChart::toolTipAt(QPoint at) const {
  const auto bin = binAt(at);
  return bin ? binText(bins_[*bin]) : QString();
}

void HistogramChart::addMenuActions(QMenu& menu) {
  QAction* log = menu.addAction(QStringLiteral("Logarithmic Y Axis"), this, [this](bool on) { setLogY(on); });
  log->setCheckable(true);
  log->setChecked(logY_);
}

}  // namespace rudp::gui
