// The Compare page: a set of captures (a folder of them, one per condition
// and stack, or captures added one by one) analysed by a CompareJob, shown
// as
//   - the capture list with each capture's labels (editable: saved as the
//     capture's sidecar, then the set is compared again) and what happened
//     to it (analysed, database reused, or why it could not be read);
//   - the connection picker: every connection direction, the busiest
//     connection of each capture checked at first;
//   - the side-by-side table of the checked directions (CSV export);
//   - their RTT sample CDFs overlaid;
//   - their timelines stacked, aligned on each connection's start;
//   - the matrix chart of the whole set (PNG/SVG export);
// and the whole as an HTML page (the core's comparison report).
// A new set replaces a running one: the running job is cancelled, its result
// dropped, and the new one starts when it has stopped.
#pragma once
#include <QStringList>
#include <QWidget>
#include <functional>
#include <memory>
#include <optional>

#include "jobs/compare_job.h"
#include "jobs/job_tracker.h"

class QLabel;
class QPushButton;
class QTabWidget;
class QToolButton;
class QTableView;

namespace rudp::gui {

class AlignedTimelines;
class CaptureList;
class CdfChart;
class ChartWidget;
class CompareRowsModel;
class ComparisonModel;
class MatrixPanel;
class MessageBanner;

class ComparePage : public QWidget {
  Q_OBJECT
 public:
  enum Tab { TableTab, CdfTab, RecoveryTab, TimelinesTab, MatrixTab };

  explicit ComparePage(QWidget* parent = nullptr);
  ~ComparePage() override;

  void setPreferences(const AnalysisPreferences& prefs) { m_prefs = prefs; }
  // Replaces the set by the captures `paths` names (files and folders).
  void compare(const QStringList& paths);
  // The set so far and `paths`.
  void addCaptures(const QStringList& paths);
  void cancel();
  bool busy() const { return m_job != nullptr; }
  const QStringList& paths() const { return m_paths; }
  const CompareOutcome& outcome() const { return m_outcome; }

  // Dialogs: a folder to compare, captures to add (`alsoAdd` too, when not
  // empty). False when the user cancelled.
  bool chooseFolder();
  bool chooseCapturesToAdd(const QString& alsoAdd = {});

  CompareRowsModel* rowsModel() const { return m_rows; }
  ComparisonModel* tableModel() const { return m_table; }
  QTableView* connectionsView() const { return m_rowsView; }
  CaptureList* capturesView() const { return m_captures; }
  CdfChart* cdfChart() const { return m_cdf; }
  CdfChart* recoveryChart() const { return m_recovery; }
  MatrixPanel* matrixPanel() const { return m_matrix; }
  AlignedTimelines* timelines() const { return m_timelines; }
  QTabWidget* tabs() const { return m_tabs; }
  MessageBanner* banner() const { return m_banner; }
  QString statusText() const;

  // The side-by-side table as CSV.
  QString csv() const;
  // Empty on success, else why not (one line).
  QString exportTableTo(const QString& path) const;
  // The chart of the current tab (a CDF or the matrix; the table and the
  // timelines have none: Save Chart is disabled there and this says so).
  QString exportChartTo(const QString& path, bool svg) const;
  // The matrix's points as CSV (cmp::writeMatrixCsv, as `rudpscope-cli compare --csv`).
  QString exportMatrixTo(const QString& path) const;
  // The comparison as one HTML page (cmp::writeComparisonReportFile): the
  // table's columns and the matrix as chosen.
  QString exportReportTo(const QString& path) const;

 signals:
  // compare() was asked for a set (the window shows this page).
  void comparisonStarted();
  // The set's figures are on the page (some captures may have failed).
  void comparisonShown();
  // Nothing to show: `text` is the banner's line.
  void comparisonNotShown(const QString& text);

 private:
  QWidget* createToolbar();
  QWidget* createLists();
  QWidget* createTabs();
  void launch(CompareRequest request);
  void jobEnded(quint64 id);
  void onProgress(quint64 id, const CompareProgress& progress);
  void onSucceeded(quint64 id, const CompareOutcome& outcome);
  void onFailed(quint64 id, const QString& message);
  void onCancelled(quint64 id);
  void showCancelled();
  void showOutcome();
  void refreshChecked();
  // The checked connections' timelines, read when their tab is showing.
  void refreshTimelines();
  void setBusy(bool busy);
  void tabChanged(int index);
  void saveChart(bool svg);
  // Asks for a file name and reports a failed export in the banner.
  void saveWith(const QString& title, const QString& name, const QString& filter,
                const std::function<QString(const QString&)>& exportTo);
  const ChartWidget* currentChart() const;  // none on the table and timelines tabs

  AnalysisPreferences m_prefs;
  QStringList m_paths;
  CompareOutcome m_outcome;
  JobTracker m_tracker;
  CompareJob* m_job = nullptr;
  std::optional<CompareRequest> m_pending;

  MessageBanner* m_banner;
  QLabel* m_status;
  QPushButton* m_cancel;
  QToolButton* m_saveChart = nullptr;
  CaptureList* m_captures;
  CompareRowsModel* m_rows;
  QTableView* m_rowsView;
  ComparisonModel* m_table;
  QTableView* m_tableView;
  CdfChart* m_cdf;
  CdfChart* m_recovery;
  MatrixPanel* m_matrix;
  AlignedTimelines* m_timelines;
  bool m_timelinesStale = false;
  QTabWidget* m_tabs;
};

}  // namespace rudp::gui
