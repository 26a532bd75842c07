// A flow no dissector claims on the Timeline: the sequence lane becomes each
// packet's gap to the previous one, its silences are bands with their cause,
// the RTT lane draws the samples inferred from an echo found in the payloads
// or says why it is empty. Against timing_sim.py's log.
#include <catch2/catch.hpp>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include "pixel_checks.h"
#include "session/ingest.h"
#include "settled_image.h"
#include "sim_capture.h"
#include "store/store_reader.h"
#include "widgets/timeline_view.h"

using namespace rudp;
using namespace rudp::gui;

namespace {

struct TimingCapture {
  QTemporaryDir dir;
  std::string pcap, db;
  QJsonObject truth;  // timing_sim.py's: the first flow is the client-side capture
  QJsonArray flows;   // all of them
  TimingCapture() {
    REQUIRE(dir.isValid());
    pcap = dir.filePath("timing.pcap").toStdString();
    db = dir.filePath("timing.sqlite").toStdString();
    const QString truthPath = dir.filePath("timing.json");
    QProcess sim;
    sim.start("python3", {QStringLiteral(RUDPSCOPE_SOURCE_DIR "/tests/timing/timing_sim.py"), "--seed", "37",
                          "--pcap", QString::fromStdString(pcap), "--truth", truthPath});
    REQUIRE(sim.waitForFinished(60000));
    REQUIRE(sim.exitCode() == 0);
    QFile f(truthPath);
    REQUIRE(f.open(QIODevice::ReadOnly));
    flows = QJsonDocument::fromJson(f.readAll()).object()["flows"].toArray();
    truth = flows[0].toObject();
    ingestCapture(pcap, db, DissectorOptions{});
  }
  // The first flow's scripted stall of `cause` (times in ns, as stored).
  std::pair<int64_t, int64_t> stall(const QString& cause) const {
    for (const auto& s : truth["stalls"].toArray())
      if (s.toObject()["cause"].toString() == cause)
        return {s.toObject()["start_us"].toInteger() * 1000, s.toObject()["end_us"].toInteger() * 1000};
    FAIL("no " << cause.toStdString() << " stall in the truth");
    return {};
  }
};

}  // namespace

TEST_CASE("a flow no dissector claims: gaps in the sequence lane, silences as bands, inferred RTT") {
  TimingCapture cap;
  StoreReader reader(cap.db);
  auto data = std::make_shared<const TimelineData>(loadTimelineData(reader, 1));
  REQUIRE(data->timing_only);
  const QJsonArray packets = cap.truth["packets"].toArray();
  for (int d = 0; d < 2; ++d) CHECK(data->dir[d].gaps.size() == size_t(packets[d].toInt() - 1));

  TimelineView view;
  view.resize(1400, 850);
  view.setData(data);
  view.setDirection(Direction::ServerToClient);
  const auto [start, end] = cap.stall("remote_quiet");  // the server quiet, the client sending on
  const DirectionTimeline& s2c = data->of(Direction::ServerToClient);
  view.zoomTo(start - 500'000'000, end + 500'000'000);
  const QImage image = test::settledImage(view);
  REQUIRE(image.save(QString::fromStdString(test::artifactPath("timeline-timing-only.png"))));

  // The packet that ended the silence: its gap is the silence, where it is drawn.
  const TimelineGeometry g = TimelineGeometry::compute(view.scene(), view.size());
  size_t after = 0;
  while (after < s2c.gaps.size() && s2c.gaps.time(after) != end) ++after;
  REQUIRE(after < s2c.gaps.size());
  CHECK(s2c.gaps.value(after) == double(end - start) / 1e6);
  const QPoint point(int(g.time.x(end)), int(g.axis(Lane::Sequence).y(s2c.gaps.value(after))));
  const auto gapHit = view.hitTest(point);
  REQUIRE(gapHit);
  CHECK(gapHit->kind == HitKind::SeqPoint);
  CHECK(gapHit->ts_ns == end);
  CHECK(gapHit->text.contains(QStringLiteral("ms after the previous packet")));

  // The silence is a band over every lane, its cause in the tooltip.
  const QRect rate = view.laneRect(Lane::ByteRate);
  const QPoint inside(int(view.xForTime((start + end) / 2)), rate.top() + 3);
  CHECK(test::sameColour(image.pixel(inside),
                         test::blend(view.scene().colours.stallBand, view.scene().colours.plot), 3));
  const auto bandHit = view.hitTest(inside);
  REQUIRE(bandHit);
  CHECK(bandHit->kind == HitKind::StallBand);
  CHECK(bandHit->ts_ns == start);
  CHECK(bandHit->text.contains(QStringLiteral("remote_quiet")));
  // RTT from the client's echo of the server's counter: the truth's samples,
  // each drawn where the hit test finds it.
  const QJsonArray rtt = cap.truth["rtt"].toArray()[1].toObject()["samples"].toArray();
  REQUIRE(s2c.rtt.size() == size_t(rtt.size()));
  CHECK(s2c.rtt.value(0) == Approx(rtt[0].toDouble()).margin(1e-6));
  size_t shown = 0;
  while (shown < s2c.rtt.size() && s2c.rtt.time(shown) < end) ++shown;  // the sample the silence ended
  REQUIRE(shown < s2c.rtt.size());
  const QPoint dot(int(g.time.x(s2c.rtt.time(shown))), int(g.axis(Lane::Rtt).y(s2c.rtt.value(shown))));
  CHECK(test::sameColour(image.pixel(dot), view.scene().colours.rttSample, 40));
  const auto rttHit = view.hitTest(dot);
  REQUIRE(rttHit);
  CHECK(rttHit->kind == HitKind::RttSample);
  CHECK(rttHit->ts_ns == s2c.rtt.time(shown));
}

