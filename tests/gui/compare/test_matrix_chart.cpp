// The matrix chart of the capture set: exactly one point per capture, at the
// place its figures and labels give, found by the chart's hit testing and
// as a marker of its line's colour in the rendered image.
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QTemporaryDir>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "catch_qt.h"
#include "compare/matrix.h"
#include "compare/metric_list.h"
#include "compare_fixture.h"
#include "pixel_checks.h"
#include "process.h"
#include "sim_capture.h"
#include "widgets/matrix_chart.h"

using namespace rudp;
using rudp::gui::MatrixChart;

namespace {

const QSize kSize(960, 420);

std::vector<MatrixChart::PointRef> allPoints(const cmp::Matrix& m) {
  std::vector<MatrixChart::PointRef> refs;
  for (int p = 0; p < static_cast<int>(m.panels.size()); ++p)
    for (int l = 0; l < static_cast<int>(m.panels[p].lines.size()); ++l)
      for (int k = 0; k < static_cast<int>(m.panels[p].lines[l].points.size()); ++k)
        refs.push_back({p, l, k});
  return refs;
}

QImage render(const MatrixChart& chart) {
  QImage image(kSize, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::magenta);  // nothing of the chart is magenta: an unpainted pixel shows
  QPainter p(&image);
  chart.paint(p, kSize);
  return image;
}

// Each capture's point carries the busiest connection's figure and its labels.
void checkPointsAreTheCaptures(const MatrixChart& chart, const std::string& metric) {
  const test::CompareSet& set = test::compareSet();
  std::multiset<std::string> captures;
  for (const MatrixChart::PointRef& ref : allPoints(chart.matrix())) {
    const cmp::MatrixPoint& pt = chart.point(ref);
    captures.insert(pt.capture);
    const cmp::DirectionComparison* d = cmp::busiest(set.outcome.rows, pt.capture, Direction::ClientToServer);
    REQUIRE(d);
    INFO(pt.capture);
    CHECK(pt.conn == d->conn);
    CHECK(pt.x == std::stod(d->labels.at("loss")));
    CHECK(((std::isnan(pt.y) && std::isnan(cmp::metricValue(*d, metric))) ||
           pt.y == cmp::metricValue(*d, metric)));
  }
  CHECK(captures == std::multiset<std::string>(set.captures.begin(), set.captures.end()));
}

}  // namespace

TEST_CASE("the matrix has one point per capture and a line per RTO floor at the place its figures give") {
  cmp::MatrixRequest request;
  request.metric = "share_over_150";
  request.x = "loss";
  request.group = "rto";
  request.panel = "";
  MatrixChart chart;
  chart.resize(kSize);
  chart.setTitle(QStringLiteral("Responses over 150 ms"));
  chart.setMatrix(cmp::buildMatrix(test::compareSet().outcome.rows, request));
  const cmp::Matrix& m = chart.matrix();
  CHECK(m.skipped.empty());
  REQUIRE(m.panels.size() == 1);
  REQUIRE(m.panels[0].lines.size() == 2);
  CHECK(m.panels[0].lines[0].group == "100");
  CHECK(m.panels[0].lines[1].group == "300");
  REQUIRE(allPoints(m).size() == 6);
  checkPointsAreTheCaptures(chart, request.metric);
  CHECK(chart.groups() == std::vector<std::string>{"100", "300"});
  CHECK(chart.groupColour("100") != chart.groupColour("300"));

  // Pixels: x and y are linear in the values (ratios of differences), inside the plot.
  const QRect plot = chart.plotRect(0);
  for (const cmp::MatrixLine& line : m.panels[0].lines) {
    const int li = static_cast<int>(&line - m.panels[0].lines.data());
    REQUIRE(line.points.size() == 3);
    std::vector<QPointF> px;
    for (int k = 0; k < 3; ++k) {
      const auto at = chart.pixelOf({0, li, k});
      REQUIRE(at);
      CHECK(plot.contains(at->toPoint()));
      px.push_back(*at);
    }
    const auto& p = line.points;
    CHECK(std::abs((px[1].x() - px[0].x()) / (px[2].x() - px[0].x()) -
                   (p[1].x - p[0].x) / (p[2].x - p[0].x)) < 1e-9);
    if (p[0].y != p[2].y)
      CHECK(std::abs((px[1].y() - px[0].y()) / (px[2].y() - px[0].y()) -
                     (p[1].y - p[0].y) / (p[2].y - p[0].y)) < 1e-9);
    for (int k = 0; k < 3; ++k)
      if (p[k].y != p[0].y) CHECK((px[k].y() < px[0].y()) == (p[k].y > p[0].y));  // higher is up
  }

  // Hit testing: the point at each marker's centre is that capture's (or one
  // drawn on the same pixel); a few pixels off still finds it when no other
  // point is nearer; well off a marker nothing is that point.
  const std::vector<MatrixChart::PointRef> refs = allPoints(m);
  auto distance = [&](const MatrixChart::PointRef& a, QPointF b) {
    const QPointF at = *chart.pixelOf(a);
    return std::hypot(at.x() - b.x(), at.y() - b.y());
  };
  int alone = 0;
  for (const MatrixChart::PointRef& ref : refs) {
    const QPointF at = *chart.pixelOf(ref);
    const auto hit = chart.pointAt(at);
    REQUIRE(hit);
    if (*hit != ref) CHECK(distance(*hit, at) < 0.5);
    bool neighbour = false;
    for (const MatrixChart::PointRef& other : refs)
      neighbour = neighbour || (other != ref && distance(other, at) < 12);
    if (!neighbour) {
      CHECK(chart.pointAt(at + QPointF(3, -3)) == ref);
      ++alone;
    }
    CHECK(chart.pointAt(at + QPointF(0, 40)) != ref);
  }
  CHECK(alone >= 2);  // at 1 and 5 % loss the two lines nearly meet

  // The rendered image: a marker of the line's colour at each point not covered by a later one.
  const QImage image = render(chart);
  int seen = 0;
  for (size_t i = 0; i < refs.size(); ++i) {
    const QPointF at = *chart.pixelOf(refs[i]);
    bool covered = false;
    for (size_t j = i + 1; j < refs.size(); ++j) {
      const QPointF other = *chart.pixelOf(refs[j]);
      covered = covered || std::hypot(other.x() - at.x(), other.y() - at.y()) < 5;
    }
    if (covered) continue;
    const QColor colour = chart.groupColour(m.panels[0].lines[refs[i].line].group);
    INFO("point " << i << " at " << at.x() << "," << at.y());
    CHECK(test::sameColour(image.pixel(at.toPoint()), colour, 8));
    ++seen;
  }
  CHECK(seen >= 4);  // two lines can meet at loss 1 %, never at every point
  REQUIRE(chart.exportPng(QString::fromStdString(test::artifactPath("compare-matrix-chart.png")), kSize));
}

