// The Compare page in the window: File > Open Capture Set and View > Compare
// (Ctrl+6), and `rudpscope --compare` from the command line.
#include <QAction>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <catch2/catch.hpp>

#include "app_actions.h"
#include "catch_qt.h"
#include "compare_fixture.h"
#include "main_window.h"
#include "models/compare_rows_model.h"
#include "pages/compare_page.h"
#include "process.h"

using namespace rudp;
using rudp::gui::ComparePage;

TEST_CASE("File > Open Capture Set and View > Compare and the Compare page in the window") {
  test::useTemporarySettings();
  const test::CompareSet& set = test::compareSet();
  gui::MainWindow window;
  window.show();
  CHECK(window.actions().openCaptureSet->shortcut() == QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
  CHECK(window.actions().compare->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_6));
  CHECK(window.actions().compare->isEnabled());
  CHECK(window.actions().compareWith->isEnabled());
  QSignalSpy shown(window.comparePage(), &ComparePage::comparisonShown);
  window.comparePage()->compare({set.dir.path()});  // as File > Open Capture Set does
  CHECK(window.comparePage()->isVisible());
  REQUIRE(shown.wait(300000));
  CHECK(window.comparePage()->rowsModel()->rowCount() == 24);
  CHECK(!test::savePng(window, "compare-window.png").isEmpty());
  window.closeCapture();  // Ctrl+W: back to the start page
  CHECK(!window.comparePage()->isVisible());
  QTest::keyClick(&window, Qt::Key_6, Qt::ControlModifier);
  CHECK(window.comparePage()->isVisible());
}

TEST_CASE("rudpscope --compare DIR --quit-after-load shows the comparison or says why not") {
  const test::CompareSet& set = test::compareSet();
  const test::ProcessResult ok =
      test::run({RUDPSCOPE_GUI, "--compare", set.dir.path().toStdString(), "--quit-after-load"});
  INFO(ok.err);
  CHECK(ok.status == 0);
  QTemporaryDir empty;
  const test::ProcessResult none =
      test::run({RUDPSCOPE_GUI, "--compare", empty.path().toStdString(), "--quit-after-load"});
  CHECK(none.status == 1);
  // Qt may say things on stderr first (XDG_RUNTIME_DIR); ours is the last line.
  CHECK(test::splitLines(none.err).back() ==
        "rudpscope: Nothing to compare: " + empty.path().toStdString() +
            " holds no capture (*.pcap, *.pcapng, *.cap, *.snoop, each also .gz or .zst)");
  const test::ProcessResult noArgs = test::run({RUDPSCOPE_GUI, "--compare"});
  CHECK(noArgs.status == 2);
  CHECK(test::splitLines(noArgs.err).back() == "rudpscope: --compare needs captures or folders to compare");
}