TEST_CASE("a flow no dissector claims and no echo found: the RTT lane is empty and says why") {
  TimingCapture cap;
  StoreReader reader(cap.db);
  auto data = std::make_shared<const TimelineData>(loadTimelineData(reader, 2));  // mid-path, random bytes
  REQUIRE(data->timing_only);
  CHECK(data->dir[0].rtt.size() == 0);
  CHECK(data->dir[1].rtt.size() == 0);
  TimelineView view;
  view.resize(1400, 850);
  view.setData(data);
  CHECK(view.scene().rttUnknown());
  const QImage image = test::settledImage(view);
  REQUIRE(image.save(QString::fromStdString(test::artifactPath("timeline-timing-only-no-echo.png"))));
  // No sample dot anywhere in the lane.
  const QRect lane = view.laneRect(Lane::Rtt).adjusted(2, 20, -2, -2);
  int dots = 0;
  for (int y = lane.top(); y < lane.bottom(); ++y)
    for (int x = lane.left(); x < lane.right(); ++x)
      dots += test::sameColour(image.pixel(x, y), view.scene().colours.rttSample, 10);
  CHECK(dots == 0);
}

TEST_CASE("a ticking stream's rate drop and burst are bands in the rate lanes, worded in their tooltips") {
  TimingCapture cap;
  const QJsonObject flow = cap.flows[3].toObject();  // the server-side capture: 64 Hz, a drop, a burst
  const QJsonArray changes = flow["rate_changes"].toArray()[1].toArray();
  REQUIRE(changes.size() == 2);
  StoreReader reader(cap.db);
  int64_t conn = 0;
  for (const ConnectionSummary& c : reader.connections())
    if (c.server == flow["server"].toString().toStdString()) conn = c.id;
  REQUIRE(conn != 0);
  auto data = std::make_shared<const TimelineData>(loadTimelineData(reader, conn));
  const DirectionTimeline& s2c = data->of(Direction::ServerToClient);
  REQUIRE(s2c.rateChanges.size() == 2);
  CHECK(data->of(Direction::ClientToServer).rateChanges.empty());

  TimelineView view;
  view.resize(1400, 850);
  view.setData(data);
  view.setDirection(Direction::ServerToClient);
  auto ns = [&](int i, const char* key) { return changes[i].toObject()[key].toInteger() * 1000; };
  view.zoomTo(ns(0, "start_us") - 1'000'000'000, ns(1, "end_us") + 1'000'000'000);
  const QImage image = test::settledImage(view);
  REQUIRE(image.save(QString::fromStdString(test::artifactPath("timeline-rate-changes.png"))));

  const QColor band = test::blend(view.scene().colours.rateChangeBand, view.scene().colours.plot);
  const QRect lane = view.laneRect(Lane::PacketRate);
  // A row of the lane's top free of grid lines: plain plot left of the first change.
  int row = lane.top() + 2;
  const int left = int(view.xForTime(ns(0, "start_us"))) - 20;
  while (row < lane.top() + 20 && !test::sameColour(image.pixel(left, row), view.scene().colours.plot, 3))
    ++row;
  REQUIRE(row < lane.top() + 20);
  const char* words[] = {"rate fell to", "burst of"};
  for (int i = 0; i < 2; ++i) {
    const int64_t start = ns(i, "start_us"), end = ns(i, "end_us");
    CHECK(s2c.rateChanges[size_t(i)].start_ns == start);
    CHECK(s2c.rateChanges[size_t(i)].end_ns == end);
    const QPoint inside(int(view.xForTime((3 * start + end) / 4)), row);  // left of the legend
    CHECK(test::sameColour(image.pixel(inside), band, 3));
    const auto hit = view.hitTest(inside);
    REQUIRE(hit);
    CHECK(hit->kind == HitKind::RateChangeBand);
    CHECK(hit->ts_ns == start);
    CHECK(hit->text.contains(QString::fromLatin1(words[i])));
    CHECK(hit->text.contains(QStringLiteral("(usually 64)")));
    // The band ends where the change does: plain plot just after it.
    const QPoint after(int(view.xForTime(end)) + 4, row);
    CHECK(test::sameColour(image.pixel(after), view.scene().colours.plot, 3));
  }
  // Between the two changes, and in a lane that is not a rate lane, no band.
  const QPoint between(int(view.xForTime((ns(0, "end_us") + ns(1, "start_us")) / 2)), row);
  const auto none = view.hitTest(between);
  CHECK((!none || none->kind != HitKind::RateChangeBand));
  const QRect events = view.laneRect(Lane::Events);
  const QPoint eventsInside(int(view.xForTime((ns(0, "start_us") + ns(0, "end_us")) / 2)), events.top() + 3);
  CHECK_FALSE(test::sameColour(image.pixel(eventsInside), band, 3));
}
