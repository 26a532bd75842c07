// The rendered timeline against the truth: stall bands where the truth's
// stalls are and nowhere else, retransmission marks of each cause at their
// times in their colour and shape, a click on a mark selecting its packet.
#include <catch2/catch.hpp>

#include <QImage>
#include <QSignalSpy>
#include <QTest>
#include <cmath>
#include <map>

#include "pixel_checks.h"
#include "settled_image.h"
#include "sim_capture.h"
#include "spurious_copies.h"
#include "widgets/mark_shapes.h"
#include "widgets/timeline_renderer.h"
#include "widgets/timeline_view.h"

using namespace rudp;
using namespace rudp::gui;
using test::sameColour;

namespace {
constexpr int64_t kClientTickNs = 33'400'000;

void save(const QImage& image, const std::string& name) {
  CHECK(image.save(QString::fromStdString(test::artifactPath(name))));
}

QImage renderWithout(const TimelineView& view, Layer layer) {
  TimelineScene s = view.scene();
  s.layers &= ~static_cast<uint32_t>(layer);
  return TimelineRenderer::render(s, view.size());
}

struct Pixel {
  int x, y;
};

// Pixels inside and outside each shape (kMarkSize 11), relative to the mark's
// pixel; see drawMark.
struct ShapeProbe {
  std::vector<Pixel> inside, outside;
};
ShapeProbe probeOf(MarkShape shape) {
  switch (shape) {
    case MarkShape::TriangleDown:  // wide at the top, a point at the bottom
      return {{{0, -3}, {-3, -4}, {3, -4}, {0, 2}}, {{-4, 3}, {4, 3}, {-3, 4}, {3, 4}}};
    case MarkShape::Diamond:
      return {{{0, 0}, {-2, 0}, {2, 0}, {0, -3}, {0, 3}}, {{-4, -4}, {4, 4}, {-4, 4}, {4, -4}}};
    case MarkShape::HollowSquare:  // a 2 px outline around an empty middle
      return {{{-4, 0}, {5, 0}, {0, -4}, {0, 5}}, {{0, 0}, {1, 1}, {-1, 1}}};
    default: return {};
  }
}

// Renders a second around `m` and checks its shape and colour at its time;
// false when another mark overlaps it there.
bool checkMark(TimelineView& view, const RetxMark& m, const std::vector<RetxMark>& all) {
  view.zoomTo(m.ts_ns - 500'000'000, m.ts_ns + 500'000'000);
  const int x = static_cast<int>(std::floor(view.xForTime(m.ts_ns)));
  for (const RetxMark& other : all)
    if (&other != &m && std::abs(view.xForTime(other.ts_ns) - x) < kMarkSize + 2) return false;
  const QImage image = test::settledImage(view);
  const TimelineScene scene = view.scene();
  const int y = static_cast<int>(std::floor(TimelineGeometry::compute(scene, view.size()).rows.retx));
  const QColor colour = colourOf(m.cause, scene.colours);
  const ShapeProbe probe = probeOf(shapeOf(m.cause));
  INFO(labelOf(m.cause) << " retransmission, frame " << m.frame << " at x " << x);
  for (Pixel p : probe.inside) CHECK(sameColour(image.pixel(x + p.x, y + p.y), colour));
  for (Pixel p : probe.outside) CHECK_FALSE(sameColour(image.pixel(x + p.x, y + p.y), colour, 60));
  const auto hit = view.hitTest(QPoint(x, y));
  REQUIRE(hit);
  CHECK(hit->frame == m.frame);
  CHECK(hit->ts_ns == m.ts_ns);
  return true;
}
}  // namespace

TEST_CASE("stall bands sit at the truth's stall times, across every lane, and nowhere else") {
  const auto& cap = test::mainCapture();
  TimelineView view;
  view.resize(1600, 900);
  view.setData(cap.timeline(cap.connOf(1)));
  const QImage with = test::settledImage(view);
  save(with, "widgets-timeline-outage.png");
  // The widget paints the scene.
  CHECK(with.convertToFormat(QImage::Format_RGB32) ==
        TimelineRenderer::render(view.scene(), view.size()).convertToFormat(QImage::Format_RGB32));
  const QImage without = renderWithout(view, Layer::StallBands);

  const auto& stalls = cap.truth[1].dir[0].stats.stalls;
  REQUIRE(stalls.size() == 3);
  const QRect plot = view.laneRect(Lane::Rtt).united(view.laneRect(Lane::ByteRate));
  const double nsPerPixel = double(view.rangeEnd() - view.rangeStart()) / plot.width();
  const int tolerance = static_cast<int>(std::ceil(kClientTickNs / nsPerPixel)) + 1;
  auto nearStall = [&](int x, int margin) {
    for (const auto& s : stalls)
      if (x >= view.xForTime(cap.captureNs(s.start_ns)) - margin &&
          x <= view.xForTime(cap.captureNs(s.end_ns)) + margin)
        return true;
    return false;
  };
  int bandColumns = 0;
  for (int x = plot.left() + 1; x < plot.right(); ++x) {
    INFO("column " << x << ", tolerance " << tolerance << " px");
    for (Lane lane : kAllLanes) {
      const double share = test::differingShare(with, without, x, view.laneRect(lane));
      if (nearStall(x, -tolerance)) CHECK(share > 0.5);  // inside: shaded in every lane
      if (!nearStall(x, tolerance)) CHECK(share == 0);   // outside: untouched
    }
    bandColumns += test::differingShare(with, without, x, view.laneRect(Lane::Rtt)) > 0.5;
  }
  CHECK(bandColumns > 200);  // the 1.5 s outage alone is ~190 px

  // The shade is the palette's stall colour over the plot background, and a
  // click on it selects the packet that started the stall.
  const TimelineScene scene = view.scene();
  const auto analysed = view.data()->of(Direction::ClientToServer).stalls;
  for (const ana::StallEvent& st : analysed) {
    const int x = static_cast<int>(view.xForTime((st.start_ns + st.end_ns) / 2));
    const QRect rate = view.laneRect(Lane::ByteRate);
    const QPoint empty(x, rate.top() + 3);  // above the byte-rate steps
    CHECK(sameColour(with.pixel(empty), test::blend(scene.colours.stallBand, scene.colours.plot), 3));
    const auto hit = view.hitTest(empty);
    REQUIRE(hit);
    CHECK(hit->kind == HitKind::StallBand);
    CHECK(hit->frame == st.first_frame);
    CHECK(hit->ts_ns == st.start_ns);
  }
}

