// ConnectionsModel and its filter proxy against the sample capture's truth.
#include "catch_qt.h"

#include <QAbstractItemModelTester>
#include <set>

#include "models/connection_figures.h"
#include "models/connections_filter_model.h"
#include "models/connections_model.h"
#include "sample_capture.h"
#include "store/store_reader.h"

using namespace rudp;
using namespace rudp::gui;
using namespace rudp::test;

namespace {
struct Loaded {
  StoreReader reader{sampleCapture().db};
  ConnectionsModel model;
  QAbstractItemModelTester tester{&model, QAbstractItemModelTester::FailureReportingMode::Fatal};
  Loaded() { model.setConnections(reader.connectionRecords(), reader.settings(), reader.capture()); }

  int column(const char* id) const {
    const int c = model.columnOfId(QString::fromLatin1(id));
    REQUIRE(c >= 0);
    return c;
  }
  QVariantList directions(int row, const char* id) const {
    return model.index(row, column(id)).data(ConnectionsModel::DirectionValuesRole).toList();
  }
};

std::set<QString> clientsOf(const QAbstractItemModel& m, int clientColumn) {
  std::set<QString> out;
  for (int r = 0; r < m.rowCount(); ++r) out.insert(m.index(r, clientColumn).data().toString());
  return out;
}
}  // namespace

TEST_CASE("one row per connection, packet counts equal the truth's captured frames") {
  Loaded l;
  const SampleCapture& s = sampleCapture();
  REQUIRE(l.model.rowCount() == 3);
  for (int row = 0; row < 3; ++row) {
    const ConnectionRecord& r = l.model.record(row);
    const auto& tc = s.truthConnection(r.summary.conn_id);
    const uint64_t c2s = tc["directions"]["client_to_server"]["summary"]["captured"];
    const uint64_t s2c = tc["directions"]["server_to_client"]["summary"]["captured"];
    CHECK(l.directions(row, "packets") == QVariantList{qulonglong(c2s), qulonglong(s2c)});
    CHECK(l.model.index(row, l.column("packets")).data().toString() ==
          QStringLiteral("%1 / %2").arg(c2s).arg(s2c));
    CHECK(l.model.index(row, l.column("packets")).data(ConnectionsModel::RawRole).toULongLong() == c2s + s2c);
    CHECK(l.model.index(row, l.column("client")).data().toString() ==
          QString::fromStdString(tc["client"].get<std::string>()));
    CHECK(l.model.index(row, l.column("conn_id")).data().toString() ==
          QStringLiteral("0x%1").arg(tc["conn_id"].get<uint64_t>(), 8, 16, QLatin1Char('0')));
    CHECK(l.model.index(row, l.column("vantage")).data().toString() == "client");
  }
}

TEST_CASE("client-to-server retransmissions by kind equal the truth (client vantage)") {
  Loaded l;
  const SampleCapture& s = sampleCapture();
  for (int row = 0; row < l.model.rowCount(); ++row) {
    const auto& retx = s.truthConnection(
        l.model.record(row).summary.conn_id)["directions"]["client_to_server"]["summary"]["retransmissions"];
    CHECK(l.directions(row, "retx")[0].toULongLong() == retx["total"].get<uint64_t>());
    CHECK(l.directions(row, "retx_timeout")[0].toULongLong() == retx["timeout"].get<uint64_t>());
    CHECK(l.directions(row, "retx_fast")[0].toULongLong() == retx["fast"].get<uint64_t>());
    CHECK(l.directions(row, "retx_spurious")[0].toULongLong() == 0);
  }
}

TEST_CASE("RTT, share over the limits, jitter and stalls are the analysis' numbers") {
  Loaded l;
  const AnalysisSettings settings = l.reader.settings();
  REQUIRE(settings.rtt_limits_ms == std::vector<double>{150, 250, 300});
  CHECK(l.model.headerData(l.column("over_limit_1"), Qt::Horizontal).toString().startsWith("> 150 ms (%)"));
  for (int row = 0; row < l.model.rowCount(); ++row) {
    const ConnectionRecord& r = l.model.record(row);
    for (int d = 0; d < 2; ++d) {
      const ana::DirectionMetrics& m = r.metrics.dir[d];
      REQUIRE(m.rtt.samples > 0);
      CHECK(l.directions(row, "rtt_p50")[d].toDouble() == m.rtt.p50);
      CHECK(l.directions(row, "rtt_p95")[d].toDouble() == m.rtt.p95);
      CHECK(l.directions(row, "rtt_max")[d].toDouble() == m.rtt.max);
      CHECK(l.directions(row, "over_limit_3")[d].toDouble() == 100.0 * m.rtt.share_above[2]);
      CHECK(l.directions(row, "jitter")[d].toDouble() == m.jitter_ms);
      CHECK(l.directions(row, "stalls")[d].toULongLong() == m.stalls.size());
      CHECK(l.directions(row, "lost")[d].toULongLong() == m.lost);
    }
    CHECK(l.model.index(row, l.column("rtt_p95")).data(ConnectionsModel::RawRole).toDouble() ==
          std::max(r.metrics.dir[0].rtt.p95, r.metrics.dir[1].rtt.p95));
    // At the client, server→client samples are the client's ack delay, not a
    // round trip: marked "~".
    REQUIRE(r.metrics.dir[0].rtt.span == ana::RttSpan::RoundTrip);
    REQUIRE(r.metrics.dir[1].rtt.span == ana::RttSpan::ReceiverDelay);
    CHECK(l.model.index(row, l.column("rtt_p50")).data().toString() ==
          QString::number(r.metrics.dir[0].rtt.p50, 'f', 1) + " / " +
              QString::number(r.metrics.dir[1].rtt.p50, 'f', 1) + "~");
  }
}

