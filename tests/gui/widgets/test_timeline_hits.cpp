// Hit testing of points and marks, the marked-packet cursor, the crosshair,
// exports and the dark palette.
#include <catch2/catch.hpp>

#include <QFile>
#include <QSvgRenderer>
#include <QTest>
#include <QToolTip>
#include <cmath>

#include "pixel_checks.h"
#include "settled_image.h"
#include "sim_capture.h"
#include "widgets/timeline_renderer.h"
#include "widgets/timeline_view.h"

using namespace rudp;
using namespace rudp::gui;

namespace {
struct Fixture {
  TimelineView view;
  explicit Fixture(size_t conn = 0) {
    const auto& cap = test::mainCapture();
    view.resize(1400, 850);
    view.setData(cap.timeline(cap.connOf(conn)));
  }
  TimelineGeometry geometry() const { return TimelineGeometry::compute(view.scene(), view.size()); }
  QPointF pointOf(const LodSeries& s, size_t i, Lane lane) const {
    const TimelineGeometry g = geometry();
    return {g.time.x(s.time(i)), g.axis(lane).y(s.value(i))};
  }
};

struct Nearest {
  const LodSeries* series = nullptr;
  size_t index = 0;
  double distance = 1e9;
};
}  // namespace

TEST_CASE("a click on an RTT sample or a sequence point finds the nearest within 6 px") {
  Fixture f;
  const DirectionTimeline& d = f.view.data()->of(Direction::ClientToServer);
  f.view.zoomTo(d.rtt.time(100) - 200'000'000, d.rtt.time(100) + 200'000'000);
  int samples = 0;
  for (size_t i = 0; i < d.rtt.size(); ++i) {
    if (d.rtt.time(i) < f.view.rangeStart() || d.rtt.time(i) >= f.view.rangeEnd()) continue;
    const QPointF p = f.pointOf(d.rtt, i, Lane::Rtt);
    const auto hit = f.view.hitTest(QPoint(static_cast<int>(p.x()), static_cast<int>(p.y())));
    REQUIRE(hit);
    CHECK(hit->kind == HitKind::RttSample);
    // Samples closer than a pixel apart are one dot; any of them may answer.
    if (hit->frame != d.rtt.frame(i)) {
      CHECK(std::abs(f.view.xForTime(hit->ts_ns) - p.x()) < 1.5);
    } else {
      CHECK(hit->value == d.rtt.value(i));
      ++samples;
    }
  }
  CHECK(samples > 10);

  // Sequence graph: whatever point of sent / retransmitted / acked is nearest.
  int points = 0;
  for (size_t i = 0; i < d.seqSent.size(); ++i) {
    if (d.seqSent.time(i) < f.view.rangeStart() || d.seqSent.time(i) >= f.view.rangeEnd()) continue;
    const QPointF p = f.pointOf(d.seqSent, i, Lane::Sequence);
    const QPoint at(static_cast<int>(p.x()), static_cast<int>(p.y()));
    Nearest best;
    for (const LodSeries* s : {&d.seqSent, &d.seqRetransmitted, &d.seqAcked})
      for (size_t k = 0; k < s->size(); ++k) {
        const QPointF q = f.pointOf(*s, k, Lane::Sequence);
        const double dist = std::hypot(q.x() - (at.x() + 0.5), q.y() - (at.y() + 0.5));
        if (dist < best.distance) best = {s, k, dist};
      }
    const auto hit = f.view.hitTest(at);
    REQUIRE(hit);
    CHECK(hit->kind == HitKind::SeqPoint);
    CHECK(std::abs(std::hypot(f.view.xForTime(hit->ts_ns) - (at.x() + 0.5),
                              f.geometry().axis(Lane::Sequence).y(hit->value) - (at.y() + 0.5)) -
                   best.distance) < 1e-9);
    ++points;
  }
  CHECK(points > 5);
}

