// From the Summary page to the timeline: the worst problem of the sample is
// the outage stall (truth: resources/sample.truth.json), one click shows it
// on the Timeline page zoomed to its times; a connection chosen on the
// Connections page is the one the Timeline and Statistics pages show; the
// Settings dialog's stall threshold re-analyses the capture.
#include <QAbstractItemModel>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

#include "../models/catch_qt.h"
#include "app_actions.h"
#include "app_fixture.h"
#include "jobs/capture_session.h"
#include "main_window.h"
#include "models/packet_list_model.h"
#include "pages/connections_page.h"
#include "pages/packet_fields_view.h"
#include "pages/packets_page.h"
#include "pages/statistics_page.h"
#include "pages/summary_page.h"
#include "pages/timeline_page.h"
#include "settings_dialog.h"
#include "store/store_reader.h"
#include "widgets/hex_view.h"
#include "widgets/timeline_view.h"

using namespace rudp;
using namespace rudp::test;
using gui::MainWindow;

namespace {

const nlohmann::json& outageTruth() {
  for (const auto& c : sampleTruth()["connections"])
    if (c["client"] == "10.0.1.2:40001") return c;
  FAIL("no outage connection in the truth");
  throw;
}

int64_t connectionOfClient(const MainWindow& window, const std::string& client) {
  for (const ConnectionRecord& c : window.session().overview()->connections)
    if (c.summary.client == client) return c.summary.id;
  return 0;
}

void clickRow(QAbstractItemView* view, int row) {
  const QRect cell = view->visualRect(view->model()->index(row, 1));
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
}

struct OpenSample {
  TempDir dir{"app-nav"};
  MainWindow window;
  OpenSample() {
    useTemporarySettings();
    window.resize(1400, 900);
    window.show();
    window.activateWindow();
    REQUIRE(QTest::qWaitForWindowActive(&window));
    REQUIRE(openAndWait(window, QString::fromStdString(copySample(dir))));
  }
};

}  // namespace

TEST_CASE("the outage stall is the first problem and one click shows it zoomed on the timeline") {
  OpenSample s;
  const std::vector<Problem>& problems = s.window.session().overview()->problems;
  REQUIRE(!problems.empty());
  const Problem& first = problems.front();
  CHECK(first.kind == ProblemKind::Stall);
  CHECK(first.conn == connectionOfClient(s.window, "10.0.1.2:40001"));
  const nlohmann::json& truthStall =
      outageTruth()["directions"]
                   [first.dir == Direction::ClientToServer ? "client_to_server" : "server_to_client"]
                   ["summary"]["stalls"][0];
  CHECK(std::abs(first.start_ns - truthToCaptureNs(truthStall["start_ns"])) < 50'000'000);
  CHECK(std::abs(first.end_ns - truthToCaptureNs(truthStall["end_ns"])) < 50'000'000);
  CHECK(truthStall["duration_ms"].get<double>() > 1500);

  auto* problemsView = s.window.summaryPage()->problemsView();
  CHECK(problemsView->model()->index(0, 1).data().toString() == QString::fromStdString(first.text));
  gui::TimelinePage* timeline = s.window.timelinePage();
  QSignalSpy shown(timeline, &gui::TimelinePage::timelineShown);
  clickRow(problemsView, 0);
  CHECK(s.window.resultPages()->currentWidget() == timeline);
  if (timeline->connection() != first.conn) REQUIRE(shown.wait(20000));
  CHECK(timeline->connection() == first.conn);
  CHECK(timeline->direction() == first.dir);
  CHECK(timeline->view()->direction() == first.dir);
  // Zoomed to the stall with a quarter of its length on each side.
  const int64_t margin = (first.end_ns - first.start_ns) / 4;
  CHECK(std::abs(timeline->view()->rangeStart() - (first.start_ns - margin)) < 1'000'000);
  CHECK(std::abs(timeline->view()->rangeEnd() - (first.end_ns + margin)) < 1'000'000);
  if (first.frame != 0) {
    QSignalSpy packet(timeline, &gui::TimelinePage::packetShown);
    REQUIRE((packet.count() > 0 || packet.wait(10000)));
    CHECK(timeline->fieldsView()->heading().contains(QString::number(first.frame)));
  }
  const QImage image = s.window.grab().toImage();
  CHECK(image.save(QString::fromStdString(artifactPath("app-timeline-outage-stall.png"))));
}

