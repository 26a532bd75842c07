// The frame of a statistics chart: title, legend row, plot rectangle, the
// two axes with their ticks, grid and labels.
#pragma once
#include <QFontMetrics>
#include <QPainter>
#include <QRect>
#include <QString>
#include <vector>

#include "widgets/chart_axes.h"
#include "widgets/chart_colours.h"

namespace rudp::gui {

class ChartFrame {
 public:
  // `legendRows`: rows reserved under the title for a legend.
  ChartFrame(QSize size, const QFont& font, bool title, int legendRows);

  const QRect& plot() const { return plot_; }
  const QRect& title() const { return title_; }
  const QRect& legend() const { return legend_; }
  QSize size() const { return size_; }

  void paintBackground(QPainter& p, const ChartColours& c) const;
  void paintTitle(QPainter& p, const ChartColours& c, const QString& text) const;
  void paintYAxis(QPainter& p, const ChartColours& c, const ValueAxis& axis, const std::vector<Tick>& ticks,
                  const QString& label) const;
  // Ticks are values of `axis`.
  void paintXAxis(QPainter& p, const ChartColours& c, const HorizontalAxis& axis,
                  const std::vector<Tick>& ticks, const QString& label) const;
  void paintBorder(QPainter& p, const ChartColours& c) const;

 private:
  QSize size_;
  QFont font_;
  QRect title_, legend_, plot_;
};

}  // namespace rudp::gui
