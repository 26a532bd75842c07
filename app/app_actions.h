// The window's actions and menus, with the keys Wireshark and hotspot users
// expect: Ctrl+O open, Ctrl+W close, Ctrl+R re-analyse, Ctrl+Q quit,
// Ctrl+Shift+P settings, Ctrl+1..4 (and Alt+1..4) the pages, Ctrl+5 (Alt+5)
// the Compare page, Ctrl+Shift+O open a capture set to compare, F1 help,
// Ctrl+E (or Ctrl+K) start a capture and Ctrl+E again stop it, as Wireshark;
// Tools: our dissectors into Wireshark, and the current connection opened in it.
#pragma once
#include <QList>
#include <QObject>
#include <QStringList>

class QAction;
class QMainWindow;
class QMenu;

namespace rudp::gui {

class AppActions : public QObject {
  Q_OBJECT
 public:
  // Creates the actions and fills `window`'s menu bar; `pageNames` are the
  // result pages in tab order.
  AppActions(QMainWindow* window, const QStringList& pageNames);

  QAction* open;
  QAction* openCaptureSet;
  QAction* compareWith;
  QAction* compare;  // View > Compare: the Compare page
  QAction* close;
  QAction* reanalyse;
  QAction* cancel;
  QAction* startCapture;
  QAction* stopCapture;
  QAction* quit;
  QAction* settings;
  QAction* exportPng;
  QAction* exportSvg;
  QAction* exportCsv;
  QAction* exportReport;
  QAction* installDissectors;
  QAction* openInWireshark;
  QAction* openSample;
  QAction* help;
  QAction* about;
  QList<QAction*> pages;  // index = page

  void setRecentFiles(const QStringList& paths);
  // Actions that need an open capture.
  void setCaptureOpen(bool open);
  // While a live capture runs: Stop takes Ctrl+E, Start and opening files wait.
  void setCapturing(bool capturing);

 signals:
  void recentFileChosen(const QString& path);
  void clearRecentChosen();

 private:
  QAction* make(const QString& text, const QKeySequence& key, const QString& objectName);
  void fillMenus(QMainWindow* window);

  QMainWindow* m_window;
  QMenu* m_recent = nullptr;
};

}  // namespace rudp::gui
