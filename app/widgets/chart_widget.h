// Base of the statistics charts (histogram, CDF): the widget plumbing they
// share. A chart paints itself through paint(QPainter&, QSize), so the
// screen, PNG and SVG exports and "Save as..." all go through one routine:
// the frame (background, title, border) here, the axes and data in the
// subclass's paintContents; the hover tooltip and extra context-menu
// actions come from the subclass too.
#pragma once
#include <QWidget>

#include "widgets/chart_frame.h"

class QMenu;

namespace rudp::gui {

class ChartWidget : public QWidget {
  Q_OBJECT
 public:
  explicit ChartWidget(QWidget* parent = nullptr);

  void setTitle(const QString& title);
  const QString& chartTitle() const { return m_title; }

  void paint(QPainter& p, QSize size) const;
  // An invalid size exports at the widget's size (its size hint when hidden).
  bool exportPng(const QString& path, QSize size = {}) const;
  bool exportSvg(const QString& path, QSize size = {}) const;

  QSize sizeHint() const override { return {480, 300}; }
  QSize minimumSizeHint() const override { return {220, 160}; }

 protected:
  // Inside the frame's background and border, with the widget's font set.
  virtual void paintContents(QPainter& p, const ChartColours& c, QSize size) const = 0;
  // Rows under the title a legend needs at `size`.
  virtual int legendRows(QSize size) const {
    (void)size;
    return 0;
  }
  // False for a chart of several plots (MatrixChart): the frame then draws
  // no border around its single plot rectangle.
  virtual bool framedPlot() const { return true; }
  ChartFrame frameFor(QSize size) const;
  // The hover text at `at` (widget coordinates); empty hides the tooltip.
  virtual QString toolTipAt(QPoint at) const = 0;
  // Chart-specific actions, listed above the "Save as" ones.
  virtual void addMenuActions(QMenu& menu) { (void)menu; }
  // The centred "No data" of an empty chart.
  static void paintNoData(QPainter& p, const ChartColours& c, const QRect& plot);

  void paintEvent(QPaintEvent*) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void contextMenuEvent(QContextMenuEvent* e) override;

 private:
  QString m_title;
};

}  // namespace rudp::gui
