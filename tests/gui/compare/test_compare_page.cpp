// The Compare page: a folder loaded through the CompareJob, a capture that
// cannot be read, a newer request replacing a running one, edited labels,
// CSV, chart and HTML exports. The PNGs it renders go to
// RUDPSCOPE_TEST_ARTIFACTS.
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "catch_qt.h"
#include "compare/matrix.h"
#include "compare_fixture.h"
#include "models/compare_rows_model.h"
#include "models/comparison_model.h"
#include "models/table_csv.h"
#include "pages/aligned_timelines.h"
#include "pages/capture_list.h"
#include "pages/compare_page.h"
#include "pages/matrix_panel.h"
#include "process.h"
#include "settled_image.h"
#include "sim_capture.h"
#include "store/store_reader.h"
#include "widgets/cdf_chart.h"
#include "widgets/matrix_chart.h"
#include "widgets/message_banner.h"
#include "widgets/timeline_view.h"

using namespace rudp;
using rudp::gui::ComparePage;
using rudp::test::compareAndWait;
using rudp::test::savePng;

TEST_CASE(
    "the Compare page loads a folder through the job: captures and connections and table and CDF and "
    "matrix") {
  const test::CompareSet& set = test::compareSet();
  ComparePage page;
  page.resize(1500, 900);
  page.show();
  REQUIRE(compareAndWait(page, {set.dir.path()}));
  CHECK(!page.busy());
  CHECK(page.statusText() == "6 captures compared");
  // The page never makes the window bigger than a laptop's screen.
  CHECK(page.minimumSizeHint().width() <= 1000);
  CHECK(page.minimumSizeHint().height() <= 600);
  CHECK(!page.banner()->isVisible());

  QTreeWidget* captures = page.capturesView();
  REQUIRE(captures->topLevelItemCount() == 6);
  for (int i = 0; i < 6; ++i) {
    const QTreeWidgetItem* item = captures->topLevelItem(i);
    const std::string path = set.captures[i];
    CHECK(item->text(0).toStdString() == std::filesystem::path(path).filename().string());
    CHECK(item->text(1) == set.outcome.captures[i].labels);
    CHECK(item->text(2) == "database reused, 2 connections");  // compareSet() analysed them
  }
  CHECK(page.rowsModel()->rowCount() == 24);
  CHECK(page.rowsModel()->checkedIndexes().size() == 6);
  CHECK(page.tableModel()->columnCount() == 7);

  // The CDF overlay: one curve per checked direction, holding its RTT samples.
  REQUIRE(page.cdfChart()->seriesCount() == 6);
  const std::vector<int> checked = page.rowsModel()->checkedIndexes();
  for (int i = 0; i < 6; ++i) {
    const std::vector<double>& rtt = set.outcome.rttMs[checked[i]];
    REQUIRE(!rtt.empty());
    CHECK(page.cdfChart()->quantile(i, 1.0) == *std::max_element(rtt.begin(), rtt.end()));
    CHECK(page.cdfChart()->fractionAt(i, *std::min_element(rtt.begin(), rtt.end()) - 1e-9) == 0.0);
  }

  // The recovery CDF: one curve per checked direction, one value per
  // recovered loss, the core's loss recovery distribution (the simulator's
  // truth in tests/compare/test_compare_truth.cpp).
  REQUIRE(page.recoveryChart()->seriesCount() == 6);
  size_t recoveries = 0;
  for (int i = 0; i < 6; ++i) {
    const cmp::DirectionComparison& row = set.outcome.rows[checked[i]];
    INFO(row.capture);
    REQUIRE(page.recoveryChart()->valueCount(i) == row.loss_recovery.count);
    recoveries += row.loss_recovery.count;
    if (row.loss_recovery.count == 0) continue;
    CHECK(page.recoveryChart()->quantile(i, 1.0) == row.loss_recovery.max);
    CHECK(page.recoveryChart()->quantile(i, 0.5) ==
          row.recovery_samples_ms[(row.recovery_samples_ms.size() - 1) / 2]);
    CHECK(page.recoveryChart()->fractionAt(i, row.recovery_samples_ms.front() - 1e-9) == 0.0);
  }
  CHECK(recoveries > 0);  // the set has loss 1, 5 and 10 %: curves to draw

  // The matrix: by default the share over 300 ms against loss, a line per stack.
  gui::MatrixPanel* matrix = page.matrixPanel();
  CHECK(matrix->request().metric == "share_over_300");
  CHECK(matrix->request().x == "loss");
  CHECK(matrix->request().group == "stack");
  CHECK(matrix->request().panel == "");  // the captures have no delay label
  CHECK(matrix->xBox()->count() == 3);   // loss, rto, stack
  matrix->groupBox()->setCurrentIndex(matrix->groupBox()->findData(QStringLiteral("rto")));
  matrix->metricBox()->setCurrentIndex(matrix->metricBox()->findData(QStringLiteral("share_over_150")));
  const cmp::Matrix& m = matrix->chart()->matrix();
  CHECK(m.request.group == "rto");
  CHECK(m.request.metric == "share_over_150");
  REQUIRE(m.panels.size() == 1);
  CHECK(m.panels[0].lines.size() == 2);
  CHECK(matrix->skippedText().isEmpty());

  page.tabs()->setCurrentIndex(ComparePage::TableTab);
  CHECK(!savePng(page, "compare-page-table.png").isEmpty());
  page.tabs()->setCurrentIndex(ComparePage::CdfTab);
  CHECK(!savePng(page, "compare-page-cdf.png").isEmpty());
  page.tabs()->setCurrentIndex(ComparePage::RecoveryTab);
  CHECK(!savePng(page, "compare-page-recovery.png").isEmpty());
  page.tabs()->setCurrentIndex(ComparePage::MatrixTab);
  CHECK(!savePng(page, "compare-page-matrix.png").isEmpty());

  // A click on a point selects its connection in the list.
  gui::MatrixChart* chart = matrix->chart();
  const gui::MatrixChart::PointRef last{0, 1, 2};  // rto=300, loss 10
  const cmp::MatrixPoint& pt = chart->point(last);
  QTest::mouseClick(chart, Qt::LeftButton, {}, chart->pixelOf(last)->toPoint());
  const int row = page.rowsModel()->rowOf(pt.capture, pt.conn, Direction::ClientToServer);
  REQUIRE(row >= 0);
  REQUIRE(page.connectionsView()->selectionModel()->selectedRows().size() == 1);
  CHECK(page.connectionsView()->selectionModel()->selectedRows().first().row() == row);

  // Exports: the table as CSV reads back as the table; the chart as PNG and SVG.
  QTemporaryDir out;
  const QString csvPath = out.filePath("comparison.csv");
  REQUIRE(page.exportTableTo(csvPath).isEmpty());
  QFile csvFile(csvPath);
  REQUIRE(csvFile.open(QIODevice::ReadOnly));
  const QList<QStringList> records = gui::parseCsv(QString::fromUtf8(csvFile.readAll()));
  const gui::ComparisonModel& model = *page.tableModel();
  REQUIRE(records.size() == 1 + model.rowCount());
  for (int c = 0; c < model.columnCount(); ++c) {
    CHECK(records[0][c] == model.headerData(c, Qt::Horizontal).toString());
    for (int r = 0; r < model.rowCount(); ++r)
      CHECK(records[r + 1][c] == model.data(model.index(r, c)).toString());
  }
  // The matrix as CSV: a header and one line per point, as the CLI writes it.
  REQUIRE(page.exportMatrixTo(out.filePath("matrix.csv")).isEmpty());
  QFile matrixCsv(out.filePath("matrix.csv"));
  REQUIRE(matrixCsv.open(QIODevice::ReadOnly));
  const QList<QStringList> matrixRecords = gui::parseCsv(QString::fromUtf8(matrixCsv.readAll()));
  size_t points = 0;
  for (const auto& p : matrix->chart()->matrix().panels)
    for (const auto& l : p.lines) points += l.points.size();
  REQUIRE(matrixRecords.size() == qsizetype(points) + 1);
  CHECK(matrixRecords[0].join(',') == "panel:,group:rto,x:loss,share_over_150,capture,conn");
  for (qsizetype i = 1; i < matrixRecords.size(); ++i) {
    const QString capture = matrixRecords[i][4];
    bool found = false;
    for (const auto& p : matrix->chart()->matrix().panels)
      for (const auto& l : p.lines)
        for (const auto& pt : l.points)
          if (QString::fromStdString(pt.capture) == capture) {
            found = true;
            CHECK(matrixRecords[i][2].toDouble() == pt.x);
            CHECK(matrixRecords[i][3].toDouble() == Approx(pt.y).epsilon(1e-15));
          }
    CHECK(found);
  }
  // Save Chart is for the charts: off on the table and the timelines, on for the CDF and the matrix.
  auto* saveChart = page.findChild<QToolButton*>("compare.saveChart");
  REQUIRE(saveChart);
  CHECK(saveChart->isEnabled());
  page.tabs()->setCurrentIndex(ComparePage::TableTab);
  CHECK_FALSE(saveChart->isEnabled());
  CHECK(page.exportChartTo(out.filePath("table.png"), false) == "the Side by Side tab has no chart");
  CHECK_FALSE(QFile::exists(out.filePath("table.png")));
  page.tabs()->setCurrentIndex(ComparePage::TimelinesTab);
  CHECK_FALSE(saveChart->isEnabled());
  page.tabs()->setCurrentIndex(ComparePage::CdfTab);
  CHECK(saveChart->isEnabled());
  page.tabs()->setCurrentIndex(ComparePage::MatrixTab);
  REQUIRE(page.exportChartTo(out.filePath("matrix.png"), false).isEmpty());
  CHECK(QImage(out.filePath("matrix.png")).size() == matrix->chart()->size());
  REQUIRE(page.exportChartTo(out.filePath("matrix.svg"), true).isEmpty());
  QFile svg(out.filePath("matrix.svg"));
  REQUIRE(svg.open(QIODevice::ReadOnly));
  CHECK(svg.readAll().contains("<svg"));

  // The HTML report: the checked columns and the matrix as chosen.
  REQUIRE(page.exportReportTo(out.filePath("comparison.html")).isEmpty());
  QFile html(out.filePath("comparison.html"));
  REQUIRE(html.open(QIODevice::ReadOnly));
  const QString report = QString::fromUtf8(html.readAll());
  CHECK(report.startsWith("<!DOCTYPE html>"));
  CHECK(report.contains("<section id=\"table\"><h2>Side by side</h2>"));
  CHECK(report.contains("<section id=\"matrix\"><h2>Matrix</h2>"));
  for (const std::string& capture : set.captures)
    CHECK(report.contains(QString::fromStdString(std::filesystem::path(capture).filename().string())));
  CHECK(ComparePage().exportReportTo(out.filePath("none.html")) == "nothing is compared yet");
}

