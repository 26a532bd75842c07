#include "jobs/filter_job.h"

#include <exception>

#include "core/error.h"
#include "packets/frame_filter_scan.h"
#include "store/store_reader.h"

namespace rudp::gui {

FilterJob::FilterJob(quint64 id, FilterRequest request, QObject* parent)
    : QObject(parent), m_id(id), m_request(std::move(request)) {
  qRegisterMetaType<std::vector<uint64_t>>();
}

FilterJob::~FilterJob() { cancel(); }

void FilterJob::start() {
  m_worker.start(QStringLiteral("rudp-filter"), [this] { work(); });
}

void FilterJob::cancel() { m_cancel.store(true, std::memory_order_relaxed); }

void FilterJob::work() {
  const std::string filter = m_request.filter.toStdString(), capture = m_request.capture.toStdString();
  ProgressSink progress;
  progress.cancel = &m_cancel;
  try {
    if (const auto& condition = m_request.stored_condition) {
      post([this] { emit started(m_id, true); });
      StoreReader reader(m_request.db.toStdString());
      std::vector<uint64_t> frames = reader.framesWhere(*condition, &m_cancel);
      const quint64 total = reader.capture().packet_count;
      post([this, frames = std::move(frames), total] {
        emit passed(m_id, frames);
        emit finished(m_id, total);
      });
      return;
    }
    post([this] { emit started(m_id, false); });
    uint64_t read = 0;
    scanFramesPassing(
        capture, m_request.dissectors, filter,
        [&](FrameScanStep&& step) {
          read = step.frames_read;
          const double fraction = step.total_bytes ? double(step.bytes_read) / double(step.total_bytes) : -1;
          post([this, frames = std::move(step.passed), fraction, read] {
            emit passed(m_id, frames);
            emit progressed(m_id, fraction, read);
          });
        },
        progress);
    post([this, read] { emit finished(m_id, read); });
  } catch (const Cancelled&) {
    post([this] { emit cancelled(m_id); });
  } catch (const std::exception& e) {
    const QString message = QString::fromStdString(e.what());
    post([this, message] { emit failed(m_id, message); });
  }
}

}  // namespace rudp::gui
