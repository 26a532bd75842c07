// Wireshark's stream-graph keys, the wheel and the mouse drags change the
// visible range exactly as timeline_actions.h specifies.
#include <catch2/catch.hpp>

#include <QApplication>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

#include "sim_capture.h"
#include "widgets/timeline_view.h"

using namespace rudp;
using namespace rudp::gui;

namespace {
struct Range {
  int64_t start, end;
  int64_t span() const { return end - start; }
  int64_t mid() const { return start + span() / 2; }
};

Range rangeOf(const TimelineView& v) { return {v.rangeStart(), v.rangeEnd()}; }

// Within a few ns of rounding.
void checkRange(const TimelineView& v, int64_t start, int64_t end) {
  CHECK(std::abs(v.rangeStart() - start) <= 2);
  CHECK(std::abs(v.rangeEnd() - end) <= 2);
}

void checkValues(const TimelineView& v, Lane lane, double min, double max) {
  const ValueSpan s = v.valueRange(lane);
  CHECK(s.min == Approx(min));
  CHECK(s.max == Approx(max));
}

struct Fixture {
  TimelineView view;
  Fixture() {
    const auto& cap = test::mainCapture();
    view.resize(1400, 850);
    view.setData(cap.timeline(cap.connOf(1)));
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
  }
};
}  // namespace

TEST_CASE("+ and - zoom both axes by two (time around the middle, RTT towards zero), 0 resets") {
  Fixture f;
  TimelineView& v = f.view;
  QSignalSpy ranges(&v, &TimelineView::rangeChanged);
  const Range full = rangeOf(v);
  CHECK(full.start == v.fullStart());
  const ValueSpan y = v.valueRange(Lane::Rtt);
  QTest::keyClick(&v, Qt::Key_Plus);
  checkRange(v, full.mid() - full.span() / 4, full.mid() + full.span() / 4);
  CHECK(y.min == 0);
  checkValues(v, Lane::Rtt, 0, y.max / 2);
  REQUIRE(ranges.count() == 1);
  CHECK(ranges.back().at(0).toLongLong() == v.rangeStart());
  CHECK(ranges.back().at(1).toLongLong() == v.rangeEnd());

  QTest::keyClick(&v, Qt::Key_Minus);  // back out, clamped to the connection
  checkRange(v, full.start, full.end);
  checkValues(v, Lane::Rtt, y.min, y.max);
  QTest::keyClick(&v, Qt::Key_I);  // Wireshark's other zoom-in keys
  QTest::keyClick(&v, Qt::Key_Equal);
  CHECK(rangeOf(v).span() == Approx(full.span() / 4.0).margin(4));
  QTest::keyClick(&v, Qt::Key_0);
  checkRange(v, full.start, full.end);
  checkValues(v, Lane::Rtt, y.min, y.max);  // automatic again
  QTest::keyClick(&v, Qt::Key_O);
  checkRange(v, full.start, full.end);  // never beyond the connection
}

TEST_CASE("x and y zoom one axis, Shift zooms it out") {
  Fixture f;
  TimelineView& v = f.view;
  const Range full = rangeOf(v);
  QSignalSpy ranges(&v, &TimelineView::rangeChanged);
  const ValueSpan y = v.valueRange(Lane::Rtt);
  CHECK(y.min == 0);

  QTest::keyClick(&v, Qt::Key_Y);
  checkRange(v, full.start, full.end);
  checkValues(v, Lane::Rtt, 0, y.max / 2);
  CHECK(ranges.count() == 0);  // time did not move

  QTest::keyClick(&v, Qt::Key_X);
  checkRange(v, full.mid() - full.span() / 4, full.mid() + full.span() / 4);
  checkValues(v, Lane::Rtt, 0, y.max / 2);
  CHECK(ranges.count() == 1);

  QTest::keyClick(&v, Qt::Key_X, Qt::ShiftModifier);
  checkRange(v, full.start, full.end);
  QTest::keyClick(&v, Qt::Key_Y, Qt::ShiftModifier);
  checkValues(v, Lane::Rtt, y.min, y.max);
}

TEST_CASE("arrows pan a tenth of the span, a hundredth with Shift") {
  Fixture f;
  TimelineView& v = f.view;
  QTest::keyClick(&v, Qt::Key_Plus);
  QTest::keyClick(&v, Qt::Key_Plus);
  const Range r = rangeOf(v);
  const ValueSpan y = v.valueRange(Lane::Rtt);
  const double ySpan = y.max - y.min;

  QTest::keyClick(&v, Qt::Key_Right);
  checkRange(v, r.start + r.span() / 10, r.end + r.span() / 10);
  QTest::keyClick(&v, Qt::Key_Left);
  checkRange(v, r.start, r.end);
  QTest::keyClick(&v, Qt::Key_Left, Qt::ShiftModifier);
  checkRange(v, r.start - r.span() / 100, r.end - r.span() / 100);
  QTest::keyClick(&v, Qt::Key_L, Qt::ShiftModifier);  // vi keys too
  checkRange(v, r.start, r.end);

  QTest::keyClick(&v, Qt::Key_Up);
  checkValues(v, Lane::Rtt, y.min + ySpan / 10, y.max + ySpan / 10);
  QTest::keyClick(&v, Qt::Key_Down, Qt::ShiftModifier);
  checkValues(v, Lane::Rtt, y.min + ySpan * 0.09, y.max + ySpan * 0.09);
  checkRange(v, r.start, r.end);

  // Panning stops at the connection's ends.
  for (int i = 0; i < 20; ++i) QTest::keyClick(&v, Qt::Key_Left);
  checkRange(v, v.fullStart(), v.fullStart() + r.span());
  QTest::keyClick(&v, Qt::Key_Home);
  checkRange(v, v.fullStart(), v.fullEnd());
}

