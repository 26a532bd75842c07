// The comparison the Compare page shows, against the core read directly and
// against `rudpscope-cli analyze --json` of the same capture: every figure
// of the side-by-side table is exactly the core's, and the CLI's.
#include <QAbstractItemModelTester>
#include <QFileInfo>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "catch_qt.h"
#include "compare/labels.h"
#include "compare/matrix.h"
#include "compare/metric_list.h"
#include "compare_fixture.h"
#include "models/compare_rows_model.h"
#include "models/comparison_model.h"
#include "process.h"
#include "session/capture_set.h"
#include "store/store_reader.h"

using namespace rudp;
using nlohmann::json;
using rudp::gui::CompareRowsModel;
using rudp::gui::ComparisonModel;

namespace {

// Equal figures, where "cannot tell" (NaN) equals itself.
bool sameFigure(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

void checkSameFigures(const cmp::DirectionComparison& a, const cmp::DirectionComparison& b) {
  for (const cmp::MetricInfo& m : cmp::comparisonMetrics()) {
    INFO(m.key << ": " << m.value(a) << " vs " << m.value(b));
    CHECK(sameFigure(m.value(a), m.value(b)));
  }
}

const json& connectionJson(const json& out, int64_t id) {
  for (const json& c : out["connections"])
    if (c["id"].get<int64_t>() == id) return c;
  FAIL("no connection " << id << " in the CLI's output");
  throw std::logic_error("unreachable");
}

double raw(const ComparisonModel& model, const char* key, int column) {
  const int row = model.rowOfMetric(QString::fromLatin1(key));
  REQUIRE(row >= 0);
  const QVariant v = model.data(model.index(row, column), ComparisonModel::RawRole);
  return v.isValid() ? v.toDouble() : cmp::kNone;
}

}  // namespace

TEST_CASE("the compare job reads every capture of the folder with its labels and its database") {
  const test::CompareSet& set = test::compareSet();
  const gui::CompareOutcome& out = set.outcome;
  REQUIRE(out.captures.size() == 6);
  CHECK(out.warnings.isEmpty());
  CHECK(out.failed() == 0);
  REQUIRE(out.rows.size() == 6 * 2 * 2);  // 2 connections, 2 directions each
  REQUIRE(out.rttMs.size() == out.rows.size());
  size_t row = 0;
  for (size_t i = 0; i < out.captures.size(); ++i) {
    const gui::CompareCapture& c = out.captures[i];
    INFO(c.path.toStdString());
    CHECK(c.path.toStdString() == set.captures[i]);
    CHECK(c.error.isEmpty());
    CHECK(c.connections == 2);
    CHECK(c.labels.toStdString() == cmp::labelText(cmp::captureLabels(set.captures[i])));
    // What the core reads from the capture's database, directly.
    StoreReader reader(c.db.toStdString());
    const auto direct = cmp::compareConnections(reader, set.captures[i], cmp::captureLabels(set.captures[i]));
    REQUIRE(direct.size() == 4);
    for (const cmp::DirectionComparison& d : direct) {
      const cmp::DirectionComparison& shown = out.rows.at(row);
      CHECK(shown.conn == d.conn);
      CHECK(shown.dir == d.dir);
      CHECK(shown.labels == d.labels);
      checkSameFigures(shown, d);
      std::vector<double> rtt;
      for (const ana::RttEvent& e : reader.rttSamples(d.conn, d.dir)) rtt.push_back(e.rtt_ms);
      CHECK(out.rttMs.at(row) == rtt);
      CHECK(rtt.size() == d.rtt.count);
      ++row;
    }
  }
  // The labels come from the file name.
  for (const cmp::DirectionComparison& d : out.rows)
    if (d.capture.ends_with("/grudp_loss5_rto300.pcap"))
      CHECK(d.labels == cmp::Labels{{"stack", "grudp"}, {"loss", "5"}, {"rto", "300"}});
  // Numbers in numeric order: loss 1, 5, 10.
  CHECK(std::filesystem::path(set.captures.front()).filename() == "grudp_loss1_rto100.pcap");
  CHECK(std::filesystem::path(set.captures.back()).filename() == "grudp_loss10_rto300.pcap");
}

TEST_CASE("a second comparison of the folder reuses every database and shows the same figures") {
  const test::CompareSet& set = test::compareSet();
  const gui::CompareOutcome again = test::runCompareJob({set.dir.path()});
  REQUIRE(again.captures.size() == set.outcome.captures.size());
  for (const gui::CompareCapture& c : again.captures) CHECK(c.reused);
  REQUIRE(again.rows.size() == set.outcome.rows.size());
  for (size_t i = 0; i < again.rows.size(); ++i) checkSameFigures(again.rows[i], set.outcome.rows[i]);
}

TEST_CASE("the side-by-side table shows exactly the core's figures and rudpscope-cli analyze --json's") {
  const test::CompareSet& set = test::compareSet();
  CompareRowsModel rows;
  QAbstractItemModelTester rowsTester(&rows, QAbstractItemModelTester::FailureReportingMode::Fatal);
  ComparisonModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  rows.setRows(set.outcome.rows);
  REQUIRE(rows.rowCount() == 24);
  model.setColumns(rows.checkedRows());
  // At first: the busiest connection of each capture, client to server.
  REQUIRE(model.columnCount() == 1 + 6);
  CHECK(model.rowCount() == 3 + 3 + static_cast<int>(cmp::comparisonMetrics().size()));
  CHECK(model.headerData(0, Qt::Horizontal).toString() == "Figure");

  const test::TempDir tmp("compare-cli");
  for (int column = 1; column < model.columnCount(); ++column) {
    const cmp::DirectionComparison& d = model.columns()[column - 1];
    INFO(d.capture);
    const cmp::DirectionComparison* busiest =
        cmp::busiest(set.outcome.rows, d.capture, Direction::ClientToServer);
    REQUIRE(busiest);
    CHECK(busiest->conn == d.conn);
    CHECK(d.dir == Direction::ClientToServer);
    const QString file = QFileInfo(QString::fromStdString(d.capture)).fileName();
    CHECK(model.data(model.index(0, column)).toString() == file);
    CHECK(model.data(model.index(2, column)).toString() == QStringLiteral("client → server"));
    CHECK(model.data(model.index(model.rowOfLabel("loss"), column)).toString().toStdString() ==
          d.labels.at("loss"));
    CHECK(model.data(model.index(model.rowOfLabel("rto"), column)).toString().toStdString() ==
          d.labels.at("rto"));
    for (const cmp::MetricInfo& m : cmp::comparisonMetrics()) {
      INFO(m.key);
      const int row = model.rowOfMetric(QString::fromStdString(m.key));
      const double value = m.value(d);
      CHECK(sameFigure(raw(model, m.key.c_str(), column), value));
      CHECK(model.data(model.index(row, column)).toString() == ComparisonModel::valueText(value, m.unit));
    }

    // The same capture analysed by the CLI into its own database.
    const test::ProcessResult cli = test::run(
        {RUDPSCOPE_CLI, "analyze", d.capture, "--db", tmp / (file.toStdString() + ".sqlite"), "--json"});
    INFO(cli.err);
    REQUIRE(cli.status == 0);
    const json analyzed = json::parse(cli.out);
    const json& c2s = connectionJson(analyzed, d.conn)["directions"]["client_to_server"];
    CHECK(raw(model, "rtt_mean", column) == c2s["rtt_ms"]["mean"].get<double>());
    CHECK(raw(model, "rtt_p99", column) == c2s["rtt_ms"]["p99"].get<double>());
    if (c2s.contains("response_ms")) {
      const json& r = c2s["response_ms"];
      CHECK(raw(model, "response_mean", column) == r["mean"].get<double>());
      CHECK(raw(model, "response_p50", column) == r["p50"].get<double>());
      CHECK(raw(model, "response_p95", column) == r["p95"].get<double>());
      CHECK(raw(model, "response_p99", column) == r["p99"].get<double>());
      CHECK(raw(model, "response_max", column) == r["max"].get<double>());
    }
    CHECK(raw(model, "retransmissions", column) == c2s["retransmissions"].get<double>());
    CHECK(raw(model, "retx_timeout", column) == c2s["retransmissions_timeout"].get<double>());
    CHECK(raw(model, "retx_fast", column) == c2s["retransmissions_fast"].get<double>());
    CHECK(raw(model, "retx_spurious", column) == c2s["retransmissions_spurious"].get<double>());
    CHECK(raw(model, "lost", column) == c2s["lost"].get<double>());
    CHECK(raw(model, "stalls", column) == static_cast<double>(c2s["stalls"].size()));
    if (c2s["lost"].get<uint64_t>() > 0)
      CHECK(raw(model, "mean_loss_burst", column) == c2s["mean_loss_burst"].get<double>());
    if (c2s["hol_observable"].get<int>() == 1)
      CHECK(raw(model, "hol_blocking", column) == c2s["hol_blocking_ms"].get<double>());
    CHECK(d.data_packets == c2s["data_packets"].get<uint64_t>());
  }
}

TEST_CASE("checking and unchecking connections changes the table's columns") {
  const test::CompareSet& set = test::compareSet();
  CompareRowsModel rows;
  ComparisonModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  QObject::connect(&rows, &CompareRowsModel::checkedChanged, &model,
                   [&] { model.setColumns(rows.checkedRows()); });
  rows.setRows(set.outcome.rows);
  REQUIRE(model.columnCount() == 7);
  const std::vector<int> checked = rows.checkedIndexes();
  REQUIRE(checked.size() == 6);
  // The other direction of the first capture's busiest connection.
  const cmp::DirectionComparison& first = set.outcome.rows[checked[0]];
  const int s2c = rows.rowOf(first.capture, first.conn, Direction::ServerToClient);
  REQUIRE(s2c >= 0);
  CHECK(rows.setData(rows.index(s2c, CompareRowsModel::CaptureColumn), Qt::Checked, Qt::CheckStateRole));
  REQUIRE(model.columnCount() == 8);
  CHECK(model.columns()[1].dir == Direction::ServerToClient);
  CHECK(model.headerData(2, Qt::Horizontal).toString() == ComparisonModel::columnName(set.outcome.rows[s2c]));
  rows.setChecked(checked[0], false);
  CHECK(model.columnCount() == 7);
  CHECK(model.columns()[0].dir == Direction::ServerToClient);
  rows.clear();
  CHECK(model.columnCount() == 1);
  CHECK(model.rowCount() == 3 + static_cast<int>(cmp::comparisonMetrics().size()));
}

TEST_CASE("values are written with their unit and a figure that cannot be told is a dash") {
  CHECK(ComparisonModel::valueText(12.34, "ms") == "12.3 ms");
  CHECK(ComparisonModel::valueText(2.5, "%") == "2.50 %");
  CHECK(ComparisonModel::valueText(0.4, "/min") == "0.40 /min");
  CHECK(ComparisonModel::valueText(81.26, "kbit/s") == "81.3 kbit/s");
  CHECK(ComparisonModel::valueText(17, "") == "17");
  CHECK(ComparisonModel::valueText(1.5, "packets") == "1.500 packets");
  CHECK(ComparisonModel::valueText(cmp::kNone, "%") == "–");
}

TEST_CASE(
    "a direction captured at its receiver says so, and its round-trip figures are dashes that say why") {
  cmp::DirectionComparison d;
  d.capture = "/tmp/game.pcap";
  d.dir = Direction::ServerToClient;
  d.at_receiver = true;
  d.response.count = d.rtt.count = 10;
  d.response.mean = d.rtt.mean = 0.2;  // the client's ack delay, not a round trip
  d.response_share = {{150, 0.0}, {250, 0.0}, {300, 0.0}};
  d.retransmissions = 3;
  ComparisonModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setColumns({d});
  CHECK(
      model.data(model.index(2, 1)).toString().endsWith("(captured at the receiver)"));  // the direction row
  for (const char* key : {"response_mean", "share_over_300", "rtt_mean", "recovery_mean"}) {
    INFO(key);
    const QModelIndex cell = model.index(model.rowOfMetric(QString::fromLatin1(key)), 1);
    CHECK(model.data(cell).toString() == "–");
    CHECK(model.data(cell, Qt::ToolTipRole)
              .toString()
              .startsWith("This direction was captured at the receiver of its data (the client)"));
  }
  CHECK(model.data(model.index(model.rowOfMetric("retransmissions"), 1)).toString() == "3");
}
