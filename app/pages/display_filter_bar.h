// The Packets page's display filter bar: the filter entry (checked as you
// type against the capture's dissectors), Apply, and while a filter runs its
// progress and Cancel. Applying one replaces the list's rows with the frames
// it passes: at once when the database answers it (frame.number, frame.len,
// frame.cap_len, frame.time_relative, frame.time_epoch), else filling as a
// FilterJob reads the capture again. Esc cancels; a newer filter makes the
// running one stale.
#pragma once
#include <QElapsedTimer>
#include <QWidget>
#include <memory>

#include "jobs/filter_job.h"
#include "jobs/job_tracker.h"

class QLabel;
class QProgressBar;
class QToolButton;

namespace rudp {
class DisplayFilterChecker;
}

namespace rudp::gui {

class DisplayFilterEdit;
class PacketListModel;

class DisplayFilterBar : public QWidget {
  Q_OBJECT
 public:
  DisplayFilterBar(PacketListModel* model, QWidget* parent = nullptr);
  ~DisplayFilterBar() override;

  // The capture the model shows; clears the filter.
  void open(const QString& dbPath, const QString& capture, const DissectorOptions& dissectors);
  void clear();

  void apply(const QString& filter);
  void cancel();
  bool isRunning() const { return m_job != nullptr; }
  DisplayFilterEdit* edit() const { return m_edit; }
  // What the last filter did ("Displayed: 120 of 5311 packets ..."), or why not.
  QString status() const;

 signals:
  // The rows were replaced (a filter applied or removed).
  void rowsReplaced();
  void statusChanged(const QString& text);
  void finished();

 private:
  void startJob(const QString& filter);
  void connectJob(FilterJob* job);
  void done(const QString& status);
  void dropJob();
  void setStatus(const QString& text);

  PacketListModel* m_model;
  DisplayFilterEdit* m_edit;
  QToolButton* m_apply;
  QProgressBar* m_progress;
  QToolButton* m_cancel;
  QLabel* m_status;
  std::unique_ptr<DisplayFilterChecker> m_checker;
  FilterRequest m_request;  // the capture's; filter set per job
  JobTracker m_jobs;
  FilterJob* m_job = nullptr;
  bool m_fromDatabase = false;
  QElapsedTimer m_clock;
};

}  // namespace rudp::gui
