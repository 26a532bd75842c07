#include "widgets/chart_widget.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include "widgets/chart_export.h"
#include "widgets/text_label.h"

namespace rudp::gui {

namespace {
ChartPaint paintOf(const ChartWidget* chart) {
  return [chart](QPainter& p, QSize s) { chart->paint(p, s); };
}
}  // namespace

ChartWidget::ChartWidget(QWidget* parent) : QWidget(parent) { setMouseTracking(true); }

void ChartWidget::setTitle(const QString& title) {
  m_title = title;
  update();
}

bool ChartWidget::exportPng(const QString& path, QSize size) const {
  return exportChartPng(path, exportSize(this, size), paintOf(this));
}

bool ChartWidget::exportSvg(const QString& path, QSize size) const {
  return exportChartSvg(path, exportSize(this, size), m_title, paintOf(this));
}

ChartFrame ChartWidget::frameFor(QSize size) const {
  return ChartFrame(size, font(), !m_title.isEmpty(), legendRows(size));
}

void ChartWidget::paint(QPainter& p, QSize size) const {
  const ChartColours c = ChartColours::fromPalette(palette());
  const ChartFrame frame = frameFor(size);
  p.save();
  p.setFont(font());
  frame.paintBackground(p, c);
  frame.paintTitle(p, c, m_title);
  paintContents(p, c, size);
  if (framedPlot()) frame.paintBorder(p, c);
  p.restore();
}

void ChartWidget::paintNoData(QPainter& p, const ChartColours& c, const QRect& plot) {
  p.setPen(c.dimText);
  drawLabel(p, plot, Qt::AlignCenter, QStringLiteral("No data"));
}

void ChartWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  paint(p, size());
}

void ChartWidget::mouseMoveEvent(QMouseEvent* e) {
  const QPoint at = e->position().toPoint();
  const QString text = toolTipAt(at);
  if (text.isEmpty())
    QToolTip::hideText();
  else
    QToolTip::showText(mapToGlobal(at) + QPoint(12, 12), text, this);
}

void ChartWidget::contextMenuEvent(QContextMenuEvent* e) {
  QMenu menu(this);
  addMenuActions(menu);
  if (!menu.isEmpty()) menu.addSeparator();
  auto save = [this](bool svg) { saveChartAs(this, svg, size(), m_title, paintOf(this)); };
  menu.addAction(QStringLiteral("Save as PNG..."), this, [save] { save(false); });
  menu.addAction(QStringLiteral("Save as SVG..."), this, [save] { save(true); });
  menu.exec(e->globalPos());
}

}  // namespace rudp::gui
