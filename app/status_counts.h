// The status bar's counts of the open capture (packets, connections,
// problems), hidden while no capture is open. The labels are called
// status.packets, status.connections and status.problems.
#pragma once
#include <QObject>

class QLabel;
class QStatusBar;

namespace rudp::gui {

struct CaptureOverview;

class StatusCounts : public QObject {
  Q_OBJECT
 public:
  // Adds the labels to `bar` as permanent widgets.
  explicit StatusCounts(QStatusBar* bar);

  // Null: no capture is open.
  void show(const CaptureOverview* overview);

 private:
  QLabel* m_packets;
  QLabel* m_connections;
  QLabel* m_problems;
};

}  // namespace rudp::gui
