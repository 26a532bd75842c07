// The timeline renders off the UI thread: a grab right after a change shows
// the previous image stretched. Tests look at the settled image.
#pragma once
#include <QImage>
#include <QTest>
#include <catch2/catch.hpp>

#include "widgets/timeline_view.h"

namespace rudp::test {

inline QImage settledImage(gui::TimelineView& view) {
  view.grab();  // a paint starts the render of the current state
  REQUIRE(QTest::qWaitFor([&] { return !view.renderPending(); }, 10000));
  return view.grab().toImage();
}

}  // namespace rudp::test