TEST_CASE("longest stall per connection follows the truth's stalls within one 30 Hz tick") {
  Loaded l;
  const SampleCapture& s = sampleCapture();
  for (int row = 0; row < l.model.rowCount(); ++row) {
    const auto& tc = s.truthConnection(l.model.record(row).summary.conn_id);
    double longest = 0;
    for (const auto& st : tc["directions"]["client_to_server"]["summary"]["stalls"])
      longest = std::max(longest, st["duration_ms"].get<double>());
    INFO("client " << tc["client"]);
    CHECK(std::abs(l.directions(row, "longest_stall")[0].toDouble() - longest) < 2 * 1000.0 / 30);
  }
}

TEST_CASE("worst first puts the outage connection first") {
  Loaded l;
  ConnectionsFilterModel proxy;
  QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
  proxy.setSourceModel(&l.model);
  proxy.sort(l.column("badness"), Qt::DescendingOrder);
  const QString outageClient = QString::fromStdString(sampleCapture().outageConnection()["client"]);
  CHECK(proxy.index(0, l.column("client")).data().toString() == outageClient);
  // Its badness is dominated by the 1.56 s stall: the other two only had
  // stalls of a quarter to a third of a second.
  const double worst = proxy.index(0, l.column("badness")).data(ConnectionsModel::RawRole).toDouble();
  const double second = proxy.index(1, l.column("badness")).data(ConnectionsModel::RawRole).toDouble();
  CHECK(worst >= 1500);
  CHECK(second < 1000);
  CHECK(worst == connectionBadness(l.model.record(l.model.rowOfConnection(
                     proxy.index(0, 0).data(ConnectionsModel::ConnectionIdRole).toLongLong()))));
  // Numbers sort as numbers: ascending packets is non-decreasing in the raw total.
  proxy.sort(l.column("packets"), Qt::AscendingOrder);
  for (int r = 1; r < proxy.rowCount(); ++r)
    CHECK(proxy.index(r - 1, l.column("packets")).data(ConnectionsModel::RawRole).toULongLong() <=
          proxy.index(r, l.column("packets")).data(ConnectionsModel::RawRole).toULongLong());
}

TEST_CASE("the filter keeps exactly the rows matching every word") {
  Loaded l;
  ConnectionsFilterModel proxy;
  QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
  proxy.setSourceModel(&l.model);
  const int client = l.column("client");
  using Set = std::set<QString>;
  const Set all{"10.0.1.1:40000", "10.0.1.2:40001", "10.0.1.3:40002"};
  CHECK(clientsOf(proxy, client) == all);
  proxy.setFilterText("40001");
  CHECK(clientsOf(proxy, client) == Set{"10.0.1.2:40001"});
  proxy.setFilterText("GRUDP 10.0.0.1:7777");  // case-insensitive, every word must match
  CHECK(clientsOf(proxy, client) == all);
  proxy.setFilterText("10.0.1.3 7777");
  CHECK(clientsOf(proxy, client) == Set{"10.0.1.3:40002"});
  proxy.setFilterText("40001 40002");
  CHECK(clientsOf(proxy, client).empty());
  // Conn id, as hex and as decimal.
  const auto& tc = sampleCapture().truthConnection(l.model.record(0).summary.conn_id);
  const QString expected = QString::fromStdString(tc["client"].get<std::string>());
  proxy.setFilterText(QStringLiteral("0x%1").arg(tc["conn_id"].get<uint64_t>(), 8, 16, QLatin1Char('0')));
  CHECK(clientsOf(proxy, client) == Set{expected});
  proxy.setFilterText(QString::number(tc["conn_id"].get<uint64_t>()));
  CHECK(clientsOf(proxy, client) == Set{expected});
  proxy.setFilterText("udp-nothing");
  CHECK(proxy.rowCount() == 0);
  proxy.setFilterText("");
  CHECK(proxy.rowCount() == 3);
}

TEST_CASE("every connections column explains itself in a tooltip") {
  Loaded l;
  for (int c = 0; c < l.model.columnCount(); ++c) {
    INFO(l.model.headerData(c, Qt::Horizontal).toString().toStdString());
    CHECK(l.model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().size() > 10);
    CHECK(l.model.index(0, c).data(Qt::ToolTipRole) ==
          l.model.headerData(c, Qt::Horizontal, Qt::ToolTipRole));
  }
}
