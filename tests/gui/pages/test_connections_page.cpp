// ConnectionsPage driven like a user: sorted worst first, the filter box,
// the column chooser, copy as CSV, selection signals.
#include "catch_qt.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>
#include <QToolButton>

#include "models/connections_filter_model.h"
#include "models/connections_model.h"
#include "models/table_csv.h"
#include "page_artifacts.h"
#include "pages/connections_page.h"
#include "sample_capture.h"
#include "store/store_reader.h"

using namespace rudp;
using namespace rudp::gui;
using namespace rudp::test;

namespace {
// A page with the sample's connections, on screen, with the default columns.
struct ShownPage {
  ConnectionsPage page;
  std::vector<qint64> activated;
  ShownPage() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().remove(QStringLiteral("connections"));
    StoreReader reader(sampleCapture().db);
    page.setData(reader.connectionRecords(), reader.settings(), reader.capture());
    QObject::connect(&page, &ConnectionsPage::connectionActivated,
                     [this](qint64 c) { activated.push_back(c); });
    page.resize(1500, 300);
    page.show();
    REQUIRE(QTest::qWaitForWindowExposed(&page));
  }
  int column(const char* id) const { return page.model()->columnOfId(QString::fromLatin1(id)); }
  QString shownClient(int row) const { return page.proxy()->index(row, column("client")).data().toString(); }
  QPoint rowCenter(int row) const {
    return page.table()->visualRect(page.proxy()->index(row, column("client"))).center();
  }
};

QString outageClient() { return QString::fromStdString(sampleCapture().outageConnection()["client"]); }

// The CSV of the rows the proxy shows, visible columns only, built cell by
// cell from the models (independent of the page's own CSV code path).
QList<QStringList> expectedRows(const ShownPage& p, const QList<int>& rows) {
  QList<QStringList> out;
  const QHeaderView& header = *p.page.table()->horizontalHeader();
  QStringList head;
  for (int c = 0; c < p.page.proxy()->columnCount(); ++c)
    if (!header.isSectionHidden(c))
      head << p.page.proxy()->headerData(c, Qt::Horizontal).toString().replace('\n', ' ');
  out << head;
  for (int r : rows) {
    QStringList cells;
    for (int c = 0; c < p.page.proxy()->columnCount(); ++c)
      if (!header.isSectionHidden(c)) cells << p.page.proxy()->index(r, c).data().toString();
    out << cells;
  }
  return out;
}
}  // namespace

TEST_CASE("the connections page opens worst first and renders") {
  ShownPage p;
  REQUIRE(p.page.proxy()->rowCount() == 3);
  CHECK(p.shownClient(0) == outageClient());
  CHECK(p.page.table()->horizontalHeader()->sortIndicatorSection() == p.column("badness"));
  CHECK(!p.page.isColumnVisible("start"));  // hidden by default
  CHECK(p.page.isColumnVisible("rtt_p95"));
  const QString png = savePagePng(p.page, "connections_page");
  CHECK(!png.isEmpty());
}

TEST_CASE("typing in the filter box keeps the matching connections, and Ctrl+F focuses it") {
  ShownPage p;
  p.page.table()->setFocus();
  QTest::keyClick(p.page.table(), Qt::Key_F, Qt::ControlModifier);
  CHECK(p.page.filterEdit()->hasFocus());
  QTest::keyClicks(p.page.filterEdit(), "10.0.1.3");
  REQUIRE(p.page.proxy()->rowCount() == 1);
  CHECK(p.shownClient(0) == "10.0.1.3:40002");
  CHECK(p.page.findChild<QLabel*>("connections.count")->text() == "1 of 3 connections");
  savePagePng(p.page, "connections_page_filtered");
  p.page.filterEdit()->clear();
  CHECK(p.page.proxy()->rowCount() == 3);
}

TEST_CASE("a column hidden from the chooser stays hidden in the copy and in the next page") {
  ShownPage p;
  auto* button = p.page.findChild<QToolButton*>("connections.columns");
  REQUIRE(button);
  emit button->menu()->aboutToShow();  // the menu fills itself when it opens
  QAction* rtt50 = nullptr;
  for (QAction* a : button->menu()->actions())
    if (a->text().startsWith("RTT p50 (ms)")) rtt50 = a;
  REQUIRE(rtt50);
  CHECK(rtt50->isChecked());
  rtt50->trigger();
  CHECK(!p.page.isColumnVisible("rtt_p50"));
  CHECK(!p.page.csv().contains("RTT p50"));
  CHECK(p.page.csv().contains("RTT p95"));

  ConnectionsPage next;  // remembered through QSettings
  StoreReader reader(sampleCapture().db);
  next.setData(reader.connectionRecords(), reader.settings(), reader.capture());
  CHECK(!next.isColumnVisible("rtt_p50"));
  CHECK(next.isColumnVisible("rtt_p95"));
}

TEST_CASE("Copy table as CSV puts the shown table on the clipboard, Ctrl+C the selected rows") {
  ShownPage p;
  p.page.setColumnVisible("start", true);
  QApplication::clipboard()->clear();
  auto* copy = p.page.findChild<QPushButton*>("connections.copyCsv");
  REQUIRE(copy);
  QTest::mouseClick(copy, Qt::LeftButton);
  const QList<QStringList> all = parseCsv(QApplication::clipboard()->text());
  CHECK(all == expectedRows(p, {0, 1, 2}));
  CHECK(all[0].contains("Start (s)"));
  CHECK(all[1].contains(outageClient()));

  QTest::mouseClick(p.page.table()->viewport(), Qt::LeftButton, {}, p.rowCenter(1));
  QTest::keyClick(p.page.table(), Qt::Key_C, Qt::ControlModifier);
  CHECK(parseCsv(QApplication::clipboard()->text()) == expectedRows(p, {1}));
}

TEST_CASE("clicking a row activates its connection, selectConnection does not") {
  ShownPage p;
  QTest::mouseClick(p.page.table()->viewport(), Qt::LeftButton, {}, p.rowCenter(0));
  const qint64 worst = p.page.proxy()->index(0, 0).data(ConnectionsModel::ConnectionIdRole).toLongLong();
  REQUIRE(p.activated.size() == 1);
  CHECK(p.activated[0] == worst);
  CHECK(p.page.selectedConnection() == worst);

  const qint64 other = p.page.proxy()->index(2, 0).data(ConnectionsModel::ConnectionIdRole).toLongLong();
  p.page.selectConnection(other);
  CHECK(p.page.selectedConnection() == other);
  CHECK(p.activated.size() == 1);

  // A double click is a press, a release and a double-click press.
  QTest::mousePress(p.page.table()->viewport(), Qt::LeftButton, {}, p.rowCenter(2));
  QTest::mouseRelease(p.page.table()->viewport(), Qt::LeftButton, {}, p.rowCenter(2));
  QTest::mouseDClick(p.page.table()->viewport(), Qt::LeftButton, {}, p.rowCenter(2));
  REQUIRE(p.activated.size() == 2);
  CHECK(p.activated.back() == other);
}
