// Empirical CDFs of one or more sample sets overlaid, with a legend giving
// each set's size and median (RTT per direction on the statistics page).
// Drawn per pixel column (a binary search each), so 1 M samples cost the
// same as 1 k.
#pragma once
#include <vector>

#include "widgets/chart_widget.h"
#include "widgets/legend_painter.h"

namespace rudp::gui {

class CdfChart : public ChartWidget {
  Q_OBJECT
 public:
  explicit CdfChart(QWidget* parent = nullptr);

  void setAxisLabel(const QString& x);
  void clear();
  // Values in any order; an empty set is listed in the legend only.
  void addSeries(const QString& name, std::vector<double> values);
  int seriesCount() const { return static_cast<int>(m_series.size()); }
  size_t valueCount(int series) const { return m_series[size_t(series)].sorted.size(); }
  // Share of the series' values <= v (the ECDF).
  double fractionAt(int series, double v) const;
  // The smallest value with at least share q of the series at or below it.
  double quantile(int series, double q) const;

  // For tests: the x of a value and the y of a share, in widget coordinates.
  double xForValue(double v) const;
  double yForFraction(double f) const;

 protected:
  void paintContents(QPainter& p, const ChartColours& c, QSize size) const override;
  // As many rows as the series' names need at that width.
  int legendRows(QSize size) const override;
  QString toolTipAt(QPoint at) const override;

 private:
  struct Series {
    QString name;
    std::vector<double> sorted;
  };
  struct Geometry;
  Geometry geometryFor(QSize size) const;
  void paintSeries(QPainter& p, const Geometry& g, const Series& s, const QColor& colour) const;
  QString legendText(const Series& s) const;
  std::vector<std::vector<LegendEntry>> legendLines(const ChartColours& c, QSize size) const;

  QString m_xLabel;
  std::vector<Series> m_series;
};

}  // namespace rudp::gui