TEST_CASE("a click on a loss mark selects the lost packet") {
  Fixture f;
  const auto& losses = f.view.data()->of(Direction::ClientToServer).losses;
  REQUIRE(!losses.empty());
  const double row = f.geometry().rows.loss;
  for (const LossMark& m : losses) {
    f.view.zoomTo(m.ts_ns - 50'000'000, m.ts_ns + 50'000'000);
    const auto hit =
        f.view.hitTest(QPoint(static_cast<int>(f.view.xForTime(m.ts_ns)), static_cast<int>(row)));
    REQUIRE(hit);
    CHECK(hit->kind == HitKind::Loss);
    CHECK(hit->ts_ns == m.ts_ns);
    CHECK(hit->frame == m.frame);
  }
}

TEST_CASE("the marked packet gets a cursor at its time") {
  Fixture f(1);
  const RetxMark& m = f.view.data()->of(Direction::ClientToServer).retransmissions.front();
  const QRect rate = f.view.laneRect(Lane::PacketRate);
  auto cursorShare = [&](const QImage& image) {
    const int x = static_cast<int>(std::floor(f.view.xForTime(m.ts_ns)));
    int n = 0;
    for (int y = rate.top() + 1; y < rate.bottom(); ++y)
      n += test::sameColour(image.pixel(x, y), f.view.scene().colours.cursor, 10);
    return double(n) / (rate.height() - 2);
  };
  CHECK(cursorShare(test::settledImage(f.view)) == 0);
  f.view.setMarkedFrame(m.frame);
  const QImage marked = test::settledImage(f.view);
  CHECK(cursorShare(marked) > 0.4);  // a dashed line
  marked.save(QString::fromStdString(test::artifactPath("widgets-timeline-marked.png")));
  f.view.setMarkedFrame(0);
  CHECK(cursorShare(test::settledImage(f.view)) == 0);
}

TEST_CASE("hovering shows the crosshair and a tooltip naming the mark") {
  Fixture f(1);
  f.view.show();
  REQUIRE(QTest::qWaitForWindowExposed(&f.view));
  const RetxMark& m = f.view.data()->of(Direction::ClientToServer).retransmissions.front();
  f.view.zoomTo(m.ts_ns - 100'000'000, m.ts_ns + 100'000'000);
  const QPoint at(static_cast<int>(f.view.xForTime(m.ts_ns)), static_cast<int>(f.geometry().rows.retx));
  QTest::mouseMove(&f.view, at);
  CHECK(QToolTip::isVisible());
  CHECK(QToolTip::text().contains(QStringLiteral("timeout retransmission of seq %1").arg(m.raw_seq)));
  CHECK(QToolTip::text().contains(QStringLiteral("frame %1").arg(m.frame)));
  const QImage image = test::settledImage(f.view);
  image.save(QString::fromStdString(test::artifactPath("widgets-timeline-crosshair.png")));
  // The dashed vertical line runs through the lanes at the mouse.
  const QRect seq = f.view.laneRect(Lane::Sequence);
  int crosshair = 0;
  for (int y = seq.top() + 1; y < seq.bottom(); ++y)
    crosshair +=
        image.pixel(at.x(), y) != TimelineRenderer::render(f.view.scene(), f.view.size()).pixel(at.x(), y);
  CHECK(crosshair > seq.height() / 4);
}

