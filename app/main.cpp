// rudpscope [--page NAME] [--quit-after-load] [-X lua_script:FILE] [-o NAME:VALUE] [FILE]: the GUI. A capture
// given on the command line (or by the file manager through the .desktop
// file) opens at start. --capture IFACE starts a live capture instead (as
// Capture > Start; with --capture-duration it stops by itself and opens).
// --compare CAPTURE|DIR ... opens the Compare page with those captures.
// -X lua_script:FILE and -o NAME:VALUE (as Wireshark's) load one more
// dissector and set a dissector preference for this run, not saved.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <cstdio>

#include "capture_dialog.h"
#include "main_window.h"
#include "pages/compare_page.h"

namespace {

using rudp::gui::MainWindow;

// --quit-after-load: scripts and install checks open a capture the way a user
// does and learn whether it worked from the exit status.
// `shown` and `notShown` are the signals of what was asked for: a capture on
// the window, or a comparison on the Compare page.
template <class Source, class Shown, class NotShown>
void quitAfterLoad(Source* source, Shown shown, NotShown notShown) {
  // Queued: the pages finish their own handling of the signal first.
  QObject::connect(
      source, shown, qApp, [] { QCoreApplication::exit(0); }, Qt::QueuedConnection);
  QObject::connect(
      source, notShown, qApp,
      [](const QString& text) {
        std::fprintf(stderr, "rudpscope: %s\n", text.toLocal8Bit().constData());
        QCoreApplication::exit(1);
      },
      Qt::QueuedConnection);
}

void quitAfterLoad(MainWindow& window, bool compare) {
  if (compare)
    quitAfterLoad(window.comparePage(), &rudp::gui::ComparePage::comparisonShown,
                  &rudp::gui::ComparePage::comparisonNotShown);
  else
    quitAfterLoad(&window, &MainWindow::captureShown, &MainWindow::captureNotShown);
}

rudp::LiveOptions liveOptions(const QString& iface, const QString& filter, QString output,
                              double duration_s) {
  if (output.isEmpty()) output = rudp::gui::defaultCaptureFile(QDir::currentPath(), iface);
  rudp::LiveOptions o;
  o.interface = iface.toStdString();
  o.filter = filter.toStdString();
  o.output = QFileInfo(output).absoluteFilePath().toStdString();
  o.duration_s = duration_s;
  return o;
}

// -X and -o values, or a one-line usage error.
struct RunPreferences {
  QStringList scripts;
  QList<QPair<QString, QString>> prefs;
  QString error;
};

RunPreferences runPreferences(const QStringList& extensions, const QStringList& options) {
  RunPreferences r;
  const QString luaScript = QStringLiteral("lua_script:");
  for (const QString& x : extensions) {
    if (!x.startsWith(luaScript) || x.size() == luaScript.size()) {
      r.error = QStringLiteral("-X takes lua_script:FILE (no other extension option is supported), not '%1'")
                    .arg(x);
      return r;
    }
    const QFileInfo file(x.mid(luaScript.size()));
    if (!file.isFile()) {
      r.error = QStringLiteral("-X %1: no such file").arg(x);
      return r;
    }
    r.scripts << file.absoluteFilePath();
  }
  for (const QString& o : options) {
    const qsizetype colon = o.indexOf(QLatin1Char(':'));
    if (colon <= 0) {
      r.error = QStringLiteral("-o takes NAME:VALUE (e.g. grudp.port:7777), not '%1'").arg(o);
      return r;
    }
    r.prefs.append({o.left(colon), o.mid(colon + 1)});
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("rudpscope"));
  QApplication::setOrganizationName(QStringLiteral("rudpscope"));
  QApplication::setApplicationVersion(QStringLiteral(RUDPSCOPE_VERSION));
  QApplication::setDesktopFileName(QStringLiteral("org.rudpscope.rudpscope"));
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/rudpscope/rudpscope.svg")));

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("RTT, retransmission, loss and stall analysis of game reliable-UDP captures"));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("capture to open (pcap, pcapng)"));
  const QCommandLineOption page(
      QStringLiteral("page"),
      QStringLiteral("page to show once FILE is open: summary (default), connections, "
                     "timeline, statistics or packets"),
      QStringLiteral("NAME"), QStringLiteral("summary"));
  parser.addOption(page);
  const QCommandLineOption quit(
      QStringLiteral("quit-after-load"),
      QStringLiteral("exit (status 0) once FILE is analysed and on screen; if it cannot be opened, say "
                     "why on stderr and exit with status 1"));
  parser.addOption(quit);
  const QCommandLineOption capture(QStringLiteral("capture"),
                                   QStringLiteral("start a live capture on IFACE (Capture > Start)"),
                                   QStringLiteral("IFACE"));
  const QCommandLineOption captureFilter(QStringLiteral("capture-filter"),
                                         QStringLiteral("BPF capture filter (default: udp or tcp)"),
                                         QStringLiteral("FILTER"), QStringLiteral("udp or tcp"));
  const QCommandLineOption captureOutput(
      QStringLiteral("capture-output"),
      QStringLiteral("pcapng file to write (default: capture-IFACE-DATE-TIME.pcapng here)"),
      QStringLiteral("FILE"));
  const QCommandLineOption captureDuration(QStringLiteral("capture-duration"),
                                           QStringLiteral("stop the capture after S seconds and open it"),
                                           QStringLiteral("S"), QStringLiteral("0"));
  parser.addOptions({capture, captureFilter, captureOutput, captureDuration});
  const QCommandLineOption compare(
      QStringLiteral("compare"),
      QStringLiteral(
          "compare the captures given as FILEs (captures or folders of captures) on the Compare page"));
  parser.addOption(compare);
  const QCommandLineOption extension(
      QStringLiteral("X"), QStringLiteral("lua_script:FILE loads one more dissector (this run only)"),
      QStringLiteral("lua_script:FILE"));
  const QCommandLineOption preference(
      QStringLiteral("o"),
      QStringLiteral("sets a dissector preference, e.g. grudp.port:7777 (this run only)"),
      QStringLiteral("NAME:VALUE"));
  parser.addOptions({extension, preference});
  parser.process(app);
  const RunPreferences run = runPreferences(parser.values(extension), parser.values(preference));
  if (!run.error.isEmpty()) {
    std::fprintf(stderr, "rudpscope: %s\n", run.error.toLocal8Bit().constData());
    return 2;
  }
  const QStringList pages{QStringLiteral("summary"), QStringLiteral("connections"),
                          QStringLiteral("timeline"), QStringLiteral("statistics"),
                          QStringLiteral("packets")};
  const int startPage = pages.indexOf(parser.value(page).toLower());
  if (startPage < 0) parser.showHelp(2);
  const QStringList files = parser.positionalArguments();
  if (parser.isSet(quit) && files.isEmpty() && !parser.isSet(capture)) {
    std::fputs("rudpscope: --quit-after-load needs a FILE to open\n", stderr);
    return 2;
  }
  if (parser.isSet(compare) && files.isEmpty()) {
    std::fputs("rudpscope: --compare needs captures or folders to compare\n", stderr);
    return 2;
  }

  MainWindow window;
  window.addRunPreferences(run.scripts, run.prefs);
  window.show();
  if (files.isEmpty() && !parser.isSet(capture)) return app.exec();
  QObject::connect(
      &window, &MainWindow::captureShown, &window,
      [&window, startPage] { window.showPage(MainWindow::Page(startPage)); }, Qt::SingleShotConnection);
  if (parser.isSet(quit)) quitAfterLoad(window, parser.isSet(compare));
  if (parser.isSet(compare))
    window.comparePage()->compare(files);
  else if (parser.isSet(capture))
    window.startCapture(liveOptions(parser.value(capture), parser.value(captureFilter),
                                    parser.value(captureOutput), parser.value(captureDuration).toDouble()));
  else
    window.openCapture(files.first());
  return app.exec();
}