TEST_CASE("the timelines of the checked connections are stacked on the time since each one's start") {
  const test::CompareSet& set = test::compareSet();
  ComparePage page;
  page.resize(1500, 1000);
  page.show();
  REQUIRE(compareAndWait(page, {set.dir.path()}));
  gui::AlignedTimelines* timelines = page.timelines();
  CHECK(timelines->count() == 0);  // read only when their tab shows
  QSignalSpy shown(timelines, &gui::AlignedTimelines::timelinesShown);
  page.tabs()->setCurrentIndex(ComparePage::TimelinesTab);
  REQUIRE(shown.wait(60000));
  REQUIRE(timelines->count() == gui::AlignedTimelines::kMaxTimelines);
  CHECK(timelines->note() == "The first 4 checked connections; 2 more are not shown.");

  // Each as the database holds it, counted from its own start, all as long as the longest.
  int64_t longest = 0;
  std::vector<gui::TimelineData> stored;
  const auto& columns = page.tableModel()->columns();
  for (int i = 0; i < timelines->count(); ++i) {
    const auto& capture = page.outcome().captures;
    const auto it = std::find_if(capture.begin(), capture.end(), [&](const gui::CompareCapture& c) {
      return c.path.toStdString() == columns[i].capture;
    });
    REQUIRE(it != capture.end());
    StoreReader reader(it->db.toStdString());
    stored.push_back(gui::loadTimelineData(reader, columns[i].conn));
    longest = std::max(longest, stored.back().last_ns - stored.back().first_ns);
  }
  for (int i = 0; i < timelines->count(); ++i) {
    const gui::TimelineData& shown = *timelines->view(i)->data();
    CHECK(shown.conn == columns[i].conn);
    CHECK(shown.first_ns == stored[i].first_ns);
    CHECK(shown.origin_ns == stored[i].first_ns);
    CHECK(shown.origin_is_connection_start);
    CHECK(shown.last_ns == stored[i].first_ns + longest);
    CHECK(shown.of(columns[i].dir).rtt.size() == stored[i].of(columns[i].dir).rtt.size());
    CHECK(timelines->view(i)->direction() == columns[i].dir);
  }

  // Zooming one moves the others to the same seconds of their own connection.
  gui::TimelineView* first = timelines->view(0);
  const int64_t s1 = 1'000'000'000, s3 = 3'000'000'000;
  first->setTimeRange(first->data()->first_ns + s1, first->data()->first_ns + s3);
  for (int i = 0; i < timelines->count(); ++i) {
    gui::TimelineView* v = timelines->view(i);
    CHECK(v->rangeStart() == v->data()->first_ns + s1);
    CHECK(v->rangeEnd() == v->data()->first_ns + s3);
  }
  first->resetZoom();
  // On screen (added widgets show from the event loop), each rendered off the UI thread.
  REQUIRE(QTest::qWaitFor([&] { return timelines->view(1)->isVisible(); }, 5000));
  for (int i = 0; i < timelines->count(); ++i) {
    CHECK(timelines->view(i)->rangeStart() < timelines->view(i)->data()->first_ns);  // the padding
    (void)test::settledImage(*timelines->view(i));
  }
  for (int i = 1; i < timelines->count(); ++i)  // stacked, none over another
    CHECK(timelines->view(i)->pos().y() >=
          timelines->view(i - 1)->pos().y() + timelines->view(i - 1)->height());
  CHECK(!savePng(page, "compare-page-timelines.png").isEmpty());

  // Unchecking a connection reads the timelines again, without it.
  page.rowsModel()->setChecked(page.rowsModel()->checkedIndexes().front(), false);
  REQUIRE(shown.wait(60000));
  CHECK(timelines->count() == 4);
  CHECK(timelines->note() == "The first 4 checked connections; 1 more are not shown.");
  CHECK(timelines->view(0)->data()->conn == page.tableModel()->columns()[0].conn);
}

