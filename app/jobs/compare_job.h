// Builds a comparison on a worker thread: the captures the paths name (a
// folder stands for the captures in it) are each analysed or their database
// reused (cmp::ensureAnalysed), then read back as per-direction comparison
// figures (cmp::compareConnections, a StoreReader opened in the worker),
// with each direction's RTT samples for the CDF overlay.
// A capture that fails is one line in the outcome; the others still come.
// Progress comes back per capture and at most ~10 times a second within one;
// cancel() stops at the core's next check. The owner drops results of a job
// it no longer wants (JobTracker); every signal carries the job's id.
#pragma once
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>
#include <atomic>
#include <functional>
#include <vector>

#include "compare/comparison.h"
#include "jobs/analysis_preferences.h"
#include "jobs/worker_thread.h"

namespace rudp::gui {

struct CompareRequest {
  QStringList paths;          // captures and folders
  cmp::Labels overrides;      // labels every capture gets (highest precedence)
  AnalysisPreferences prefs;  // how a capture without a matching database is analysed
};

// One capture of the set, as the capture list shows it.
struct CompareCapture {
  QString path;
  QString db;      // its database (empty when it failed before one was found)
  QString labels;  // labelText of its labels ("" when it failed before they were read)
  bool reused = false;
  int connections = 0;
  QString error;  // one line; empty when it was read
};

struct CompareOutcome {
  std::vector<CompareCapture> captures;
  std::vector<cmp::DirectionComparison> rows;  // every capture's, in capture order
  std::vector<std::vector<double>> rttMs;      // rows[i]'s RTT samples (ms), in capture order
  QStringList warnings;                        // "file.pcap: ..." one line each
  int failed() const;
};

struct CompareProgress {
  int capture = 0, captures = 0;  // 0-based index of the capture being analysed, and the count
  QString name;                   // its file name
  double fraction = -1;           // of that capture's file read; -1 unknown
};

class CompareJob : public QObject {
  Q_OBJECT
 public:
  CompareJob(quint64 id, CompareRequest request, QObject* parent = nullptr);
  ~CompareJob() override;  // cancels and waits for the worker

  quint64 id() const { return m_id; }
  const CompareRequest& request() const { return m_request; }
  void start();
  void cancel();

 signals:
  void progressed(quint64 id, const rudp::gui::CompareProgress& progress);
  void succeeded(quint64 id, const rudp::gui::CompareOutcome& outcome);
  // Nothing to compare (no such path, a folder without captures): one line.
  void failed(quint64 id, const QString& message);
  void cancelled(quint64 id);

 private:
  void work();
  CompareOutcome compare();
  CompareCapture compareOne(const std::string& capture, int index, int count, CompareOutcome& outcome);
  // Runs `f` on this object's (UI) thread.
  void post(std::function<void()> f) { postTo(this, std::move(f)); }

  quint64 m_id;
  CompareRequest m_request;
  std::atomic<bool> m_cancel{false};
  WorkerThread m_worker;  // last: joined before the members its work uses go
};

}  // namespace rudp::gui

Q_DECLARE_METATYPE(rudp::gui::CompareProgress)
Q_DECLARE_METATYPE(rudp::gui::CompareOutcome)