TEST_CASE("the Timeline and Statistics pages open on the worst connection, not on the first") {
  OpenSample s;
  const int64_t worst = connectionOfClient(s.window, "10.0.1.2:40001");  // the outage (the first problem)
  REQUIRE(worst != 1);
  QTest::keyClick(&s.window, Qt::Key_3, Qt::AltModifier);
  CHECK(s.window.resultPages()->currentWidget() == s.window.timelinePage());
  auto* view = s.window.timelinePage()->view();
  REQUIRE(QTest::qWaitFor([&] { return view->data() != nullptr; }, 20000));
  CHECK(view->data()->conn == worst);
  QTest::keyClick(&s.window, Qt::Key_4, Qt::ControlModifier);
  CHECK(s.window.resultPages()->currentWidget() == s.window.statisticsPage());
  REQUIRE(QTest::qWaitFor([&] { return s.window.statisticsPage()->data().conn != 0; }, 20000));
  CHECK(s.window.statisticsPage()->data().conn == worst);
}

TEST_CASE("a connection chosen on the Connections page is the one the Timeline and Statistics pages show") {
  OpenSample s;
  const int64_t conn = connectionOfClient(s.window, "10.0.1.1:40000");
  REQUIRE(conn != 0);
  QTest::keyClick(&s.window, Qt::Key_2, Qt::ControlModifier);
  gui::ConnectionsPage* page = s.window.connectionsPage();
  REQUIRE(s.window.resultPages()->currentWidget() == page);
  QTableView* table = page->table();
  int row = -1;
  for (int r = 0; r < table->model()->rowCount(); ++r)
    if (table->model()->index(r, 0).data().toLongLong() == conn) row = r;
  REQUIRE(row >= 0);
  clickRow(table, row);
  CHECK(page->selectedConnection() == conn);

  QSignalSpy shown(s.window.timelinePage(), &gui::TimelinePage::timelineShown);
  QTest::keyClick(&s.window, Qt::Key_3, Qt::AltModifier);
  CHECK(s.window.resultPages()->currentWidget() == s.window.timelinePage());
  REQUIRE(shown.wait(20000));
  CHECK(shown.last().at(0).toLongLong() == conn);
  CHECK(s.window.timelinePage()->view()->data()->conn == conn);

  QTest::keyClick(&s.window, Qt::Key_4, Qt::ControlModifier);
  CHECK(s.window.resultPages()->currentWidget() == s.window.statisticsPage());
  REQUIRE(QTest::qWaitFor([&] { return s.window.statisticsPage()->data().conn == conn; }, 20000));
}

