// Analyses one capture into its database on a worker thread, or finds that
// the existing database already holds the result. Progress comes back to the
// UI thread at most ~10 times a second; cancel() stops the analysis at its
// next check and leaves no database behind (the core removes its .partial).
#pragma once
#include <QObject>
#include <QString>
#include <atomic>
#include <functional>

#include "jobs/analysis_preferences.h"
#include "jobs/ingest_progress.h"
#include "jobs/worker_thread.h"

namespace rudp::gui {

struct IngestRequest {
  QString capturePath, dbPath;
  AnalysisPreferences prefs;
  bool allowReuse = true;    // false: analyse even when the database matches (Reload)
  bool keepDamaged = false;  // a damaged capture: analyse the frames before the damage
};

struct IngestOutcome {
  QString capturePath, dbPath;
  bool reused = false;     // the database was shown as it was, no analysis ran
  size_t closedEarly = 0;  // connections closed by the open-connection cap
};

class IngestJob : public QObject {
  Q_OBJECT
 public:
  explicit IngestJob(IngestRequest request, QObject* parent = nullptr);
  ~IngestJob() override;  // cancels and waits for the worker

  const IngestRequest& request() const { return m_request; }
  void start();
  void cancel();

 signals:
  void progressed(const IngestProgress& progress);
  void succeeded(const IngestOutcome& outcome);
  // framesBeforeDamage: -1, or the capture has a damaged record after that
  // many frames (rudp::DamagedCaptureError) and nothing was analysed.
  void failed(const QString& message, qint64 framesBeforeDamage);
  void cancelled();

 private:
  void work();
  IngestOutcome analyse();
  // Runs `f` on this object's (UI) thread.
  void post(std::function<void()> f) { postTo(this, std::move(f)); }

  IngestRequest m_request;
  std::atomic<bool> m_cancel{false};
  WorkerThread m_worker;  // last: joined before the members its work uses go
};

}  // namespace rudp::gui