TEST_CASE("PNG and SVG exports draw the same scene at the asked size") {
  Fixture f(1);
  const QString png = QString::fromStdString(test::artifactPath("widgets-timeline-export.png"));
  const QString svg = QString::fromStdString(test::artifactPath("widgets-timeline-export.svg"));
  REQUIRE(f.view.exportPng(png, QSize(1200, 700)));
  const QImage image(png);
  CHECK(image.size() == QSize(1200, 700));
  CHECK(image.convertToFormat(QImage::Format_RGB32) ==
        TimelineRenderer::render(f.view.scene(), QSize(1200, 700)).convertToFormat(QImage::Format_RGB32));
  REQUIRE(f.view.exportSvg(svg, QSize(1200, 700)));
  QSvgRenderer renderer(svg);
  CHECK(renderer.isValid());
  CHECK(renderer.viewBox() == QRect(0, 0, 1200, 700));
  QFile file(svg);
  REQUIRE(file.open(QIODevice::ReadOnly));
  const QByteArray text = file.readAll();
  CHECK(text.count("<path") + text.count("<polyline") > 50);
  CHECK(text.contains("Connection 2"));
  CHECK(f.view.exportPng(png));  // no size: the widget's
  CHECK(QImage(png).size() == f.view.size());
}

TEST_CASE("a dark palette gives a dark chart with light data") {
  Fixture f(1);
  QPalette dark;
  dark.setColor(QPalette::Window, QColor(0x20, 0x21, 0x24));
  dark.setColor(QPalette::WindowText, QColor(0xe8, 0xea, 0xed));
  dark.setColor(QPalette::Base, QColor(0x17, 0x18, 0x1a));
  dark.setColor(QPalette::Text, QColor(0xe8, 0xea, 0xed));
  f.view.setPalette(dark);
  const TimelineScene scene = f.view.scene();
  CHECK(scene.colours.dark);
  CHECK(scene.colours.seqSent == QColor(0xe8, 0xea, 0xed));  // tcptrace: data in white
  const QImage image = test::settledImage(f.view);
  image.save(QString::fromStdString(test::artifactPath("widgets-timeline-dark.png")));
  CHECK(test::sameColour(image.pixel(2, 2), QColor(0x20, 0x21, 0x24), 0));
  const QRect rate = f.view.laneRect(Lane::PacketRate);
  CHECK(qGray(image.pixel(rate.left() + 5, rate.top() + 5)) < 60);
}

TEST_CASE("renders off the UI thread, showing the last image stretched to the new range meanwhile") {
  Fixture f(1);
  TimelineView& v = f.view;
  const QImage full = test::settledImage(v);
  const ana::StallEvent outage = v.data()->of(Direction::ClientToServer).stalls.at(1);  // 4 to 5.5 s
  const int64_t mid = (outage.start_ns + outage.end_ns) / 2;
  v.zoomTo(mid - 2'000'000'000, mid + 2'000'000'000);
  const QImage stale = v.grab().toImage();
  CHECK(v.renderPending());  // the result arrives through the event loop
  const QColor shade = test::blend(v.scene().colours.stallBand, v.scene().colours.plot);
  const QRect bytes = v.laneRect(Lane::ByteRate);
  // The band is already where it belongs at the new zoom (stretched pixels).
  for (int64_t t : {outage.start_ns + 100'000'000, mid, outage.end_ns - 100'000'000})
    CHECK(test::sameColour(stale.pixel(static_cast<int>(v.xForTime(t)), bytes.top() + 3), shade, 12));
  CHECK(!test::sameColour(
      stale.pixel(static_cast<int>(v.xForTime(outage.start_ns - 300'000'000)), bytes.top() + 3), shade, 12));
  const QImage settled = test::settledImage(v);
  CHECK_FALSE(v.renderPending());
  CHECK(settled.convertToFormat(QImage::Format_RGB32) ==
        TimelineRenderer::render(v.scene(), v.size()).convertToFormat(QImage::Format_RGB32));
  CHECK(settled != full);

  // Synchronous mode: the first paint after a change shows it.
  v.setAsyncRendering(false);
  v.zoomTo(mid - 500'000'000, mid + 500'000'000);
  CHECK(v.grab().toImage().convertToFormat(QImage::Format_RGB32) ==
        TimelineRenderer::render(v.scene(), v.size()).convertToFormat(QImage::Format_RGB32));
  CHECK_FALSE(v.renderPending());
}