TEST_CASE("a capture that cannot be read is one line and the others still come") {
  QTemporaryDir dir;
  test::simulateCapture(dir.path(), 5, 100);
  test::simulateCapture(dir.path(), 10, 300);
  std::ofstream(dir.filePath("grudp_loss7_rto100.pcap").toStdString()) << "not a capture\n";
  ComparePage page;
  page.resize(1400, 800);
  page.show();
  REQUIRE(compareAndWait(page, {dir.path()}));
  REQUIRE(page.outcome().captures.size() == 3);
  CHECK(page.outcome().failed() == 1);
  const auto& captures = page.outcome().captures;
  const int at = static_cast<int>(
      std::find_if(captures.begin(), captures.end(),
                   [](const gui::CompareCapture& c) { return c.path.endsWith("grudp_loss7_rto100.pcap"); }) -
      captures.begin());
  REQUIRE(at < 3);
  const gui::CompareCapture& broken = captures[at];
  CHECK(broken.error == QStringLiteral("'%1' is not a pcap or pcapng capture").arg(broken.path));
  CHECK(page.capturesView()->topLevelItem(at)->text(2) == broken.error);
  for (int i = 0; i < 3; ++i)
    if (i != at) CHECK(captures[i].error.isEmpty());
  CHECK(page.outcome().rows.size() == 8);
  CHECK(page.statusText() == "2 captures compared");
  CHECK(page.banner()->isVisible());
  CHECK(page.banner()->kind() == gui::MessageBanner::Kind::Error);
  CHECK(page.banner()->text() == "grudp_loss7_rto100.pcap: " + broken.error);
  CHECK(page.tableModel()->columnCount() == 3);
  CHECK(!savePng(page, "compare-page-broken.png").isEmpty());
}

