// The landing page after a capture opens: the capture's facts (file, size,
// duration, packets, link type, vantage) and the problems the analysis found,
// worst first, each one line; one click on a problem shows it on the timeline,
// its context menu also opens its packets in Wireshark.
#pragma once
#include <QWidget>
#include <vector>

#include "report/problems.h"

class QLabel;
class QPoint;
class QStandardItemModel;
class QTreeView;
class QGridLayout;

namespace rudp::gui {

struct CaptureOverview;

class SummaryPage : public QWidget {
  Q_OBJECT
 public:
  explicit SummaryPage(QWidget* parent = nullptr);

  // `reused`: the database was shown as it was (no analysis ran).
  void setOverview(const CaptureOverview& overview, const QString& dbPath, bool reused);
  void clear();
  // The problems table, for Export > Table as CSV.
  QStandardItemModel* problemsModel() const { return m_problemsModel; }
  QTreeView* problemsView() const { return m_problemsView; }

 signals:
  void problemActivated(const rudp::Problem& problem);
  // The packets of connection `conn` around a problem (capture times), with
  // `frame` (0: none) selected.
  void openInWiresharkRequested(qint64 conn, qint64 start_ns, qint64 end_ns, quint64 frame);

 private:
  QLabel* addFact(QGridLayout* grid, int index, const QString& key, const QString& title);
  void setFact(const QString& key, const QString& text, const QString& toolTip = {});
  void fillFacts(const CaptureOverview& overview, const QString& dbPath, bool reused);
  void fillProblems(const CaptureOverview& overview);
  void fitProblemsView();
  void activateRow(int row);
  void showProblemMenu(const QPoint& pos);

  QLabel* m_title;
  QLabel* m_path;
  QLabel* m_problemsHeading;
  QLabel* m_noProblems;
  QStandardItemModel* m_problemsModel;
  QTreeView* m_problemsView;
  std::vector<rudp::Problem> m_problems;
};

}  // namespace rudp::gui
