// Every page of the window rendered to PNG, light and dark, for a person to
// look at (RUDPSCOPE_TEST_ARTIFACTS/app-*.png); the checks make sure each
// picture shows the page with its data in the palette asked for.
#include <QApplication>
#include <QSignalSpy>
#include <QStyle>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTest>

#include "../models/catch_qt.h"
#include "app_fixture.h"
#include "jobs/capture_session.h"
#include "main_window.h"
#include "pages/timeline_page.h"
#include "widgets/chart_colours.h"
#include "widgets/palette_theme.h"

using namespace rudp;
using namespace rudp::test;
using gui::MainWindow;

namespace {

// Share of pixels whose lightness is on the palette's side (dark or light).
double shareOfLightness(const QImage& image, bool dark) {
  qint64 matching = 0, all = 0;
  for (int y = 0; y < image.height(); y += 4)
    for (int x = 0; x < image.width(); x += 4) {
      const int l = QColor(image.pixel(x, y)).lightness();
      matching += dark ? l < 100 : l > 155;
      ++all;
    }
  return double(matching) / double(all);
}

void renderAll(MainWindow& window, const std::string& theme, bool dark) {
  const char* names[] = {"summary", "connections", "timeline", "statistics"};
  for (int page = 0; page < 4; ++page) {
    window.showPage(MainWindow::Page(page));
    if (page == MainWindow::TimelineIndex) {
      QSignalSpy shown(window.timelinePage(), &gui::TimelinePage::timelineShown);
      if (window.timelinePage()->connection() == 0) CHECK(shown.wait(20000));
    }
    QTest::qWait(200);  // statistics and packet queries
    const QImage image = window.grab().toImage();
    const std::string path = artifactPath("app-" + std::string(names[page]) + "-" + theme + ".png");
    REQUIRE(image.save(QString::fromStdString(path)));
    INFO(path);
    CHECK(shareOfLightness(image, dark) > 0.5);
  }
}

}  // namespace

TEST_CASE("every page renders in the light and the dark palette") {
  useTemporarySettings();
  TempDir dir("app-render");
  const std::string pcap = copySample(dir);
  QApplication::setStyle(QStyleFactory::create("Fusion"));
  const QPalette original = QApplication::palette();
  for (const bool dark : {false, true}) {
    QApplication::setPalette(dark ? gui::darkPalette() : QApplication::style()->standardPalette());
    CHECK(gui::ChartColours::isDark(QApplication::palette()) == dark);
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    REQUIRE(openAndWait(window, QString::fromStdString(pcap)));
    renderAll(window, dark ? "dark" : "light", dark);
  }
  QApplication::setPalette(original);
}
