#include "widgets/timeline_render_cache.h"

#include <QtConcurrent/QtConcurrentRun>

#include "widgets/timeline_renderer.h"

namespace rudp::gui {

TimelineRenderCache::TimelineRenderCache(QObject* parent) : QObject(parent) {
  connect(&m_watcher, &QFutureWatcher<Frame>::finished, this, &TimelineRenderCache::finished);
}

// A running job owns copies of everything it reads; it finishes on its own.
TimelineRenderCache::~TimelineRenderCache() = default;

TimelineRenderCache::Frame TimelineRenderCache::render(const Job& job) {
  return Frame{TimelineRenderer::render(job.scene, job.size, job.dpr), job.scene.t0, job.scene.t1,
               job.revision};
}

const TimelineRenderCache::Frame* TimelineRenderCache::request(const TimelineScene& scene, QSize size,
                                                               qreal dpr, uint64_t revision) {
  const bool shown = m_frame && m_frame->revision == revision;
  const bool coming = m_running && m_runningRevision == revision;
  if (!shown && !coming) {
    Job job{scene, size, dpr, revision};
    if (m_running)
      m_next = std::move(job);
    else
      start(std::move(job));
  }
  return latest();
}

void TimelineRenderCache::renderNow(const TimelineScene& scene, QSize size, qreal dpr, uint64_t revision) {
  m_frame = render(Job{scene, size, dpr, revision});
  if (m_next && m_next->revision <= revision) m_next.reset();
}

void TimelineRenderCache::start(Job job) {
  m_running = true;
  m_runningRevision = job.revision;
  m_watcher.setFuture(QtConcurrent::run([job = std::move(job)] { return render(job); }));
}

void TimelineRenderCache::finished() {
  m_running = false;
  Frame done = m_watcher.result();
  // A synchronous render may have overtaken this one.
  if (!m_frame || done.revision > m_frame->revision) {
    m_frame = std::move(done);
    emit updated();
  }
  if (m_next) {
    Job job = std::move(*m_next);
    m_next.reset();
    if (!m_frame || job.revision > m_frame->revision) start(std::move(job));
  }
}

}  // namespace rudp::gui
