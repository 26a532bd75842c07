// A histogram (bars, optional log y axis) for the statistics page: RTT per
// direction, loss-burst lengths. Bins with labels are drawn as categories
// (one slot each); otherwise on a numeric x axis.
#pragma once
#include <optional>
#include <vector>

#include "widgets/chart_widget.h"
#include "widgets/histogram_bins.h"

namespace rudp::gui {

class HistogramChart : public ChartWidget {
  Q_OBJECT
 public:
  explicit HistogramChart(QWidget* parent = nullptr);

  void setAxisLabels(const QString& x, const QString& y);
  void setBins(std::vector<HistogramBin> bins);
  const std::vector<HistogramBin>& bins() const { return m_bins; }
  // Log scale: bars start at 1 on a decade axis (a bin of count 0 draws nothing).
  void setLogY(bool on);

  // For tests and tooltips, in widget coordinates.
  QRectF barRect(int bin) const;
  std::optional<int> binAt(QPoint p) const;

 protected:
  void paintContents(QPainter& p, const ChartColours& c, QSize size) const override;
  QString toolTipAt(QPoint at) const override;
  void addMenuActions(QMenu& menu) override;

 private:
  struct Geometry;
  Geometry geometryFor(QSize size) const;
  bool categorical() const;
  QString binText(const HistogramBin& b) const;

  QString m_xLabel, m_yLabel = QStringLiteral("count");
  std::vector<HistogramBin> m_bins;
  bool m_logY = false;
};

}  // namespace rudp::gui