TEST_CASE("retransmission marks sit at their times with the shape and colour of their cause") {
  const auto& cap = test::mainCapture();
  TimelineView view;
  view.resize(1600, 900);
  std::map<ana::RetxCause, int> checked;
  for (size_t conn : {0, 1}) {
    view.setData(cap.timeline(cap.connOf(conn)));
    for (Direction d : {Direction::ClientToServer, Direction::ServerToClient}) {
      view.setDirection(d);
      const auto& marks = view.data()->of(d).retransmissions;
      for (const RetxMark& m : marks) checked[m.cause] += checkMark(view, m, marks);
    }
  }
  // Most of the 49 timeouts and 39 fast copies stand alone at this zoom (10 ms in 11 px).
  CHECK(checked[ana::RetxCause::Timeout] >= 30);
  CHECK(checked[ana::RetxCause::Fast] >= 15);
  view.setData(cap.timeline(cap.connOf(1)));
  view.zoomTo(cap.captureNs(3'500'000'000), cap.captureNs(6'500'000'000));
  save(test::settledImage(view), "widgets-timeline-outage-zoom.png");
}

TEST_CASE("spurious retransmissions are hollow squares at their times") {
  grudp_sim::SimConfig cfg;
  cfg.connections = 1;
  cfg.duration_s = 6;
  cfg.seed = 4;
  const std::vector<int64_t> at{1'500'000'000, 3'000'000'000, 4'500'000'000};
  std::vector<test::InsertedCopy> copies;
  const auto cap = test::makeSimCapture(cfg, "spurious", [&](const std::string& in, const std::string& out) {
    copies = test::insertSpuriousCopies(in, out, cfg, at);
  });
  TimelineView view;
  view.resize(1200, 800);
  view.setData(cap->timeline(cap->connOf(0)));
  const auto& marks = view.data()->of(Direction::ClientToServer).retransmissions;
  REQUIRE(marks.size() == copies.size());
  CHECK(view.data()->of(Direction::ClientToServer).recoveries.empty());  // the data had arrived
  for (size_t i = 0; i < marks.size(); ++i) {
    CHECK(marks[i].cause == ana::RetxCause::Spurious);
    CHECK(marks[i].frame == copies[i].frame);
    CHECK(marks[i].ts_ns == cap->captureNs(copies[i].t_ns));
    CHECK(marks[i].raw_seq == copies[i].seq);
    CHECK(checkMark(view, marks[i], marks));
    const auto hit = view.hitTest(
        QPoint(static_cast<int>(view.xForTime(marks[i].ts_ns)),
               static_cast<int>(TimelineGeometry::compute(view.scene(), view.size()).rows.retx)));
    REQUIRE(hit);
    CHECK(hit->kind == HitKind::RetransmissionSpurious);
  }
  view.resetZoom();
  save(test::settledImage(view), "widgets-timeline-spurious.png");
}

TEST_CASE("a click on a timeout retransmission mark activates its packet") {
  const auto& cap = test::mainCapture();
  TimelineView view;
  view.resize(1600, 900);
  view.setData(cap.timeline(cap.connOf(1)));
  view.show();
  REQUIRE(QTest::qWaitForWindowExposed(&view));
  QSignalSpy activated(&view, &TimelineView::packetActivated);
  const auto& marks = view.data()->of(Direction::ClientToServer).retransmissions;
  const double retxRow = TimelineGeometry::compute(view.scene(), view.size()).rows.retx;
  int clicked = 0;
  for (ana::RetxCause cause : {ana::RetxCause::Timeout, ana::RetxCause::Fast}) {
    const auto m =
        std::find_if(marks.begin(), marks.end(), [&](const RetxMark& r) { return r.cause == cause; });
    REQUIRE(m != marks.end());
    view.zoomTo(m->ts_ns - 100'000'000, m->ts_ns + 100'000'000);
    const QPoint at(static_cast<int>(view.xForTime(m->ts_ns)), static_cast<int>(retxRow));
    const auto hit = view.hitTest(at);
    REQUIRE(hit);
    CHECK(hit->kind ==
          (cause == ana::RetxCause::Timeout ? HitKind::RetransmissionTimeout : HitKind::RetransmissionFast));
    QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, at);
    REQUIRE(activated.count() == ++clicked);
    CHECK(activated.back().at(0).toULongLong() == m->frame);
  }
  // Nothing under the mouse: no packet.
  view.resetZoom();
  const QRect events = view.laneRect(Lane::Events);
  const QPoint empty(events.left() + 3, events.top() + 3);
  CHECK_FALSE(view.hitTest(empty));
  QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, empty);
  CHECK(activated.count() == clicked);
}
