// Opening captures in the main window: the Summary page's facts equal the
// capture, the first problem is the outage stall and leads to the timeline,
// and an analysed capture opens again without a new analysis.
#include <QApplication>
#include <QFileInfo>
#include <QMenu>
#include <QMimeData>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTest>
#include <QTreeView>
#include <filesystem>
#include <fstream>

#include "../models/catch_qt.h"
#include "app_fixture.h"
#include "jobs/capture_session.h"
#include "main_window.h"
#include "pages/summary_page.h"
#include "store/db_path.h"
#include "widgets/message_banner.h"

using namespace rudp;
using namespace rudp::test;
using gui::MainWindow;

namespace {

std::filesystem::file_time_type mtime(const std::string& path) {
  return std::filesystem::last_write_time(path);
}

}  // namespace

TEST_CASE("the sample opens on the Summary page with the capture's facts") {
  useTemporarySettings();
  TempDir dir("app-open");
  const std::string pcap = copySample(dir);
  MainWindow window;
  window.show();
  REQUIRE(openAndWait(window, QString::fromStdString(pcap)));

  const PcapFacts facts = readPcap(pcap);
  REQUIRE(facts.packets == 5311);  // resources/README.md
  const gui::SummaryPage& summary = *window.summaryPage();
  CHECK(window.resultPages()->currentWidget() == &summary);
  CHECK(labelText(summary, "fact.packets") == "5311");
  CHECK(labelText(summary, "fact.duration") ==
        QString::number(double(facts.last_ns - facts.first_ns) / 1e9, 'f', 3) + " s");
  CHECK(labelText(summary, "fact.link") == "EN10MB (1)");
  CHECK(facts.link_type == 1);
  CHECK(labelText(summary, "fact.connections") == "3");
  CHECK(labelText(summary, "fact.vantage") == "client");  // resources/README.md: taken at the client side
  CHECK(labelText(summary, "fact.size") ==
        QLocale().formattedDataSize(QFileInfo(QString::fromStdString(pcap)).size()));
  CHECK(labelText(summary, "fact.database").endsWith("(analysed now)"));
  CHECK(labelText(window, "status.packets") == "Packets: 5311");
  CHECK(labelText(window, "status.connections") == "Connections: 3");
  CHECK(window.windowTitle() == "sample.pcap — rudpscope");
  CHECK(window.banner()->text().isEmpty());
}

TEST_CASE("an analysed capture opens from its database without a new analysis") {
  useTemporarySettings();
  TempDir dir("app-reuse");
  const std::string pcap = copySample(dir);
  const std::string db = defaultDatabasePath(pcap);
  {
    MainWindow first;
    REQUIRE(openAndWait(first, QString::fromStdString(pcap)));
    CHECK_FALSE(first.session().outcome().reused);
  }
  REQUIRE(std::filesystem::exists(db));
  const auto analysedAt = mtime(db);

  MainWindow second;
  second.show();
  second.activateWindow();
  REQUIRE(QTest::qWaitForWindowActive(&second));
  REQUIRE(openAndWait(second, QString::fromStdString(pcap)));
  CHECK(second.session().outcome().reused);
  CHECK(mtime(db) == analysedAt);
  CHECK(labelText(*second.summaryPage(), "fact.packets") == "5311");
  CHECK(labelText(*second.summaryPage(), "fact.database").endsWith("(earlier analysis)"));

  SECTION("Reload (Ctrl+R) analyses again") {
    QSignalSpy shown(&second, &MainWindow::captureShown);
    QTest::keyClick(&second, Qt::Key_R, Qt::ControlModifier);
    REQUIRE(shown.wait(60000));
    CHECK_FALSE(second.session().outcome().reused);
    CHECK(mtime(db) != analysedAt);
  }
  SECTION("a changed capture is analysed again") {
    // Same size, one byte different: only the hash tells.
    std::fstream f(pcap, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-1, std::ios::end);
    f.put('\x5a');
    f.close();
    MainWindow third;
    REQUIRE(openAndWait(third, QString::fromStdString(pcap)));
    CHECK_FALSE(third.session().outcome().reused);
  }
}

TEST_CASE("Open Recent remembers the capture and Ctrl+W closes it") {
  useTemporarySettings();
  TempDir dir("app-recent");
  const std::string pcap = copySample(dir);
  MainWindow window;
  window.show();
  window.activateWindow();
  REQUIRE(QTest::qWaitForWindowActive(&window));
  REQUIRE(openAndWait(window, QString::fromStdString(pcap)));
  QTest::keyClick(&window, Qt::Key_W, Qt::ControlModifier);
  CHECK(window.session().state() == gui::CaptureSession::State::Empty);
  CHECK(window.windowTitle() == "rudpscope");
  MainWindow later;  // a new window reads the list from QSettings
  auto* recentMenu = later.findChild<QMenu*>("menu.recent");
  REQUIRE(recentMenu);
  REQUIRE(recentMenu->actions().size() >= 1);
  CHECK(recentMenu->actions().first()->toolTip() == QString::fromStdString(pcap));

  SECTION("a recent capture that is gone is an error and leaves the list") {
    std::filesystem::remove(pcap);
    QSignalSpy failed(&later.session(), &gui::CaptureSession::failed);
    recentMenu->actions().first()->trigger();
    REQUIRE(failed.wait(10000));
    CHECK(later.banner()->text().contains("sample.pcap"));
    CHECK(recentMenu->actions().first()->toolTip() != QString::fromStdString(pcap));
  }
}

TEST_CASE("a capture dropped on the window opens") {
  useTemporarySettings();
  TempDir dir("app-drop");
  const std::string pcap = copySample(dir);
  MainWindow window;
  window.show();
  QMimeData data;
  data.setUrls({QUrl::fromLocalFile(QString::fromStdString(pcap))});
  QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
  enter.setAccepted(false);
  QApplication::sendEvent(&window, &enter);
  CHECK(enter.isAccepted());
  QSignalSpy shown(&window, &MainWindow::captureShown);
  QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&window, &drop);
  REQUIRE(shown.wait(60000));
  CHECK(window.session().capturePath() == QString::fromStdString(pcap));

  SECTION("text that is no file is refused") {
    QMimeData text;
    text.setText("hello");
    QDragEnterEvent refused(QPoint(100, 100), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
    refused.setAccepted(false);
    QApplication::sendEvent(&window, &refused);
    CHECK_FALSE(refused.isAccepted());
  }
}

TEST_CASE("the window's size is remembered") {
  useTemporarySettings();
  {
    MainWindow first;
    first.show();
    first.resize(1111, 777);
    QTest::qWait(50);
    first.close();
  }
  MainWindow second;
  CHECK(second.size() == QSize(1111, 777));
}
