// The RTT lane of connection 1 of the main capture (an outage 4-5.5 s, so
// one sample near 1.5 s stretches the lane): limit labels that never cover
// each other, samples drawn over the SRTT/RTO lines in both palettes, and
// y zoom that brings the usual range back without clipping by default.
#include <catch2/catch.hpp>

#include <QPalette>
#include <QTest>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "pixel_checks.h"
#include "sim_capture.h"
#include "store/store_reader.h"
#include "widgets/limit_labels.h"
#include "widgets/timeline_renderer.h"
#include "widgets/timeline_view.h"

using namespace rudp;
using namespace rudp::gui;
using test::sameColour;

namespace {
const std::vector<double> kLimits{150, 250, 300};

// A dark palette as the app's (palette_theme.cpp): light text on dark bases.
QPalette darkPalette() {
  QPalette p;
  p.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x30));
  p.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
  for (auto role : {QPalette::WindowText, QPalette::Text}) p.setColor(role, QColor(0xdf, 0xe1, 0xe5));
  return p;
}

struct Lane1 {
  TimelineView view;
  std::vector<ana::RttEvent> samples;
  explicit Lane1(const QPalette& palette = QPalette()) {
    const auto& cap = test::mainCapture();
    view.setPalette(palette);
    view.resize(1400, 850);
    view.setData(cap.timeline(cap.connOf(1)));
    view.setLimitLines(kLimits);
    samples = StoreReader(cap.db).rttSamples(cap.connOf(1), Direction::ClientToServer);
  }
  double maxSample() const {
    double m = 0;
    for (const auto& e : samples) m = std::max(m, e.rtt_ms);
    return m;
  }
};

std::vector<LimitLabel> labelsOf(const TimelineScene& s, QSize size) {
  const TimelineGeometry g = TimelineGeometry::compute(s, size);
  return placeLimitLabels(s.limitLinesMs, g.axis(Lane::Rtt), g.layout.lane(Lane::Rtt), QFontMetrics(s.font));
}

void checkLabels(Lane1& f, const std::string& png) {
  const TimelineScene scene = f.view.scene();
  const QImage image = TimelineRenderer::render(scene, f.view.size());
  CHECK(image.save(QString::fromStdString(test::artifactPath(png))));
  const auto labels = labelsOf(scene, f.view.size());
  const QRect lane = f.view.laneRect(Lane::Rtt);
  REQUIRE(labels.size() == kLimits.size());
  for (size_t i = 0; i < labels.size(); ++i) {
    const LimitLabel& l = labels[i];
    INFO(l.text.toStdString() << " at " << l.box.x() << "," << l.box.y() << " " << l.box.width() << "x"
                              << l.box.height());
    CHECK(l.text == QStringLiteral("%1 ms").arg(kLimits[kLimits.size() - 1 - i]));
    CHECK(lane.contains(l.box));
    CHECK(std::abs(QRectF(l.box).center().y() - l.lineY) <= 1.0);  // on its own line
    for (size_t j = i + 1; j < labels.size(); ++j) CHECK_FALSE(l.box.intersects(labels[j].box));
    // Its text is drawn: limit-coloured pixels inside its box.
    int text = 0;
    for (int y = l.box.top(); y <= l.box.bottom(); ++y)
      for (int x = l.box.left(); x <= l.box.right(); ++x)
        text += sameColour(image.pixel(x, y), scene.colours.limit, 40);
    CHECK(text >= 10);
  }
}

