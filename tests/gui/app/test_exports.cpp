// File > Export: the timeline as PNG and SVG, the Summary's problems and the
// Connections table as CSV, and the HTML report, from the open sample.
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

#include "../models/catch_qt.h"
#include "app_fixture.h"
#include "exporter.h"
#include "jobs/capture_session.h"
#include "main_window.h"
#include "models/table_csv.h"
#include "pages/timeline_page.h"
#include "widgets/timeline_view.h"

using namespace rudp;
using namespace rudp::test;
using gui::Exporter;
using gui::MainWindow;

namespace {

QString readAll(const std::string& path) {
  QFile f(QString::fromStdString(path));
  REQUIRE(f.open(QIODevice::ReadOnly));
  return QString::fromUtf8(f.readAll());
}

}  // namespace

TEST_CASE("the open capture exports its charts and tables and the HTML report") {
  useTemporarySettings();
  TempDir dir("app-export");
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  REQUIRE(openAndWait(window, QString::fromStdString(copySample(dir))));
  auto* exporter = window.findChild<Exporter*>();
  REQUIRE(exporter);
  const std::vector<Problem>& problems = window.session().overview()->problems;

  SECTION("the Summary's problems as CSV") {
    CHECK(exporter->exportChartTo(QString::fromStdString(dir / "x.png"), Exporter::Png).contains("no chart"));
    REQUIRE(exporter->exportTableTo(QString::fromStdString(dir / "problems.csv")).isEmpty());
    const QList<QStringList> rows = gui::parseCsv(readAll(dir / "problems.csv"));
    REQUIRE(rows.size() == int(problems.size()) + 1);
    CHECK(rows[0] == QStringList{"Kind", "Problem", "At (s)"});
    CHECK(rows[1][0] == "Stall");
    CHECK(rows[1][1] == QString::fromStdString(problems[0].text));
  }
  SECTION("the Connections table as CSV") {
    window.showPage(MainWindow::ConnectionsIndex);
    REQUIRE(exporter->exportTableTo(QString::fromStdString(dir / "connections.csv")).isEmpty());
    const QList<QStringList> rows = gui::parseCsv(readAll(dir / "connections.csv"));
    CHECK(rows.size() == 1 + 3);
  }
  SECTION("the timeline as PNG and SVG") {
    QSignalSpy shown(window.timelinePage(), &gui::TimelinePage::timelineShown);
    window.showPage(MainWindow::TimelineIndex);
    REQUIRE(shown.wait(20000));
    REQUIRE(exporter->exportChartTo(QString::fromStdString(dir / "timeline.png"), Exporter::Png).isEmpty());
    const QImage png(QString::fromStdString(dir / "timeline.png"));
    CHECK(png.size() == window.timelinePage()->view()->size());
    REQUIRE(exporter->exportChartTo(QString::fromStdString(dir / "timeline.svg"), Exporter::Svg).isEmpty());
    const QString svg = readAll(dir / "timeline.svg");
    CHECK(svg.contains("<svg"));
    CHECK(svg.contains("</svg>"));
  }
  SECTION("the HTML report, written off the UI thread") {
    QSignalSpy exported(exporter, &Exporter::reportExported);
    exporter->exportReportTo(QString::fromStdString(dir / "report.html"));
    REQUIRE(exported.wait(30000));
    CHECK(exported.first().at(1).toString().isEmpty());
    const QString html = readAll(dir / "report.html");
    CHECK(html.startsWith("<!DOCTYPE html>"));
    CHECK(html.contains("<svg"));
    CHECK_FALSE(html.contains("<script"));
    CHECK_FALSE(html.contains("src=\"http"));
    // The worst problem is on the page (HTML-escaped the way the report does it).
    CHECK(html.contains(QString::fromStdString(problems[0].text).left(30)));
  }
}
