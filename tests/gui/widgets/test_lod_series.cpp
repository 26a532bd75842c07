// The min/max pyramid and the per-column drawing it drives: exact min/max of
// any range, columns equal to the raw points' min/max per pixel column, and
// the rendered RTT lane showing exactly those extents.
#include <catch2/catch.hpp>

#include <QImage>
#include <algorithm>
#include <map>
#include <optional>
#include <random>

#include "sim_capture.h"
#include "store/store_reader.h"
#include "widgets/rtt_lane_painter.h"
#include "widgets/timeline_renderer.h"
#include "widgets/timeline_view.h"

using namespace rudp;
using namespace rudp::gui;

namespace {
LodSeries randomSeries(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<int64_t> t(n);
  std::vector<double> v(n);
  int64_t now = 0;
  for (size_t i = 0; i < n; ++i) {
    now += static_cast<int64_t>(rng() % 5000);  // repeats of one time included
    t[i] = now;
    v[i] = static_cast<double>(static_cast<int>(rng() % 100000) - 50000) / 7.0;
  }
  return LodSeries(t, v, {});
}

ValueSpan bruteSpan(const LodSeries& s, size_t b, size_t e) {
  ValueSpan out = ValueSpan::none();
  for (size_t i = b; i < e; ++i) out.include(s.value(i));
  return out;
}
}  // namespace

TEST_CASE("pyramid min/max of any index range equals the raw points'") {
  for (size_t n :
       {size_t{0}, size_t{1}, size_t{3}, size_t{4}, size_t{5}, size_t{17}, size_t{1000}, size_t{65537}}) {
    const LodSeries s = randomSeries(n, static_cast<uint32_t>(n) + 1);
    std::mt19937 rng(7);
    for (int k = 0; k < 300; ++k) {
      size_t b = n ? rng() % (n + 1) : 0, e = n ? rng() % (n + 1) : 0;
      if (b > e) std::swap(b, e);
      const ValueSpan got = s.span(b, e), want = bruteSpan(s, b, e);
      INFO("n " << n << " range " << b << ".." << e);
      REQUIRE(got.empty() == want.empty());
      if (!want.empty()) {
        CHECK(got.min == want.min);
        CHECK(got.max == want.max);
      }
    }
  }
  CHECK(randomSeries(65537, 3).levels() == 8);  // 4^8 = 65536: one bucket of 4 left on top
}

TEST_CASE("columns hold exactly the points of each pixel column and their min/max") {
  const LodSeries s = randomSeries(200000, 11);
  for (int width : {37, 800, 1600}) {
    TimeAxis axis{s.time(1000), s.time(150000), 100, static_cast<double>(width)};
    const auto cols = s.columns(100, 100 + width, [&](int64_t t) { return axis.column(t); });
    std::map<int, ValueSpan> brute;
    for (size_t i = 0; i < s.size(); ++i) {
      const int x = axis.column(s.time(i));
      if (x >= 100 && x < 100 + width) brute[x].include(s.value(i));
    }
    REQUIRE(cols.size() == brute.size());
    for (const auto& c : cols) {
      REQUIRE(brute.count(c.x) == 1);
      CHECK(c.span.min == brute[c.x].min);
      CHECK(c.span.max == brute[c.x].max);
      for (size_t i : {c.first, c.last - 1}) CHECK(axis.column(s.time(i)) == c.x);
    }
  }
}

TEST_CASE("the RTT lane draws each pixel column from the raw samples' min to their max") {
  // 120 Hz both ways for 20 s: about 1,300 RTT samples of the client data, dense at 900 px.
  grudp_sim::SimConfig cfg;
  cfg.connections = 1;
  cfg.duration_s = 20;
  cfg.seed = 9;
  cfg.client_hz = cfg.server_hz = 120;
  cfg.c2s.jitter_ms = cfg.s2c.jitter_ms = 15;
  cfg.c2s.loss = cfg.s2c.loss = 0.01;
  const auto capture = test::makeSimCapture(cfg, "dense");
  const int64_t conn = capture->connOf(0);
  StoreReader reader(capture->db);
  const auto raw = reader.rttSamples(conn, Direction::ClientToServer);
  REQUIRE(raw.size() > 1200);

  TimelineView view;
  view.resize(900, 640);
  view.setData(capture->timeline(conn));
  TimelineScene scene = view.scene();
  scene.layers = static_cast<uint32_t>(Layer::RttSamples);  // nothing else drawn in the lane
  double top = 0;
  for (const auto& e : raw) top = std::max(top, e.rtt_ms);
  scene.manualY[static_cast<size_t>(Lane::Rtt)] = ValueSpan{0, top * 2};  // clear of the title and legend
  const TimelineGeometry g = TimelineGeometry::compute(scene, view.size());
  const QImage image = TimelineRenderer::render(scene, view.size());
  image.save(QString::fromStdString(test::artifactPath("widgets-lod-rtt-lane.png")));

  const QRect lane = g.layout.lane(Lane::Rtt);
  const ValueAxis& axis = g.axis(Lane::Rtt);
  std::map<int, ValueSpan> brute;
  for (const auto& e : raw) {
    const int x = g.time.column(e.ts_ns);
    if (x > lane.left() && x < lane.right()) brute[x].include(e.rtt_ms);
  }
  REQUIRE(brute.size() > 600);  // dense: most columns hold samples
  // Each column's mark is kSampleColumnWidth px wide and reaches `reach` px
  // past its extent: pixel column x shows the union of columns x-reach..x+reach.
  const int reach = (RttLanePainter::kSampleColumnWidth - 1) / 2;
  REQUIRE(reach == 1);
  auto expected = [&](int x) {
    std::optional<std::pair<int, int>> rows;
    for (int k = x - reach; k <= x + reach; ++k) {
      if (!brute.count(k)) continue;
      const int top = static_cast<int>(std::floor(axis.y(brute[k].max))) - reach;
      const int bottom = static_cast<int>(std::floor(axis.y(brute[k].min))) + reach;
      rows = rows ? std::pair{std::min(rows->first, top), std::max(rows->second, bottom)}
                  : std::pair{top, bottom};
    }
    return rows;
  };
  const QRgb sample = scene.colours.rttSample.rgb();
  int checked = 0;
  for (int x = lane.left() + 1 + reach; x < lane.right() - reach; ++x) {
    int first = -1, last = -1;
    for (int y = lane.top() + lane.height() / 3; y < lane.bottom(); ++y)  // under the legend's dot
      if ((image.pixel(x, y) & 0xFFFFFF) == (sample & 0xFFFFFF)) {
        if (first < 0) first = y;
        last = y;
      }
    const auto rows = expected(x);
    INFO("column " << x << " expected " << (rows ? rows->first : -1) << " .. " << (rows ? rows->second : -1));
    if (!rows) {
      CHECK(first == -1);
      continue;
    }
    REQUIRE(first >= 0);
    CHECK(std::abs(first - rows->first) <= 1);
    CHECK(std::abs(last - rows->second) <= 1);
    checked += brute.count(x);
  }
  const auto inLoop = std::count_if(brute.begin(), brute.end(), [&](const auto& kv) {
    return kv.first >= lane.left() + 1 + reach && kv.first < lane.right() - reach;
  });
  CHECK(checked == inLoop);
}
