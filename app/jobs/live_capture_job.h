// Captures from an interface and analyses as packets arrive (ingestLive) on a
// worker thread, until stop(), the capture's duration or an error. What it
// has found so far is in view(), a LiveView any thread may copy; the file and
// its database are complete when finished() arrives, so opening the file
// then reuses the database.
#pragma once
#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>

#include "capture/live_capture.h"
#include "jobs/analysis_preferences.h"
#include "jobs/worker_thread.h"

namespace rudp {
class LiveView;
}

namespace rudp::gui {

struct LiveCaptureRequest {
  rudp::LiveOptions options;  // `stop` is the job's own
  QString dbPath;             // empty: the capture file's default database (a ring: each file's)
  AnalysisPreferences prefs;
};

class LiveCaptureJob : public QObject {
  Q_OBJECT
 public:
  explicit LiveCaptureJob(LiveCaptureRequest request, QObject* parent = nullptr);
  ~LiveCaptureJob() override;  // stops and waits for the worker

  const LiveCaptureRequest& request() const { return m_request; }
  // The file asked for (a ring's files are named after it).
  QString capturePath() const { return QString::fromStdString(m_request.options.output); }
  // Shared: a snapshot task still running when the job goes keeps it alive.
  std::shared_ptr<rudp::LiveView> view() const { return m_view; }

  void start();
  // Ends the capture: the worker completes the file and the database, then
  // emits finished().
  void stop();
  bool stopping() const { return m_stop.load(); }

 signals:
  // The interface is open and packets are being written and analysed.
  void capturing();
  // The capture stopped; its file and database are complete.
  void finished(const QString& capturePath, const QString& dbPath);
  // One line. `captured`: the capture had started, so its file holds what
  // arrived before the error.
  void failed(const QString& message, bool captured);

 private:
  void work();
  void post(std::function<void()> f) { postTo(this, std::move(f)); }

  LiveCaptureRequest m_request;
  std::atomic<bool> m_stop{false};
  std::shared_ptr<rudp::LiveView> m_view;
  WorkerThread m_worker;  // last: joined before the members its work uses go
};

}  // namespace rudp::gui
