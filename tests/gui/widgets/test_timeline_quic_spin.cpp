// A QUIC connection without its key log, whose endpoints spin the spin bit
// (aioquic: tests/kcp_enet/aioquic_capture.py): the Timeline's RTT lane
// draws one sample per spin edge, at the edge, one round trip high, against
// the spin edges the senders themselves made (truth.json).
#include <catch2/catch.hpp>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
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

const QString kRun = QStringLiteral(RUDPSCOPE_SOURCE_DIR "/tests/kcp_enet/data/aioquic_loss5/");

std::vector<int64_t> spinEdges(const char* side) {
  QFile f(kRun + "truth.json");
  REQUIRE(f.open(QIODevice::ReadOnly));
  std::vector<int64_t> out;
  for (const auto& v :
       QJsonDocument::fromJson(f.readAll()).object()[side].toObject()["spin_edges_ns"].toArray())
    out.push_back(v.toInteger());
  return out;
}

}  // namespace

TEST_CASE(
    "QUIC without the key log: the spin bit's RTT samples are drawn at each spin edge, a round trip high") {
  QTemporaryDir dir;
  REQUIRE(dir.isValid());
  const std::string db = dir.filePath("aioquic.sqlite").toStdString();
  ingestCapture((kRun + "client.pcap").toStdString(), db, DissectorOptions{});
  StoreReader reader(db);
  auto data = std::make_shared<const TimelineData>(loadTimelineData(reader, 1));
  const std::vector<int64_t> edges = spinEdges("client");
  REQUIRE(edges.size() > 10);
  const DirectionTimeline& c2s = data->of(Direction::ClientToServer);
  // Every edge after the first is a sample at its time; the one other
  // sample is the handshake's (its Initial packets still open).
  size_t matched = 0;
  for (size_t i = 0; i < c2s.rtt.size(); ++i) {
    const auto at = std::find(edges.begin(), edges.end(), c2s.rtt.time(i));
    if (at == edges.begin() || at == edges.end()) continue;
    CHECK(c2s.rtt.value(i) == Approx(double(*at - *(at - 1)) / 1e6).margin(1e-6));
    ++matched;
  }
  CHECK(matched == edges.size() - 1);
  CHECK(c2s.rtt.size() == edges.size());
  // Its headers unread, the sequence lane is each packet's gap to the one
  // before: every datagram the client sent (captured before the loss).
  CHECK(data->encrypted);
  CHECK(c2s.spinRtt);
  QFile f(kRun + "truth.json");
  REQUIRE(f.open(QIODevice::ReadOnly));
  const int sent =
      QJsonDocument::fromJson(f.readAll()).object()["client"].toObject()["datagrams_sent"].toInt();
  CHECK(c2s.gaps.size() == size_t(sent - 1));

  TimelineView view;
  view.resize(1400, 850);
  view.setData(data);
  view.setDirection(Direction::ClientToServer);
  const int64_t edge = edges[edges.size() / 2];
  view.zoomTo(edge - 1'000'000'000, edge + 1'000'000'000);
  const QImage image = test::settledImage(view);
  REQUIRE(image.save(QString::fromStdString(test::artifactPath("timeline-quic-spin.png"))));
  const TimelineGeometry g = TimelineGeometry::compute(view.scene(), view.size());
  const double ms = double(edge - edges[edges.size() / 2 - 1]) / 1e6;
  const QPoint dot(int(g.time.x(edge)), int(g.axis(Lane::Rtt).y(ms)));
  CHECK(test::sameColour(image.pixel(dot), view.scene().colours.rttSample, 40));
  const auto hit = view.hitTest(dot);
  REQUIRE(hit);
  CHECK(hit->kind == HitKind::RttSample);
  CHECK(hit->ts_ns == edge);
  // The packet that carried the edge, in the sequence lane at its gap.
  size_t at = 0;
  while (at < c2s.gaps.size() && c2s.gaps.time(at) != edge) ++at;
  REQUIRE(at < c2s.gaps.size());
  const QPoint gap(int(g.time.x(edge)), int(g.axis(Lane::Sequence).y(c2s.gaps.value(at))));
  const auto gapHit = view.hitTest(gap);
  REQUIRE(gapHit);
  CHECK(gapHit->kind == HitKind::SeqPoint);
  CHECK(gapHit->ts_ns == edge);
  CHECK(gapHit->text.contains(QStringLiteral("ms after the previous packet")));
}
