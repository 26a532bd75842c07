// HistogramChart and CdfChart with the capture's RTT samples and loss
// bursts: bar heights and CDF steps read back from the pixels.
#include <catch2/catch.hpp>

#include <QFile>
#include <QSvgRenderer>
#include <algorithm>
#include <cmath>

#include "pixel_checks.h"
#include "sim_capture.h"
#include "store/store_reader.h"
#include "widgets/cdf_chart.h"
#include "widgets/chart_colours.h"
#include "widgets/histogram_chart.h"

using namespace rudp;
using namespace rudp::gui;

namespace {
std::vector<double> rttValues(int64_t conn, Direction d) {
  StoreReader reader(test::mainCapture().db);
  std::vector<double> out;
  for (const auto& e : reader.rttSamples(conn, d)) out.push_back(e.rtt_ms);
  return out;
}

// Top of the bar-coloured run in column x (-1: none), searching upwards from `bottom`.
int barTop(const QImage& image, int x, int bottom, const QColor& colour) {
  int top = -1;
  for (int y = bottom; y >= 0 && test::sameColour(image.pixel(x, y), colour, 2); --y) top = y;
  return top;
}

void checkBars(const HistogramChart& chart, const QImage& image) {
  const QColor bar = ChartColours::fromPalette(chart.palette()).cycle.front();
  for (int i = 0; i < static_cast<int>(chart.bins().size()); ++i) {
    const QRectF r = chart.barRect(i);
    INFO("bin " << i << " count " << chart.bins()[i].count);
    if (r.height() < 4) continue;  // too short to read back above the frame line
    const int x = static_cast<int>(r.center().x());
    const int top = barTop(image, x, static_cast<int>(r.bottom()) - 3, bar);  // above the frame line
    REQUIRE(top >= 0);
    CHECK(std::abs(top - r.top()) <= 1);
    CHECK(chart.binAt(QPoint(x, static_cast<int>(r.center().y()))) == i);
  }
}
}  // namespace

TEST_CASE("RTT histogram: every sample in one bin, bars as tall as their counts, log scale") {
  const auto& cap = test::mainCapture();
  const auto values = rttValues(cap.connOf(0), Direction::ClientToServer);
  const auto bins = binsOfValues(values, 5.0);
  double total = 0;
  for (const HistogramBin& b : bins) {
    total += b.count;
    const auto n =
        std::count_if(values.begin(), values.end(), [&](double v) { return v >= b.from && v < b.to; });
    CHECK(b.count == n);
    CHECK(b.to - b.from == Approx(5.0));
  }
  CHECK(total == values.size());

  HistogramChart chart;
  chart.resize(640, 360);
  chart.setTitle(QStringLiteral("RTT, client \u2192 server"));
  chart.setAxisLabels(QStringLiteral("RTT (ms)"), QStringLiteral("samples"));
  chart.setBins(bins);
  QImage image = chart.grab().toImage();
  image.save(QString::fromStdString(test::artifactPath("widgets-histogram-rtt.png")));
  checkBars(chart, image);
  // Linear: heights proportional to counts.
  const auto tallest =
      std::max_element(bins.begin(), bins.end(), [](auto& a, auto& b) { return a.count < b.count; });
  const int t = static_cast<int>(tallest - bins.begin());
  for (int i = 0; i < static_cast<int>(bins.size()); ++i)
    CHECK(chart.barRect(i).height() ==
          Approx(chart.barRect(t).height() * bins[i].count / tallest->count).margin(0.01));

  chart.setLogY(true);
  image = chart.grab().toImage();
  image.save(QString::fromStdString(test::artifactPath("widgets-histogram-rtt-log.png")));
  checkBars(chart, image);
  // Log: a tenfold count is one decade higher, whatever the counts.
  auto heightOf = [&](int i) { return chart.barRect(i).height(); };
  std::vector<int> nonEmpty;
  for (int i = 0; i < static_cast<int>(bins.size()); ++i)
    if (bins[i].count >= 1) nonEmpty.push_back(i);
  REQUIRE(nonEmpty.size() >= 3);
  const int a = nonEmpty.front(), b = t;
  const double perDecade = (heightOf(b) - heightOf(a)) / std::log10(bins[b].count / bins[a].count);
  for (int i : nonEmpty)
    CHECK(heightOf(i) ==
          Approx(heightOf(a) + perDecade * std::log10(bins[i].count / bins[a].count)).margin(0.01));
}

