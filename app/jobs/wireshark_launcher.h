// "Open in Wireshark": writes a connection's packets (all, or those of a time
// range) to a temporary pcapng on a worker thread, then starts `wireshark`
// on it, detached, with our dissectors (-X lua_script: for those not in the
// user's plugin folder). What happened is said in one line through
// message(): the window shows it in its message banner.
#pragma once
#include <QObject>
#include <QString>
#include <QStringList>

#include "jobs/job_runner.h"
#include "models/message_kind.h"
#include "store/records.h"

namespace rudp::gui {

class CaptureSession;

struct WiresharkRequest {
  QString capture, database;
  qint64 conn = 0;
  TimeRange range;        // of capture time; all of the connection by default
  quint64 goToFrame = 0;  // a frame of the capture to select, 0: none
  QString what;           // for messages, e.g. "connection #3"

  // `conn` of the session's capture (in state Ready) within `range`.
  static WiresharkRequest forConnection(const CaptureSession& session, qint64 conn, TimeRange range,
                                        quint64 goToFrame);
};

class WiresharkLauncher : public QObject {
  Q_OBJECT
 public:
  explicit WiresharkLauncher(QObject* parent = nullptr);
  ~WiresharkLauncher() override;  // waits for a pcapng still being written

  void open(const WiresharkRequest& request);
  // Blocks until every started export has finished (tests, shutdown).
  void waitForDone();

 signals:
  void message(rudp::gui::MessageKind kind, const QString& text);
  // wireshark was started with these arguments (after the program).
  void launched(const QString& program, const QStringList& arguments);

 private:
  struct Plan;
  static Plan prepare(const WiresharkRequest& request, const QString& program, const QString& pcapng);
  void start(const QString& program, const WiresharkRequest& request, const Plan& plan);

  JobRunner* m_runner;  // one export at a time
};

}  // namespace rudp::gui
