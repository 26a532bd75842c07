// The open capture: analyses it (or reuses its database) off the UI thread,
// then reads the overview every page starts from. Pages query further data
// through queries() with the database path, each with its own JobTracker.
//
// A new open() while an analysis runs cancels it; the new one starts when the
// old worker has let go of its files, so two analyses never write one
// database.
#pragma once
#include <QObject>
#include <QString>
#include <memory>
#include <optional>

#include "jobs/analysis_preferences.h"
#include "jobs/capture_overview.h"
#include "jobs/ingest_job.h"
#include "jobs/job_tracker.h"
#include "jobs/query_runner.h"

namespace rudp::gui {

class CaptureSession : public QObject {
  Q_OBJECT
 public:
  enum class State { Empty, Analysing, Loading, Ready, Failed };

  explicit CaptureSession(QObject* parent = nullptr);
  ~CaptureSession() override;

  // allowReuse false: analyse even when the database matches (Reload).
  // keepDamaged: a capture with a damaged record is analysed up to it
  // instead of failing.
  void open(const QString& capturePath, const AnalysisPreferences& prefs, bool allowReuse = true,
            bool keepDamaged = false);
  void cancel();
  void close();

  State state() const { return m_state; }
  QString capturePath() const { return m_capturePath; }
  QString dbPath() const { return m_outcome.dbPath; }
  const IngestOutcome& outcome() const { return m_outcome; }
  // After failed(): -1, or how many frames precede the capture's damaged
  // record (open it again with keepDamaged to analyse them).
  qint64 framesBeforeDamage() const { return m_framesBeforeDamage; }
  // Set in state Ready.
  const CaptureOverview* overview() const { return m_overview.get(); }
  QueryRunner& queries() { return *m_queries; }

 signals:
  void analysisStarted(const QString& capturePath);
  void progressed(const rudp::gui::IngestProgress& progress);
  void ready();
  void failed(const QString& capturePath, const QString& message);
  void cancelled(const QString& capturePath);
  void closed();

 private:
  void launch(IngestRequest request);
  bool jobEnded(quint64 id);
  void loadOverview(const IngestOutcome& outcome);
  void fail(const QString& message, qint64 framesBeforeDamage = -1);

  State m_state = State::Empty;
  QString m_capturePath;
  IngestOutcome m_outcome;
  qint64 m_framesBeforeDamage = -1;
  std::shared_ptr<const CaptureOverview> m_overview;
  IngestJob* m_job = nullptr;
  std::optional<IngestRequest> m_pending;  // waits for m_job to wind down
  JobTracker m_ingestTracker, m_overviewTracker;
  QueryRunner* m_queries;
};

}  // namespace rudp::gui
