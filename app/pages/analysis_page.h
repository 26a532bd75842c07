// Shown while a capture is analysed: the file, a progress bar, packets per
// second and the time left, and Cancel.
#pragma once
#include <QWidget>

#include "jobs/ingest_progress.h"

class QLabel;
class QProgressBar;
class QPushButton;

namespace rudp::gui {

class AnalysisPage : public QWidget {
  Q_OBJECT
 public:
  explicit AnalysisPage(QWidget* parent = nullptr);

  void start(const QString& capturePath);
  void setProgress(const IngestProgress& progress);
  QString detailText() const;

 signals:
  void cancelRequested();

 private:
  QLabel* m_file;
  QProgressBar* m_bar;
  QLabel* m_detail;
  QPushButton* m_cancel;
};

}  // namespace rudp::gui
