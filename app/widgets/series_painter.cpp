#include "widgets/series_painter.h"

#include <QPolygonF>
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "widgets/polyline_clip.h"
#include "widgets/serial_fill.h"

namespace rudp::gui {

SeriesPen SeriesPen::scatter(const QColor& c, double dotRadius, int columnWidth) {
  SeriesPen p;
  p.colour = c;
  p.style = SeriesStyle::Scatter;
  p.width = columnWidth;
  p.dotRadius = dotRadius;
  return p;
}

SeriesPen SeriesPen::line(const QColor& c, double width, Qt::PenStyle dash) {
  SeriesPen p;
  p.colour = c;
  p.width = width;
  p.dash = dash;
  return p;
}

SeriesPen SeriesPen::steps(const QColor& c, double width, Qt::PenStyle dash, const QColor& fill) {
  SeriesPen p = line(c, width, dash);
  p.style = SeriesStyle::Steps;
  p.fill = fill;
  return p;
}

QPen SeriesPainter::linePen(const SeriesPen& pen, bool dense) const {
  // Wider pens go through QStroker: 20x the cost of a 1 px line over
  // thousands of column vertices, and no visible gain when that dense.
  QPen qp(pen.colour, dense ? 1.0 : pen.width, pen.dash);
  qp.setCosmetic(true);
  return qp;
}

void SeriesPainter::paint(const LodSeries& s, const SeriesPen& pen) {
  if (s.empty()) return;
  p_.save();
  p_.setClipRect(m_clip);
  auto [b, e] = s.indexRange(m_time.t0, m_time.t1);
  if (dense(e - b, m_clip.width())) {
    const auto cols =
        s.columns(m_clip.left(), m_clip.right() + 1, [&](int64_t t) { return m_time.column(t); });
    if (pen.style == SeriesStyle::Scatter)
      paintScatterColumns(cols, pen);
    else
      paintLineColumns(s, cols, pen);
  } else {
    // Lines and steps start at the point before the range and end after it.
    if (pen.style != SeriesStyle::Scatter) {
      if (b > 0) --b;
      if (e < s.size()) ++e;
    }
    paintPoints(s, b, e, pen);
  }
  p_.restore();
}

void SeriesPainter::paintPoints(const LodSeries& s, size_t b, size_t e, const SeriesPen& pen) {
  if (pen.style == SeriesStyle::Scatter) {
    p_.setRenderHint(QPainter::Antialiasing, true);
    p_.setPen(Qt::NoPen);
    p_.setBrush(pen.colour);
    for (size_t i = b; i < e; ++i)
      p_.drawEllipse(QPointF(m_time.x(s.time(i)), m_values.y(s.value(i))), pen.dotRadius, pen.dotRadius);
    return;
  }
  QPolygonF line;
  line.reserve(2 * static_cast<qsizetype>(e - b));
  for (size_t i = b; i < e; ++i) {
    const QPointF pt(m_time.x(s.time(i)), m_values.y(s.value(i)));
    if (pen.style == SeriesStyle::Steps && !line.isEmpty()) line.append(QPointF(pt.x(), line.back().y()));
    line.append(pt);
  }
  if (pen.style == SeriesStyle::Steps && e == s.size() && !line.isEmpty())
    line.append(QPointF(m_clip.right() + 1, line.back().y()));
  if (line.size() < 2) return;
  p_.setRenderHint(QPainter::Antialiasing, false);
  if (pen.fill.isValid() && pen.style == SeriesStyle::Steps) fillUnder(line, pen.fill);
  p_.setRenderHint(QPainter::Antialiasing, true);
  stroke(line, pen, false);
}

// Scatter: each column a filled rectangle over its points' extent (integer
// rectangles, aliased: exact pixels and cheaper than wide pens).
void SeriesPainter::paintScatterColumns(const std::vector<LodSeries::Column>& cols, const SeriesPen& pen) {
  const int width = std::max(1, static_cast<int>(pen.width)), reach = (width - 1) / 2;
  std::vector<QRect> rects;
  rects.reserve(cols.size());
  for (const auto& c : cols) {
    // Clamped into the lane: a column keeps its visible part.
    const int top = static_cast<int>(std::floor(clampY(m_values.y(c.span.max))));
    const int bottom = static_cast<int>(std::floor(clampY(m_values.y(c.span.min))));
    rects.emplace_back(QPoint(c.x - reach, top - reach), QPoint(c.x - reach + width - 1, bottom + reach));
  }
  p_.setRenderHint(QPainter::Antialiasing, false);
  p_.setPen(Qt::NoPen);
  p_.setBrush(pen.colour);
  p_.drawRects(rects.data(), static_cast<int>(rects.size()));
}

// Lines and steps: from the previous column's last value to this one's
// first, then down and up its extent, ending at its last value.
void SeriesPainter::paintLineColumns(const LodSeries& s, const std::vector<LodSeries::Column>& cols,
                                     const SeriesPen& pen) {
  QPolygonF line;
  line.reserve(static_cast<qsizetype>(cols.size()) * 5 + 2);
  auto [b, e] = s.indexRange(m_time.t0, m_time.t1);
  if (b > 0) line.append(QPointF(m_time.x(s.time(b - 1)), m_values.y(s.value(b - 1))));
  for (const auto& c : cols) {
    const double x = c.x + 0.5;
    const double first = m_values.y(s.value(c.first)), last = m_values.y(s.value(c.last - 1));
    if (pen.style == SeriesStyle::Steps && !line.isEmpty()) line.append(QPointF(x, line.back().y()));
    line.append(QPointF(x, first));
    line.append(QPointF(x, m_values.y(c.span.max)));
    line.append(QPointF(x, m_values.y(c.span.min)));
    line.append(QPointF(x, last));
  }
  if (e < s.size()) {
    const QPointF next(m_time.x(s.time(e)), m_values.y(s.value(e)));
    if (pen.style == SeriesStyle::Steps && !line.isEmpty()) line.append(QPointF(next.x(), line.back().y()));
    line.append(next);
  }
  p_.setRenderHint(QPainter::Antialiasing, false);
  if (pen.fill.isValid()) fillStepColumns(s, cols, pen.fill);
  stroke(line, pen, true);
}

// The area under dense steps, one pixel column at a time (a polygon of
// thousands of vertices costs ten times more): up to the column's highest
// value, or the value held from the left where a column has no point.
void SeriesPainter::fillStepColumns(const LodSeries& s, const std::vector<LodSeries::Column>& cols,
                                    const QColor& fill) {
  const double base = clampY(m_values.y(m_values.v0));
  auto [b, e] = s.indexRange(m_time.t0, m_time.t1);
  std::optional<double> held;
  if (b > 0) held = clampY(m_values.y(s.value(b - 1)));
  std::vector<QLineF> lines;
  lines.reserve(static_cast<size_t>(m_clip.width()));
  size_t k = 0;
  const int lastX = e < s.size() ? m_clip.right() : (cols.empty() ? m_clip.left() - 1 : cols.back().x);
  for (int x = m_clip.left(); x <= lastX; ++x) {
    double top;
    if (k < cols.size() && cols[k].x == x) {
      top = clampY(m_values.y(cols[k].span.max));
      held = clampY(m_values.y(s.value(cols[k].last - 1)));
      ++k;
    } else if (held) {
      top = *held;
    } else {
      continue;
    }
    if (top < base) lines.emplace_back(x + 0.5, top, x + 0.5, base);
  }
  p_.setPen(QPen(fill, 1));
  p_.drawLines(lines.data(), static_cast<int>(lines.size()));
}

double SeriesPainter::clampY(double y) const {
  return std::clamp(y, m_clip.top() - 1.0, m_clip.bottom() + 1.0);
}

// The area under sparse steps: a polygon of few vertices, clamped to the lane
// (exact for horizontal and vertical edges).
void SeriesPainter::fillUnder(const QPolygonF& line, const QColor& fill) {
  const double base = m_values.y(m_values.v0);
  QPolygonF area = line;
  area.append(QPointF(line.back().x(), base));
  area.append(QPointF(line.front().x(), base));
  p_.setPen(Qt::NoPen);
  p_.setBrush(fill);
  drawPolygonInStrips(p_, clampPolygon(area, QRectF(m_clip).adjusted(-2, -2, 2, 2)), m_clip);
}

// Clipped by hand a few pixels outside the lane (see polyline_clip.h).
void SeriesPainter::stroke(const QPolygonF& line, const SeriesPen& pen, bool dense) {
  if (line.size() < 2) return;
  const double m = pen.width + 2;
  p_.setBrush(Qt::NoBrush);
  p_.setPen(linePen(pen, dense));
  for (const QPolygonF& piece : clipPolyline(line, QRectF(m_clip).adjusted(-m, -m, m, m)))
    p_.drawPolyline(piece);
}

}  // namespace rudp::gui
