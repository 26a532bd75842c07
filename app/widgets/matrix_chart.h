// The matrix of a capture set (cmp::Matrix): panels side by side, one per
// value of the panel label, sharing their x and y ranges so they compare at
// a glance; in each, one line per group with a marker per capture; a legend
// of the groups (one colour each, the same in every panel) above them. The
// x axis is the chosen label, the y axis the metric's title and unit.
// Points hit-test to their capture (hover tooltip; pointAt for tests and
// clicks), and pixelOf says where a point is drawn at a given size.
#pragma once
#include <QColor>
#include <optional>
#include <vector>

#include "compare/matrix.h"
#include "widgets/chart_widget.h"
#include "widgets/legend_painter.h"

namespace rudp::gui {

class MatrixChart : public ChartWidget {
  Q_OBJECT
 public:
  // A point of the matrix: matrix().panels[panel].lines[line].points[point].
  struct PointRef {
    int panel = 0, line = 0, point = 0;
    bool operator==(const PointRef&) const = default;
  };

  explicit MatrixChart(QWidget* parent = nullptr);

  // Throws CompareError for an unknown metric (as cmp::metric).
  void setMatrix(cmp::Matrix matrix);
  void clear();
  const cmp::Matrix& matrix() const { return m_matrix; }
  const cmp::MatrixPoint& point(const PointRef& ref) const;

  // The groups in legend order, and the colour of a group's line and markers.
  const std::vector<std::string>& groups() const { return m_groups; }
  QColor groupColour(const std::string& group) const;

  // Where `ref`'s marker is centred when the chart is painted at `size`
  // (the widget's size by default); nullopt for a point with no value.
  std::optional<QPointF> pixelOf(const PointRef& ref, QSize size = {}) const;
  // The point whose marker is nearest `at` within the marker's radius.
  std::optional<PointRef> pointAt(QPointF at, QSize size = {}) const;
  // The plot rectangle of a panel at `size`, in widget coordinates.
  QRect plotRect(int panel, QSize size = {}) const;

  QSize sizeHint() const override { return {720, 360}; }

 signals:
  void pointActivated(const rudp::gui::MatrixChart::PointRef& ref);

 protected:
  void paintContents(QPainter& p, const ChartColours& c, QSize size) const override;
  int legendRows(QSize size) const override { return static_cast<int>(legendLines(size).size()); }
  bool framedPlot() const override { return false; }
  QString toolTipAt(QPoint at) const override;
  void mousePressEvent(QMouseEvent* e) override;

 private:
  struct Panel;
  std::vector<Panel> layout(QSize size) const;
  void paintPanel(QPainter& p, const ChartColours& c, const Panel& g, int index) const;
  void paintLine(QPainter& p, const Panel& g, const cmp::MatrixLine& line, const QColor& colour) const;
  QString legendText(const std::string& group) const;
  // One entry per line, in rows that fit the widget's width.
  std::vector<std::vector<LegendEntry>> legendLines(QSize size) const;
  QString axisTitle() const;
  std::vector<Tick> xTicksFor(const QRect& plot) const;
  QSize sizeOr(QSize size) const { return size.isValid() ? size : this->size(); }

  cmp::Matrix m_matrix;
  std::vector<std::string> m_groups;
  QString m_title, m_unit;  // the metric's
  double m_xLo = 0, m_xHi = 1, m_yLo = 0, m_yHi = 1;
  std::vector<Tick> m_xTicks;  // at the conditions' values when they are few
};

}  // namespace rudp::gui
