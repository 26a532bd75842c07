// What the window shows with no capture open: how to open one (button, drag
// and drop, command line), the sample capture to try, and the recent
// captures, one click each.
#pragma once
#include <QWidget>

class QListWidget;
class QListWidgetItem;

namespace rudp::gui {

class StartPage : public QWidget {
  Q_OBJECT
 public:
  explicit StartPage(QWidget* parent = nullptr);
  void setRecentFiles(const QStringList& paths);

 signals:
  void openRequested();
  void sampleRequested();
  void recentFileRequested(const QString& path);

 private:
  QListWidget* m_recent;
};

}  // namespace rudp::gui
