// StatisticsPage with the outage connection: the stall list, selecting a
// stall emits its times, the figures, the rendered page.
#include "catch_qt.h"

#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

#include "models/direction_figures_model.h"
#include "models/rtt_histogram.h"
#include "models/stalls_model.h"
#include "page_artifacts.h"
#include "pages/statistics_charts.h"
#include "pages/statistics_page.h"
#include "sample_capture.h"
#include "session/ingest.h"
#include "store/store_reader.h"
#include "widgets/cdf_chart.h"
#include "widgets/histogram_chart.h"

using namespace rudp;
using namespace rudp::gui;
using namespace rudp::test;

namespace {
struct Activation {
  qint64 conn, start_ns, end_ns;
  Direction dir;
};

int64_t outageConnection(StoreReader& reader) {
  for (const ConnectionSummary& c : reader.connections())
    if (c.client == sampleCapture().outageConnection()["client"]) return c.id;
  FAIL("no outage connection");
  return 0;
}

QVariant figure(QTableView* t, const char* name, int column) {
  auto* m = static_cast<DirectionFiguresModel*>(t->model());
  const int row = m->rowOfFigure(QString::fromUtf8(name));
  return row < 0 ? QVariant() : m->index(row, column).data(DirectionFiguresModel::RawRole);
}
}  // namespace

TEST_CASE("selecting a stall on the statistics page emits its connection, direction and times") {
  const SampleCapture& s = sampleCapture();
  StoreReader reader(s.db);
  const int64_t conn = outageConnection(reader);
  StatisticsPage page;
  std::vector<Activation> got;
  QObject::connect(&page, &StatisticsPage::stallActivated, [&](qint64 c, Direction d, qint64 a, qint64 b) {
    got.push_back({c, a, b, d});
  });
  page.setData(loadStatistics(reader, conn));
  page.resize(1400, 900);
  page.show();
  REQUIRE(QTest::qWaitForWindowExposed(&page));

  QTableView* stalls = page.stallTable();
  REQUIRE(stalls->model()->rowCount() == 5);
  // Sorted by start: the first is the outage (client→server 8.052 s in the
  // truth's time, server→client rebuilt a little earlier).
  const QRect first = stalls->visualRect(stalls->model()->index(0, StallsModel::Start));
  QTest::mouseClick(stalls->viewport(), Qt::LeftButton, {}, first.center());
  REQUIRE(got.size() == 1);
  const std::vector<ana::StallEvent> stored = reader.stalls(conn, got[0].dir);
  const auto match = std::find_if(stored.begin(), stored.end(), [&](const ana::StallEvent& e) {
    return e.start_ns == got[0].start_ns && e.end_ns == got[0].end_ns;
  });
  REQUIRE(match != stored.end());
  CHECK(got[0].conn == conn);
  CHECK(match->duration_ms > 1500);
  const auto& truth = s.outageConnection()["directions"][truthDirection(got[0].dir)]["summary"]["stalls"][0];
  CHECK(std::abs(s.relativeSeconds(truth["start_ns"]) -
                 static_cast<double>(got[0].start_ns - s.capture.first_ts_ns) / 1e9) < 0.045);

  // Keyboard: Down moves to the next stall and emits again, later in time.
  QTest::keyClick(stalls, Qt::Key_Down);
  REQUIRE(got.size() == 2);
  CHECK(got[1].start_ns > got[0].start_ns);

  const QString png = savePagePng(page, "statistics_page");
  CHECK(!png.isEmpty());
}

TEST_CASE("the statistics charts hold the connection's RTT samples and loss bursts") {
  const SampleCapture& s = sampleCapture();
  StoreReader reader(s.db);
  const int64_t conn = outageConnection(reader);
  const StatisticsData data = loadStatistics(reader, conn);
  StatisticsPage page;
  page.setData(data);
  auto* charts = static_cast<StatisticsCharts*>(page.charts());
  const nlohmann::json& truth = s.truthConnection(reader.connection(conn)->summary.conn_id);
  for (Direction d : {Direction::ClientToServer, Direction::ServerToClient}) {
    INFO(truthDirection(d));
    const std::vector<double>& samples = data.of(d).rtt_ms;
    const RttHistogramPlan plan = planRttHistogram(samples);
    double drawn = 0;
    for (const HistogramBin& b : charts->rttHistogram(d)->bins()) {
      drawn += b.count;
      CHECK(b.to - b.from == Approx(plan.width));
    }
    CHECK(drawn == static_cast<double>(samples.size() - plan.beyond));
    // Loss-burst bars: one per length, the truth's runs of never-delivered seqs.
    std::map<uint32_t, uint64_t> bars;
    for (const HistogramBin& b : charts->lossBurstHistogram(d)->bins())
      bars[b.label.toUInt()] = static_cast<uint64_t>(b.count);
    CHECK(bars == truthNeverDeliveredRuns(truth, d));
    // The CDF has every sample, outage included.
    const int series = static_cast<int>(d);
    CHECK(charts->rttCdf()->fractionAt(series, *std::max_element(samples.begin(), samples.end())) == 1.0);
    CHECK(charts->rttCdf()->quantile(series, 0.5) == data.of(d).rtt.p50);
  }
  CHECK(charts->rttCdf()->seriesCount() == 2);
  page.clear();
  CHECK(charts->rttCdf()->seriesCount() == 0);
  CHECK(charts->rttHistogram(Direction::ClientToServer)->bins().empty());
}