TEST_CASE("edited labels are saved as the capture's sidecar and the set is compared again") {
  QTemporaryDir dir;
  const std::string a = test::simulateCapture(dir.path(), 5, 100);
  test::simulateCapture(dir.path(), 10, 100);
  ComparePage page;
  page.show();
  REQUIRE(compareAndWait(page, {dir.path()}));
  gui::CaptureList* list = page.capturesView();
  REQUIRE(list->topLevelItemCount() == 2);
  QTreeWidgetItem* item = list->topLevelItem(0);
  REQUIRE(item->text(0) == "grudp_loss5_rto100.pcap");
  CHECK(item->text(1) == "loss=5 rto=100 stack=grudp");
  CHECK(item->flags().testFlag(Qt::ItemIsEditable));

  // A bad label: nothing saved, the text as it was, the banner says why.
  item->setText(gui::CaptureList::LabelsColumn, "loss5 stack=tcp");
  CHECK(item->text(1) == "loss=5 rto=100 stack=grudp");
  CHECK(!QFileInfo::exists(QString::fromStdString(a + ".labels")));
  CHECK(page.banner()->text() ==
        "Labels of grudp_loss5_rto100.pcap not saved: a label is KEY=VALUE, not 'loss5'");
  CHECK(!page.busy());

  // Good labels: the sidecar holds them, the comparison runs again with them.
  QSignalSpy shown(&page, &ComparePage::comparisonShown);
  item->setText(gui::CaptureList::LabelsColumn, "loss=5  stack=tcp-cubic delay=50");
  CHECK(page.busy());
  REQUIRE(shown.wait(60000));
  std::ifstream sidecar(a + ".labels");
  const std::string text((std::istreambuf_iterator<char>(sidecar)), std::istreambuf_iterator<char>());
  CHECK(text == "# labels of grudp_loss5_rto100.pcap (rudpscope Compare)\nloss=5 stack=tcp-cubic delay=50\n");
  CHECK(page.capturesView()->topLevelItem(0)->text(1) == "delay=50 loss=5 rto=100 stack=tcp-cubic");
  CHECK(page.capturesView()->topLevelItem(0)->text(2) == "database reused, 2 connections");
  for (const cmp::DirectionComparison& d : page.outcome().rows)
    if (d.capture == a) CHECK(d.labels.at("stack") == "tcp-cubic");
}

