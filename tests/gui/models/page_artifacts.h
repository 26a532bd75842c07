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
// from the rendered pixels (a quarter of the byte's cell or more).
inline bool hexPixelHighlighted(gui::HexView& view, int offset) {
  const QImage image = view.viewport()->grab().toImage();
  const QRect cell = view.hexRect(offset);
  const QColor highlight = view.palette().color(QPalette::Highlight);
  // The fill shows around the byte's two glyphs (which cover up to half of
  // the cell, a 'b' its top corner); an unhighlighted cell has none of it.
  int filled = 0;
  for (int y = cell.top(); y <= cell.bottom(); ++y)
    for (int x = cell.left(); x <= cell.right(); ++x) filled += QColor(image.pixel(x, y)) == highlight;
  return filled * 4 > cell.width() * cell.height();
}

}  // namespace rudp::test