TEST_CASE("one panel per RTO floor: the panels sit side by side with their own points") {
  cmp::MatrixRequest request;
  request.metric = "retransmissions";
  request.x = "loss";
  request.group = "";
  request.panel = "rto";
  MatrixChart chart;
  chart.resize(kSize);
  chart.setMatrix(cmp::buildMatrix(test::compareSet().outcome.rows, request));
  const cmp::Matrix& m = chart.matrix();
  REQUIRE(m.panels.size() == 2);
  CHECK(m.panels[0].panel == "100");
  CHECK(m.panels[1].panel == "300");
  REQUIRE(allPoints(m).size() == 6);
  checkPointsAreTheCaptures(chart, request.metric);
  CHECK(chart.plotRect(0).right() < chart.plotRect(1).left());
  const QImage image = render(chart);
  for (const MatrixChart::PointRef& ref : allPoints(m)) {
    const QPointF at = *chart.pixelOf(ref);
    CHECK(chart.plotRect(ref.panel).contains(at.toPoint()));
    CHECK(test::sameColour(image.pixel(at.toPoint()), chart.groupColour(""), 8));
    CHECK(chart.pointAt(at) == ref);  // one point per loss rate in a panel: none share a spot
  }
  REQUIRE(chart.exportPng(QString::fromStdString(test::artifactPath("compare-matrix-panels.png")), kSize));
}

TEST_CASE("the matrix chart draws the points rudpscope-cli compare --json prints for the folder") {
  const test::CompareSet& set = test::compareSet();
  const test::ProcessResult cli =
      test::run({RUDPSCOPE_CLI, "compare", set.dir.path().toStdString(), "--json", "-q", "--metric",
                 "share_over_150", "--x", "loss", "--group", "rto", "--panel", ""});
  INFO(cli.err);
  REQUIRE(cli.status == 0);
  const nlohmann::json printed = nlohmann::json::parse(cli.out)["matrix"];
  cmp::MatrixRequest request;
  request.metric = "share_over_150";
  request.group = "rto";
  request.panel = "";
  MatrixChart chart;
  chart.setMatrix(cmp::buildMatrix(set.outcome.rows, request));
  const cmp::Matrix& m = chart.matrix();
  REQUIRE(printed["panels"].size() == m.panels.size());
  for (size_t p = 0; p < m.panels.size(); ++p) {
    const nlohmann::json& lines = printed["panels"][p]["lines"];
    REQUIRE(lines.size() == m.panels[p].lines.size());
    for (size_t l = 0; l < lines.size(); ++l) {
      CHECK(lines[l]["group"].get<std::string>() == m.panels[p].lines[l].group);
      const nlohmann::json& points = lines[l]["points"];
      REQUIRE(points.size() == m.panels[p].lines[l].points.size());
      for (size_t k = 0; k < points.size(); ++k) {
        const cmp::MatrixPoint& pt = m.panels[p].lines[l].points[k];
        CHECK(points[k]["capture"].get<std::string>() == pt.capture);
        CHECK(points[k]["conn"].get<int64_t>() == pt.conn);
        CHECK(points[k]["x"].get<double>() == pt.x);
        CHECK(points[k]["y"].get<double>() == pt.y);
      }
    }
  }
}

