// Empirical CDFs of one or more sample sets overlaid, with a legend giving
// each set's size and median (RTT per direction on the statistics page).
// Drawn per pixel column (a binary search each), so 1 M samples cost the
// same as 1 k.
#pragma once
#include <QWidget>
#include <vector>

namespace rudp::gui {

class CdfChart : public QWidget {
  Q_OBJECT
 public:
  explicit CdfChart(QWidget* parent = nullptr);

  void setTitle(const QString& title);
  void setAxisLabel(const QString& x);
  void clear();
  // Values in any order; an empty set is listed in the legend only.
  void addSeries(const QString& name, std::vector<double> values);
  int seriesCount() const { return static_cast<int>(series_.size()); }
  // Share of the series' values <= v (the ECDF).
  double fractionAt(int series, double v) const;
  // The smallest value with at least share q of the series at or below it.
  double quantile(int series, double q) const;

  // For tests: the x of a value and the y of a share, in widget coordinates.
  double xForValue(double v) const;
  double yForFraction(double f) const;

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
  struct Series {
    QString name;
    std::vector<double> sorted;
  };
  struct Geometry;
  Geometry geometryFor(QSize size) const;
  void paintSeries(QPainter& p, const Geometry& g, const Series& s, const QColor& colour) const;
  QString legendText(const Series& s) const;

  QString title_, xLabel_;
  std::vector<Series> series_;
};

}  // namespace rudp::gui