TEST_CASE("y keys act on the lane under the mouse, D switches direction, Space the crosshair") {
  Fixture f;
  TimelineView& v = f.view;
  const ValueSpan rtt = v.valueRange(Lane::Rtt), seq = v.valueRange(Lane::Sequence);
  QTest::mouseMove(&v, v.laneRect(Lane::Sequence).center());
  CHECK(v.activeLane() == Lane::Sequence);
  QTest::keyClick(&v, Qt::Key_Y);
  checkValues(v, Lane::Rtt, rtt.min, rtt.max);
  const double mid = (seq.min + seq.max) / 2, half = (seq.max - seq.min) / 2;
  checkValues(v, Lane::Sequence, mid - half / 2, mid + half / 2);

  QSignalSpy directions(&v, &TimelineView::directionChanged);
  QTest::keyClick(&v, Qt::Key_D);
  CHECK(v.direction() == Direction::ServerToClient);
  REQUIRE(directions.count() == 1);
  CHECK(directions.back().at(0).value<Direction>() == Direction::ServerToClient);
  QTest::keyClick(&v, Qt::Key_D);
  CHECK(v.direction() == Direction::ClientToServer);

  const bool crosshair = v.crosshairEnabled();
  QTest::keyClick(&v, Qt::Key_Space);
  CHECK(v.crosshairEnabled() != crosshair);

  QSignalSpy steps(&v, &TimelineView::connectionStepRequested);
  QTest::keyClick(&v, Qt::Key_PageDown);
  QTest::keyClick(&v, Qt::Key_PageUp);
  REQUIRE(steps.count() == 2);
  CHECK(steps.at(0).at(0).toInt() == 1);
  CHECK(steps.at(1).at(0).toInt() == -1);
}

TEST_CASE("the wheel zooms around the mouse, a drag pans, a rubber band zooms into itself") {
  Fixture f;
  TimelineView& v = f.view;
  const QRect rtt = v.laneRect(Lane::Rtt);
  const QPoint at(rtt.left() + rtt.width() / 3, rtt.center().y());
  const int64_t anchor = v.timeForX(at.x() + 0.5);
  const int64_t span = rangeOf(v).span();
  QWheelEvent wheel(at, v.mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                    Qt::NoScrollPhase, false);
  QApplication::sendEvent(&v, &wheel);
  CHECK(rangeOf(v).span() == Approx(span * 0.8).margin(4));
  CHECK(std::abs(v.xForTime(anchor) - (at.x() + 0.5)) < 0.01);  // the time under the mouse stays put

  // Drag 200 px to the left: the view moves 200 px later.
  const Range before = rangeOf(v);
  const double nsPerPixel = double(before.span()) / rtt.width();
  QTest::mousePress(&v, Qt::LeftButton, Qt::NoModifier, at);
  QTest::mouseMove(&v, at - QPoint(100, 0));
  QTest::mouseMove(&v, at - QPoint(200, 0));
  QTest::mouseRelease(&v, Qt::LeftButton, Qt::NoModifier, at - QPoint(200, 0));
  const int64_t shift = std::llround(200 * nsPerPixel);
  checkRange(v, before.start + shift, before.end + shift);

  // Zoom mode: the band's times become the range, its values the lane's.
  v.setDragMode(TimelineView::DragMode::Zoom);
  const QPoint from(rtt.left() + 300, rtt.top() + 30), to(rtt.left() + 700, rtt.top() + 90);
  const int64_t t0 = v.timeForX(from.x()), t1 = v.timeForX(to.x() + 1);
  const double v0 = TimelineGeometry::compute(v.scene(), v.size()).axis(Lane::Rtt).value(to.y() + 1);
  const double v1 = TimelineGeometry::compute(v.scene(), v.size()).axis(Lane::Rtt).value(from.y());
  QTest::mousePress(&v, Qt::LeftButton, Qt::NoModifier, from);
  QTest::mouseMove(&v, (from + to) / 2);
  QTest::mouseMove(&v, to);
  QTest::mouseRelease(&v, Qt::LeftButton, Qt::NoModifier, to);
  checkRange(v, t0, t1);
  checkValues(v, Lane::Rtt, v0, v1);
}
