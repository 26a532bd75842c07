// A histogram (bars, optional log y axis) for the statistics page: RTT per
// direction, loss-burst lengths. Bins with labels are drawn as categories
// (one slot each); otherwise on a numeric x axis.
#pragma once
#include <QWidget>
#include <optional>
#include <vector>

#include "widgets/histogram_bins.h"

namespace rudp::gui {

class HistogramChart : public QWidget {
  Q_OBJECT
 public:
  explicit HistogramChart(QWidget* parent = nullptr);

  void setTitle(const QString& title);
  void setAxisLabels(const QString& x, const QString& y);
  void setBins(std::vector<HistogramBin> bins);
  const std::vector<HistogramBin>& bins() const { return bins_; }
  // Log scale: bars start at 1 on a decade axis (a bin of count 0 draws nothing).
  void setLogY(bool on);
  bool logY() const { return logY_; }

  // For tests and tooltips, in widget coordinates.
  QRectF barRect(int bin) const;
  std::optional<int> binAt(QPoint p) const;

  void paint(QPainter& p, QSize size) const;
  // An invalid size exports at the widget's size (its size hint when hidden).
  bool exportPng(const QString& path, QSize size = {}) const;
  bool exportSvg(const QString& path, QSize size = {}) const;

  QSize sizeHint() const override { return {480, 300}; }
  QSize minimumSizeHint() const override { return {220, 160}; }

 protected:
  void paintEvent(QPaintEvent*) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void contextMenuEvent(QContextMenuEvent* e) override;

 private:
  struct Geometry;
  Geometry geometryFor(QSize size) const;
  bool categorical() const;
  QString binText(const HistogramBin& b) const;

  QString title_, xLabel_, yLabel_ = QStringLiteral("count");
  std::vector<HistogramBin> bins_;
  bool logY_ = false;
};

}  // namespace rudp::gui