TEST_CASE(
    "real Linux TCP beside simulated GRUDP: a line per stack, the TCP point at its figures, in its colour") {
  // The namespace lab's TCP cubic run at 5 % loss, labelled by a sidecar.
  QTemporaryDir dir;
  const QString tcp = dir.filePath("tcp.pcap");
  REQUIRE(QFile::copy(QStringLiteral(NETNS_DATA_DIR "/loss5-nodelay/client.pcap"), tcp));
  {
    QFile labels(tcp + ".labels");
    REQUIRE(labels.open(QIODevice::WriteOnly));
    labels.write("stack=tcp-cubic loss=5 rto=200\n");
  }
  std::vector<cmp::DirectionComparison> rows = test::compareSet().outcome.rows;
  const gui::CompareOutcome tcpOutcome = test::runCompareJob({tcp});
  REQUIRE(!tcpOutcome.rows.empty());
  rows.insert(rows.end(), tcpOutcome.rows.begin(), tcpOutcome.rows.end());

  cmp::MatrixRequest request;
  request.metric = "retransmissions";
  request.group = "stack";
  request.panel = "";
  MatrixChart chart;
  chart.resize(kSize);
  chart.setMatrix(cmp::buildMatrix(rows, request));
  const cmp::Matrix& m = chart.matrix();
  CHECK(m.skipped.empty());
  REQUIRE(m.panels.size() == 1);
  REQUIRE(m.panels[0].lines.size() == 2);
  CHECK(m.panels[0].lines[0].group == "grudp");
  CHECK(m.panels[0].lines[0].points.size() == 6);
  const cmp::MatrixLine& tcpLine = m.panels[0].lines[1];
  CHECK(tcpLine.group == "tcp-cubic");
  REQUIRE(tcpLine.points.size() == 1);
  const cmp::MatrixPoint& pt = tcpLine.points[0];
  const cmp::DirectionComparison* d = cmp::busiest(rows, tcp.toStdString(), Direction::ClientToServer);
  REQUIRE(d);
  CHECK(pt.x == 5);
  CHECK(pt.y == static_cast<double>(d->retransmissions));
  CHECK(d->protocol == "tcp");
  CHECK(d->retransmissions > 0);  // a real lossy run: the point is off the axis

  // Its marker: hit testing finds it, and the rendered pixel has the TCP line's colour.
  const MatrixChart::PointRef ref{0, 1, 0};
  const auto at = chart.pixelOf(ref);
  REQUIRE(at);
  CHECK(chart.plotRect(0).contains(at->toPoint()));
  const auto hit = chart.pointAt(*at);
  REQUIRE(hit);
  CHECK(*hit == ref);
  CHECK(chart.groupColour("tcp-cubic") != chart.groupColour("grudp"));
  const QImage image = render(chart);
  CHECK(test::sameColour(image.pixel(at->toPoint()), chart.groupColour("tcp-cubic"), 8));
  // Higher than every GRUDP point at the same loss with fewer retransmissions.
  for (int k = 0; k < 6; ++k) {
    const cmp::MatrixPoint& g = m.panels[0].lines[0].points[size_t(k)];
    if (g.y < pt.y) CHECK(chart.pixelOf({0, 0, k})->y() > at->y());
  }
}

TEST_CASE("an empty matrix says No data") {
  MatrixChart chart;
  chart.resize(kSize);
  chart.clear();
  CHECK(chart.groups().empty());
  CHECK(!chart.pointAt(QPointF(300, 200)));
  const QImage image = render(chart);
  CHECK(image.pixel(5, 5) != QColor(Qt::magenta).rgb());
}

TEST_CASE("the lab's eight stacks are eight colours, and their legend wraps in a narrow chart") {
  // One line per stack, each with one point at its own height: the marker
  // at each point is its line's colour, and no two lines share one.
  cmp::Matrix m;
  m.request.metric = "share_over_300";
  m.request.group = "stack";
  m.panels.push_back({"30", {}});
  const char* stacks[] = {"enet", "grudp", "kcp", "quic", "raknet", "tcp-bbr", "tcp-cubic", "udt"};
  for (int i = 0; i < 8; ++i)
    m.panels[0].lines.push_back({stacks[i], {{5, 10.0 * (i + 1), std::string(stacks[i]) + ".pcapng", 1}}});
  MatrixChart chart;
  chart.setMatrix(m);
  const QImage image = render(chart);
  REQUIRE(image.save(QString::fromStdString(test::artifactPath("compare-matrix-eight-stacks.png"))));
  std::set<QRgb> colours;
  for (int i = 0; i < 8; ++i) {
    const auto at = chart.pixelOf({0, i, 0}, kSize);
    REQUIRE(at);
    colours.insert(image.pixel(at->toPoint()));
  }
  CHECK(colours.size() == 8);
  // The eight labels do not fit one row at 420 px: the plot starts lower,
  // under a legend of more rows, than at the full width.
  const QSize narrow(420, 420);
  CHECK(chart.plotRect(0, narrow).top() > chart.plotRect(0, kSize).top());
}