TEST_CASE("loss-burst histogram: one labelled bar per burst length") {
  const auto& cap = test::mainCapture();
  StoreReader reader(cap.db);
  const auto bursts = reader.lossBursts(cap.connOf(1), Direction::ClientToServer);
  REQUIRE(bursts.size() >= 2);
  HistogramChart chart;
  chart.resize(480, 300);
  chart.setTitle(QStringLiteral("Loss bursts"));
  chart.setAxisLabels(QStringLiteral("burst length"), QStringLiteral("bursts"));
  chart.setBins(binsOfCounts(bursts));
  REQUIRE(chart.bins().size() == bursts.size());
  size_t i = 0;
  for (auto [length, count] : bursts) {
    CHECK(chart.bins()[i].label == QString::number(length));
    CHECK(chart.bins()[i].count == count);
    ++i;
  }
  const QImage image = chart.grab().toImage();
  image.save(QString::fromStdString(test::artifactPath("widgets-histogram-bursts.png")));
  checkBars(chart, image);
  // Equal slots, whatever the lengths.
  CHECK(chart.barRect(1).left() - chart.barRect(0).left() == Approx(chart.barRect(0).width() / 0.76));
}

TEST_CASE("CDF chart: the steps of each series at their quantiles, with a legend") {
  const auto& cap = test::mainCapture();
  const int64_t conn = cap.connOf(0);
  CdfChart chart;
  chart.resize(640, 380);
  chart.setTitle(QStringLiteral("RTT distribution"));
  chart.setAxisLabel(QStringLiteral("RTT (ms)"));
  const auto c2s = rttValues(conn, Direction::ClientToServer),
             s2c = rttValues(conn, Direction::ServerToClient);
  chart.addSeries(QStringLiteral("client \u2192 server"), c2s);
  chart.addSeries(QStringLiteral("server \u2192 client"), s2c);
  REQUIRE(chart.seriesCount() == 2);
  for (double v : {10.0, 50.0, 80.0, 85.0, 90.0, 120.0}) {
    const double n = std::count_if(c2s.begin(), c2s.end(), [&](double x) { return x <= v; });
    CHECK(chart.fractionAt(0, v) == Approx(n / c2s.size()));
  }
  auto sorted = c2s;
  std::sort(sorted.begin(), sorted.end());
  CHECK(chart.quantile(0, 0.5) == sorted[(sorted.size() + 1) / 2 - 1]);
  CHECK(chart.quantile(0, 1.0) == sorted.back());

  const QImage image = chart.grab().toImage();
  image.save(QString::fromStdString(test::artifactPath("widgets-cdf-rtt.png")));
  const ChartColours colours = ChartColours::fromPalette(chart.palette());
  // At the column of each decile the series' colour crosses that share.
  for (int s = 0; s < 2; ++s)
    for (double q : {0.1, 0.3, 0.5, 0.7, 0.9}) {
      const double v = chart.quantile(s, q);
      const int x = static_cast<int>(std::floor(chart.xForValue(v)));
      const QColor colour = colours.cycle[static_cast<size_t>(s)];
      int nearest = 1000;
      for (int y = 0; y < image.height(); ++y)
        if (test::sameColour(image.pixel(x, y), colour, 40))
          nearest =
              std::min(nearest, std::abs(y - static_cast<int>(chart.yForFraction(chart.fractionAt(s, v)))));
      INFO("series " << s << " quantile " << q);
      CHECK(nearest <= 2);
    }
  REQUIRE(
      chart.exportPng(QString::fromStdString(test::artifactPath("widgets-cdf-export.png")), QSize(800, 450)));
  CHECK(QImage(QString::fromStdString(test::artifactPath("widgets-cdf-export.png"))).size() ==
        QSize(800, 450));
  const QString svg = QString::fromStdString(test::artifactPath("widgets-cdf-export.svg"));
  REQUIRE(chart.exportSvg(svg, QSize(800, 450)));
  CHECK(QSvgRenderer(svg).isValid());
  QFile f(svg);
  REQUIRE(f.open(QIODevice::ReadOnly));
  CHECK(f.readAll().contains("median"));  // the legend
}
