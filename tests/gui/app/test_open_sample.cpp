// Help > Open Sample Capture and the Start page's button open the sample
// shipped with rudpscope: in the build tree, the source tree's
// resources/sample.pcap (its database goes beside it, ignored by git).
#include <QAction>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <filesystem>

#include "../models/catch_qt.h"
#include "app_fixture.h"
#include "bundled_sample.h"
#include "jobs/capture_session.h"
#include "main_window.h"
#include "pages/start_page.h"

using namespace rudp;
using namespace rudp::test;
using gui::MainWindow;

namespace {

QMenu* helpMenu(MainWindow& window) {
  for (QAction* a : window.menuBar()->actions())
    if (a->text() == QStringLiteral("&Help")) return a->menu();
  return nullptr;
}

QStringList actionTexts(const QMenu& menu) {
  QStringList texts;
  for (const QAction* a : menu.actions()) texts << (a->isSeparator() ? QStringLiteral("--") : a->text());
  return texts;
}

const QString kSourceSample = QString::fromStdString(
    std::filesystem::canonical(RUDPSCOPE_SOURCE_DIR "/resources/sample.pcap").string());

}  // namespace

TEST_CASE("the bundled sample is the source tree's in the build tree") {
  CHECK(QFileInfo(gui::bundledSamplePath()).canonicalFilePath() == kSourceSample);
}

// One test case: both ways analyse the same file into the same database.
TEST_CASE("Help > Open Sample Capture and the Start page's button open the bundled sample") {
  useTemporarySettings();
  MainWindow window;
  window.resize(1100, 700);
  window.show();
  QMenu* help = helpMenu(window);
  REQUIRE(help);
  CHECK(actionTexts(*help) ==
        QStringList{"rudpscope &Help", "Open &Sample Capture", "--", "&About rudpscope", "About &Qt"});
  help->popup(window.mapToGlobal(QPoint(0, 0)));
  CHECK(help->grab().save(QString::fromStdString(artifactPath("app-help-menu.png"))));
  help->close();
  CHECK(window.grab().save(QString::fromStdString(artifactPath("app-start-page.png"))));

  QSignalSpy shown(&window, &MainWindow::captureShown);
  auto* action = window.findChild<QAction*>(QStringLiteral("action.openSample"));
  REQUIRE(action);
  CHECK(action->isEnabled());
  action->trigger();
  REQUIRE(shown.wait(60000));
  CHECK(QFileInfo(window.session().capturePath()).canonicalFilePath() == kSourceSample);
  CHECK(window.session().overview()->capture.packet_count == 5311);
  CHECK(window.windowTitle() == QStringLiteral("sample.pcap — rudpscope"));

  window.closeCapture();
  REQUIRE(window.startPage()->isVisible());
  auto* button = window.startPage()->findChild<QPushButton*>(QStringLiteral("start.sample"));
  REQUIRE(button);
  REQUIRE(button->isVisible());
  QTest::mouseClick(button, Qt::LeftButton);
  REQUIRE(shown.wait(60000));
  CHECK(QFileInfo(window.session().capturePath()).canonicalFilePath() == kSourceSample);
  CHECK(window.session().outcome().reused);  // the database the menu's open left
  CHECK(window.session().overview()->capture.packet_count == 5311);
}
