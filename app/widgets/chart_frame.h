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

  const QRect& plot() const { return m_plot; }
  const QRect& title() const { return m_title; }
  const QRect& legend() const { return m_legend; }
  QSize size() const { return m_size; }

  void paintBackground(QPainter& p, const ChartColours& c) const;
  void paintTitle(QPainter& p, const ChartColours& c, const QString& text) const;
  void paintYAxis(QPainter& p, const ChartColours& c, const ValueAxis& axis, const std::vector<Tick>& ticks,
                  const QString& label) const;
  // Ticks are values of `axis`.
  void paintXAxis(QPainter& p, const ChartColours& c, const HorizontalAxis& axis,
                  const std::vector<Tick>& ticks, const QString& label) const;
  void paintBorder(QPainter& p, const ChartColours& c) const;

 private:
  QSize m_size;
  QFont m_font;
  QRect m_title, m_legend, m_plot;
};

}  // namespace rudp::gui