TEST_CASE("the statistics figures are the analysis' numbers, empty data empties the page") {
  StoreReader reader(sampleCapture().db);
  const int64_t conn = outageConnection(reader);
  const std::optional<ConnectionRecord> r = reader.connection(conn);
  REQUIRE(r);
  StatisticsPage page;
  page.setData(loadStatistics(reader, conn));
  for (int d = 0; d < 2; ++d) {
    const ana::DirectionMetrics& m = r->metrics.dir[d];
    REQUIRE(m.jitter_ms);  // GRUDP carries the sender's timestamp
    CHECK(figure(page.figuresTable(), "Jitter (ms)", 1 + d).toDouble() == *m.jitter_ms);
    CHECK(figure(page.figuresTable(), "RTT p99 (ms)", 1 + d).toDouble() == m.rtt.p99);
    CHECK(figure(page.figuresTable(), "RTT samples", 1 + d).toULongLong() == m.rtt.samples);
    CHECK(figure(page.figuresTable(), "Lost seqs", 1 + d).toULongLong() == m.lost);
    CHECK(figure(page.figuresTable(), "Tick rate (Hz)", 1 + d).toDouble() == m.gaps.tick_hz);
  }
  CHECK(page.lossBurstTable()->model()->rowCount() > 0);
  page.clear();
  CHECK(page.stallTable()->model()->rowCount() == 0);
  CHECK(page.figuresTable()->model()->rowCount() == 0);
  CHECK(page.lossBurstTable()->model()->rowCount() == 0);
}

TEST_CASE(
    "a protocol without sender timestamps shows its jitter as unknown (not 0) and its tick from its "
    "datagrams") {
  // RakNet's datagrams carry no sender clock: the analysis has no jitter.
  TempDir dir("gui-jitter");
  const std::string db = dir / "raknet.sqlite";
  ingestCapture(RUDPSCOPE_SOURCE_DIR "/tests/kcp_enet/data/raknet_lab_loss5_delay40/client.pcapng", db,
                DissectorOptions{});
  StoreReader reader(db);
  const std::vector<ConnectionSummary> conns = reader.connections();
  REQUIRE(conns.size() == 1);
  StatisticsPage page;
  page.setData(loadStatistics(reader, conns[0].id));
  page.resize(1400, 900);
  page.show();
  REQUIRE(QTest::qWaitForWindowExposed(&page));
  auto* m = static_cast<DirectionFiguresModel*>(page.figuresTable()->model());
  const int row = m->rowOfFigure(QStringLiteral("Jitter (ms)"));
  REQUIRE(row >= 0);
  for (int d = 0; d < 2; ++d) {
    CHECK_FALSE(m->index(row, 1 + d).data(DirectionFiguresModel::RawRole).isValid());
    CHECK(m->index(row, 1 + d).data().toString() == QStringLiteral("–"));
  }
  // Its spacing and tick come from its datagrams: the workload's 30 Hz inputs, 20 Hz snapshots.
  const int tick = m->rowOfFigure(QStringLiteral("Tick rate (Hz)"));
  REQUIRE(tick >= 0);
  CHECK(m->index(tick, 1).data(DirectionFiguresModel::RawRole).toDouble() == 30.0);
  CHECK(m->index(tick, 2).data(DirectionFiguresModel::RawRole).toDouble() == 20.0);
  page.figuresTable()->scrollTo(m->index(row, 1), QAbstractItemView::PositionAtTop);
  CHECK_FALSE(savePagePng(*page.figuresTable(), QStringLiteral("statistics-raknet-jitter")).isEmpty());
}
