#include "app_actions.h"

#include <QAction>
#include <QApplication>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QStyle>

namespace rudp::gui {

AppActions::AppActions(QMainWindow* window, const QStringList& pageNames)
    : QObject(window), m_window(window) {
  QStyle* style = window->style();
  open = make(tr("&Open Capture…"), QKeySequence::Open, "action.open");
  open->setIcon(style->standardIcon(QStyle::SP_DialogOpenButton));
  openCaptureSet =
      make(tr("Open Capture &Set…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), "action.openCaptureSet");
  openCaptureSet->setToolTip(tr("Compare the captures of a folder: one per condition and stack"));
  compareWith = make(tr("Compare &With…"), {}, "action.compareWith");
  compareWith->setToolTip(tr("Add captures (and the open one) to the comparison"));
  close = make(tr("&Close"), QKeySequence(Qt::CTRL | Qt::Key_W), "action.close");
  reanalyse = make(tr("&Reload and Analyse Again"), QKeySequence(Qt::CTRL | Qt::Key_R), "action.reanalyse");
  reanalyse->setIcon(style->standardIcon(QStyle::SP_BrowserReload));
  cancel = make(tr("Cancel &Analysis"), QKeySequence(Qt::Key_Escape), "action.cancel");
  startCapture = make(tr("&Start…"), QKeySequence(Qt::CTRL | Qt::Key_E), "action.startCapture");
  startCapture->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_E), QKeySequence(Qt::CTRL | Qt::Key_K)});
  startCapture->setIcon(style->standardIcon(QStyle::SP_MediaPlay));
  startCapture->setToolTip(tr("Capture from an interface and watch the connections as they play"));
  stopCapture = make(tr("S&top"), {}, "action.stopCapture");
  stopCapture->setIcon(style->standardIcon(QStyle::SP_MediaStop));
  quit = make(tr("&Quit"), QKeySequence(Qt::CTRL | Qt::Key_Q), "action.quit");
  quit->setMenuRole(QAction::QuitRole);
  settings = make(tr("&Settings…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P), "action.settings");
  settings->setMenuRole(QAction::PreferencesRole);
  exportPng = make(tr("Chart as &PNG…"), {}, "action.exportPng");
  exportSvg = make(tr("Chart as &SVG…"), {}, "action.exportSvg");
  exportCsv = make(tr("Table as &CSV…"), {}, "action.exportCsv");
  exportReport =
      make(tr("&Report (HTML)…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), "action.exportReport");
  installDissectors = make(tr("&Install Dissectors into Wireshark…"), {}, "action.installDissectors");
  installDissectors->setToolTip(
      tr("Copy rudpscope's Lua dissectors into your Wireshark's personal plugin folder"));
  openInWireshark = make(tr("Open in &Wireshark"), {}, "action.openInWireshark");
  openInWireshark->setToolTip(
      tr("Open the current connection's packets (on the Timeline: those in view) in Wireshark"));
  openSample = make(tr("Open &Sample Capture"), {}, "action.openSample");
  openSample->setToolTip(tr("Open the capture shipped with rudpscope: a stall, retransmissions and losses"));
  help = make(tr("rudpscope &Help"), QKeySequence::HelpContents, "action.help");
  about = make(tr("&About rudpscope"), {}, "action.about");
  about->setMenuRole(QAction::AboutRole);
  for (int i = 0; i < pageNames.size(); ++i) {
    const Qt::Key digit = Qt::Key(Qt::Key_1 + i);
    QAction* page =
        make(pageNames[i], QKeySequence(Qt::CTRL | digit), QStringLiteral("action.page%1").arg(i + 1));
    page->setShortcuts({QKeySequence(Qt::CTRL | digit), QKeySequence(Qt::ALT | digit)});
    pages.append(page);
  }
  const Qt::Key compareDigit = Qt::Key(Qt::Key_1 + pageNames.size());
  compare = make(tr("Co&mpare"), QKeySequence(Qt::CTRL | compareDigit), "action.compare");
  compare->setShortcuts({QKeySequence(Qt::CTRL | compareDigit), QKeySequence(Qt::ALT | compareDigit)});
  fillMenus(window);
  setCaptureOpen(false);
  setCapturing(false);
}

QAction* AppActions::make(const QString& text, const QKeySequence& key, const QString& objectName) {
  auto* action = new QAction(text, m_window);
  action->setObjectName(objectName);
  if (!key.isEmpty()) action->setShortcut(key);
  m_window->addAction(action);  // keys work wherever the focus is
  return action;
}

void AppActions::fillMenus(QMainWindow* window) {
  QMenu* file = window->menuBar()->addMenu(tr("&File"));
  file->addAction(open);
  m_recent = file->addMenu(tr("Open &Recent"));
  m_recent->setObjectName(QStringLiteral("menu.recent"));
  file->addAction(openCaptureSet);
  file->addAction(compareWith);
  file->addAction(close);
  file->addAction(reanalyse);
  file->addSeparator();
  QMenu* exports = file->addMenu(tr("&Export"));
  exports->addAction(exportPng);
  exports->addAction(exportSvg);
  exports->addAction(exportCsv);
  exports->addSeparator();
  exports->addAction(exportReport);
  file->addSeparator();
  file->addAction(quit);

  QMenu* edit = window->menuBar()->addMenu(tr("&Edit"));
  edit->addAction(settings);

  QMenu* view = window->menuBar()->addMenu(tr("&View"));
  for (QAction* page : pages) view->addAction(page);
  view->addAction(compare);
  view->addSeparator();
  view->addAction(cancel);

  QMenu* capture = window->menuBar()->addMenu(tr("&Capture"));
  capture->addAction(startCapture);
  capture->addAction(stopCapture);

  QMenu* tools = window->menuBar()->addMenu(tr("&Tools"));
  tools->addAction(openInWireshark);
  tools->addSeparator();
  tools->addAction(installDissectors);

  QMenu* helpMenu = window->menuBar()->addMenu(tr("&Help"));
  helpMenu->addAction(help);
  helpMenu->addAction(openSample);
  helpMenu->addSeparator();
  helpMenu->addAction(about);
  helpMenu->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void AppActions::setRecentFiles(const QStringList& paths) {
  m_recent->clear();
  for (int i = 0; i < paths.size(); ++i) {
    const QString label = QStringLiteral("&%1 %2").arg((i + 1) % 10).arg(QFileInfo(paths[i]).fileName());
    QAction* action = m_recent->addAction(label);
    action->setToolTip(paths[i]);
    connect(action, &QAction::triggered, this, [this, path = paths[i]] { emit recentFileChosen(path); });
  }
  m_recent->addSeparator();
  QAction* clear = m_recent->addAction(tr("Clear Menu"));
  clear->setEnabled(!paths.isEmpty());
  connect(clear, &QAction::triggered, this, &AppActions::clearRecentChosen);
  m_recent->setEnabled(!paths.isEmpty());
}

void AppActions::setCaptureOpen(bool isOpen) {
  for (QAction* a : {close, reanalyse, exportPng, exportSvg, exportCsv, exportReport, openInWireshark})
    a->setEnabled(isOpen);
  for (QAction* a : pages) a->setEnabled(isOpen);
}

// One action holds Ctrl+E at a time: two enabled actions with one key would
// be ambiguous and neither would fire.
void AppActions::setCapturing(bool capturing) {
  startCapture->setEnabled(!capturing);
  stopCapture->setEnabled(capturing);
  if (capturing) {
    startCapture->setShortcuts({});
    stopCapture->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  } else {
    stopCapture->setShortcut({});
    startCapture->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_E), QKeySequence(Qt::CTRL | Qt::Key_K)});
  }
  for (QAction* a : {open, openSample, openCaptureSet, compareWith}) a->setEnabled(!capturing);
}

}  // namespace rudp::gui
