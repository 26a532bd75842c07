// A capture whose UDP flows no dissector claims (timing_sim.py): the window
// never reads as all clear about them. The Summary lists them as not
// decoded, with their freeze and silences worded by cause; the Connections
// page names them "udp (timing only)" and leaves unknown figures empty.
#include <QAbstractItemModel>
#include <QLabel>
#include <QProcess>
#include <QTableView>
#include <QTest>
#include <QTreeView>

#include "../models/catch_qt.h"
#include "app_fixture.h"
#include "main_window.h"

using namespace rudp;
using namespace rudp::test;
using gui::MainWindow;

namespace {

std::string makeTimingCapture(const TempDir& dir) {
  const std::string pcap = dir / "timing.pcap";
  QProcess sim;
  sim.start("python3",
            {QStringLiteral(RUDPSCOPE_SOURCE_DIR "/tests/timing/timing_sim.py"), "--seed", "37", "--pcap",
             QString::fromStdString(pcap), "--truth", QString::fromStdString(dir / "timing.json")});
  REQUIRE(sim.waitForFinished(60000));
  REQUIRE(sim.exitCode() == 0);
  return pcap;
}

QStringList columnTexts(const QAbstractItemModel& m, int column) {
  QStringList out;
  for (int r = 0; r < m.rowCount(); ++r) out << m.index(r, column).data().toString();
  return out;
}

int columnNamed(const QAbstractItemModel& m, const QString& title) {
  for (int c = 0; c < m.columnCount(); ++c)
    if (m.headerData(c, Qt::Horizontal).toString().section(QLatin1Char('\n'), 0, 0) == title) return c;
  return -1;
}

}  // namespace

TEST_CASE("flows no dissector claims: listed as not decoded, silences by cause, no false zeros") {
  useTemporarySettings();
  TempDir dir("app-timing");
  const std::string pcap = makeTimingCapture(dir);
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  REQUIRE(openAndWait(window, QString::fromStdString(pcap)));

  window.showPage(MainWindow::SummaryIndex);
  QTest::qWait(100);
  auto* problems = window.findChild<QTreeView*>(QStringLiteral("summary.problems"));
  REQUIRE(problems);
  CHECK(problems->isVisible());
  const QStringList kinds = columnTexts(*problems->model(), 0), texts = columnTexts(*problems->model(), 1);
  INFO(texts.join('\n').toStdString());
  // The scripted freeze, the server quiet, the client quiet, the mid-path
  // side quiet, the inferred losses of the server's stream, the flows not decoded.
  CHECK(kinds.count(QStringLiteral("Stall")) == 4);
  CHECK(kinds.count(QStringLiteral("Not decoded")) == 1);
  CHECK(texts.filter(QStringLiteral("freeze at")).size() == 1);
  CHECK(texts
            .filter(QStringLiteral(
                "the server sent nothing while the client kept sending (the peer or the path)"))
            .size() == 1);
  CHECK(texts.filter(QStringLiteral("2 UDP flows not decoded (timing only")).size() == 1);
  // Six lines stay together under the facts, not spread over the page.
  CHECK(problems->height() < window.height() / 3);
  REQUIRE(window.grab().save(QString::fromStdString(artifactPath("app-summary-timing-only.png"))));

  window.showPage(MainWindow::ConnectionsIndex);
  QTest::qWait(200);
  auto* table = window.findChild<QTableView*>(QStringLiteral("connections.table"));
  REQUIRE(table);
  const QAbstractItemModel& m = *table->model();
  REQUIRE(m.rowCount() == 2);
  const int protocol = columnNamed(m, QStringLiteral("Protocol")),
            retx = columnNamed(m, QStringLiteral("Retx")),
            jitter = columnNamed(m, QStringLiteral("Jitter (ms)")),
            lost = columnNamed(m, QStringLiteral("Lost"));
  REQUIRE(protocol >= 0);
  REQUIRE(retx >= 0);
  REQUIRE(jitter >= 0);
  REQUIRE(lost >= 0);
  for (int r = 0; r < 2; ++r) {
    INFO("row " << r);
    CHECK(m.index(r, protocol).data().toString() == QStringLiteral("udp (timing only)"));
    CHECK(m.index(r, retx).data().toString() == QStringLiteral("– / –"));
    CHECK(m.index(r, jitter).data().toString() == QStringLiteral("– / –"));
  }
  // The player's flow carries a counter: its server's losses, inferred and marked.
  CHECK(m.index(0, lost).data().toString() == QStringLiteral("0* / 14*"));
  CHECK(m.index(1, lost).data().toString() == QStringLiteral("– / –"));
  REQUIRE(window.grab().save(QString::fromStdString(artifactPath("app-connections-timing-only.png"))));
}