TEST_CASE("nothing to compare: the banner says why") {
  QTemporaryDir empty;
  ComparePage page;
  QSignalSpy notShown(&page, &ComparePage::comparisonNotShown);
  CHECK(!compareAndWait(page, {empty.path()}));
  REQUIRE(notShown.size() == 1);
  CHECK(notShown.first().first().toString().startsWith("Nothing to compare: "));
  CHECK(page.banner()->text() == notShown.first().first().toString());
  CHECK(page.banner()->kind() == gui::MessageBanner::Kind::Error);
  CHECK(page.rowsModel()->rowCount() == 0);
}

TEST_CASE("a newer comparison replaces a running one: only its result is shown") {
  QTemporaryDir first, second;
  test::simulateCapture(first.path(), 1, 300);
  test::simulateCapture(second.path(), 10, 100);
  ComparePage page;
  QSignalSpy shown(&page, &ComparePage::comparisonShown);
  QSignalSpy notShown(&page, &ComparePage::comparisonNotShown);
  page.compare({first.path()});
  REQUIRE(page.busy());
  page.compare({second.path()});
  REQUIRE(QTest::qWaitFor([&] { return !shown.isEmpty() || !notShown.isEmpty(); }, 300000));
  REQUIRE(QTest::qWaitFor([&] { return !page.busy(); }, 60000));
  QTest::qWait(100);  // nothing else arrives
  CHECK(shown.size() == 1);
  CHECK(notShown.isEmpty());
  REQUIRE(page.outcome().captures.size() == 1);
  CHECK(page.outcome().captures[0].path.endsWith("grudp_loss10_rto100.pcap"));
  CHECK(page.paths() == QStringList{second.path()});
}

TEST_CASE("Compare With adds captures to the set: each once and in the order given") {
  QTemporaryDir dir;
  const QString a = QString::fromStdString(test::simulateCapture(dir.path(), 10, 300));
  const QString b = QString::fromStdString(test::simulateCapture(dir.path(), 1, 100));
  ComparePage page;
  REQUIRE(compareAndWait(page, {a}));
  CHECK(page.outcome().captures.size() == 1);
  QSignalSpy shown(&page, &ComparePage::comparisonShown);
  page.addCaptures({b, a});
  CHECK(page.paths() == QStringList{a, b});
  REQUIRE(shown.wait(60000));
  REQUIRE(page.outcome().captures.size() == 2);
  CHECK(page.outcome().captures[0].path == a);
  CHECK(page.outcome().captures[0].reused);
  CHECK(page.outcome().captures[1].path == b);
  CHECK(!page.outcome().captures[1].reused);
  CHECK(page.tableModel()->columnCount() == 3);
}

TEST_CASE("cancelling a comparison that waits for a stale one shows neither") {
  QTemporaryDir first, second;
  test::simulateCapture(first.path(), 1, 100);
  test::simulateCapture(second.path(), 5, 300);
  ComparePage page;
  QSignalSpy shown(&page, &ComparePage::comparisonShown);
  QSignalSpy notShown(&page, &ComparePage::comparisonNotShown);
  page.compare({first.path()});
  page.compare({second.path()});
  page.cancel();
  REQUIRE(notShown.size() == 1);  // at once: the waiting request never started
  CHECK(notShown.first().first().toString() ==
        "Comparison cancelled; the captures analysed so far keep their databases.");
  REQUIRE(QTest::qWaitFor([&] { return !page.busy(); }, 60000));
  QTest::qWait(100);
  CHECK(shown.isEmpty());
  CHECK(notShown.size() == 1);
  CHECK(page.outcome().captures.empty());
}
