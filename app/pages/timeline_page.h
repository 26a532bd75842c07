// The Timeline page: the TimelineView of one connection (chosen here or on the
// Connections page) with a direction switch, and beside it the stored fields
// of the packet whose mark was clicked. The data loads on a worker thread;
// a newer request drops an older one's result.
#pragma once
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "flow/connection.h"
#include "jobs/job_tracker.h"
#include "store/records.h"

class QButtonGroup;
class QComboBox;
class QLabel;
class QStackedWidget;
class QToolButton;

namespace rudp::gui {

class CaptureSession;
struct CaptureOverview;
class PacketFieldsView;
class TimelineView;
struct TimelineData;

class TimelinePage : public QWidget {
  Q_OBJECT
 public:
  explicit TimelinePage(CaptureSession& session, QWidget* parent = nullptr);

  // The connections to choose from; the first problem's connection (else the
  // first) is chosen. Data loads only while the page is visible.
  void setOverview(const CaptureOverview& overview);
  void clear();
  void showConnection(int64_t conn);
  // Shows `conn`'s `dir` zoomed to [start_ns, end_ns] (with a margin) and
  // marks `frame` (0: none).
  void showRange(int64_t conn, Direction dir, int64_t start_ns, int64_t end_ns, uint64_t frame);

  // A live capture: nothing is read from a database; the connections so far
  // come through setLiveConnections (the first one seen is chosen unless one
  // was) and the chosen connection's timeline through setLiveData each time
  // it grows (the view follows the live edge unless moved away).
  void setLive(bool live);
  void setLiveConnections(const std::vector<ConnectionRecord>& connections);
  void setLiveData(std::shared_ptr<const TimelineData> data);
  int64_t connection() const { return m_shownConn; }
  Direction direction() const { return m_direction; }
  TimelineView* view() const { return m_view; }
  PacketFieldsView* fieldsView() const { return m_fields; }

 signals:
  // Another connection was chosen (the Statistics page follows).
  void connectionChanged(int64_t conn);
  // A connection's timeline is on screen.
  void timelineShown(int64_t conn);
  // A packet's fields are on screen.
  void packetShown(quint64 frame);
  // "Open in Wireshark": the shown connection's packets in the visible time
  // range [start_ns, end_ns), selecting `frame` (0: none).
  void openInWiresharkRequested(qint64 conn, qint64 start_ns, qint64 end_ns, quint64 frame);

 public slots:
  // Emits openInWiresharkRequested for what is on screen (nothing when no
  // connection is shown).
  void requestOpenInWireshark();

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  struct Range {
    int64_t start_ns, end_ns;
    uint64_t frame;
  };
  QWidget* makeToolBar();
  void want(int64_t conn);
  void load(int64_t conn);
  void setDirection(Direction dir);
  void stepConnection(int delta);
  void applyRange(const Range& range);
  void showPacket(quint64 frame);

  CaptureSession& m_session;
  QComboBox* m_connectionBox;
  QButtonGroup* m_directionButtons;
  QLabel* m_state;
  QToolButton* m_openInWireshark;
  QStackedWidget* m_viewStack;
  TimelineView* m_view = nullptr;
  PacketFieldsView* m_fields = nullptr;
  JobTracker m_timelineTracker, m_packetTracker;
  CaptureInfo m_capture;
  // Chosen; asked of the database; on screen.
  int64_t m_wantedConn = 0, m_requestedConn = 0, m_shownConn = 0;
  Direction m_direction = Direction::ClientToServer;
  std::optional<Range> m_pendingRange;  // applied when the requested data arrives
  bool m_live = false;
};

}  // namespace rudp::gui
