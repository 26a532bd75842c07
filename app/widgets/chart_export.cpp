#include "widgets/chart_export.h"

#include <QFileDialog>
#include <QImage>
#include <QMessageBox>
#include <QSvgGenerator>
#include <QWidget>

namespace rudp::gui {

QSize exportSize(const QWidget* widget, QSize requested) {
  if (requested.isValid() && !requested.isEmpty()) return requested;
  return widget->size().isEmpty() ? widget->sizeHint() : widget->size();
}

bool exportChartPng(const QString& path, QSize size, const ChartPaint& paint) {
  if (size.isEmpty()) return false;
  QImage image(size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::transparent);
  {
    QPainter p(&image);
    paint(p, size);
  }
  return image.save(path, "PNG");
}

bool exportChartSvg(const QString& path, QSize size, const QString& title, const ChartPaint& paint) {
  if (size.isEmpty()) return false;
  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(size);
  svg.setViewBox(QRect(QPoint(0, 0), size));
  svg.setTitle(title);
  svg.setDescription(QStringLiteral("rudpscope"));
  QPainter p;
  if (!p.begin(&svg)) return false;
  paint(p, size);
  return p.end();
}

bool saveChartAs(QWidget* parent, bool svg, QSize size, const QString& title, const ChartPaint& paint) {
  const QString filter = svg ? QStringLiteral("SVG image (*.svg)") : QStringLiteral("PNG image (*.png)");
  QString path =
      QFileDialog::getSaveFileName(parent, QStringLiteral("Save %1").arg(title), QString(), filter);
  if (path.isEmpty()) return false;
  const QString suffix = svg ? QStringLiteral(".svg") : QStringLiteral(".png");
  if (!path.endsWith(suffix, Qt::CaseInsensitive)) path += suffix;
  const bool ok = svg ? exportChartSvg(path, size, title, paint) : exportChartPng(path, size, paint);
  if (!ok)
    QMessageBox::warning(parent, QStringLiteral("Save %1").arg(title),
                         QStringLiteral("Could not write %1.").arg(path));
  return ok;
}

}  // namespace rudp::gui
