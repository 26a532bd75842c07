// A row of legend entries (a mark and its label), for the timeline's lanes
// and the statistics charts.
#pragma once
#include <QColor>
#include <QPainter>
#include <QString>
#include <vector>

#include "widgets/chart_colours.h"
#include "widgets/mark_shapes.h"

namespace rudp::gui {

struct LegendEntry {
  MarkShape shape = MarkShape::Dot;
  QColor colour;
  QString text;
};

class LegendPainter {
 public:
  LegendPainter(QPainter& p, const ChartColours& colours) : p_(p), m_colours(colours) {}
  // Width and height of the row.
  QSize size(const std::vector<LegendEntry>& entries) const;
  // Draws the row with its top-right corner at `topRight`, on a box of the
  // plot colour so lines under it do not cross the labels.
  QRect paintRightAligned(const std::vector<LegendEntry>& entries, QPoint topRight, bool box = true);
  void paintAt(const std::vector<LegendEntry>& entries, QPoint topLeft, bool box = true);

  // The entries split into rows no wider than `width` in `font` (at least
  // one entry a row), for a legend too long for one row.
  static std::vector<std::vector<LegendEntry>> wrap(const std::vector<LegendEntry>& entries,
                                                    const QFont& font, int width);

 private:
  static constexpr int kSwatch = 14, kPad = 4, kSpacing = 12;
  QPainter& p_;
  const ChartColours& m_colours;
};

}  // namespace rudp::gui
