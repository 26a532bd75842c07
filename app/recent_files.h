// The captures opened lately, newest first, kept in QSettings (File > Open
// Recent and the start page).
#pragma once
#include <QObject>
#include <QStringList>

namespace rudp::gui {

class RecentFiles : public QObject {
  Q_OBJECT
 public:
  static constexpr int kMaxFiles = 10;

  explicit RecentFiles(QObject* parent = nullptr);
  QStringList files() const { return m_files; }
  void add(const QString& path);
  void remove(const QString& path);
  void clear();

 signals:
  void changed(const QStringList& files);

 private:
  void store();

  QStringList m_files;
};

}  // namespace rudp::gui