TEST_CASE("the Settings dialog's stall threshold re-analyses the capture with the new stalls") {
  OpenSample s;
  QSignalSpy shown(&s.window, &MainWindow::captureShown);
  QTest::keyClick(&s.window, Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
  auto* dialog = s.window.findChild<gui::SettingsDialog*>();
  REQUIRE(dialog);
  REQUIRE(dialog->isVisible());
  auto* stall = dialog->findChild<QDoubleSpinBox*>("settings.stall");
  REQUIRE(stall);
  CHECK(stall->value() == 200);
  // A genre preset sets its threshold; a typed value makes it custom again.
  auto* genre = dialog->findChild<QComboBox*>("settings.genre");
  REQUIRE(genre);
  const int mmo = genre->findData("mmo");
  REQUIRE(mmo > 0);
  genre->setCurrentIndex(mmo);
  emit genre->activated(mmo);
  CHECK(stall->value() == 300);
  // ... and the response-time limits the genre is judged by.
  const double mmoLimits[] = {150, 300, 500};
  for (int i = 0; i < 3; ++i) {
    auto* limit = dialog->findChild<QDoubleSpinBox*>(QStringLiteral("settings.rttLimit%1").arg(i));
    REQUIRE(limit);
    CHECK(limit->value() == mmoLimits[i]);
  }
  stall->setValue(1000);
  CHECK(genre->currentIndex() == 0);
  dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
  REQUIRE(shown.wait(60000));

  CHECK_FALSE(s.window.session().outcome().reused);
  CHECK(labelText(*s.window.summaryPage(), "fact.stall") == "1000 ms");
  StoreReader reader(s.window.session().dbPath().toStdString());
  CHECK(reader.settings().stall_ms == 1000);
  CHECK(reader.settings().rtt_limits_ms == std::vector<double>{150, 300, 500});
  // Truth: only the outage's stalls (one per direction) last 1 s or more.
  size_t truthLong = 0;
  for (const auto& c : sampleTruth()["connections"])
    for (const auto& d : c["directions"])
      for (const auto& st : d["summary"]["stalls"]) truthLong += st["duration_ms"].get<double>() >= 1000;
  REQUIRE(truthLong == 2);
  size_t stalls = 0;
  for (const Problem& p : s.window.session().overview()->problems) stalls += p.kind == ProblemKind::Stall;
  CHECK(stalls == truthLong);
  // A new window finds the setting in QSettings.
  MainWindow later;
  CHECK(later.preferences().stall_ms == 1000);
}

TEST_CASE("the Packets page follows the packet shown on the timeline, and shows its own on the timeline") {
  OpenSample s;
  gui::PacketsPage* packets = s.window.packetsPage();
  gui::TimelinePage* timeline = s.window.timelinePage();
  // Opened on frame 1, every frame listed.
  CHECK(packets->model()->rowCount() == int(s.window.session().overview()->capture.packet_count));
  CHECK(packets->currentFrame() == 1);
  CHECK(packets->message().isEmpty());

  // A packet shown on the timeline (the first problem's) is the current one on the Packets page.
  const Problem& first = s.window.session().overview()->problems.front();
  REQUIRE(first.frame != 0);
  QSignalSpy packetShown(timeline, &gui::TimelinePage::packetShown);
  s.window.showOnTimeline(first.conn, first.dir, first.start_ns, first.end_ns, first.frame);
  REQUIRE((packetShown.count() > 0 || packetShown.wait(20000)));
  QTest::keyClick(&s.window, Qt::Key_5, Qt::ControlModifier);
  REQUIRE(s.window.resultPages()->currentWidget() == packets);
  CHECK(packets->currentFrame() == first.frame);
  CHECK(!packets->bytesView()->bytes().empty());

  // And back: another packet of another connection, shown on the timeline and marked there.
  const int64_t other = connectionOfClient(s.window, "10.0.1.1:40000");
  StoreReader reader(s.window.session().dbPath().toStdString());
  PacketQuery q;
  q.conn = other;
  q.dir = Direction::ServerToClient;
  q.first_frame = 2000;
  q.limit = 1;
  const std::vector<PacketRecord> chosen = reader.packets(q);
  REQUIRE(chosen.size() == 1);
  REQUIRE(packets->goToFrame(chosen[0].frame));
  QSignalSpy timelineShown(timeline, &gui::TimelinePage::timelineShown);
  auto* button = packets->findChild<QToolButton*>(QStringLiteral("packets.showOnTimeline"));
  REQUIRE(button);
  REQUIRE(button->isEnabled());
  QTest::mouseClick(button, Qt::LeftButton);
  CHECK(s.window.resultPages()->currentWidget() == timeline);
  REQUIRE(timelineShown.wait(20000));
  CHECK(timeline->connection() == other);
  CHECK(timeline->direction() == Direction::ServerToClient);
  CHECK(timeline->view()->markedFrame() == chosen[0].frame);
  CHECK(timeline->view()->rangeStart() <= chosen[0].ts_ns);
  CHECK(timeline->view()->rangeEnd() >= chosen[0].ts_ns);
  CHECK(s.window.grab().save(QString::fromStdString(artifactPath("app-packets-to-timeline.png"))));
}
