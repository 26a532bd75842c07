// What goes wrong is said in the window, never a crash: a file that is no
// capture, a missing file, a broken dissector, a truncated capture (opens,
// with a warning), a damaged one (an error, with a button to keep the frames
// before the damage). Cancel stops an analysis, leaves no database behind and
// the window usable; the window answers while an analysis runs.
#include <QElapsedTimer>
#include <QPushButton>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "../models/catch_qt.h"
#include "app_fixture.h"
#include "jobs/capture_session.h"
#include "main_window.h"
#include "pages/analysis_page.h"
#include "pages/start_page.h"
#include "store/db_path.h"
#include "widgets/message_banner.h"

using namespace rudp;
using namespace rudp::test;
using gui::CaptureSession;
using gui::MainWindow;
using gui::MessageBanner;
namespace fs = std::filesystem;

namespace {

// Opens `path`, expecting the open to fail; returns the banner's text.
QString openExpectingError(MainWindow& window, const std::string& path) {
  QSignalSpy failed(&window.session(), &CaptureSession::failed);
  window.openCapture(QString::fromStdString(path));
  REQUIRE(failed.wait(60000));
  CHECK(window.banner()->kind() == MessageBanner::Kind::Error);
  CHECK(window.banner()->isVisible());
  CHECK(window.startPage()->isVisible());
  return window.banner()->text();
}

std::vector<std::string> filesIn(const TempDir& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir.path)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_CASE("a file that is no capture is an error message in the window") {
  useTemporarySettings();
  TempDir dir("app-notcap");
  const std::string notes = dir / "notes.pcap";
  std::ofstream(notes) << "these are my notes, not a capture\n";
  MainWindow window;
  window.show();
  const QString text = openExpectingError(window, notes);
  CHECK(text.startsWith("Cannot open notes.pcap: "));
  CHECK(text.contains("notes.pcap"));
  CHECK(window.grab().save(QString::fromStdString(artifactPath("app-error-not-a-capture.png"))));
  CHECK(filesIn(dir) == std::vector<std::string>{"notes.pcap"});  // no database, no .partial
}

TEST_CASE("a missing file is an error message in the window") {
  useTemporarySettings();
  MainWindow window;
  window.show();
  const QString text = openExpectingError(window, "/nonexistent/game.pcap");
  CHECK(text.contains("/nonexistent/game.pcap"));
  CHECK(text.contains("no such file"));
}

TEST_CASE("a broken dissector from the settings is an error message naming the script") {
  useTemporarySettings();
  TempDir dir("app-baddis");
  const std::string pcap = copySample(dir);
  const std::string broken = dir / "broken.lua";
  std::ofstream(broken) << "local p = Proto(\"brk\", \"Broken\")\nlocal x = = 3\n";
  MainWindow window;
  window.show();
  gui::AnalysisPreferences prefs = window.preferences();
  prefs.extra_scripts = {QString::fromStdString(broken)};
  window.applyPreferences(prefs);
  const QString text = openExpectingError(window, pcap);
  CHECK(text.startsWith("Cannot open sample.pcap: "));
  CHECK(text.contains("broken.lua:2"));
  CHECK_FALSE(fs::exists(defaultDatabasePath(pcap)));
}

TEST_CASE("a truncated capture opens with a visible warning") {
  useTemporarySettings();
  TempDir dir("app-truncated");
  const std::string whole = copySample(dir);
  const std::string cut = dir / "cut.pcap";
  // Half the file: the cut falls inside a record (records are 60-250 bytes).
  const auto size = fs::file_size(whole);
  std::ifstream in(whole, std::ios::binary);
  std::string bytes(size / 2 + 7, '\0');
  in.read(bytes.data(), std::streamsize(bytes.size()));
  std::ofstream(cut, std::ios::binary) << bytes;

  MainWindow window;
  window.show();
  REQUIRE(openAndWait(window, QString::fromStdString(cut)));
  CHECK(window.banner()->isVisible());
  CHECK(window.banner()->kind() == MessageBanner::Kind::Warning);
  CHECK(window.banner()->text().startsWith("This capture is truncated"));
  const uint64_t before = readPcap(cut).packets;  // the records before the cut
  CHECK(before > 2000);
  CHECK(before < 5311);
  CHECK(labelText(*window.resultPages(), "fact.packets") == QString::number(before));
  CHECK(labelText(*window.resultPages(), "fact.format").endsWith("(truncated)"));
  CHECK(window.grab().save(QString::fromStdString(artifactPath("app-truncated-warning.png"))));
}

TEST_CASE("a damaged capture is an error with a button that analyses the frames before the damage") {
  useTemporarySettings();
  TempDir dir("app-damaged");
  const std::string whole = copySample(dir);
  const std::string damaged = dir / "damaged.pcap";
  std::ifstream in(whole, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Walk the pcap records (24-byte file header, 16-byte record headers) to
  // record 101 and give it an impossible captured length.
  size_t at = 24;
  for (int record = 0; record < 100; ++record) {
    uint32_t caplen;
    std::memcpy(&caplen, bytes.data() + at + 8, 4);
    at += 16 + caplen;
  }
  const uint32_t absurd = 0x7fffffff;
  std::memcpy(bytes.data() + at + 8, &absurd, 4);
  std::ofstream(damaged, std::ios::binary) << bytes;

  MainWindow window;
  window.show();
  const QString text = openExpectingError(window, damaged);
  CHECK(text.startsWith("Cannot open damaged.pcap: '" + QString::fromStdString(damaged) +
                        "' has a damaged record after frame 100 ("));
  CHECK_FALSE(fs::exists(defaultDatabasePath(damaged)));
  auto* action = window.banner()->findChild<QToolButton*>("messageBanner.action");
  REQUIRE(action);
  CHECK(action->isVisible());
  CHECK(action->text() == "Analyse the 100 Frames Before It");
  CHECK(window.grab().save(QString::fromStdString(artifactPath("app-damaged-error.png"))));

  QSignalSpy ready(&window.session(), &CaptureSession::ready);
  action->click();
  REQUIRE(ready.wait(60000));
  CHECK(labelText(*window.resultPages(), "fact.packets") == "100");
  CHECK(window.banner()->kind() == MessageBanner::Kind::Warning);
  CHECK(window.banner()->text().contains("has a damaged record after frame 100"));
  CHECK_FALSE(action->isVisible());
  CHECK(window.grab().save(QString::fromStdString(artifactPath("app-damaged-kept.png"))));
}

TEST_CASE("Cancel stops a big analysis, leaves no database and a usable window") {
  useTemporarySettings();
  TempDir dir("app-cancel");
  const std::string big = makeSimCapture(dir, "big.pcap",
                                         {"--connections", "64", "--tick-hz", "60,60", "--duration", "120",
                                          "--seed", "3"});  // about 920,000 packets: seconds to analyse
  MainWindow window;
  window.show();

  // The event loop keeps turning while the analysis runs: a 10 ms timer never
  // waits much longer than that.
  QElapsedTimer clock;
  qint64 last = 0, worstGap = 0;
  QTimer ticker;
  QObject::connect(&ticker, &QTimer::timeout, [&] {
    worstGap = std::max(worstGap, clock.elapsed() - last);
    last = clock.elapsed();
  });
  QSignalSpy progressed(&window.session(), &CaptureSession::progressed);
  QSignalSpy cancelled(&window.session(), &CaptureSession::cancelled);
  window.openCapture(QString::fromStdString(big));
  clock.start();
  ticker.start(10);
  REQUIRE(QTest::qWaitFor([&] { return window.analysisPage()->detailText().contains("packets/s"); }, 30000));
  CHECK(window.analysisPage()->isVisible());
  CHECK(window.analysisPage()->detailText().contains("left"));
  CHECK(window.grab().save(QString::fromStdString(artifactPath("app-analysis-progress.png"))));
  auto* cancel = window.analysisPage()->findChild<QPushButton*>("analysis.cancel");
  REQUIRE(cancel);
  QTest::mouseClick(cancel, Qt::LeftButton);
  REQUIRE(cancelled.wait(10000));
  ticker.stop();
  CHECK(worstGap < 400);  // (an analysis on the UI thread would block it for seconds)
  // ~10 reports a second at most, however fast the packets go by.
  CHECK(progressed.count() <= clock.elapsed() / 100 + 3);

  CHECK(filesIn(dir) == std::vector<std::string>{"big.pcap"});  // no database, no .partial
  CHECK(window.banner()->text().contains("cancelled"));
  CHECK(window.startPage()->isVisible());
  // Still usable: the next capture opens.
  REQUIRE(openAndWait(window, QString::fromStdString(copySample(dir))));
  CHECK(labelText(*window.resultPages(), "fact.packets") == "5311");
}

TEST_CASE("opening another capture during an analysis shows only the newer one") {
  useTemporarySettings();
  TempDir dir("app-replace");
  const std::string big = makeSimCapture(
      dir, "big.pcap", {"--connections", "64", "--tick-hz", "60,60", "--duration", "120", "--seed", "3"});
  const std::string sample = copySample(dir);
  MainWindow window;
  window.show();
  QSignalSpy shown(&window, &MainWindow::captureShown);
  window.openCapture(QString::fromStdString(big));
  REQUIRE(QTest::qWaitFor([&] { return window.analysisPage()->detailText().contains("packets/s"); }, 30000));
  window.openCapture(QString::fromStdString(sample));
  REQUIRE(shown.wait(60000));
  QTest::qWait(200);  // nothing more arrives from the big one
  CHECK(shown.count() == 1);
  CHECK(window.session().capturePath() == QString::fromStdString(sample));
  CHECK(labelText(*window.resultPages(), "fact.packets") == "5311");
  CHECK(filesIn(dir) == std::vector<std::string>{"big.pcap", "sample.pcap", "sample.pcap.rudpscope.sqlite"});

  SECTION("Cancel while the newer one waits for the older to stop") {
    window.openCapture(QString::fromStdString(big));
    REQUIRE(
        QTest::qWaitFor([&] { return window.analysisPage()->detailText().contains("packets/s"); }, 30000));
    QSignalSpy cancelled(&window.session(), &CaptureSession::cancelled);
    window.openCapture(QString::fromStdString(sample));
    window.session().cancel();
    REQUIRE((cancelled.count() == 1 || cancelled.wait(10000)));
    CHECK(window.session().state() == CaptureSession::State::Empty);
    CHECK(window.startPage()->isVisible());
    QTest::qWait(500);  // the older job winds down without a word
    CHECK(cancelled.count() == 1);
    CHECK(window.startPage()->isVisible());
  }
}
