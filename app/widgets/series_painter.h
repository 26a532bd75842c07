// Draws one LodSeries into a lane. When the visible points are fewer than
// the pixel columns each point is drawn; otherwise each column draws the
// min/max of its points (and lines join one column's last point to the
// next's first), which looks the same and costs O(columns).
#pragma once
#include <QColor>
#include <QPainter>
#include <QRect>
#include <vector>

#include "widgets/chart_axes.h"
#include "widgets/lod_series.h"

namespace rudp::gui {

enum class SeriesStyle { Scatter, Line, Steps };

struct SeriesPen {
  QColor colour;
  SeriesStyle style = SeriesStyle::Line;
  double width = 1.0;  // scatter: the width of a dense column's mark
  Qt::PenStyle dash = Qt::SolidLine;
  double dotRadius = 2.0;  // scatter points when drawn one by one
  QColor fill;             // steps: the area under them (invalid: none)

  // Dense columns are `columnWidth` px wide and reach (columnWidth - 1) / 2 px
  // beyond their extent, so a lone point is a square of that size.
  static SeriesPen scatter(const QColor& c, double dotRadius, int columnWidth = 1);
  static SeriesPen line(const QColor& c, double width, Qt::PenStyle dash = Qt::SolidLine);
  static SeriesPen steps(const QColor& c, double width, Qt::PenStyle dash = Qt::SolidLine,
                         const QColor& fill = {});
};

class SeriesPainter {
 public:
  SeriesPainter(QPainter& p, const TimeAxis& time, const ValueAxis& values, const QRect& clip)
      : p_(p), m_time(time), m_values(values), m_clip(clip) {}

  void paint(const LodSeries& s, const SeriesPen& pen);
  // Points per column above which columns are drawn instead of points.
  static bool dense(size_t visiblePoints, int columns) {
    return visiblePoints * 3 > static_cast<size_t>(columns);
  }

 private:
  void paintPoints(const LodSeries& s, size_t b, size_t e, const SeriesPen& pen);
  void paintScatterColumns(const std::vector<LodSeries::Column>& cols, const SeriesPen& pen);
  void paintLineColumns(const LodSeries& s, const std::vector<LodSeries::Column>& cols, const SeriesPen& pen);
  void fillStepColumns(const LodSeries& s, const std::vector<LodSeries::Column>& cols, const QColor& fill);
  void fillUnder(const QPolygonF& line, const QColor& fill);
  void stroke(const QPolygonF& line, const SeriesPen& pen, bool dense);
  double clampY(double y) const;
  QPen linePen(const SeriesPen& pen, bool dense) const;

  QPainter& p_;
  const TimeAxis& m_time;
  const ValueAxis& m_values;
  QRect m_clip;
};

}  // namespace rudp::gui
