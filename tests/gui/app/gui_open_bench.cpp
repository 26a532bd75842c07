// gui-open-bench CAPTURE: opens an (already analysed) capture in the main
// window and prints how long each step took until it was on screen, and the
// process's peak RSS; tests/bench/bench_gui.sh runs it. Runs on the platform
// QT_QPA_PLATFORM names (offscreen by default).
#include <sys/resource.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <cstdio>

#include "jobs/capture_session.h"
#include "main_window.h"
#include "pages/connections_page.h"
#include "pages/statistics_page.h"
#include "pages/summary_page.h"
#include "pages/timeline_page.h"

using rudp::gui::MainWindow;

namespace {

long peakRssKb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

// Paints `page` now (what the screen would show next).
void paint(QWidget* page) { page->repaint(); }

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("rudpscope-bench"));
  if (argc != 2) {
    std::fprintf(stderr, "usage: gui-open-bench CAPTURE\n");
    return 2;
  }
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  (void)QTest::qWaitForWindowExposed(&window);

  QElapsedTimer clock;
  QSignalSpy shown(&window, &MainWindow::captureShown);
  clock.start();
  window.openCapture(QString::fromLocal8Bit(argv[1]));
  if (!shown.wait(3'600'000)) {
    std::fprintf(stderr, "gui-open-bench: the capture did not open\n");
    return 1;
  }
  const qint64 ready = clock.elapsed();
  paint(window.summaryPage());
  const qint64 summary = clock.elapsed();
  window.showPage(MainWindow::ConnectionsIndex);
  paint(window.connectionsPage());
  const qint64 connections = clock.elapsed();
  std::printf("reused_database: %s\n", window.session().outcome().reused ? "yes" : "no");
  std::printf("packets: %llu\n",
              static_cast<unsigned long long>(window.session().overview()->capture.packet_count));
  std::printf("connections: %zu\n", window.session().overview()->connections.size());
  std::printf("problems: %zu\n", window.session().overview()->problems.size());
  std::printf("open_to_overview_ms: %lld\n", static_cast<long long>(ready));
  std::printf("open_to_summary_painted_ms: %lld\n", static_cast<long long>(summary));
  std::printf("open_to_connections_painted_ms: %lld\n", static_cast<long long>(connections));
  std::printf("rss_after_open_kb: %ld\n", peakRssKb());

  // The worst connection's timeline and statistics, as a person would look next.
  QSignalSpy timeline(window.timelinePage(), &rudp::gui::TimelinePage::timelineShown);
  clock.restart();
  window.showPage(MainWindow::TimelineIndex);
  if (!timeline.wait(600'000)) return 1;
  paint(window.timelinePage());
  std::printf("timeline_painted_ms: %lld\n", static_cast<long long>(clock.elapsed()));
  clock.restart();
  window.showPage(MainWindow::StatisticsIndex);
  if (!QTest::qWaitFor([&] { return window.statisticsPage()->data().conn != 0; }, 600'000)) return 1;
  paint(window.statisticsPage());
  std::printf("statistics_painted_ms: %lld\n", static_cast<long long>(clock.elapsed()));
  std::printf("peak_rss_kb: %ld\n", peakRssKb());
  return 0;
}
