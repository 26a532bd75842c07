#include "jobs/ingest_job.h"

#include "decode/capture_warnings.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <exception>

#include "core/error.h"
#include "jobs/database_reuse.h"
#include "jobs/progress_rate.h"
#include "session/ingest.h"

namespace rudp::gui {

namespace {
constexpr qint64 kProgressIntervalMs = 100;  // ~10 updates a second
}

IngestJob::IngestJob(IngestRequest request, QObject* parent)
    : QObject(parent), m_request(std::move(request)) {
  qRegisterMetaType<IngestProgress>();
}

IngestJob::~IngestJob() { cancel(); }

void IngestJob::start() {
  m_worker.start(QStringLiteral("rudp-ingest"), [this] { work(); });
}

void IngestJob::cancel() { m_cancel.store(true, std::memory_order_relaxed); }

void IngestJob::work() {
  try {
    IngestOutcome outcome = analyse();
    post([this, outcome] { emit succeeded(outcome); });
  } catch (const rudp::Cancelled&) {
    post([this] { emit cancelled(); });
  } catch (const rudp::DamagedCaptureError& e) {
    const QString message = QString::fromStdString(e.what());
    const auto frames = qint64(e.frames_before);
    post([this, message, frames] { emit failed(message, frames); });
  } catch (const std::exception& e) {
    const QString message = QString::fromStdString(e.what());
    post([this, message] { emit failed(message, -1); });
  }
}

IngestOutcome IngestJob::analyse() {
  IngestOutcome outcome;
  outcome.capturePath = m_request.capturePath;
  outcome.dbPath = m_request.dbPath;
  const std::string capture = m_request.capturePath.toStdString();
  const std::string db = m_request.dbPath.toStdString();
  if (!QFileInfo(m_request.capturePath).isFile())
    throw rudp::CaptureError("cannot open '" + capture + "': no such file");

  post([this] { emit progressed(IngestProgress{}); });  // phase Checking
  if (m_request.allowReuse && databaseMatchesCapture(capture, db, m_request.prefs)) {
    outcome.reused = true;
    return outcome;
  }
  if (m_cancel.load()) throw rudp::Cancelled();

  QElapsedTimer clock;
  clock.start();
  qint64 lastReport = -kProgressIntervalMs;
  ProgressRate rate;
  rudp::ProgressSink sink;
  sink.cancel = &m_cancel;
  sink.report = [&](const rudp::Progress& p) {
    const qint64 now = clock.elapsed();
    if (now - lastReport < kProgressIntervalMs && p.done < p.total) return;
    lastReport = now;
    const IngestProgress progress = rate.update(p, double(now) / 1000.0);
    post([this, progress] { emit progressed(progress); });
  };
  rudp::IngestOptions options = m_request.prefs.ingestOptions();
  options.keep_damaged = m_request.keepDamaged;
  const rudp::IngestResult result =
      rudp::ingestCapture(capture, db, m_request.prefs.dissectorOptions(), options, sink);
  outcome.closedEarly = result.closed_early;
  return outcome;
}

}  // namespace rudp::gui
