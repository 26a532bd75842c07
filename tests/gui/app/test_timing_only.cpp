// A capture whose UDP flows no dissector claims (timing_sim.py): the window
// never reads as all clear about them. The Summary lists them as not
// decoded, with their freeze and silences worded by cause; the Connections
// page names them "udp (timing only)", leaves unknown figures empty and marks
// the ones inferred from fields found in the payloads with "*".
#include <QAbstractItemModel>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QRegularExpression>
#include <QTableView>
#include <QTest>
#include <QTreeView>

#include <QMenu>
#include <QSignalSpy>

#include "../models/catch_qt.h"
#include "app_fixture.h"
#include "dissector_from_flow.h"
#include "jobs/capture_session.h"
#include "main_window.h"
#include "pages/connections_page.h"
#include "report/inferred_dissector.h"

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

// timing_sim.py's truth of flow `i` (capture order).
QJsonObject truthFlow(const TempDir& dir, int i) {
  QFile f(QString::fromStdString(dir / "timing.json"));
  REQUIRE(f.open(QIODevice::ReadOnly));
  return QJsonDocument::fromJson(f.readAll()).object()["flows"].toArray()[i].toObject();
}

// "a* / b*": both directions' figures, inferred; each within `margin` of the truth.
void checkInferredPair(const QString& cell, double c2s, double s2c, double margin) {
  INFO(cell.toStdString());
  const auto m = QRegularExpression(QStringLiteral("^([0-9.,]+)~?\\* / ([0-9.,]+)~?\\*$")).match(cell);
  REQUIRE(m.hasMatch());
  CHECK(m.captured(1).remove(',').toDouble() == Approx(c2s).margin(margin));
  CHECK(m.captured(2).remove(',').toDouble() == Approx(s2c).margin(margin));
}

int columnNamed(const QAbstractItemModel& m, const QString& title) {
  for (int c = 0; c < m.columnCount(); ++c)
    if (m.headerData(c, Qt::Horizontal).toString().section(QLatin1Char('\n'), 0, 0) == title) return c;
  return -1;
}

// timing_sim.py's capture (seed 37) open in a window.
struct OpenTimingCapture {
  TempDir dir;
  std::string pcap;
  MainWindow window;
  explicit OpenTimingCapture(const std::string& tag) : dir((useTemporarySettings(), tag)) {
    pcap = makeTimingCapture(dir);
    window.resize(1400, 900);
    window.show();
    REQUIRE(openAndWait(window, QString::fromStdString(pcap)));
  }
};

}  // namespace

