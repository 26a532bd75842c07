// The real rudpscope binary in a real X server (Xvfb): started on the sample
// with --page timeline and --page connections, photographed with screen-grab
// (a separate X client, as a person's screenshot tool), and the pictures
// checked: the window (found by its title with xwininfo) shows the stall
// band and marks of the timeline, and the connections table with the worst
// connection selected. The PNGs stay in RUDPSCOPE_TEST_ARTIFACTS.
#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>
#include <filesystem>

#include "../models/catch_qt.h"
#include "app_fixture.h"

using namespace rudp::test;

namespace {

struct XServer {
  int display = 0;
  QProcess process;
  XServer() {
    // A display number nobody uses: from the process id, skipping taken ones.
    for (display = 90 + getpid() % 400;; ++display)
      if (!QFile::exists(QStringLiteral("/tmp/.X11-unix/X%1").arg(display)) &&
          !QFile::exists(QStringLiteral("/tmp/.X%1-lock").arg(display)))
        break;
    process.start(QStringLiteral("Xvfb"), {name(), "-screen", "0", "1600x1000x24", "-nolisten", "tcp"});
    REQUIRE(process.waitForStarted(5000));
    REQUIRE(QTest::qWaitFor([&] { return QFile::exists(QStringLiteral("/tmp/.X11-unix/X%1").arg(display)); },
                            10000));
  }
  ~XServer() {
    process.terminate();
    process.waitForFinished(5000);
  }
  QString name() const { return QStringLiteral(":%1").arg(display); }
};

struct Window {
  QRect geometry;
  bool found = false;
};

// The top-level window whose title is `title`, from `xwininfo -root -tree`.
Window findWindow(const XServer& x, const QString& title) {
  QProcess info;
  info.start(QStringLiteral("xwininfo"), {"-display", x.name(), "-root", "-tree"});
  info.waitForFinished(5000);
  const QString out = QString::fromUtf8(info.readAllStandardOutput());
  // 0x200008 "sample.pcap — rudpscope": ("rudpscope" "rudpscope")  1400x900+0+0  +0+0
  const QRegularExpression line(QRegularExpression::escape('"' + title + '"') +
                                R"(:.*\s(\d+)x(\d+)\+(-?\d+)\+(-?\d+)\s+\+(-?\d+)\+(-?\d+))");
  const QRegularExpressionMatch m = line.match(out);
  Window w;
  if (!m.hasMatch()) return w;
  w.found = true;
  w.geometry =
      QRect(m.captured(5).toInt(), m.captured(6).toInt(), m.captured(1).toInt(), m.captured(2).toInt());
  return w;
}

QImage grabScreen(const XServer& x, const QString& path) {
  QProcess grab;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("DISPLAY", x.name());
  grab.setProcessEnvironment(env);
  grab.start(QStringLiteral(SCREEN_GRAB), {path});
  grab.waitForFinished(10000);
  INFO(grab.readAllStandardError().toStdString());
  REQUIRE(grab.exitCode() == 0);
  return QImage(path);
}

// Pixels of `image` within `area` whose colour is near `colour`.
int countNear(const QImage& image, const QRect& area, const QColor& colour, int tolerance) {
  int n = 0;
  for (int y = area.top(); y <= area.bottom(); ++y)
    for (int x = area.left(); x <= area.right(); ++x) {
      const QColor c = image.pixelColor(x, y);
      n += std::abs(c.red() - colour.red()) + std::abs(c.green() - colour.green()) +
               std::abs(c.blue() - colour.blue()) <=
           tolerance;
    }
  return n;
}

int distinctColours(const QImage& image, const QRect& area) {
  QSet<QRgb> colours;
  for (int y = area.top(); y <= area.bottom(); y += 2)
    for (int x = area.left(); x <= area.right(); x += 2) colours.insert(image.pixel(x, y));
  return int(colours.size());
}

struct App {
  QProcess process;
  App(const XServer& x, const TempDir& dir, const std::string& capture, const QString& page) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("DISPLAY", x.name());
    env.insert("QT_QPA_PLATFORM", "xcb");
    env.insert("XDG_CONFIG_HOME", QString::fromStdString(dir / "config"));  // not the user's settings
    process.setProcessEnvironment(env);
    process.setProcessChannelMode(QProcess::ForwardedChannels);
    process.start(QStringLiteral(RUDPSCOPE_GUI), {"--page", page, QString::fromStdString(capture)});
    REQUIRE(process.waitForStarted(10000));
  }
  ~App() {
    process.terminate();
    if (!process.waitForFinished(5000)) process.kill();
  }
};

// Screenshots until `good` accepts one (the window needs time to analyse
// and paint), at most 60 s; returns the last.
template <class Good>
QImage photograph(const XServer& x, const QString& title, const std::string& artifact, Window& w, Good good) {
  QImage shot;
  const QString path = QString::fromStdString(artifactPath(artifact));
  for (int attempt = 0; attempt < 120; ++attempt) {
    QTest::qWait(500);
    w = findWindow(x, title);
    if (!w.found) continue;
    shot = grabScreen(x, path);
    if (good(shot)) break;
  }
  return shot;
}

}  // namespace

TEST_CASE("the real rudpscope window under Xvfb shows the connections and the timeline") {
  XServer x;
  TempDir dir("app-xvfb");
  const std::string capture = copySample(dir);
  const QString title = QStringLiteral("sample.pcap — rudpscope");

  SECTION("timeline") {
    App app(x, dir, capture, "timeline");
    Window w;
    // Light Fusion palette colours of the stall band over the plot, and of
    // the timeout marks (widgets/chart_colours.cpp).
    const QColor stallBand(0xf6, 0xd5, 0xd5), timeoutMark(0xd3, 0x2f, 0x2f);
    auto plot = [&](const Window& win) { return win.geometry.adjusted(60, 120, -360, -60); };
    const QImage shot = photograph(x, title, "app-xvfb-timeline.png", w, [&](const QImage& img) {
      return countNear(img, plot(w), stallBand, 30) > 2000;
    });
    REQUIRE(w.found);
    CHECK(w.geometry.width() >= 800);
    CHECK(w.geometry.height() >= 600);
    const QRect area = plot(w);
    CHECK(countNear(shot, area, stallBand, 30) > 2000);  // the outage's stall band
    CHECK(countNear(shot, area, timeoutMark, 60) > 50);  // its timeout retransmission marks
    CHECK(distinctColours(shot, area) > 40);             // lanes, lines, bands: not an empty page
  }
  SECTION("connections") {
    App app(x, dir, capture, "connections");
    Window w;
    auto table = [&](const Window& win) { return win.geometry.adjusted(0, 100, 0, -40); };
    QColor highlight;
    const QImage shot = photograph(x, title, "app-xvfb-connections.png", w, [&](const QImage& img) {
      // The worst connection is selected: a row in the highlight colour.
      return countNear(img, table(w), QColor(0x30, 0x8c, 0xc6), 40) > 3000;
    });
    REQUIRE(w.found);
    CHECK(countNear(shot, table(w), QColor(0x30, 0x8c, 0xc6), 40) > 3000);
    CHECK(distinctColours(shot, table(w)) > 20);
  }
}
