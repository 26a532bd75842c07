#include "jobs/capture_session.h"

#include <QFileInfo>

#include "store/db_path.h"

namespace rudp::gui {

CaptureSession::CaptureSession(QObject* parent) : QObject(parent), m_queries(new QueryRunner(this)) {
  qRegisterMetaType<IngestProgress>();
}

CaptureSession::~CaptureSession() {
  m_pending.reset();
  delete m_job;  // cancels and waits
}

void CaptureSession::open(const QString& capturePath, const AnalysisPreferences& prefs, bool allowReuse,
                          bool keepDamaged) {
  const QString absolute = QFileInfo(capturePath).absoluteFilePath();
  IngestRequest request;
  request.capturePath = absolute;
  request.dbPath = QString::fromStdString(rudp::defaultDatabasePath(absolute.toStdString()));
  request.prefs = prefs;
  request.allowReuse = allowReuse;
  request.keepDamaged = keepDamaged;

  m_state = State::Analysing;
  m_capturePath = absolute;
  m_outcome = IngestOutcome{absolute, request.dbPath};
  m_overview.reset();
  m_overviewTracker.invalidate();
  emit analysisStarted(absolute);
  if (m_job) {
    m_pending = std::move(request);
    m_ingestTracker.invalidate();
    m_job->cancel();
    return;
  }
  launch(std::move(request));
}

void CaptureSession::cancel() {
  if (!m_job) return;
  m_job->cancel();
  if (!m_pending) return;  // the job's own cancelled() follows
  // The running job is already stale; what the user cancels is the request
  // waiting for it, which never started.
  m_pending.reset();
  m_state = State::Empty;
  emit cancelled(m_capturePath);
}

void CaptureSession::close() {
  m_pending.reset();
  if (m_job) m_job->cancel();
  m_ingestTracker.invalidate();
  m_overviewTracker.invalidate();
  m_state = State::Empty;
  m_capturePath.clear();
  m_outcome = {};
  m_overview.reset();
  emit closed();
}

void CaptureSession::launch(IngestRequest request) {
  const quint64 id = m_ingestTracker.startJob();
  m_job = new IngestJob(std::move(request), this);
  connect(m_job, &IngestJob::progressed, this, [this, id](const IngestProgress& p) {
    if (m_ingestTracker.isCurrent(id)) emit progressed(p);
  });
  connect(m_job, &IngestJob::succeeded, this, [this, id](const IngestOutcome& outcome) {
    if (jobEnded(id)) loadOverview(outcome);
  });
  connect(m_job, &IngestJob::failed, this, [this, id](const QString& message, qint64 framesBeforeDamage) {
    if (jobEnded(id)) fail(message, framesBeforeDamage);
  });
  connect(m_job, &IngestJob::cancelled, this, [this, id] {
    if (!jobEnded(id)) return;
    m_state = State::Empty;
    emit cancelled(m_capturePath);
  });
  m_job->start();
}

// The job has stopped: frees it and starts the request that waited for it.
// True when the job's result is still wanted.
bool CaptureSession::jobEnded(quint64 id) {
  m_job->deleteLater();
  m_job = nullptr;
  if (m_pending) {
    IngestRequest next = std::move(*m_pending);
    m_pending.reset();
    launch(std::move(next));
    return false;
  }
  return m_ingestTracker.isCurrent(id);
}

void CaptureSession::loadOverview(const IngestOutcome& outcome) {
  m_state = State::Loading;
  m_outcome = outcome;
  m_queries->run(
      m_overviewTracker, outcome.dbPath,
      [](rudp::StoreReader& reader) { return loadCaptureOverview(reader); },
      [this](CaptureOverview overview) {
        m_overview = std::make_shared<const CaptureOverview>(std::move(overview));
        m_state = State::Ready;
        emit ready();
      },
      [this](const QString& message) { fail(message); });
}

void CaptureSession::fail(const QString& message, qint64 framesBeforeDamage) {
  m_state = State::Failed;
  m_framesBeforeDamage = framesBeforeDamage;
  emit failed(m_capturePath, message);
}

}  // namespace rudp::gui
