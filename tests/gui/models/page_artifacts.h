// Where the page tests leave the PNGs they render (RUDPSCOPE_TEST_ARTIFACTS).
#pragma once
#include <QDir>
#include <QString>
#include <QWidget>

namespace rudp::test {

// Renders `w` to RUDPSCOPE_TEST_ARTIFACTS/<name>.png; returns the path.
inline QString savePagePng(QWidget& w, const QString& name) {
  QDir().mkpath(QStringLiteral(RUDPSCOPE_TEST_ARTIFACTS));
  const QString path = QStringLiteral(RUDPSCOPE_TEST_ARTIFACTS "/") + name + QStringLiteral(".png");
  return w.grab().save(path, "PNG") ? path : QString();
}

}  // namespace rudp::test