// Samples whose pixel the SRTT or RTO line covers when samples are hidden
// must show the sample colour when they are drawn.
void checkSamplesOnTop(Lane1& f, const std::string& png) {
  TimelineScene scene = f.view.scene();
  const QImage image = TimelineRenderer::render(scene, f.view.size());
  CHECK(image.save(QString::fromStdString(test::artifactPath(png))));
  scene.layers &= ~static_cast<uint32_t>(Layer::RttSamples);
  const QImage without = TimelineRenderer::render(scene, f.view.size());
  const TimelineGeometry g = TimelineGeometry::compute(scene, f.view.size());
  const QRect lane = g.layout.lane(Lane::Rtt).adjusted(2, 2, -2, -2);
  int covered = 0;
  for (const auto& e : f.samples) {
    const int x = g.time.column(e.ts_ns), y = static_cast<int>(std::floor(g.axis(Lane::Rtt).y(e.rtt_ms)));
    if (!lane.contains(x, y)) continue;
    const QRgb under = without.pixel(x, y);
    if (!sameColour(under, scene.colours.srtt, 30) && !sameColour(under, scene.colours.rto, 30)) continue;
    INFO("sample at " << e.ts_ns << " " << e.rtt_ms << " ms, pixel " << x << "," << y);
    CHECK(sameColour(image.pixel(x, y), scene.colours.rttSample, 0));
    ++covered;
  }
  INFO("samples the lines pass through");
  CHECK(covered >= 50);  // at full zoom the SRTT runs through the sample cloud
}

void wheel(TimelineView& v, QPoint at, int delta, Qt::KeyboardModifiers mods) {
  QWheelEvent e(at, v.mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton, mods, Qt::NoScrollPhase,
                false);
  QApplication::sendEvent(&v, &e);
}
}  // namespace

TEST_CASE("RTT limit labels (150, 250, 300 ms) sit on their lines without covering each other") {
  Lane1 light;
  checkLabels(light, "widgets-rtt-limits-light.png");
  Lane1 dark(darkPalette());
  checkLabels(dark, "widgets-rtt-limits-dark.png");
  // Zoomed in, the lines are far apart: every label at the right edge.
  light.view.setActiveLane(Lane::Rtt);
  for (int i = 0; i < 2; ++i) light.view.trigger(TimelineAction::ZoomInY);  // 0-500 ms
  const auto labels = labelsOf(light.view.scene(), light.view.size());
  REQUIRE(labels.size() == 3);
  for (const LimitLabel& l : labels) CHECK(l.box.right() == labels.front().box.right());
}

TEST_CASE("RTT samples are drawn over the SRTT and RTO lines, light and dark") {
  Lane1 light;
  checkSamplesOnTop(light, "widgets-rtt-samples-light.png");
  Lane1 dark(darkPalette());
  checkSamplesOnTop(dark, "widgets-rtt-samples-dark.png");
}

TEST_CASE("the RTT lane holds the outage sample by default; y and Ctrl+wheel zoom to the usual range") {
  Lane1 f;
  const double top = f.maxSample();
  REQUIRE(top > 1000);  // the outage's sample
  const ValueSpan full = f.view.valueRange(Lane::Rtt);
  CHECK(full.min == 0);
  CHECK(full.max >= top);  // nothing clipped
  CHECK(full.max <= top * 1.5);
  f.view.setActiveLane(Lane::Rtt);
  for (int i = 0; i < 3; ++i) f.view.trigger(TimelineAction::ZoomInY);
  const ValueSpan zoomed = f.view.valueRange(Lane::Rtt);
  CHECK(zoomed.min == 0);
  CHECK(zoomed.max == Approx(full.max / 8));
  std::vector<double> v;
  for (const auto& e : f.samples) v.push_back(e.rtt_ms);
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  CHECK(v[v.size() / 2] < zoomed.max / 2);  // the median in the lower half, not squashed at the baseline
  CHECK(v[v.size() / 2] > zoomed.max / 20);

  // Ctrl+wheel keeps the value under the mouse at its pixel.
  f.view.trigger(TimelineAction::Reset);
  const QRect lane = f.view.laneRect(Lane::Rtt);
  const QPoint at(lane.center().x(), lane.bottom() - lane.height() / 5);
  const TimelineGeometry before = TimelineGeometry::compute(f.view.scene(), f.view.size());
  const double value = before.axis(Lane::Rtt).value(at.y() + 0.5);
  wheel(f.view, at, 120, Qt::ControlModifier);
  const ValueSpan after = f.view.valueRange(Lane::Rtt);
  CHECK(after.max - after.min == Approx((full.max - full.min) * 0.8));
  const TimelineGeometry g = TimelineGeometry::compute(f.view.scene(), f.view.size());
  CHECK(g.axis(Lane::Rtt).y(value) == Approx(at.y() + 0.5).margin(1e-6));
}
