// rudpscope [FILE]: the GUI. A capture given on the command line (or by the
// file manager through the .desktop file) opens at start.
#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>

#include "main_window.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("rudpscope"));
  QApplication::setOrganizationName(QStringLiteral("rudpscope"));
  QApplication::setApplicationVersion(QStringLiteral(RUDPSCOPE_VERSION));
  QApplication::setDesktopFileName(QStringLiteral("rudpscope"));
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
  parser.process(app);
  const QStringList pages{QStringLiteral("summary"), QStringLiteral("connections"),
                          QStringLiteral("timeline"), QStringLiteral("statistics")};
  const int startPage = pages.indexOf(parser.value(page).toLower());
  if (startPage < 0) parser.showHelp(2);

  rudp::gui::MainWindow window;
  window.show();
  const QStringList files = parser.positionalArguments();
  if (!files.isEmpty()) {
    QObject::connect(
        &window, &rudp::gui::MainWindow::captureShown, &window,
        [&window, startPage] { window.showPage(rudp::gui::MainWindow::Page(startPage)); },
        Qt::SingleShotConnection);
    window.openCapture(files.first());
  }
  return app.exec();
}
