// Where the page tests leave the PNGs they render (RUDPSCOPE_TEST_ARTIFACTS),
// and what they read from the pictures.
#pragma once
#include <QColor>
#include <QDir>
#include <QImage>
#include <QPalette>
#include <QString>
#include <QWidget>

#include "widgets/hex_view.h"

namespace rudp::test {

// Renders `w` to RUDPSCOPE_TEST_ARTIFACTS/<name>.png; returns the path.
inline QString savePagePng(QWidget& w, const QString& name) {
  QDir().mkpath(QStringLiteral(RUDPSCOPE_TEST_ARTIFACTS));
  const QString path = QStringLiteral(RUDPSCOPE_TEST_ARTIFACTS "/") + name + QStringLiteral(".png");
  return w.grab().save(path, "PNG") ? path : QString();
}

// Whether byte `offset` of the hex view is drawn on the highlight colour, read
// from the rendered pixels (one pixel inside the byte's cell).
inline bool hexPixelHighlighted(gui::HexView& view, int offset) {
  const QImage image = view.viewport()->grab().toImage();
  const QRect cell = view.hexRect(offset);
  return QColor(image.pixel(cell.left() + 1, cell.top() + 1)) == view.palette().color(QPalette::Highlight);
}

}  // namespace rudp::test
