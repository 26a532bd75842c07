// rudpscope [--page NAME] [--quit-after-load] [FILE]: the GUI. A capture
// given on the command line (or by the file manager through the .desktop
// file) opens at start.
#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <cstdio>

#include "main_window.h"

namespace {

using rudp::gui::MainWindow;

// --quit-after-load: scripts and install checks open a capture the way a user
// does and learn whether it worked from the exit status.
void quitAfterLoad(MainWindow& window) {
  // Queued: the pages finish their own handling of the signal first.
  QObject::connect(
      &window, &MainWindow::captureShown, qApp, [] { QCoreApplication::exit(0); }, Qt::QueuedConnection);
  QObject::connect(
      &window, &MainWindow::captureNotShown, qApp,
      [](const QString& text) {
        std::fprintf(stderr, "rudpscope: %s\n", text.toLocal8Bit().constData());
        QCoreApplication::exit(1);
      },
      Qt::QueuedConnection);
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
                     "timeline or statistics"),
      QStringLiteral("NAME"), QStringLiteral("summary"));
  parser.addOption(page);
  const QCommandLineOption quit(
      QStringLiteral("quit-after-load"),
      QStringLiteral("exit (status 0) once FILE is analysed and on screen; if it cannot be opened, say "
                     "why on stderr and exit with status 1"));
  parser.addOption(quit);
  parser.process(app);
  const QStringList pages{QStringLiteral("summary"), QStringLiteral("connections"),
                          QStringLiteral("timeline"), QStringLiteral("statistics")};
  const int startPage = pages.indexOf(parser.value(page).toLower());
  if (startPage < 0) parser.showHelp(2);
  const QStringList files = parser.positionalArguments();
  if (parser.isSet(quit) && files.isEmpty()) {
    std::fputs("rudpscope: --quit-after-load needs a FILE to open\n", stderr);
    return 2;
  }

  MainWindow window;
  window.show();
  if (!files.isEmpty()) {
    QObject::connect(
        &window, &MainWindow::captureShown, &window,
        [&window, startPage] { window.showPage(MainWindow::Page(startPage)); }, Qt::SingleShotConnection);
    if (parser.isSet(quit)) quitAfterLoad(window);
    window.openCapture(files.first());
  }
  return app.exec();
}
