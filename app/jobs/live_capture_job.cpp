#include "jobs/live_capture_job.h"

#include <exception>

#include "session/ingest.h"
#include "session/live_view.h"
#include "store/db_path.h"

namespace rudp::gui {

LiveCaptureJob::LiveCaptureJob(LiveCaptureRequest request, QObject* parent)
    : QObject(parent), m_request(std::move(request)), m_view(std::make_shared<rudp::LiveView>()) {
  m_request.options.stop = &m_stop;
  // A ring's files each get their database beside them (ingestLive).
  if (m_request.dbPath.isEmpty() && m_request.options.ring_files == 0)
    m_request.dbPath = QString::fromStdString(rudp::defaultDatabasePath(m_request.options.output));
}

LiveCaptureJob::~LiveCaptureJob() { stop(); }

void LiveCaptureJob::start() {
  m_worker.start(QStringLiteral("rudp-live-capture"), [this] { work(); });
}

void LiveCaptureJob::stop() { m_stop.store(true); }

void LiveCaptureJob::work() {
  bool captured = false;
  try {
    rudp::LiveCapture capture(m_request.options);
    captured = true;
    post([this] { emit capturing(); });
    const rudp::IngestResult r =
        rudp::ingestLive(capture, m_request.dbPath.toStdString(), m_request.prefs.dissectorOptions(),
                         m_request.prefs.ingestOptions(), {}, m_view.get());
    // The file written last (a ring's newest), with its database.
    const QString file = QString::fromStdString(r.capture.path), db = QString::fromStdString(r.db_path);
    post([this, file, db] { emit finished(file, db); });
  } catch (const std::exception& e) {
    const QString message = QString::fromStdString(e.what());
    post([this, message, captured] { emit failed(message, captured); });
  }
}

}  // namespace rudp::gui
