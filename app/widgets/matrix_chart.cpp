#include "widgets/matrix_chart.h"

#include <QFileInfo>
#include <QMouseEvent>
#include <algorithm>
#include <cmath>
#include <set>

#include "compare/metric_list.h"
#include "widgets/chart_colours.h"
#include "widgets/legend_painter.h"
#include "widgets/mark_shapes.h"
#include "widgets/text_label.h"

namespace rudp::gui {

namespace {
constexpr double kMarker = 16.0;  // MarkShape::Dot draws a disc half as wide
constexpr double kHitRadius = 6.0;
constexpr int kPanelGap = 4;
constexpr size_t kMaxValueTicks = 12;

QString qs(const std::string& s) { return QString::fromStdString(s); }
bool hasValue(const cmp::MatrixPoint& pt) { return !std::isnan(pt.y); }
}  // namespace

// A panel's frame in its own coordinates (the painter is translated to
// `origin`), with the shared axes mapped onto its plot rectangle.
struct MatrixChart::Panel {
  QPoint origin;
  ChartFrame frame;
  HorizontalAxis x;
  ValueAxis y;
  QPointF at(double xv, double yv) const { return QPointF(origin.x() + x.x(xv), origin.y() + y.y(yv)); }
};

MatrixChart::MatrixChart(QWidget* parent) : ChartWidget(parent) {}

void MatrixChart::clear() { setMatrix({}); }

void MatrixChart::setMatrix(cmp::Matrix matrix) {
  const bool any = !matrix.panels.empty();
  const cmp::MetricInfo info = any ? cmp::metric(matrix.request.metric) : cmp::MetricInfo{};
  m_matrix = std::move(matrix);
  m_title = qs(info.title);
  m_unit = qs(info.unit);
  m_groups.clear();
  std::set<double> xs;
  bool seen = false;
  double xLo = 0, xHi = 1, yLo = 0, yHi = 1;
  for (const cmp::MatrixPanel& panel : m_matrix.panels)
    for (const cmp::MatrixLine& line : panel.lines) {
      if (std::find(m_groups.begin(), m_groups.end(), line.group) == m_groups.end())
        m_groups.push_back(line.group);
      for (const cmp::MatrixPoint& pt : line.points) {
        xs.insert(pt.x);
        xLo = seen ? std::min(xLo, pt.x) : pt.x;
        xHi = seen ? std::max(xHi, pt.x) : pt.x;
        if (hasValue(pt)) yLo = std::min(yLo, pt.y), yHi = std::max(yHi, pt.y);
        seen = true;
      }
    }
  m_xTicks.clear();
  if (xs.size() <= kMaxValueTicks)
    for (double x : xs) m_xTicks.push_back({x, QString::number(x, 'g', 6)});
  // Room around the outer points so their markers are whole.
  const double pad = xHi > xLo ? (xHi - xLo) * 0.06 : 1.0;
  m_xLo = xLo - pad;
  m_xHi = xHi + pad;
  m_yLo = yLo < 0 ? -niceCeil(-yLo * 1.08) : 0;
  m_yHi = niceCeil(std::max(yHi * 1.08, 1e-9));
  update();
}

const cmp::MatrixPoint& MatrixChart::point(const PointRef& ref) const {
  return m_matrix.panels.at(ref.panel).lines.at(ref.line).points.at(ref.point);
}

QColor MatrixChart::groupColour(const std::string& group) const {
  const ChartColours c = ChartColours::fromPalette(palette());
  const auto it = std::find(m_groups.begin(), m_groups.end(), group);
  const size_t i = it == m_groups.end() ? 0 : static_cast<size_t>(it - m_groups.begin());
  return c.cycle[i % c.cycle.size()];
}

std::vector<MatrixChart::Panel> MatrixChart::layout(QSize size) const {
  const ChartFrame outer = frameFor(size);
  int top = 0;
  if (!outer.title().isEmpty()) top = outer.title().bottom() + 3;
  if (!outer.legend().isEmpty()) top = outer.legend().bottom() + 3;
  const int count = std::max<int>(1, static_cast<int>(m_matrix.panels.size()));
  const int width = std::max(40, (size.width() - (count - 1) * kPanelGap) / count);
  std::vector<Panel> panels;
  for (int i = 0; i < count; ++i) {
    const QSize panelSize(width, std::max(40, size.height() - top));
    Panel g{QPoint(i * (width + kPanelGap), top), ChartFrame(panelSize, font(), true, 0), {}, {}};
    const QRect& plot = g.frame.plot();
    g.x = {m_xLo, m_xHi, double(plot.left()), double(plot.width())};
    g.y = {m_yLo, m_yHi, double(plot.top()), double(plot.height())};
    panels.push_back(g);
  }
  return panels;
}

QRect MatrixChart::plotRect(int panel, QSize size) const {
  const Panel g = layout(sizeOr(size)).at(panel);
  return g.frame.plot().translated(g.origin);
}

std::optional<QPointF> MatrixChart::pixelOf(const PointRef& ref, QSize size) const {
  const cmp::MatrixPoint& pt = point(ref);
  if (!hasValue(pt)) return std::nullopt;
  return layout(sizeOr(size)).at(ref.panel).at(pt.x, pt.y);
}

std::optional<MatrixChart::PointRef> MatrixChart::pointAt(QPointF at, QSize size) const {
  const std::vector<Panel> panels = layout(sizeOr(size));
  std::optional<PointRef> best;
  double bestDistance = kHitRadius;
  for (int pi = 0; pi < static_cast<int>(m_matrix.panels.size()); ++pi) {
    const auto& lines = m_matrix.panels[pi].lines;
    for (int li = 0; li < static_cast<int>(lines.size()); ++li)
      for (int k = 0; k < static_cast<int>(lines[li].points.size()); ++k) {
        const cmp::MatrixPoint& pt = lines[li].points[k];
        if (!hasValue(pt)) continue;
        const QPointF d = panels[pi].at(pt.x, pt.y) - at;
        const double distance = std::hypot(d.x(), d.y());
        if (distance <= bestDistance) best = PointRef{pi, li, k}, bestDistance = distance;
      }
  }
  return best;
}

QString MatrixChart::legendText(const std::string& group) const {
  if (m_matrix.request.group.empty()) return tr("all captures");
  return QStringLiteral("%1=%2").arg(qs(m_matrix.request.group), group.empty() ? tr("(none)") : qs(group));
}

QString MatrixChart::axisTitle() const {
  return m_unit.isEmpty() ? m_title : QStringLiteral("%1 (%2)").arg(m_title, m_unit);
}

void MatrixChart::paintContents(QPainter& p, const ChartColours& c, QSize size) const {
  const ChartFrame outer = frameFor(size);
  const std::vector<Panel> panels = layout(size);
  // The outer frame filled one plot rectangle; the panels draw their own.
  p.fillRect(QRect(0, panels.front().origin.y(), size.width(), size.height()), c.background);
  for (int i = 0; i < static_cast<int>(panels.size()); ++i) paintPanel(p, c, panels[i], i);
  const std::vector<std::vector<LegendEntry>> legend = legendLines(size);
  const int rowHeight = legend.empty() ? 0 : outer.legend().height() / static_cast<int>(legend.size());
  const int left = panels.front().origin.x() + panels.front().frame.plot().left();
  for (size_t row = 0; row < legend.size(); ++row)
    LegendPainter(p, c).paintAt(legend[row], QPoint(left, outer.legend().top() + int(row) * rowHeight),
                                false);
}

std::vector<std::vector<LegendEntry>> MatrixChart::legendLines(QSize size) const {
  std::vector<LegendEntry> entries;
  for (const std::string& g : m_groups) entries.push_back({MarkShape::Dot, groupColour(g), legendText(g)});
  // The legend starts where the first panel's plot does.
  const int left = ChartFrame(size, font(), true, 0).plot().left();
  return LegendPainter::wrap(entries, font(), size.width() - left - 8);
}

void MatrixChart::paintPanel(QPainter& p, const ChartColours& c, const Panel& g, int index) const {
  p.save();
  p.translate(g.origin);
  g.frame.paintBackground(p, c);
  const QRect& plot = g.frame.plot();
  const bool any = index < static_cast<int>(m_matrix.panels.size());
  const QString panelTitle =
      any && !m_matrix.request.panel.empty()
          ? QStringLiteral("%1=%2").arg(qs(m_matrix.request.panel), qs(m_matrix.panels[index].panel))
          : QString();
  g.frame.paintTitle(p, c, panelTitle);
  g.frame.paintYAxis(p, c, g.y, niceTicks(g.y.v0, g.y.v1, std::max(2, plot.height() / 50)),
                     index == 0 ? axisTitle() : QString());
  g.frame.paintXAxis(p, c, g.x, xTicksFor(plot), qs(m_matrix.request.x));
  g.frame.paintBorder(p, c);
  if (!any) paintNoData(p, c, plot);
  p.restore();
  if (!any) return;
  for (const cmp::MatrixLine& line : m_matrix.panels[index].lines)
    paintLine(p, g, line, groupColour(line.group));
}

// The line joins the points that have a value; a point without one breaks it.
void MatrixChart::paintLine(QPainter& p, const Panel& g, const cmp::MatrixLine& line,
                            const QColor& colour) const {
  p.save();
  p.setClipRect(g.frame.plot().translated(g.origin));
  p.setRenderHint(QPainter::Antialiasing, true);
  QPen pen(colour, 2);
  pen.setCosmetic(true);
  p.setPen(pen);
  QPolygonF run;
  auto flush = [&] {
    if (run.size() > 1) p.drawPolyline(run);
    run.clear();
  };
  for (const cmp::MatrixPoint& pt : line.points) {
    if (!hasValue(pt))
      flush();
    else
      run << g.at(pt.x, pt.y);
  }
  flush();
  for (const cmp::MatrixPoint& pt : line.points)
    if (hasValue(pt)) drawMark(p, MarkShape::Dot, g.at(pt.x, pt.y), kMarker, colour);
  p.restore();
}

// The conditions' own values when there are few (loss 1, 3, 5, 7, 10), else round numbers.
std::vector<Tick> MatrixChart::xTicksFor(const QRect& plot) const {
  if (!m_xTicks.empty()) return m_xTicks;
  return niceTicks(m_xLo, m_xHi, std::max(2, plot.width() / 70));
}

QString MatrixChart::toolTipAt(QPoint at) const {
  const std::optional<PointRef> ref = pointAt(at);
  if (!ref) return {};
  const cmp::MatrixPoint& pt = point(*ref);
  const cmp::MatrixLine& line = m_matrix.panels[ref->panel].lines[ref->line];
  QStringList lines{QStringLiteral("%1 #%2").arg(QFileInfo(qs(pt.capture)).fileName()).arg(pt.conn),
                    legendText(line.group),
                    QStringLiteral("%1=%2").arg(qs(m_matrix.request.x)).arg(pt.x, 0, 'g', 6),
                    QStringLiteral("%1: %2 %3").arg(m_title).arg(pt.y, 0, 'g', 6).arg(m_unit)};
  return lines.join(QLatin1Char('\n'));
}

void MatrixChart::mousePressEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return ChartWidget::mousePressEvent(e);
  if (const std::optional<PointRef> ref = pointAt(e->position())) emit pointActivated(*ref);
}

}  // namespace rudp::gui