TEST_CASE("flows no dissector claims: listed as not decoded, silences by cause, no false zeros") {
  OpenTimingCapture f("app-timing");
  MainWindow& window = f.window;

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
  CHECK(texts.filter(QStringLiteral("4 UDP flows not decoded (timing only")).size() == 1);
  // Six lines stay together under the facts, not spread over the page.
  CHECK(problems->height() < window.height() / 3);
  REQUIRE(window.grab().save(QString::fromStdString(artifactPath("app-summary-timing-only.png"))));

  window.showPage(MainWindow::ConnectionsIndex);
  QTest::qWait(200);
  auto* table = window.findChild<QTableView*>(QStringLiteral("connections.table"));
  REQUIRE(table);
  const QAbstractItemModel& m = *table->model();
  REQUIRE(m.rowCount() == 4);
  const int protocol = columnNamed(m, QStringLiteral("Protocol")),
            retx = columnNamed(m, QStringLiteral("Retx")),
            jitter = columnNamed(m, QStringLiteral("Jitter (ms)")),
            lost = columnNamed(m, QStringLiteral("Lost")),
            rtt = columnNamed(m, QStringLiteral("RTT max (ms)"));
  REQUIRE(protocol >= 0);
  REQUIRE(retx >= 0);
  REQUIRE(jitter >= 0);
  REQUIRE(lost >= 0);
  REQUIRE(rtt >= 0);
  for (int r = 0; r < 4; ++r) {
    INFO("row " << r);
    CHECK(m.index(r, protocol).data().toString() == QStringLiteral("udp (timing only)"));
    CHECK(m.index(r, retx).data().toString() == QStringLiteral("– / –"));
  }
  // The player's flow and the server-side capture carry a counter, an echo
  // and a clock: losses, RTT and jitter, inferred and marked; the others none.
  // Rows in capture order: the player, mid-path, the server side, the keepalive (the truth's 0, 1, 3, 2).
  for (const auto& [r, flow] : {std::pair{0, 0}, std::pair{2, 3}}) {
    const QJsonObject t = truthFlow(f.dir, flow);
    const QJsonArray counter = t["counter"].toArray(), ts = t["ts"].toArray(), echo = t["rtt"].toArray();
    auto maxOf = [&](int d) {
      double top = 0;
      for (const auto& v : echo[d].toObject()["samples"].toArray()) top = std::max(top, v.toDouble());
      return top;
    };
    INFO("row " << r);
    checkInferredPair(m.index(r, lost).data().toString(), counter[0].toObject()["lost"].toDouble(),
                      counter[1].toObject()["lost"].toDouble(), 0);
    checkInferredPair(m.index(r, jitter).data().toString(), ts[0].toObject()["jitter_ms"].toDouble(),
                      ts[1].toObject()["jitter_ms"].toDouble(), 0.05);
    checkInferredPair(m.index(r, rtt).data().toString(), maxOf(0), maxOf(1), 0.05);
  }
  for (int r : {1, 3})
    for (int c : {lost, jitter, rtt}) CHECK(m.index(r, c).data().toString() == QStringLiteral("– / –"));
  REQUIRE(window.grab().save(QString::fromStdString(artifactPath("app-connections-timing-only.png"))));
}

TEST_CASE("Create Dissector from This Flow: the window analyses again and decodes the flow with it") {
  OpenTimingCapture f("app-infer");
  MainWindow& window = f.window;
  const std::string& pcap = f.pcap;
  const auto& conns = window.session().overview()->connections;
  REQUIRE(conns.size() == 4);
  CHECK(report::hasInferredCounter(conns[0]));   // the player's flow: a u16 LE counter
  CHECK(!report::hasInferredCounter(conns[1]));  // random bytes: nothing to write from
  CHECK(gui::writeInferredDissector(conns[1], QString::fromStdString(pcap), "x.lua")
            .contains("no sequence counter"));

  // The row menu offers it only where a counter was found.
  window.showPage(MainWindow::ConnectionsIndex);
  gui::ConnectionsPage* page = window.connectionsPage();
  for (const auto& [conn, enabled] : {std::pair{int64_t{1}, true}, std::pair{int64_t{2}, false}}) {
    page->selectConnection(conn);
    const QRect row = page->table()->visualRect(page->table()->currentIndex());
    emit page->table()->customContextMenuRequested(row.center());
    QAction* action = nullptr;
    for (auto* menu : page->findChildren<QMenu*>())
      if (menu->isVisible())
        action = menu->findChild<QAction*>(QStringLiteral("connections.createDissector"));
    REQUIRE(action);
    CHECK(action->isEnabled() == enabled);
    qobject_cast<QMenu*>(action->parent())->close();
    QTest::qWait(50);
  }

  const QString lua = QString::fromStdString(f.dir / "inferred_59238.lua");
  REQUIRE(gui::writeInferredDissector(conns[0], QString::fromStdString(pcap), lua).isEmpty());
  QSignalSpy shown(&window, &MainWindow::captureShown);
  window.addDissectorScript(lua);
  REQUIRE(QTest::qWaitFor([&] { return !shown.isEmpty(); }, 60000));
  CHECK(window.preferences().extra_scripts.contains(lua));  // listed in Settings, removable there
  const auto& again = window.session().overview()->connections;
  REQUIRE(again.size() == 4);
  CHECK(again[0].summary.protocol == "inferred_59238");
  CHECK(!again[0].metrics.timing_only);
  CHECK(again[1].metrics.timing_only);
}
