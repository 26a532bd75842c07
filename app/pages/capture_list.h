// The Compare page's list of captures: each capture's file, labels and what
// happened to it (analysed, database reused, or why it could not be read).
// The labels are editable: what the user types ("loss=5 delay=50
// stack=tcp-cubic") is checked, saved beside the capture as its sidecar
// file (CAPTURE.labels, which overrides the labels of the file name) and
// reported by labelsSaved, so the page compares again with them.
#pragma once
#include <QTreeWidget>
#include <vector>

#include "jobs/compare_job.h"

namespace rudp::gui {

class CaptureList : public QTreeWidget {
  Q_OBJECT
 public:
  enum Column { FileColumn, LabelsColumn, StatusColumn };

  explicit CaptureList(QWidget* parent = nullptr);

  void setCaptures(const std::vector<CompareCapture>& captures);
  static QString statusText(const CompareCapture& c);
  // Writes `text` as the sidecar of `capture`; empty on success, else why
  // not (a bad label or a file that cannot be written), one line.
  static QString saveLabels(const QString& capture, const QString& text);

 signals:
  void labelsSaved(const QString& capture);
  void labelsRejected(const QString& message);

 private:
  void onItemChanged(QTreeWidgetItem* item, int column);

  std::vector<CompareCapture> m_captures;
  bool m_filling = false;
};

}  // namespace rudp::gui
